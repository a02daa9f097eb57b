import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { LanguageSwitch } from './language-switch';
import styles from './site-header.module.css';

export function SiteHeader() {
  const { t } = useTranslation();
  const locale = useLocale();

  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to={localizePath(paths.home, locale)} className={styles.brand}>
          <span className={styles.logo} aria-hidden="true">
            ♠
          </span>
          <span className={styles.brandText}>
            <span className={styles.name}>{t('app.name')}</span>
            <span className={styles.tagline}>{t('app.tagline')}</span>
          </span>
        </Link>
        <LanguageSwitch />
      </div>
    </header>
  );
}
