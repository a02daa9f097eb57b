import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/layout/page-loader';
import { LOCALES, type Locale } from '@/config/locales';
import { gamehallCategoryPath, paths } from '@/config/paths';
import type { PaymentPageType } from '@/config/system-pages';
import { accountInfoQueryOptions, isAuthenticated } from '@/features/account/api/get-account-info';
import { contentRedirectLoader } from '@/features/content/redirect-loader';
import { categoriesQueryOptions } from '@/features/games';
import { authBannerQueryOptions, bannersQueryOptions, menuBannerQueryOptions } from '@/features/home/content';
import { siteContentQueryOptions } from '@/features/content/site-config-content';
import { activateLocale, loadAllMessages } from '@/lib/i18n';
import { localeFromPath, localizePath } from '@/lib/i18n/locale-path';
import { guardRedirect, isGuardedPattern } from './guard';
import { DefaultLayout } from './layouts/default-layout';
import { EmptyLayout } from './layouts/empty-layout';
import type { PageTitleKey, RouteHandle } from '@/lib/route-handle';
import { LocaleRoot } from './locale-root';
import { RouteErrorPage } from './routes/route-error';

type Lazy = NonNullable<RouteObject['lazy']>;
type LazyFunction = Extract<Lazy, (...args: never[]) => unknown>;

/** How long the home page waits for its banners (and the rest of its layout) before it renders without them (they follow). */
const BANNERS_WAIT_MS = 1500;

/**
 * A page reached by navigation: its chunk, with the rest of the messages (message-parts.ts; the
 * home page, the usual first visit, makes do with the first part).
 */
function withAllMessages(load: LazyFunction): LazyFunction {
  return async (...args) => {
    const [route] = await Promise.all([load(...args), loadAllMessages()]);
    return route;
  };
}

