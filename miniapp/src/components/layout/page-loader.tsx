import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import styles from './page-loader.module.css';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className={styles.loader}>
      <Spinner label={t('app.loading')} />
    </div>
  );
}
