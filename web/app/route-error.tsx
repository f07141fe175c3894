import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TriangleAlert, WifiOff } from 'lucide-react';
import { isApiError } from '@web/lib/api';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';

/** Shown when a screen throws or its chunk cannot be loaded (e.g. after a deployment). */
export default function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  // No answer at all (e.g. loading the signed-in user): the session is kept, a reload retries.
  const offline = isApiError(error, 0);
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="mx-auto max-w-xl p-6 pt-16">
      <EmptyState
        icon={offline ? WifiOff : TriangleAlert}
        title={t('routeError.title')}
        text={offline ? t('errors.network') : t('routeError.text')}
        action={<Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>}
      />
    </div>
  );
}
