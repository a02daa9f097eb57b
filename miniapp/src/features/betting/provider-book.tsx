import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import screens from '@/components/screens.module.css';
import { Button, buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { accountKeys, useAccountInfo, isAuthenticated } from '@/features/account';
import { openSignIn, openSocialRegistration } from '@/features/auth';
import { ApiError } from '@/lib/api/client';
import { atDeviceTimes } from '@/lib/device-clock';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { useProviderTitle } from './api/get-catalog';
import { needsCurrency, useProviderLaunch } from './api/providers';
import styles from './betting.module.css';

/** While a provider's frame is open, the header's balance follows the bets placed in it this often. */
export const PROVIDER_BALANCE_REFRESH_MS = 15_000;

/**
 * A frame is launched again this long before its token ends (a launch is valid four hours), so a
 * player who keeps it open is never left betting on a dead session; the new launch reloads it.
 */
export const PROVIDER_RELAUNCH_MARGIN_MS = 5 * 60_000;

/** Where a player completes the personal data a launch asks for (the cashier's way out). */
const PROFILE_SETTINGS = '/profile/settings?from=betting';

/**
 * The switch between the house book and each external provider's: the choice is `?book=` in the
 * address (a new history entry, so the back button returns to the previous book). A guest who
 * picks a provider is asked to sign in, as the slip asks.
 */
export function BookSwitch({ providers, book }: { providers: readonly string[]; book: string | null }) {
  const { t } = useTranslation();
  const title = useProviderTitle();
  const [params, setParams] = useSearchParams();
  const account = useAccountInfo().data;
  const choose = (next: string | null) => {
    if (next === book) return;
    const search = new URLSearchParams(params);
    if (next === null) search.delete('book');
    else search.set('book', next);
    setParams(search);
    if (next !== null && !isAuthenticated(account)) openSignIn('authorization');
  };
  return (
    <nav className={screens.tabs} aria-label={t('betting.books.label')} data-testid="books">
      <button type="button" className={screens.tab} aria-pressed={book === null} data-testid="book-house" onClick={() => { choose(null); }}>
        {t('betting.books.house')}
      </button>
      {providers.map((name) => (
        <button key={name} type="button" className={screens.tab} aria-pressed={book === name} data-testid={`book-${name}`} onClick={() => { choose(name); }}>
          {title(name)}
        </button>
      ))}
    </nav>
  );
}

/**
 * The frame fills the height left under it in the viewport (Telegram's stable viewport inside
 * Telegram), above the bottom menu on phones: the provider's page scrolls inside its frame, not
 * the page around it. The CSS does the arithmetic; this measures where the frame starts, again
 * whenever the page above it changes (a banner or hint arriving, the window resized), once per
 * frame at most.
 */
function useFrameTop(ref: React.RefObject<HTMLDivElement | null>) {
  useLayoutEffect(() => {
    let pending = 0;
    let last = '';
    const measure = () => {
      pending = 0;
      const box = ref.current;
      if (!box) return;
      const top = `${String(Math.round(box.getBoundingClientRect().top + window.scrollY))}px`;
      if (top === last) return;
      last = top;
      box.style.setProperty('--frame-top', top);
    };
    const schedule = () => {
      if (pending === 0) pending = window.requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('resize', schedule);
    const mutations = new MutationObserver(schedule);
    mutations.observe(document.body, { childList: true, subtree: true });
    const sizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
    sizes?.observe(document.body);
    return () => {
      window.removeEventListener('resize', schedule);
      mutations.disconnect();
      sizes?.disconnect();
      if (pending !== 0) window.cancelAnimationFrame(pending);
    };
  }, [ref]);
}

/** The provider's frame for a signed-in player: launched once, with its loading and error states. */
function ProviderFrame({ provider }: { provider: string }) {
  const { t } = useTranslation();
  const title = useProviderTitle();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const launch = useProviderLaunch(provider);
  const box = useRef<HTMLDivElement>(null);
  useFrameTop(box);
  const url = launch.data?.url;

  // Relaunched before the token ends, timed by this device's clock from when the launch was
  // answered (`expires_in`, `atDeviceTimes`: also when the page comes back into view).
  const expiresIn = launch.data?.expires_in;
  const launchedAt = launch.dataUpdatedAt;
  const { refetch } = launch;
  useEffect(() => {
    if (expiresIn === undefined) return undefined;
    const due = launchedAt + Math.max(expiresIn * 1000 - PROVIDER_RELAUNCH_MARGIN_MS, PROVIDER_RELAUNCH_MARGIN_MS);
    let asked = false;
    const relaunch = () => {
      if (asked || Date.now() < due) return;
      asked = true;
      // A refused relaunch keeps the frame; the page's next return into view tries again.
      void refetch().then((result) => {
        if (result.isError) asked = false;
      });
    };
    return atDeviceTimes([due], relaunch);
  }, [expiresIn, launchedAt, refetch]);

  // Bets placed in the frame move the balance: the header follows while it is open.
  useEffect(() => {
    if (!url) return undefined;
    const timer = window.setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    }, PROVIDER_BALANCE_REFRESH_MS);
    return () => {
      window.clearInterval(timer);
    };
  }, [url, queryClient]);

  // A frame that does not fit under the heading (a short webview) is scrolled to just under the
  // header, where it fits whole.
  useEffect(() => {
    const frameBox = box.current;
    if (!url || !frameBox || typeof frameBox.scrollIntoView !== 'function') return;
    if (frameBox.getBoundingClientRect().bottom > window.innerHeight) frameBox.scrollIntoView({ block: 'start' });
  }, [url]);

  let content;
  if (url) {
    content = <iframe key={url} className={styles.providerFrame} src={url} title={t('betting.books.frameTitle', { provider: title(provider) })} data-testid="provider-frame" allow="fullscreen" />;
  } else if (launch.isError) {
    const error = launch.error;
    const profile = error instanceof ApiError && error.type === 'UserNeedProfileDataException';
    content = (
      <div className={screens.alert} role="alert" data-testid="provider-error" data-error={error instanceof ApiError ? error.type : undefined}>
        <p>
          {profile
            ? t('betting.books.needProfile', { provider: title(provider) })
            : error instanceof ApiError && error.status > 0 && error.message
              ? error.message
              : t('betting.books.launchFailed', { provider: title(provider) })}
        </p>
        {needsCurrency(error) ? (
          <Button variant="secondary" onClick={() => { openSocialRegistration(); }}>
            {t('betting.books.completeRegistration')}
          </Button>
        ) : profile ? (
          <Link className={buttonClassName('secondary')} to={localizePath(PROFILE_SETTINGS, locale)}>
            {t('cashier.exception.completeProfile')}
          </Link>
        ) : (
          <Button variant="secondary" onClick={() => void launch.refetch()}>
            {t('betting.books.retry')}
          </Button>
        )}
      </div>
    );
  } else {
    content = <Spinner label={t('betting.books.opening', { provider: title(provider) })} />;
  }
  return (
    <div ref={box} className={styles.providerBox} data-testid="provider-box" aria-busy={launch.isPending}>
      {content}
    </div>
  );
}

/** /betting?book={provider}: the title, the book switch and the provider's frame (or the sign-in prompt for a guest). */
export function ProviderBookPage({ provider, providers, known }: { provider: string; providers: readonly string[]; known: boolean }) {
  const { t } = useTranslation();
  const title = useProviderTitle();
  const route = useRouteHandle()?.name;
  const account = useAccountInfo();
  const guest = !isAuthenticated(account.data);
  let body;
  if (!known || account.isPending) body = <Spinner label={t('app.loading')} />;
  else if (guest) {
    body = (
      <div className={screens.notice} data-testid="provider-sign-in">
        <p>{t('betting.books.signIn', { provider: title(provider) })}</p>
        <Button onClick={() => { openSignIn('authorization'); }}>{t('betting.slip.signIn')}</Button>
      </div>
    );
  } else body = <ProviderFrame key={`${provider}:${String(account.data?.uid)}`} provider={provider} />;
  return (
    <div className={styles.providerPage} data-testid="betting-page" data-book={provider} data-route={route}>
      <div className={styles.head}>
        <h1 className={screens.title}>{t('pages.betting')}</h1>
      </div>
      {known ? <BookSwitch providers={providers} book={provider} /> : null}
      {body}
    </div>
  );
}
