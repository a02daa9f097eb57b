import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { accountKeys, type AccountInfo } from '@/features/account/api/get-account-info';
import { signInWithTelegram } from '@/features/auth/api/telegram-sign-in';
import { decodeDeepLink, deepLinkPath } from '@/features/auth/deep-link';
import { queueLoginPopups } from '@/features/popups/login-popups';
import { trackEvent } from '@/lib/analytics';
import { onApiError } from '@/lib/api/client';
import { i18n, useLocale } from '@/lib/i18n';
import { localizePath, stripLocale } from '@/lib/i18n/locale-path';
import { haptic, setBackButton, useTelegram } from '@/lib/telegram';
import { STORAGE_KEYS, writeStored } from '@/lib/storage';
import { showToast } from '@/lib/toasts/toast-store';

/** Whether the in-app history has a page to go back to (react-router keeps its index there). */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: unknown } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/**
 * The site inside Telegram (issue 9): signs the player in from the init data on open, lets
 * Telegram's back button drive the router, and gives errors a haptic. Renders nothing.
 */
/** Deposit result pages (the payment provider returns the player there): their haptic. */
const DEPOSIT_RESULT_HAPTICS: Readonly<Record<string, 'deposit' | 'error'>> = {
  'cashier-paysuccess': 'deposit',
  'cashier-paysuccess-transaction': 'deposit',
  'cashier-payfail': 'error',
  'cashier-payfail-transaction': 'error',
};

export function TelegramBridge({ account, routeName }: { account: AccountInfo | undefined; routeName: string | undefined }) {
  const telegram = useTelegram();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const locale = useLocale();
  const attempted = useRef(false);

  // Sign-in from the init data, once, when the visitor is known to be a guest.
  const launch = telegram.launch;
  const isGuest = account?.uid === 0;
  useEffect(() => {
    if (!telegram.active || !launch || !isGuest || attempted.current) return;
    attempted.current = true;
    signInWithTelegram(launch)
      .then(async (signedIn) => {
        queryClient.setQueryData(accountKeys.info(), signedIn);
        trackEvent('login', { uid: signedIn.uid, method: 'telegram' });
        // Everything cached was fetched as a guest.
        await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== accountKeys.all[0] });
        // SPEC §4: the popups of a login, as after a password sign-in (useAfterSignIn's other steps
        // do not apply here: the page Telegram opened stays, and the registration completes later).
        await queueLoginPopups(signedIn);
      })
      .catch((error: unknown) => {
        console.warn('Telegram sign-in failed', error);
        trackEvent('error-login', { method: 'telegram' });
        // SPEC §8: a Telegram registration failure shows this error toast.
        showToast({ type: 'error', message: i18n.t('telegram.authFailed') });
      });
  }, [isGuest, launch, queryClient, telegram.active]);

  // The deep link (`startapp`) lands on its target page, once signed in (guarded pages would
  // otherwise ask for a sign-in), if the app opened at its home.
  const landed = useRef(false);
  const signedIn = (account?.uid ?? 0) > 0;
  useEffect(() => {
    if (!telegram.active || !signedIn || !launch?.startParam || landed.current) return;
    landed.current = true;
    const link = decodeDeepLink(launch.startParam);
    if (link?.promoCode) writeStored(STORAGE_KEYS.promoCode, link.promoCode);
    if (link?.target && stripLocale(pathname) === '/') {
      void navigate(localizePath(deepLinkPath(link.target), locale), { replace: true });
    }
  }, [launch, locale, navigate, pathname, signedIn, telegram.active]);

  // Telegram's back button replaces the site's: shown anywhere but the home page.
  const atHome = stripLocale(pathname) === '/';
  useEffect(() => {
    if (!telegram.active) return;
    if (atHome) return setBackButton(null);
    return setBackButton(() => {
      if (canGoBack()) void navigate(-1);
      else void navigate(localizePath('/', locale));
    });
  }, [atHome, locale, navigate, telegram.active]);

  // Haptics: every failed call, every settled bet (the game frame reports its new balance after
  // each round), and the deposit's result page.
  useEffect(() => {
    if (!telegram.active) return;
    const offErrors = onApiError(() => {
      haptic('error');
    });
    const onMessage = (event: MessageEvent) => {
      const data: unknown = event.data;
      if (event.origin !== window.location.origin || typeof data !== 'object' || data === null) return;
      if ((data as { type?: unknown }).type === 'croupier:balance') haptic('bet');
    };
    window.addEventListener('message', onMessage);
    return () => {
      offErrors();
      window.removeEventListener('message', onMessage);
    };
  }, [telegram.active]);

  const depositHaptic = routeName === undefined ? undefined : DEPOSIT_RESULT_HAPTICS[routeName];
  useEffect(() => {
    if (telegram.active && depositHaptic) haptic(depositHaptic);
  }, [depositHaptic, telegram.active]);

  return null;
}
