import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { useSiteConfig } from '@/config/site-config';
import styles from './page-loader.module.css';

/** A page on its way: the content's loader image and text (SPEC §3 site config), else a spinner. */
export function PageLoader() {
  const { t } = useTranslation();
  const { loader } = useSiteConfig();
  const label = loader.text ?? t('app.loading');
  return (
    <div className={styles.loader}>
      {loader.image ? (
        <div role="status" aria-label={label} className={styles.content}>
          <img src={loader.image} alt="" className={styles.image} />
          {loader.text && <p className={styles.text}>{loader.text}</p>}
        </div>
      ) : (
        <Spinner label={label} />
      )}
    </div>
  );
}