// One chunk per kind of page: a visitor downloads only what the page in front of them needs.
const pageChunks = {
  betting: (async () => ({ Component: (await import('@/features/betting/betting-page')).BettingPage })) satisfies Lazy,
  bettingEvent: (async () => ({ Component: (await import('@/features/betting/betting-page')).BettingEventPage })) satisfies Lazy,
  bets: (async () => ({ Component: (await import('@/features/betting/bets-page')).BetsPage })) satisfies Lazy,
  home: (async () => ({ Component: (await import('@/features/home/home-page')).HomePage })) satisfies Lazy,
  comingSoon: (async () => ({ Component: (await import('./routes/coming-soon')).ComingSoonPage })) satisfies Lazy,
  payment: (async () => ({ Component: (await import('@/features/cashier/payment-result-page')).PaymentResultPage })) satisfies Lazy,
  unsubscribe: (async () => ({ Component: (await import('./routes/unsubscribe')).UnsubscribePage })) satisfies Lazy,
  notFound: (async () => ({ Component: (await import('./routes/not-found')).NotFoundPage })) satisfies Lazy,
  content: (async () => ({ Component: (await import('@/features/content/components/content-page')).ContentPage })) satisfies Lazy,
  game: (async () => ({ Component: (await import('@/features/games/game-page')).GamePage })) satisfies Lazy,
  gamehall: (async () => ({ Component: (await import('@/features/games/gamehall-page')).GamehallPage })) satisfies Lazy,
  providers: (async () => ({ Component: (await import('@/features/games/providers-page')).ProvidersPage })) satisfies Lazy,
  deposit: (async () => ({ Component: (await import('@/features/cashier/deposit-page')).DepositPage })) satisfies Lazy,
  withdraw: (async () => ({ Component: (await import('@/features/cashier/withdraw-page')).WithdrawPage })) satisfies Lazy,
  history: (async () => ({ Component: (await import('@/features/cashier/history-page')).HistoryPage })) satisfies Lazy,
  wallet: (async () => ({ Component: (await import('@/features/cashier/wallet-page')).WalletPage })) satisfies Lazy,
  receipt: (async () => ({ Component: (await import('@/features/cashier/receipt-page')).ReceiptPage })) satisfies Lazy,
  profileSettings: (async () => ({ Component: (await import('@/features/account/settings-page')).SettingsPage })) satisfies Lazy,
  profileSecurity: (async () => ({ Component: (await import('@/features/account/security-page')).SecurityPage })) satisfies Lazy,
  profileResponsible: (async () => ({ Component: (await import('@/features/protection/responsible-page')).ResponsiblePage })) satisfies Lazy,
  profileNotification: (async () => ({ Component: (await import('@/features/account/notification-page')).NotificationPage })) satisfies Lazy,
  profileVerification: (async () => ({ Component: (await import('@/features/protection/verification-page')).VerificationPage })) satisfies Lazy,
  support: (async () => ({ Component: (await import('@/features/protection/support-page')).SupportPage })) satisfies Lazy,
  responsibleGame: (async () => ({ Component: (await import('@/features/protection/responsible-game-page')).ResponsibleGamePage })) satisfies Lazy,
  confirmation: (async () => ({ Component: (await import('@/features/account/confirmation-page')).ConfirmationPage })) satisfies Lazy,
  confirmationSuccess: (async () => ({ Component: (await import('@/features/account/confirmation-page')).ConfirmationSuccessPage })) satisfies Lazy,
  profileBets: (async () => ({ Component: (await import('@/features/account/profile-frame')).BetsPage })) satisfies Lazy,
  profileLoyalty: (async () => ({ Component: (await import('@/features/account/profile-frame')).LoyaltyPage })) satisfies Lazy,
  loyalty: (async () => ({ Component: (await import('@/features/loyalty/pages')).LoyaltyPage })) satisfies Lazy,
  loyaltyProgram: (async () => ({ Component: (await import('@/features/loyalty/pages')).LoyaltyProgramPage })) satisfies Lazy,
  loyaltyShop: (async () => ({ Component: (await import('@/features/loyalty/shop')).LoyaltyShopPage })) satisfies Lazy,
  profileBonuses: (async () => ({ Component: (await import('@/features/account/profile-frame')).BonusesPage })) satisfies Lazy,
  profileCashback: (async () => ({ Component: (await import('@/features/account/profile-frame')).CashbackPage })) satisfies Lazy,
  offers: (async () => ({ Component: (await import('@/features/bonuses/offers-page')).OffersPage })) satisfies Lazy,
  offer: (async () => ({ Component: (await import('@/features/bonuses/offers-page')).OfferPage })) satisfies Lazy,
  promotions: (async () => ({ Component: (await import('@/features/bonuses/offers-page')).PromotionsPage })) satisfies Lazy,
  promotion: (async () => ({ Component: (await import('@/features/bonuses/offers-page')).PromotionPage })) satisfies Lazy,
  tournaments: (async () => ({ Component: (await import('@/features/tournaments/tournaments-page')).TournamentsPage })) satisfies Lazy,
  tournament: (async () => ({ Component: (await import('@/features/tournaments/tournament-page')).TournamentPage })) satisfies Lazy,
  tournamentGamehall: (async () => ({ Component: (await import('@/features/tournaments/tournament-gamehall-page')).TournamentGamehallPage })) satisfies Lazy,
  jackpots: (async () => ({ Component: (await import('@/features/jackpots/jackpots-page')).JackpotsPage })) satisfies Lazy,
  jackpot: (async () => ({ Component: (await import('@/features/jackpots/jackpot-page')).JackpotPage })) satisfies Lazy,
  winners: (async () => ({ Component: (await import('@/features/winners/winners-page')).WinnersPage })) satisfies Lazy,
  icons: (async () => ({ Component: (await import('./routes/icons')).IconsPage })) satisfies Lazy,
  signIn: (async () => ({ Component: (await import('./routes/forms-auth')).SignInFormPage })) satisfies Lazy,
  signUp: (async () => ({ Component: (await import('./routes/forms-auth')).SignUpFormPage })) satisfies Lazy,
  gameLayout: (async () => ({ Component: (await import('./layouts/game-layout')).GameLayout })) satisfies Lazy,
  spriteLayout: (async () => ({ Component: (await import('./layouts/svg-sprite-layout')).SvgSpriteLayout })) satisfies Lazy,
};
const pages = Object.fromEntries(
  Object.entries(pageChunks).map(([name, load]) => [name, name === 'home' ? load : withAllMessages(load)]),
) as Record<keyof typeof pageChunks, Lazy>;

interface PageOptions {
  title?: PageTitleKey;
  isGamePage?: boolean;
  payment?: PaymentPageType;
  /** A redirect (unprefixed path, or computed from the params) once the guard has let the visit through. */
  redirectTo?: string | ((params: LoaderFunctionArgs['params'], url: URL) => string);
  /** Runs first; a Response it answers (a redirect) ends the visit there. */
  before?: (args: LoaderFunctionArgs) => Promise<Response | null>;
}

