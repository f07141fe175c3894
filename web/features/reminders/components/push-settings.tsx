import '@web/features/reminders/i18n';
import { useTranslation } from 'react-i18next';
import { BellRing, BellOff } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useDeviceEndpoint, usePushInfo, useSubscribeDevice, useUnsubscribeDevice } from '../api/reminders';
import { PushPermissionError, pushSupport } from '../lib/push-device';
import { SettingsLoadError, SettingsLoading } from './mail-toggle-card';

/**
 * Notifications on this device (docs/decisions/web-push.md): the reminder and the digest come as a
 * push notification instead of an e-mail. A browser without push, an iPhone without the app on the
 * home screen, or blocked notifications: the card says that everything comes by e-mail.
 */
export function PushSettings({ audience }: { audience: 'student' | 'guardian' }) {
  const { t } = useTranslation('reminders');
  const toast = useToast();
  const info = usePushInfo();
  const device = useDeviceEndpoint();
  const subscribe = useSubscribeDevice();
  const unsubscribe = useUnsubscribeDevice();
  // the parent's texts where they differ (Sie), else the student's
  const text = (key: string, o?: Record<string, unknown>) => (audience === 'guardian' ? t([`pushParent.${key}`, `push.${key}`], o) : t(`push.${key}`, o));
  const support = pushSupport();

  if (info.isPending || device.isPending) return <SettingsLoading />;
  if (info.isError || !info.data) return <SettingsLoadError text={text('loadError')} retrying={info.isFetching} onRetry={() => void info.refetch()} />;

  const here = device.data !== null && device.data !== undefined;
  const others = Math.max(0, info.data.devices - (here ? 1 : 0));
  const blocked = support === 'unsupported' ? text('unsupported') : support === 'ios-not-installed' ? text('ios') : support === 'denied' ? text('denied') : null;

  function turnOn() {
    subscribe.mutate(info.data!.public_key, {
      onSuccess: () => toast.success(text('enabled')),
      onError: (err) => toast.error(err instanceof PushPermissionError ? text('denied') : isApiError(err) && err.message ? err.message : text('failed')),
    });
  }
  function turnOff() {
    unsubscribe.mutate(undefined, {
      onSuccess: () => toast.success(text('disabled')),
      onError: () => toast.error(text('failed')),
    });
  }

  return (
    <Card data-testid="push-settings">
      <CardHeader
        title={text('title')}
        description={
          <span className="mt-1.5 flex flex-wrap gap-2">
            <span
              data-testid="push-status"
              className={`inline-flex items-center rounded-full px-2.5 py-1 text-xs font-medium ${here ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
            >
              {here ? text('statusOn') : text('statusOff')}
            </span>
            {others > 0 && (
              <span data-testid="push-other-devices" className="inline-flex items-center rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700">
                {text('otherDevices', { count: others })}
              </span>
            )}
          </span>
        }
      />
      <CardBody className="space-y-5">
        <p className="flex gap-2.5 text-sm text-slate-600">
          <BellRing aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
          <span className="min-w-0 wrap-anywhere">{text('intro')}</span>
        </p>
        {blocked && !here ? (
          <p role="note" data-testid="push-unavailable" className="flex gap-2.5 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
            <BellOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>{blocked}</span>
          </p>
        ) : here ? (
          <Button variant="secondary" loading={unsubscribe.isPending} onClick={turnOff}>
            {text('disable')}
          </Button>
        ) : (
          <Button loading={subscribe.isPending} onClick={turnOn}>
            {text('enable')}
          </Button>
        )}
      </CardBody>
    </Card>
  );
}
