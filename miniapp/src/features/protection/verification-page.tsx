import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { accountKeys, formError, ProfileFrame } from '@/features/account';
import { useLocale } from '@/lib/i18n';
import { loadScript } from '@/lib/load-script';
import { getAccessToken, getVerificationStatus, protectionKeys, setOnVerification, type AccessToken } from './api';

/** Sumsub's WebSDK builder (allowed by the CSP only when CROUPIER_KYC_PROVIDER=sumsub). */
export const SUMSUB_SDK = 'https://static.sumsub.com/idensic/static/sns-websdk-builder.js';

interface SnsBuilder {
  withConf: (conf: Record<string, unknown>) => SnsBuilder;
  on: (event: string, handler: (...args: unknown[]) => void) => SnsBuilder;
  build: () => { launch: (selector: string) => void };
}

declare global {
  var snsWebSdk: { init: (token: string, refresh: () => Promise<string>) => SnsBuilder } | undefined;
}

/** Opens the verification: the sandbox's page, or Sumsub's WebSDK in the page. */
async function startVerification(token: AccessToken, locale: string, onSubmitted: () => void): Promise<void> {
  if (token.url) {
    globalThis.location.assign(token.url);
    return;
  }
  await loadScript(SUMSUB_SDK);
  const sdk = globalThis.snsWebSdk;
  if (!sdk) throw new Error('the verification SDK did not load');
  sdk
    .init(token.token, async () => (await getAccessToken()).token)
    .withConf({ lang: locale })
    .on('idCheck.onApplicantSubmitted', onSubmitted)
    .build()
    .launch('#kyc-websdk');
}

/** /profile/verification: the verification state, the reviewer's comment and the way to (re)submit. */
export function VerificationPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: protectionKeys.verification(), queryFn: ({ signal }) => getVerificationStatus({ signal }) });
  const submitted = () => {
    void setOnVerification().finally(() => {
      void queryClient.invalidateQueries({ queryKey: protectionKeys.verification() });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    });
  };
  const start = useMutation({
    mutationFn: async () => startVerification(await getAccessToken(), locale, submitted),
  });
  const state = status.data;
  return (
    <ProfileFrame tab="profileVerification">
      <section className={screens.card} aria-labelledby="kyc-title" data-testid="verification" data-status={state?.status}>
        <h2 id="kyc-title" className={screens.cardTitle}>
          {t('verification.dialogTitle')}
        </h2>
        {status.isPending && <Spinner label={t('app.loading')} />}
        {state && (
          <>
            <p className={screens.muted}>{t('verification.intro')}</p>
            <p className={screens.notice} role="status">
              {t(`verification.status.${state.status}`)}
            </p>
            {state.comment && (
              <p>
                <strong>{t('verification.comment')}:</strong> {state.comment}
              </p>
            )}
            {state.is_kyc_block_enabled && state.status !== 'verified' && <p className={screens.alert}>{t('verification.blocked')}</p>}
            {state.required_for_withdrawal && state.status !== 'verified' && <p className={screens.muted}>{t('verification.required')}</p>}
            {start.error && <p className={screens.alert}>{formError(t, start.error, []) ?? t('verification.failed')}</p>}
            {state.can_submit && (
              <div>
                <Button onClick={() => { start.mutate(); }} disabled={start.isPending} data-testid="verification-start">
                  {state.status === 'retry' ? t('verification.restart') : t('verification.start')}
                </Button>
              </div>
            )}
            <div id="kyc-websdk" />
          </>
        )}
      </section>
    </ProfileFrame>
  );
}
