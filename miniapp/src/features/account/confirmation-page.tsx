import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { buttonClassName } from '@/components/ui/button';
import { PageLoader } from '@/components/layout/page-loader';
import screens from '@/components/screens.module.css';
import { accountKeys, useAccount } from '@/features/account/api/get-account-info';
import { apiPost } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { expectOne, fieldError } from './use-api-form';

/**
 * /confirmation?contact=…&code=… — where a contact's confirmation e-mail leads: the link's code
 * confirms the contact (signed in or not, on any device), then /confirmation/success says so.
 * A link that is incomplete, used or expired says that, with the way to ask for a new one.
 */
export function ConfirmationPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const contact = params.get('contact') ?? '';
  const code = params.get('code') ?? '';
  const complete = contact !== '' && code !== '';
  const [failure, setFailure] = useState<string | null>(complete ? null : t('confirmation.incomplete'));
  const sent = useRef(false);
  const route = useRouteHandle()?.name;

  useEffect(() => {
    // One call per link, even when the effect runs twice.
    if (!complete || sent.current) return;
    sent.current = true;
    apiPost('account.confirmContactLink', { contact, code }, { textFields: ['contact', 'code'] })
      .then(expectOne)
      .then(
        () => {
          void queryClient.invalidateQueries({ queryKey: accountKeys.all });
          void navigate(localizePath('/confirmation/success', locale), { replace: true });
        },
        (error: unknown) => {
          setFailure(fieldError(t, error, 'code') ?? fieldError(t, error, 'contact') ?? t('confirmation.failed'));
        },
      );
  }, [complete, contact, code, locale, navigate, queryClient, t]);

  if (failure === null) return <PageLoader />;
  return (
    <div className={screens.page} data-testid="confirmation-failed" data-route={route}>
      <h1 className={screens.title}>{t('confirmation.failedTitle')}</h1>
      <p className={screens.alert} role="alert">
        {failure}
      </p>
      <p className={screens.muted}>{t('confirmation.askAgain')}</p>
      <div>
        <Link className={buttonClassName('primary')} to={localizePath('/profile/settings', locale)}>
          {t('confirmation.toProfile')}
        </Link>
      </div>
    </div>
  );
}

/** /confirmation/success: the contact is confirmed. */
export function ConfirmationSuccessPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const account = useAccount();
  const route = useRouteHandle()?.name;
  return (
    <div className={screens.page} data-testid="confirmation-success" data-route={route}>
      <h1 className={screens.title}>{t('confirmation.successTitle')}</h1>
      <p className={screens.notice} role="status">
        {t('confirmation.success')}
      </p>
      <div className={screens.row}>
        {account && (
          <Link className={buttonClassName('primary')} to={localizePath('/profile/settings', locale)}>
            {t('confirmation.toProfile')}
          </Link>
        )}
        <Link className={buttonClassName(account ? 'secondary' : 'primary')} to={localizePath('/', locale)}>
          {t('confirmation.toHome')}
        </Link>
      </div>
    </div>
  );
}
