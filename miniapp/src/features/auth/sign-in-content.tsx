import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import type { AccountInfo } from '@/features/account';
import { AuthPanel, type AuthView, type SignInMethod } from '@/features/auth/components/auth-dialog';
import { SocialRegistrationForm } from '@/features/auth/components/social-registration-form';
import { useSession } from '@/features/auth/use-session';
import { useGeneralInfo } from '@/features/metadata';
import { queueLoginPopups } from '@/features/popups';
import { REDIRECT_URL } from '@/lib/entry-params';
import { i18n } from '@/lib/i18n';
import { readStored, STORAGE_KEYS } from '@/lib/storage';
import { openSocialRegistration, readTracking } from './sign-in-dialogs';

/**
 * After any sign-in: the session moves on (SPEC §4), then an incomplete registration is completed.
 * A login (not a new registration, which has no cashback yet) then queues the unseen-cashback and
 * campaign popups behind whatever dialog is open (the Telegram sign-in queues them too).
 */
export function useAfterSignIn(): (account: AccountInfo, method: SignInMethod) => Promise<void> {
  const { signedIn } = useSession();
  const { search } = useLocation();
  return useCallback(
    async (account, method) => {
      await signedIn(account, method, new URLSearchParams(search).get(REDIRECT_URL));
      if (!account.is_registration_completed) openSocialRegistration();
      if (method !== 'registration') await queueLoginPopups(account);
    },
    [search, signedIn],
  );
}

export function SignInContent({ view, onSignedIn }: { view: AuthView; onSignedIn: () => void }) {
  const { data: info } = useGeneralInfo();
  const afterSignIn = useAfterSignIn();
  if (!info) return <Spinner label={i18n.t('app.loading')} />;
  return (
    <AuthPanel
      initialView={view}
      currencies={info.available_currencies}
      defaultCurrency={info.default_currency}
      promoCode={readStored(STORAGE_KEYS.promoCode)}
      tracking={readTracking()}
      onSignedIn={(account, method) => {
        onSignedIn();
        void afterSignIn(account, method);
      }}
    />
  );
}

export function SocialRegistrationContent({ onDone }: { onDone: () => void }) {
  const { data: info } = useGeneralInfo();
  const { signedIn } = useSession();
  if (!info) return <Spinner label={i18n.t('app.loading')} />;
  return (
    <SocialRegistrationForm
      currencies={info.available_currencies}
      defaultCurrency={info.default_currency}
      onCompleted={(account) => {
        onDone();
        void signedIn(account, 'registration', null);
      }}
    />
  );
}
