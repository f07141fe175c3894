import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteCreated, InviteListResponse, SchoolTeacher, SchoolTeacherListResponse, TeacherInviteBody } from '@contract/school';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { SCHOOL_KEY } from './school';

export const schoolTeachersKey = [...SCHOOL_KEY, 'teachers'] as const;
export const schoolInvitesKey = [...SCHOOL_KEY, 'invites'] as const;

/** GET /api/school/teachers: every teacher of the school by name, deactivated ones included. */
export async function fetchSchoolTeachers(signal?: AbortSignal): Promise<SchoolTeacher[]> {
  const res = await api<SchoolTeacherListResponse>('/api/school/teachers', { query: { language: currentLanguage() }, signal });
  return res.data;
}

export const schoolTeachersQueryOptions = () => queryOptions({ queryKey: schoolTeachersKey, queryFn: ({ signal }) => fetchSchoolTeachers(signal) });

export function useSchoolTeachers() {
  return useQuery(schoolTeachersQueryOptions());
}

/** GET /api/school/invites: the school's invitations, newest first. */
export async function fetchInvites(signal?: AbortSignal) {
  const res = await api<InviteListResponse>('/api/school/invites', { query: { language: currentLanguage() }, signal });
  return res.data;
}

export const invitesQueryOptions = () => queryOptions({ queryKey: schoolInvitesKey, queryFn: ({ signal }) => fetchInvites(signal) });

export function useInvites() {
  return useQuery(invitesQueryOptions());
}

/** POST /api/school/invites: invites a teacher; the answer carries the one-time link. */
export function inviteTeacher(body: TeacherInviteBody): Promise<InviteCreated> {
  return api<InviteCreated>('/api/school/invites', { method: 'POST', body });
}

/** DELETE /api/school/invites/{id}: revokes an open invitation; its link stops working. */
export function revokeInvite(id: number): Promise<unknown> {
  return api(`/api/school/invites/${id}`, { method: 'DELETE' });
}

/** POST /api/school/teachers/{id}/deactivate | reactivate: a deactivated teacher cannot sign in; their students and data stay. */
export function setTeacherActive(id: number, active: boolean): Promise<SchoolTeacher> {
  return api<SchoolTeacher>(`/api/school/teachers/${id}/${active ? 'reactivate' : 'deactivate'}`, { method: 'POST' });
}

/** Invite, revoke, deactivate, reactivate: each refreshes the school's lists and figures. */
export function useTeacherMutations() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: SCHOOL_KEY });
  const invite = useMutation({ mutationFn: inviteTeacher, onSuccess: refresh });
  const revoke = useMutation({ mutationFn: revokeInvite, onSuccess: refresh });
  const setActive = useMutation({ mutationFn: ({ id, active }: { id: number; active: boolean }) => setTeacherActive(id, active), onSuccess: refresh });
  return { invite, revoke, setActive };
}
