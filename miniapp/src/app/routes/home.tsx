import { useTranslation } from 'react-i18next';
import { GeneralInfoPanel } from '@/features/metadata/components/general-info-panel';
import styles from './home.module.css';

export function HomePage() {
  const { t } = useTranslation();

  return (
    <div className={styles.page}>
      <section className={styles.hero}>
        <h1 className={styles.title}>{t('home.title')}</h1>
        <p className={styles.subtitle}>{t('home.subtitle')}</p>
      </section>
      <GeneralInfoPanel />
    </div>
  );
}
