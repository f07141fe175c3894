import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeedbackDigestSettings, NotificationSettings, PushInfo, UnsubscribeInfo, WeeklyNoteSettings } from '@contract/notifications';
import { api } from '@web/lib/api';
import { deviceEndpoint, subscribeDevice, unsubscribeDevice } from '../lib/push-device';

const settingsKey = ['notification-settings'] as const;

/** GET /api/notification-settings (student): the daily reminder's time, where it goes, the quiet hours. */
export function useNotificationSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => api<NotificationSettings>('/api/notification-settings', { signal }) });
}

/** PUT /api/notification-settings: a time 'HH:MM' or null (off). */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reminderTime: string | null) => api<NotificationSettings>('/api/notification-settings', { method: 'PUT', body: { reminder_time: reminderTime } }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKey, saved),
  });
}

/** GET /api/unsubscribe/{token} (public): what the link of a mail stops. */
export function useUnsubscribeInfo(token: string) {
  return useQuery({
    queryKey: ['unsubscribe', token] as const,
    queryFn: ({ signal }) => api<UnsubscribeInfo>(`/api/unsubscribe/${encodeURIComponent(token)}`, { signal }),
    retry: false,
    staleTime: Infinity,
  });
}

/** POST /api/unsubscribe/{token} (public): stops the mails. */
export function unsubscribe(token: string): Promise<UnsubscribeInfo> {
  return api<UnsubscribeInfo>(`/api/unsubscribe/${encodeURIComponent(token)}`, { method: 'POST' });
}

const weeklyKey = ['weekly-note'] as const;

/** GET /api/guardian/weekly-note (parent): the weekly note on or off, where and when it comes. */
export function useWeeklyNoteSettings() {
  return useQuery({ queryKey: weeklyKey, queryFn: ({ signal }) => api<WeeklyNoteSettings>('/api/guardian/weekly-note', { signal }) });
}

/** PUT /api/guardian/weekly-note. */
export function useSaveWeeklyNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api<WeeklyNoteSettings>('/api/guardian/weekly-note', { method: 'PUT', body: { weekly_note: enabled } }),
    onSuccess: (saved) => queryClient.setQueryData(weeklyKey, saved),
  });
}

const digestKey = ['feedback-digest'] as const;

/** GET /api/notification-settings/digest (students and parents): the daily feedback digest. */
export function useFeedbackDigestSettings() {
  return useQuery({ queryKey: digestKey, queryFn: ({ signal }) => api<FeedbackDigestSettings>('/api/notification-settings/digest', { signal }) });
}

/** PUT /api/notification-settings/digest. */
export function useSaveFeedbackDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api<FeedbackDigestSettings>('/api/notification-settings/digest', { method: 'PUT', body: { feedback_digest: enabled } }),
    onSuccess: (saved) => queryClient.setQueryData(digestKey, saved),
  });
}

const pushKey = ['push'] as const;
const deviceKey = ['push', 'device'] as const;

/** GET /api/push: the server's VAPID key and how many of the user's devices receive notifications. */
export function usePushInfo() {
  return useQuery({ queryKey: pushKey, queryFn: ({ signal }) => api<PushInfo>('/api/push', { signal }) });
}

/** This browser's subscription endpoint (null: not subscribed, or cannot be). */
export function useDeviceEndpoint() {
  return useQuery({ queryKey: deviceKey, queryFn: () => deviceEndpoint(), staleTime: Infinity });
}

/** Subscribes this device (permission, the browser's push service) and tells the server (PUT /api/push/subscription). */
export function useSubscribeDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (publicKey: string) => {
      const sub = await subscribeDevice(publicKey);
      const info = await api<PushInfo>('/api/push/subscription', { method: 'PUT', body: sub });
      return { info, endpoint: sub.endpoint ?? null };
    },
    onSuccess: ({ info, endpoint }) => {
      queryClient.setQueryData(pushKey, info);
      queryClient.setQueryData(deviceKey, endpoint);
    },
  });
}

/** Unsubscribes this device and tells the server (DELETE /api/push/subscription). */
export function useUnsubscribeDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const endpoint = await unsubscribeDevice();
      return endpoint ? api<PushInfo>('/api/push/subscription', { method: 'DELETE', body: { endpoint } }) : null;
    },
    onSuccess: (info) => {
      if (info) queryClient.setQueryData(pushKey, info);
      queryClient.setQueryData(deviceKey, null);
    },
  });
}
