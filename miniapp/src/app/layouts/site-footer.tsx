import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSiteConfig } from '@/config/site-config';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import styles from './site-footer.module.css';

export function SiteFooter() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { common } = useSiteConfig();
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <nav aria-label={t('footer.label')}>
          <ul className={styles.links}>
            {common.footer.map((item) => (
              <li key={item.to}>
                <Link to={localizePath(item.to, locale)} className={styles.link}>
                  {t(`menu.${item.label}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.legal}>
          <span className={styles.age} aria-label={t('footer.ageLabel')}>
            18+
          </span>
          <p className={styles.text}>{t('footer.responsible')}</p>
        </div>
        <p className={styles.copyright}>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
