import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LOCALES } from '@/config/locales';
import { useLocale } from '@/lib/i18n';
import { switchLocalePath } from '@/lib/i18n/locale-path';
import styles from './language-switch.module.css';

/** The language's name; narrow screens show its code instead (the name stays the accessible one). */
function Label({ locale, name }: { locale: string; name: string }) {
  return (
    <>
      <span className={styles.name}>{name}</span>
      <span className={styles.code} aria-hidden="true">
        {locale.toUpperCase()}
      </span>
    </>
  );
}

export function LanguageSwitch() {
  const { t } = useTranslation();
  const current = useLocale();
  const { pathname, search, hash } = useLocation();

  return (
    <nav aria-label={t('languageSwitch.label')} className={styles.switch}>
      {LOCALES.map((locale) =>
        locale === current ? (
          <span key={locale} lang={locale} aria-current="true" className={styles.current}>
            <Label locale={locale} name={t(`languageSwitch.names.${locale}`)} />
          </span>
        ) : (
          <Link
            key={locale}
            to={switchLocalePath(`${pathname}${search}${hash}`, locale)}
            lang={locale}
            hrefLang={locale}
            className={styles.option}
          >
            <Label locale={locale} name={t(`languageSwitch.names.${locale}`)} />
          </Link>
        ),
      )}
    </nav>
  );
}
