import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LOCALES } from '@/config/locales';
import { useLocale } from '@/lib/i18n';
import { switchLocalePath } from '@/lib/i18n/locale-path';
import styles from './language-switch.module.css';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const current = useLocale();
  const { pathname, search, hash } = useLocation();

  return (
    <nav aria-label={t('languageSwitch.label')} className={styles.switch}>
      {LOCALES.map((locale) =>
        locale === current ? (
          <span key={locale} lang={locale} aria-current="true" className={styles.current}>
            {t(`languageSwitch.names.${locale}`)}
          </span>
        ) : (
          <Link
            key={locale}
            to={switchLocalePath(`${pathname}${search}${hash}`, locale)}
            lang={locale}
            hrefLang={locale}
            className={styles.option}
          >
            {t(`languageSwitch.names.${locale}`)}
          </Link>
        ),
      )}
    </nav>
  );
}
