import '@web/features/guardians/i18n';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GuardianAddBody,
  GuardianAddResponse,
  GuardianChildDetail,
  StudentGuardiansResponse,
} from '@contract/guardians';
import { api } from '@web/lib/api';
import { guardianKeys } from './children';

export * from './children';

/*
 * Parents' read-only access (docs/decisions/schools-and-roles.md, contract/guardians.ts). Every key starts with ['guardians'];
 * a link or a removal refreshes them all, and the school's lists (['school', …]: their guardian counts).
 * The server answers in the interface language through the Accept-Language header of web/lib/api.ts.
 */

/** GET /api/students/{id}/guardians (the student's teacher, the administrator): guardians and open invitations. */
export function fetchStudentGuardians(studentId: number, signal?: AbortSignal): Promise<StudentGuardiansResponse> {
  return api<StudentGuardiansResponse>(`/api/students/${studentId}/guardians`, { signal });
}

export const studentGuardiansQueryOptions = (studentId: number) =>
  queryOptions({ queryKey: guardianKeys.ofStudent(studentId), queryFn: ({ signal }) => fetchStudentGuardians(studentId, signal), staleTime: 0 });

export function useStudentGuardians(studentId: number) {
  return useQuery(studentGuardiansQueryOptions(studentId));
}

/** POST /api/students/{id}/guardians: links an existing guardian account, or makes an invitation link. */
export function addGuardian(studentId: number, body: GuardianAddBody): Promise<GuardianAddResponse> {
  return api<GuardianAddResponse>(`/api/students/${studentId}/guardians`, { method: 'POST', body });
}

/** DELETE /api/students/{id}/guardians/{guardianId}: the parent loses access to this child at once. */
export function removeGuardian(studentId: number, guardianId: number): Promise<void> {
  return api<void>(`/api/students/${studentId}/guardians/${guardianId}`, { method: 'DELETE' });
}

/** Add and remove; afterwards the guardians' lists and the school's lists load again. */
export function useGuardianMutations(studentId: number) {
  const qc = useQueryClient();
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: guardianKeys.all }), qc.invalidateQueries({ queryKey: ['school'] })]).then(() => undefined);
  const add = useMutation({ mutationFn: (body: GuardianAddBody) => addGuardian(studentId, body), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (guardianId: number) => removeGuardian(studentId, guardianId), onSuccess: refresh });
  return { add, remove };
}

/** GET /api/guardian/children/{id}: one child's figures, tasks with feedback and recordings with comments; 404 when not (or no longer) linked. */
export function fetchGuardianChild(id: number, signal?: AbortSignal): Promise<GuardianChildDetail> {
  return api<GuardianChildDetail>(`/api/guardian/children/${id}`, { signal });
}

export const guardianChildQueryOptions = (id: number) =>
  queryOptions({ queryKey: guardianKeys.child(id), queryFn: ({ signal }) => fetchGuardianChild(id, signal), staleTime: 0 });

export function useGuardianChild(id: number) {
  return useQuery(guardianChildQueryOptions(id));
}
