import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TriangleAlert } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';

/** Shown when a screen throws or its chunk cannot be loaded (e.g. after a deployment). */
export default function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="mx-auto max-w-xl p-6 pt-16">
      <EmptyState
        icon={TriangleAlert}
        title={t('routeError.title')}
        text={t('routeError.text')}
        action={<Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>}
      />
    </div>
  );
}
