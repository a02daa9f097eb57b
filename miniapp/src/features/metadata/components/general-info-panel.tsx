import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isLocale } from '@/config/locales';
import type { Messages } from '@/lib/i18n';
import { useGeneralInfo } from '../api/get-general-info';
import styles from './general-info-panel.module.css';

type LabelledCurrency = keyof Messages['currencies'];

export function GeneralInfoPanel() {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { data, isPending, isError, refetch } = useGeneralInfo();

  // Currencies come from server configuration; one without a translation shows its ISO code alone.
  const isLabelled = (code: string): code is LabelledCurrency => i18n.exists(`currencies.${code}`);
  const currencyLabel = (code: string) => (isLabelled(code) ? t(`currencies.${code}`) : null);

  if (isPending) {
    return (
      <div className={styles.state}>
        <Spinner label={t('app.loading')} />
      </div>
    );
  }

  if (isError) {
    return (
      <div role="alert" className={styles.state}>
        <p>{t('home.loadError')}</p>
        <Button variant="secondary" onClick={() => void refetch()}>
          {t('home.retry')}
        </Button>
      </div>
    );
  }

  const defaultLabel = currencyLabel(data.default_currency);

  return (
    <section aria-labelledby={titleId} className={styles.panel}>
      <h2 id={titleId} className={styles.title}>
        {t('home.siteInfo')}
      </h2>
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>{t('home.defaultCurrency')}</dt>
          <dd data-testid="default-currency">
            <span className={styles.code}>{data.default_currency}</span>
            {defaultLabel && <span className={styles.label}>{defaultLabel}</span>}
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('home.currencies')}</dt>
          <dd>
            <ul className={styles.chips} aria-label={t('home.currencies')}>
              {data.available_currencies.map((code) => {
                const label = currencyLabel(code);
                return (
                  <li key={code} className={styles.chip}>
                    <span className={styles.code}>{code}</span>
                    {label && <span className={styles.label}>{label}</span>}
                  </li>
                );
              })}
            </ul>
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('home.languages')}</dt>
          <dd>
            <ul className={styles.chips} aria-label={t('home.languages')}>
              {data.available_locales.filter(isLocale).map((locale) => (
                <li key={locale} className={styles.chip}>
                  {t(`languages.${locale}`)}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
    </section>
  );
}
