import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Student, StudentCreateBody, StudentListResponse, StudentProgress, StudentProgressResponse, StudentUpdateBody } from '@contract/students';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { refetchUnlessJustFetched } from '@web/lib/query-client';

export const STUDENTS_KEY = ['students'] as const;
export const studentsKey = (courseId: number | null) => [...STUDENTS_KEY, { courseId }] as const;

/** GET /api/students?language=…&course_id=… → the teacher's students by name. */
export async function fetchStudents(courseId: number | null, signal?: AbortSignal): Promise<Student[]> {
  const res = await api<StudentListResponse>('/api/students', { query: { language: currentLanguage(), course_id: courseId }, signal });
  return res.data;
}

export const studentsQueryOptions = (courseId: number | null) =>
  queryOptions({ queryKey: studentsKey(courseId), queryFn: ({ signal }) => fetchStudents(courseId, signal) });

/** The list for the selected course (null = all); reloads when the course changes, keeping the old cards meanwhile. */
export function useStudents(courseId: number | null) {
  return useQuery({ ...studentsQueryOptions(courseId), placeholderData: keepPreviousData });
}

export function createStudent(body: StudentCreateBody): Promise<Student> {
  return api<Student>('/api/students', { method: 'POST', body });
}

export function updateStudent(id: number, body: StudentUpdateBody): Promise<Student> {
  return api<Student>(`/api/students/${id}`, { method: 'PUT', body });
}

export function deleteStudent(id: number): Promise<void> {
  return api<void>(`/api/students/${id}`, { method: 'DELETE' });
}

export type StudentSave = { id: number; body: StudentUpdateBody } | { id?: undefined; body: StudentCreateBody };

/**
 * Create, edit, delete. A student appears in course counts, dashboards, calendars and the
 * assignment dialog, so every active query is refreshed afterwards.
 */
export function useStudentMutations() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries();
  const save = useMutation({
    mutationFn: (v: StudentSave) => (v.id !== undefined ? updateStudent(v.id, v.body) : createStudent(v.body)),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteStudent(id), onSuccess: refresh });
  return { save, remove };
}

export const studentsProgressKey = (courseId: number | null) => ['students-progress', { courseId }] as const;

/** GET /api/students/progress?course_id=…: last practice, minutes this week, open and overdue tasks per student. */
export async function fetchStudentsProgress(courseId: number | null, signal?: AbortSignal): Promise<StudentProgress[]> {
  const res = await api<StudentProgressResponse>('/api/students/progress', { query: { language: currentLanguage(), course_id: courseId }, signal });
  return res.data;
}

export const studentsProgressQueryOptions = (courseId: number | null) =>
  queryOptions({
    queryKey: studentsProgressKey(courseId),
    queryFn: ({ signal }) => fetchStudentsProgress(courseId, signal),
    staleTime: 0,
    refetchOnMount: refetchUnlessJustFetched,
  });

/** The progress figures of the list (one call for all students); re-read whenever the list is shown. */
export function useStudentsProgress(courseId: number | null) {
  return useQuery({ ...studentsProgressQueryOptions(courseId), placeholderData: keepPreviousData });
}
