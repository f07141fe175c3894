import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SchoolStudent, SchoolStudentListResponse, StudentErased, StudentEraseBody, StudentMoveBody } from '@contract/school';
import { ApiError, api, buildUrl } from '@web/lib/api';
import i18n, { currentLanguage } from '@web/lib/i18n';
import { getToken } from '@web/lib/storage';
import { SCHOOL_KEY } from './school';

export type SchoolStudentFilter = { q: string; teacherId: number | null };

export const schoolStudentsKey = (f: SchoolStudentFilter) => [...SCHOOL_KEY, 'students', { q: f.q, teacherId: f.teacherId }] as const;

/** GET /api/school/students?q=…&teacher_id=…: the school's students by name. */
export async function fetchSchoolStudents(f: SchoolStudentFilter, signal?: AbortSignal): Promise<SchoolStudent[]> {
  const res = await api<SchoolStudentListResponse>('/api/school/students', {
    query: { language: currentLanguage(), q: f.q.trim() || undefined, teacher_id: f.teacherId },
    signal,
  });
  return res.data;
}

export const schoolStudentsQueryOptions = (f: SchoolStudentFilter) =>
  queryOptions({ queryKey: schoolStudentsKey(f), queryFn: ({ signal }) => fetchSchoolStudents(f, signal) });

/** The list for a search and teacher filter; keeps the previous rows while the next answer comes. */
export function useSchoolStudents(f: SchoolStudentFilter) {
  return useQuery({ ...schoolStudentsQueryOptions(f), placeholderData: keepPreviousData });
}

/** POST /api/school/students/{id}/move: the student and their whole history go to another active teacher. */
export function moveStudent(id: number, body: StudentMoveBody): Promise<unknown> {
  return api(`/api/school/students/${id}/move`, { method: 'POST', body });
}

/** POST /api/school/students/{id}/erase: everything about the student, for good. */
export function eraseStudent(id: number, body: StudentEraseBody): Promise<StudentErased> {
  return api<StudentErased>(`/api/school/students/${id}/erase`, { method: 'POST', body });
}

/** Move and erase change every list (teachers' counts, guardians, the dashboard): all queries reload. */
export function useSchoolStudentMutations() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries();
  const move = useMutation({ mutationFn: ({ id, teacherId }: { id: number; teacherId: number }) => moveStudent(id, { teacher_id: teacherId }), onSuccess: refresh });
  const erase = useMutation({ mutationFn: ({ id, confirmName }: { id: number; confirmName: string }) => eraseStudent(id, { confirm_name: confirmName }), onSuccess: refresh });
  return { move, erase };
}

/** The file name of a Content-Disposition header: the UTF-8 one (filename*) first, else the plain one. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // a broken encoding: the plain name below
    }
  }
  return /filename="([^"]+)"/.exec(header)?.[1] ?? null;
}

/** Progress of a download: bytes received and, when the server said, the total. */
export type DownloadProgress = { loaded: number; total: number | null };

/**
 * GET /api/school/students/{id}/export: the student's data (JSON and recordings) as a zip. It needs
 * the Bearer header, so no plain link: fetched as a blob (with progress while it streams) and handed
 * to the browser through an object URL. Returns the file name.
 */
export async function downloadStudentExport(id: number, onProgress?: (p: DownloadProgress) => void, signal?: AbortSignal): Promise<string> {
  const headers: Record<string, string> = { Accept: 'application/zip, application/json', 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(buildUrl(`/api/school/students/${id}/export`, { language: currentLanguage() }), { headers, signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, i18n.t('common:errors.network'));
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(res.status, body?.message ?? `HTTP ${res.status}`, undefined, body);
  }
  const length = Number(res.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  let blob: Blob;
  if (res.body && onProgress) {
    const reader = res.body.getReader();
    const parts: Uint8Array<ArrayBuffer>[] = [];
    let loaded = 0;
    onProgress({ loaded, total });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value as Uint8Array<ArrayBuffer>);
      loaded += value.byteLength;
      onProgress({ loaded, total });
    }
    blob = new Blob(parts, { type: res.headers.get('content-type') ?? 'application/zip' });
  } else {
    blob = await res.blob();
  }
  const filename = fileNameOf(res.headers.get('content-disposition')) ?? `schueler-${id}.zip`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return filename;
}
