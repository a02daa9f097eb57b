import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { SystemPage } from '@/components/layout/system-page';
import { Button } from '@/components/ui/button';
import { errorPageFor } from '@/lib/api/error-pages';
import { ErrorPageView, SystemPageFrame } from './error-page-view';

/** A route that failed to load or render: SPEC §4's error page, or the generic one for a bug. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const page = errorPageFor(error);

  useEffect(() => {
    if (!page) console.error(error);
  }, [error, page]);

  if (page) return <ErrorPageView page={page} />;

  return (
    <SystemPageFrame layout="default">
      <SystemPage
        icon="info"
        header={t('systemPages.error.header')}
        description={t('systemPages.error.description')}
        action={
          <Button
            onClick={() => {
              window.location.reload();
            }}
          >
            {t('systemPages.error.button')}
          </Button>
        }
      />
    </SystemPageFrame>
  );
}
