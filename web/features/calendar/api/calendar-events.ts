import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarEvent } from '@contract/calendar';
import { api, isApiError } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

export const CALENDAR_EVENTS_KEY = ['calendar-events'] as const;

/** The visible range of the calendar: start inclusive, end exclusive, both YYYY-MM-DD. */
export type CalendarRange = { start: string; end: string };

export const calendarEventsKey = (range: CalendarRange | null, courseId: number | null) =>
  [...CALENDAR_EVENTS_KEY, { start: range?.start ?? null, end: range?.end ?? null, courseId }] as const;

/**
 * GET /api/calendar-events for the visible range. A 401 or 403 gives an empty list silently
 * (SPEC.md section 8); other failures are thrown so the calendar can say so.
 */
export async function fetchCalendarEvents(range: CalendarRange, courseId: number | null, signal?: AbortSignal): Promise<CalendarEvent[]> {
  try {
    return await api<CalendarEvent[]>('/api/calendar-events', {
      query: { start: range.start, end: range.end, course_id: courseId, language: currentLanguage() },
      signal,
    });
  } catch (err) {
    if (isApiError(err, 401) || isApiError(err, 403)) return [];
    throw err;
  }
}

export const calendarEventsQueryOptions = (range: CalendarRange | null, courseId: number | null) =>
  queryOptions({
    queryKey: calendarEventsKey(range, courseId),
    queryFn: ({ signal }) => fetchCalendarEvents(range!, courseId, signal),
    enabled: range !== null,
  });

/** Events of the visible range; while another month loads the previous entries stay (no flicker). */
export function useCalendarEvents(range: CalendarRange | null, courseId: number | null, enabled = true) {
  return useQuery({ ...calendarEventsQueryOptions(range, courseId), enabled: enabled && range !== null, placeholderData: keepPreviousData });
}
