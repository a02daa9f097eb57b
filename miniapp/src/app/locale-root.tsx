import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { DialogHost } from '@/components/dialogs/dialog-host';
import { ToastHost } from '@/components/toasts/toast-host';
import { IconSprite } from '@/components/ui/icon';
import { useSiteConfig } from '@/config/site-config';
import { accountKeys, isAuthenticated, useAccountInfo } from '@/features/account/api/get-account-info';
import { createBalanceRefresher } from '@/features/auth/balance-refresh';
import { useSiteConfigFromContent } from '@/features/content/site-config-content';
import { installVerificationDialog } from '@/features/protection';
import { formatDate, formatTime } from '@/lib/format';
import { formatMessage } from '@/lib/validation';
import { useGeneralInfo } from '@/features/metadata/api/get-general-info';
import { scheduleHit } from '@/features/metadata/hit';
import { currentSeonSession, loadSeon, loadTagManager } from '@/features/metadata/third-party';
import { fatalErrorStore } from '@/lib/api/error-pages';
import { apiPost } from '@/lib/api/client';
import { dialogs, shouldCloseDialogsOnRouteChange } from '@/lib/dialogs/dialog-stack';
import { i18n, loadAllMessages, useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useStore } from '@/lib/store';
import { useTelegram } from '@/lib/telegram';
import { showToast } from '@/lib/toasts/toast-store';
import { BuildUpdateOffer } from './build-update';
import { ErrorPageView } from './routes/error-page-view';
import { useRouteHandle } from '@/lib/route-handle';
import { useEntryParams } from './use-entry-params';

// Loaded after the first render, in chunks of their own (issue 23: the first visit's JavaScript):
// the signed-in player's watchers, and the support chat (a fixed button that shifts nothing).
// The watchers come with the rest of the messages (lib/i18n/message-parts.ts).
const SignedInWatchers = lazy(async () => (await Promise.all([import('./signed-in'), loadAllMessages()]))[0]);
const ChatWidget = lazy(async () => ({ default: (await import('@/features/protection/chat')).ChatWidget }));
// Inside Telegram only (the web never loads it): mounted once the SDK has started.
const TelegramBridge = lazy(async () => ({ default: (await import('./telegram-bridge')).TelegramBridge }));

/** SPEC §4: a locale change tells the account service and reloads the initial data. */
function useLocaleChange() {
  const locale = useLocale();
  const queryClient = useQueryClient();
  const previous = useRef(locale);
  useEffect(() => {
    if (previous.current === locale) return;
    previous.current = locale;
    void apiPost('account.changelocale', { locale })
      .catch((error: unknown) => {
        console.error('account.changelocale failed', error);
      })
      .finally(() => {
        void queryClient.invalidateQueries();
      });
  }, [locale, queryClient]);
}

/** SPEC §4: a signed-in player's dialogs close when the route name changes (some routes excepted). */
function useCloseDialogsOnRouteChange(routeName: string | undefined, signedIn: boolean) {
  const previous = useRef(routeName);
  useEffect(() => {
    if (shouldCloseDialogsOnRouteChange(previous.current, routeName, signedIn)) dialogs.closeAll({ reason: 'route' });
    previous.current = routeName;
  }, [routeName, signedIn]);
}

/** SPEC §4: balances refresh for signed-in players, not on game pages, per the content settings. */
function useBalanceRefresh(enabled: boolean) {
  const queryClient = useQueryClient();
  const { balanceRefresh, switches } = useSiteConfig();
  const active = enabled && switches.balanceRefresh;
  useEffect(() => {
    if (!active) return;
    const refresher = createBalanceRefresher(balanceRefresh, () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    });
    const onClick = () => {
      refresher.click();
    };
    document.addEventListener('click', onClick, { capture: true, passive: true });
    return () => {
      document.removeEventListener('click', onClick, { capture: true });
      refresher.stop();
    };
  }, [active, balanceRefresh, queryClient]);
}

/** Sign-in shows what applies: a time-out or self-exclusion in force is announced once per player. */
function useExclusionNotice(uid: number | undefined, exclusion: { kind: 'time_out' | 'self_exclusion'; until: number } | null | undefined) {
  const told = useRef<number | null>(null);
  useEffect(() => {
    if (!uid || !exclusion || told.current === uid) return;
    told.current = uid;
    const end = new Date(exclusion.until * 1000);
    // `responsible` is in the rest of the messages (lib/i18n/message-parts.ts).
    void loadAllMessages().then(() => {
      showToast({
        type: 'info',
        timeoutMs: 15_000,
        message: formatMessage(i18n.t(`responsible.inForce.${exclusion.kind}`), { date: `${formatDate(end)} ${formatTime(end)}` }),
      });
    });
  }, [uid, exclusion]);
}

/** SPEC §2's identity-verification dialog when a call answers that verification comes first. */
function useVerificationDialog() {
  const navigate = useNavigate();
  const locale = useLocale();
  useEffect(() => installVerificationDialog(() => void navigate(localizePath('/profile/verification', locale))), [navigate, locale]);
}

/** Everything every page of a locale shares: global dialogs, toasts, entry parameters, session rules. */
export function LocaleRoot() {
  const { data: account } = useAccountInfo();
  const fatal = useStore(fatalErrorStore);
  const handle = useRouteHandle();
  const signedIn = isAuthenticated(account);
  const inTelegram = useTelegram().active;

  useSiteConfigFromContent();
  useEffect(() => {
    scheduleHit(currentSeonSession);
  }, []);
  const general = useGeneralInfo().data;
  // Operators switched the site off: the maintenance page (every other call answers 503 anyway).
  useEffect(() => {
    if (general?.domain_state === 'maintenance' && !fatalErrorStore.get()) fatalErrorStore.set({ type: 'maintenance' });
  }, [general?.domain_state]);
  useExclusionNotice(signedIn ? account.uid : undefined, signedIn ? account.exclusion : null);
  const gtmId = general?.analytic.gtm_id ?? null;
  const seon = general?.is_seon_enabled === true;
  useEffect(() => {
    if (gtmId) loadTagManager(gtmId);
    if (seon) loadSeon();
  }, [gtmId, seon]);
  useLocaleChange();
  useVerificationDialog();
  useBalanceRefresh(signedIn && handle?.isGamePage !== true && !fatal);
  useCloseDialogsOnRouteChange(handle?.name, signedIn);
  useEntryParams(account === undefined ? undefined : !signedIn, handle?.isGamePage === true);

  return (
    <>
      <IconSprite />
      {fatal ? <ErrorPageView page={fatal} /> : <Outlet />}
      <DialogHost />
      <ToastHost />
      {signedIn && !fatal && (
        <Suspense fallback={null}>
          <SignedInWatchers />
        </Suspense>
      )}
      {!fatal && handle?.isGamePage !== true && (
        <Suspense fallback={null}>
          <ChatWidget uid={account?.uid ?? 0} />
        </Suspense>
      )}
      {inTelegram && (
        <Suspense fallback={null}>
          <TelegramBridge account={account} routeName={handle?.name} />
        </Suspense>
      )}
      {!fatal && <BuildUpdateOffer onGamePage={handle?.isGamePage === true} />}
    </>
  );
}
