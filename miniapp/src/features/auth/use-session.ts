import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { trackEvent } from '@/lib/analytics';
import { safeRedirectTarget } from '@/lib/entry-params';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { accountInfoQueryOptions, accountKeys, mirrorBalances, type AccountInfo } from '@/features/account';
import { profileInfoQueryOptions } from '@/features/account';
import { logout } from './api/logout';
import type { SignInMethod } from './components/auth-dialog';

const SIGN_IN_EVENTS: Record<SignInMethod, string> = { login: 'login', registration: 'sign_up', restore: 'login' };

/**
 * SPEC §4 transitions. Signing in sets the user, refetches the initial data, loads the profile,
 * fires the event and goes to `redirectUrl` or the locale's home. Logging out calls the server,
 * fires the event, refetches the initial data and goes to the index.
 */
export function useSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const locale = useLocale();

  const signedIn = useCallback(
    async (account: AccountInfo, method: SignInMethod, redirectUrl: string | null) => {
      queryClient.setQueryData(accountKeys.info(), account);
      mirrorBalances(account);
      trackEvent(SIGN_IN_EVENTS[method], { uid: account.uid });
      await navigate(safeRedirectTarget(redirectUrl) ?? localizePath('/', locale));
      // Everything cached was fetched as a guest.
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== accountKeys.all[0] });
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      queryClient.query(profileInfoQueryOptions()).catch((error: unknown) => {
        console.warn('profile not loaded after sign-in', error);
      });
    },
    [locale, navigate, queryClient],
  );

  const signOut = useCallback(
    async (reason: 'user' | 'inactivity') => {
      try {
        await logout();
        trackEvent('logout', { reason });
      } catch (error) {
        trackEvent('error-logout', { reason });
        console.error('logout failed', error);
      }
      queryClient.removeQueries({ queryKey: accountKeys.profile() });
      await queryClient.query({ ...accountInfoQueryOptions(), staleTime: 0 });
      await navigate(localizePath('/', locale));
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== accountKeys.all[0] });
    },
    [locale, navigate, queryClient],
  );

  return { signedIn, signOut };
}
