import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { menuItemText, useSiteConfig } from '@/config/site-config';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import styles from './site-footer.module.css';

/** SPEC §3 common data: the footer's link columns, legal text and copyright from the content. */
export function SiteFooter() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { common } = useSiteConfig();
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <nav aria-label={t('footer.label')} className={styles.columns}>
          {common.footer.map((column, index) => (
            <div key={column.title ?? index} className={styles.column}>
              {column.title && <h2 className={styles.columnTitle}>{column.title}</h2>}
              <ul className={styles.links}>
                {column.links.map((item) => (
                  <li key={item.to}>
                    <Link to={localizePath(item.to, locale)} className={styles.link}>
                      {menuItemText(item, t)}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <div className={styles.legal}>
          <span className={styles.age} aria-label={t('footer.ageLabel')}>
            18+
          </span>
          <p className={styles.text}>{common.footerText ?? t('footer.responsible')}</p>
        </div>
        <p className={styles.copyright}>{common.copyright ?? t('footer.copyright', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
