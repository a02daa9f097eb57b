import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { SystemPage } from '@/components/layout/system-page';
import { Button } from '@/components/ui/button';

/** Shown when loading or rendering a route fails unexpectedly. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <SystemPage
      icon="♦"
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
  );
}
