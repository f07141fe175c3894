import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditLogResponse } from '@contract/school';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { SCHOOL_KEY } from './school';

export const auditLogKey = [...SCHOOL_KEY, 'audit-log'] as const;

/** GET /api/school/audit-log?before=…: newest first, one page of AUDIT_PAGE_SIZE entries. */
export function fetchAuditLog(before: number | null, signal?: AbortSignal): Promise<AuditLogResponse> {
  return api<AuditLogResponse>('/api/school/audit-log', { query: { language: currentLanguage(), before }, signal });
}

export const auditLogQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: auditLogKey,
    queryFn: ({ pageParam, signal }) => fetchAuditLog(pageParam, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before,
  });

/** The audit log, page by page ('Mehr laden'). Always read fresh when shown. */
export function useAuditLog() {
  return useInfiniteQuery({ ...auditLogQueryOptions(), staleTime: 0 });
}