function pageRoute(queryClient: QueryClient, name: string, path: string, lazy: Lazy, options: PageOptions = {}): RouteObject {
  const { redirectTo, before, ...rest } = options;
  const handle: RouteHandle = { name, ...rest };
  const needsGuard = isGuardedPattern(path) && name !== 'slug';
  const route: RouteObject = path === '' ? { index: true, handle, lazy } : { path, handle, lazy };
  if (!needsGuard && !redirectTo && !before) return route;
  route.loader = async (args) => {
    const { request, params } = args;
    if (before) {
      const answer = await before(args);
      if (answer) return answer;
    }
    const url = new URL(request.url);
    if (needsGuard) {
      // The account as cached (the header loads it anyway); fetched only when there is none yet.
      const account = await queryClient.query({ ...accountInfoQueryOptions(), staleTime: 'static' });
      const target = guardRedirect(url, name, !isAuthenticated(account));
      if (target) return redirect(target);
    }
    if (redirectTo) {
      const to = typeof redirectTo === 'string' ? redirectTo : redirectTo(params, url);
      return redirect(localizePath(to, localeFromPath(url.pathname)));
    }
    return null;
  };
  return route;
}

/** SPEC §2 route table, unprefixed; each locale mounts it under its prefix. */
function pageRoutes(queryClient: QueryClient): RouteObject[] {
  const page = (name: string, path: string, lazy: Lazy, options?: PageOptions) =>
    pageRoute(queryClient, name, path, lazy, options);
  const contentRedirects = contentRedirectLoader(queryClient);
  const payment = (type: PaymentPageType) => [
    page(`cashier-${type}`, `cashier/${type}`, pages.payment, { payment: type }),
    page(`cashier-${type}-transaction`, `cashier/${type}/:transaction`, pages.payment, { payment: type }),
  ];

  // The default and empty layouts also frame error pages, so they come with the first chunk.
  const withErrors = (layout: Pick<RouteObject, 'Component' | 'lazy'>, children: RouteObject[]): RouteObject => ({
    ...layout,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: PageLoader,
    children,
  });

  return [
    withErrors({ Component: DefaultLayout }, [
      // The banners load with the page's chunk: the page's first render shows the banner the
      // server's app shell already painted (issue 23), instead of a moment without it. So do the
      // other answers that decide the page's layout (the guest's welcome offer, which game rows
      // there are, the site's settings from the content service): the
      // first render has its final layout, and
      // the page is not re-rendered answer by answer during start-up (Lighthouse's blocking
      // time). A content service slower than BANNERS_WAIT_MS does not hold the page back.
      page('index', '', pages.home, {
        before: async ({ request }) => {
          const locale = localeFromPath(new URL(request.url).pathname);
          // The API asks in the page's language: it is active first (the locale route's loader
          // runs alongside this one).
          await activateLocale(locale);
          const answers = Promise.allSettled([
            queryClient.query(bannersQueryOptions(locale)),
            queryClient.query(authBannerQueryOptions(locale)),
            queryClient.query(menuBannerQueryOptions(locale)),
            queryClient.query(categoriesQueryOptions()),
            queryClient.query(siteContentQueryOptions(locale)),
          ]);
          await Promise.race([answers, new Promise((resolve) => setTimeout(resolve, BANNERS_WAIT_MS))]);
          return null;
        },
      }),
      page('slug', ':slug', pages.content, { before: contentRedirects }),
      page('betting', 'betting', pages.betting, { title: 'betting' }),
      page('betting-event-id', 'betting/event/:id', pages.bettingEvent, { title: 'betting' }),
      page('cashier', 'cashier', pages.comingSoon, { redirectTo: paths.cashierDeposit }),
      page('cashier-billing', 'cashier/billing', pages.comingSoon, { redirectTo: paths.cashierDeposit }),
      page('cashier-deposit', 'cashier/deposit', pages.deposit, { title: 'cashierDeposit' }),
      page('cashier-deposit-sysname', 'cashier/deposit/:sysname', pages.deposit, { title: 'cashierDeposit' }),
      page('cashier-history', 'cashier/history', pages.history, { title: 'cashierHistory' }),
      ...payment('paysuccess'),
      ...payment('payfail'),
      ...payment('paypending'),
      page('cashier-paycancel', 'cashier/paycancel', pages.payment, { payment: 'paycancel' }),
      page('cashier-paymobile', 'cashier/paymobile', pages.payment, { payment: 'paymobile' }),
      page('cashier-paynewwindow', 'cashier/paynewwindow', pages.payment, { payment: 'paynewwindow' }),
      page('cashier-receipt', 'cashier/receipt', pages.receipt, { title: 'cashierReceipt' }),
      page('cashier-wallet', 'cashier/wallet', pages.wallet, { title: 'cashierWallet' }),
      page('cashier-withdraw', 'cashier/withdraw', pages.withdraw, { title: 'cashierWithdraw' }),
      page('confirmation', 'confirmation', pages.confirmation, { title: 'confirmation' }),
      page('confirmation-success', 'confirmation/success', pages.confirmationSuccess, { title: 'confirmation' }),
      page('gamehall', 'gamehall', pages.gamehall, { title: 'gamehall' }),
      page('gamehall-id', 'gamehall/:id', pages.comingSoon, {
        redirectTo: (params) => gamehallCategoryPath(params.id ?? ''),
      }),
      page('jackpots', 'jackpots', pages.jackpots, { title: 'jackpots' }),
      page('jackpots-id', 'jackpots/:id', pages.jackpot, { title: 'jackpots' }),
      page('loyalty', 'loyalty', pages.loyalty, { title: 'loyalty' }),
      page('loyalty-shop', 'loyalty/shop', pages.loyaltyShop, { title: 'loyaltyShop' }),
      page('loyalty-sysname', 'loyalty/:sysname', pages.loyaltyProgram, { title: 'loyalty' }),
      page('offers', 'offers', pages.offers, { title: 'offers' }),
      page('offers-id', 'offers/:id', pages.offer, { title: 'offers' }),
      page('profile', 'profile', pages.comingSoon, { redirectTo: paths.profileSettings }),
      page('profile-settings', 'profile/settings', pages.profileSettings, { title: 'profileSettings' }),
      page('profile-security', 'profile/security', pages.profileSecurity, { title: 'profileSecurity' }),
      page('profile-verification', 'profile/verification', pages.profileVerification, { title: 'profileVerification' }),
      page('profile-responsible-game', 'profile/responsible-game', pages.profileResponsible, { title: 'profileResponsibleGame' }),
      page('profile-bets', 'profile/bets', pages.profileBets, { title: 'profileBets' }),
      page('profile-loyalty', 'profile/loyalty', pages.profileLoyalty, { title: 'profileLoyalty' }),
      page('profile-bonuses', 'profile/bonuses', pages.profileBonuses, { title: 'profileBonuses' }),
      page('profile-cashback', 'profile/cashback', pages.profileCashback, { title: 'profileCashback' }),
      page('profile-notification', 'profile/notification', pages.profileNotification, { title: 'profileNotification' }),
      page('promotions', 'promotions', pages.promotions, { title: 'promotions' }),
      page('promotions-id', 'promotions/:id', pages.promotion, { title: 'promotions' }),
      page('providers', 'providers', pages.providers, { title: 'providers' }),
      page('support', 'support', pages.support, { title: 'support' }),
      page('tournaments', 'tournaments', pages.tournaments, { title: 'tournaments' }),
      page('tournaments-id', 'tournaments/:id', pages.tournament, { title: 'tournaments' }),
      page('tournaments-id-gamehall', 'tournaments/:id/gamehall', pages.tournamentGamehall, { title: 'tournaments' }),
      page('unsubscribe', 'unsubscribe', pages.unsubscribe),
      page('winners', 'winners', pages.winners, { title: 'winners' }),
      page('responsible-game', 'responsible-game', pages.responsibleGame, { title: 'responsibleGame' }),
      page('bets-all', 'bets/*', pages.bets, { title: 'bets' }),
      page('not-found', '*', pages.notFound, { before: contentRedirects }),
    ]),
    withErrors({ Component: EmptyLayout }, [
      page('forms-sign_in', 'forms/sign_in', pages.signIn),
      page('forms-sign_up', 'forms/sign_up', pages.signUp),
    ]),
    withErrors({ lazy: pages.gameLayout }, [page('game-sysname', 'game/:sysname', pages.game, { isGamePage: true })]),
    withErrors({ lazy: pages.spriteLayout }, [page('_icons', '_icons', pages.icons)]),
  ];
}

function localeRoute(queryClient: QueryClient, locale: Locale): RouteObject {
  return {
    path: localizePath('/', locale),
    // Pages render only once their locale's messages are loaded and active.
    loader: async () => {
      await activateLocale(locale);
      return null;
    },
    Component: LocaleRoot,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorPage,
    children: pageRoutes(queryClient),
  };
}

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return LOCALES.map((locale) => localeRoute(queryClient, locale));
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}
