import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarSubscription } from '@contract/reports';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

export const CALENDAR_SUBSCRIPTION_KEY = ['calendar-subscription'] as const;
const keyFor = (language: string) => [...CALENDAR_SUBSCRIPTION_KEY, language] as const;

/** GET /api/calendar-subscription: the caller's private calendar address (made on first ask). */
export function fetchCalendarSubscription(signal?: AbortSignal): Promise<CalendarSubscription> {
  return api<CalendarSubscription>('/api/calendar-subscription', { query: { language: currentLanguage() }, signal });
}

/** POST /api/calendar-subscription/renew: a new address; the old one stops at once. */
export function renewCalendarSubscription(): Promise<CalendarSubscription> {
  return api<CalendarSubscription>('/api/calendar-subscription/renew', { method: 'POST', query: { language: currentLanguage() } });
}

/** The address, loaded only once it is asked for (`enabled`). */
export function useCalendarSubscription(enabled: boolean) {
  return useQuery({ queryKey: keyFor(currentLanguage()), queryFn: ({ signal }) => fetchCalendarSubscription(signal), enabled, staleTime: 60_000 });
}

export function useRenewCalendarSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: renewCalendarSubscription,
    onSuccess: (data) => {
      // the address of the other language is gone too: read again when next shown
      void qc.invalidateQueries({ queryKey: CALENDAR_SUBSCRIPTION_KEY, refetchType: 'none' });
      qc.setQueryData(keyFor(currentLanguage()), data);
    },
  });
}
