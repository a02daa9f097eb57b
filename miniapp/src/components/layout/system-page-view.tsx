import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SystemPage } from '@/components/layout/system-page';
import { buttonClassName } from '@/components/ui/button';
import { PAYMENT_PAGES, SYSTEM_PAGES, type PaymentPageType, type SystemPageType } from '@/config/system-pages';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { readStored, STORAGE_KEYS } from '@/lib/storage';

function ButtonLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className={buttonClassName()}>
      {label}
    </Link>
  );
}

/** A system page of SPEC §2 by its type: texts systemPages.{type}.header|description|button. */
export function SystemPageView({ type }: { type: SystemPageType }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const page = SYSTEM_PAGES[type];
  return (
    <SystemPage
      testId={`system-page-${type}`}
      icon={page.icon}
      header={t(`systemPages.${type}.header`)}
      description={t(`systemPages.${type}.description`)}
      action={page.button && <ButtonLink to={localizePath(page.button, locale)} label={t(`systemPages.${type}.button`)} />}
    />
  );
}

/** A payment result page: texts {type}.title|info|button; success goes back to a stored backUrl first. */
export function PaymentPageView({ type }: { type: PaymentPageType }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const page = PAYMENT_PAGES[type];
  const backUrl = page.prefersBackUrl ? readStored(STORAGE_KEYS.backUrl) : null;
  const target = backUrl ?? (page.button && localizePath(page.button, locale));
  return (
    <SystemPage
      testId={`payment-page-${type}`}
      icon={page.icon}
      header={t(`${type}.title`)}
      description={t(`${type}.info`)}
      action={target && <ButtonLink to={target} label={t(`${type}.button`)} />}
    />
  );
}
