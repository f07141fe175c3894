import '@web/features/school/i18n';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageRetentionSchema } from '@contract/messages';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { SCHOOL_KEY } from './school';

export type MessageRetention = z.infer<typeof messageRetentionSchema>;

const retentionKey = [...SCHOOL_KEY, 'message-retention'] as const;

/** GET /api/school/message-retention (administrator): how many days messages are kept. */
export function useMessageRetention() {
  return useQuery({
    queryKey: retentionKey,
    queryFn: ({ signal }) => api<MessageRetention>('/api/school/message-retention', { query: { language: currentLanguage() }, signal }),
  });
}

/** PUT /api/school/message-retention: MESSAGE_LIMITS.retentionDays.min to .max days. */
export function useSaveMessageRetention() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (days: number) =>
      api<MessageRetention>('/api/school/message-retention', { method: 'PUT', body: { retention_days: days }, query: { language: currentLanguage() } }),
    onSuccess: (saved) => qc.setQueryData(retentionKey, saved),
  });
}
