import { useTranslation } from 'react-i18next';
import { SystemPage } from '@/components/layout/system-page';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <SystemPage
      icon="♣"
      header={t('systemPages.notFound.header')}
      description={t('systemPages.notFound.description')}
    />
  );
}
