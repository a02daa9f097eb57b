import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/layout/page-loader';
import { LOCALES, type Locale } from '@/config/locales';
import { gamehallCategoryPath, paths } from '@/config/paths';
import type { PaymentPageType } from '@/config/system-pages';
import { accountInfoQueryOptions, isAuthenticated } from '@/features/auth/api/get-account-info';
import { activateLocale } from '@/lib/i18n';
import { localeFromPath, localizePath } from '@/lib/i18n/locale-path';
import { guardRedirect, isGuardedPattern } from './guard';
import { DefaultLayout } from './layouts/default-layout';
import { EmptyLayout } from './layouts/empty-layout';
import type { PageTitleKey, RouteHandle } from './route-handle';
import { LocaleRoot } from './locale-root';
import { RouteErrorPage } from './routes/route-error';

type Lazy = NonNullable<RouteObject['lazy']>;

// One chunk per kind of page: a visitor downloads only what the page in front of them needs.
const pages = {
  home: (async () => ({ Component: (await import('./routes/home')).HomePage })) satisfies Lazy,
  comingSoon: (async () => ({ Component: (await import('./routes/coming-soon')).ComingSoonPage })) satisfies Lazy,
  payment: (async () => ({ Component: (await import('./routes/payment-result')).PaymentResultPage })) satisfies Lazy,
  unsubscribe: (async () => ({ Component: (await import('./routes/unsubscribe')).UnsubscribePage })) satisfies Lazy,
  notFound: (async () => ({ Component: (await import('./routes/not-found')).NotFoundPage })) satisfies Lazy,
  game: (async () => ({ Component: (await import('./routes/game')).GamePage })) satisfies Lazy,
  icons: (async () => ({ Component: (await import('./routes/icons')).IconsPage })) satisfies Lazy,
  signIn: (async () => ({ Component: (await import('./routes/forms-auth')).SignInFormPage })) satisfies Lazy,
  signUp: (async () => ({ Component: (await import('./routes/forms-auth')).SignUpFormPage })) satisfies Lazy,
  gameLayout: (async () => ({ Component: (await import('./layouts/game-layout')).GameLayout })) satisfies Lazy,
  spriteLayout: (async () => ({ Component: (await import('./layouts/svg-sprite-layout')).SvgSpriteLayout })) satisfies Lazy,
};

interface PageOptions {
  title?: PageTitleKey;
  isGamePage?: boolean;
  payment?: PaymentPageType;
  /** A redirect (unprefixed path, or computed from the params) once the guard has let the visit through. */
  redirectTo?: string | ((params: LoaderFunctionArgs['params'], url: URL) => string);
}

function pageRoute(queryClient: QueryClient, name: string, path: string, lazy: Lazy, options: PageOptions = {}): RouteObject {
  const { redirectTo, ...rest } = options;
  const handle: RouteHandle = { name, ...rest };
  const needsGuard = isGuardedPattern(path) && name !== 'slug';
  const route: RouteObject = path === '' ? { index: true, handle, lazy } : { path, handle, lazy };
  if (!needsGuard && !redirectTo) return route;
  route.loader = async ({ request, params }) => {
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
  const soon = (name: string, path: string, title: PageTitleKey) => page(name, path, pages.comingSoon, { title });
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
      page('index', '', pages.home),
      page('slug', ':slug', pages.notFound),
      soon('betting', 'betting', 'betting'),
      page('cashier', 'cashier', pages.comingSoon, { redirectTo: paths.cashierDeposit }),
      page('cashier-billing', 'cashier/billing', pages.comingSoon, { redirectTo: paths.cashierDeposit }),
      soon('cashier-deposit', 'cashier/deposit', 'cashierDeposit'),
      soon('cashier-deposit-sysname', 'cashier/deposit/:sysname', 'cashierDeposit'),
      soon('cashier-history', 'cashier/history', 'cashierHistory'),
      ...payment('paysuccess'),
      ...payment('payfail'),
      ...payment('paypending'),
      page('cashier-paycancel', 'cashier/paycancel', pages.payment, { payment: 'paycancel' }),
      page('cashier-paymobile', 'cashier/paymobile', pages.payment, { payment: 'paymobile' }),
      page('cashier-paynewwindow', 'cashier/paynewwindow', pages.payment, { payment: 'paynewwindow' }),
      soon('cashier-receipt', 'cashier/receipt', 'cashierReceipt'),
      soon('cashier-wallet', 'cashier/wallet', 'cashierWallet'),
      soon('cashier-withdraw', 'cashier/withdraw', 'cashierWithdraw'),
      soon('confirmation', 'confirmation', 'confirmation'),
      soon('confirmation-success', 'confirmation/success', 'confirmation'),
      soon('gamehall', 'gamehall', 'gamehall'),
      page('gamehall-id', 'gamehall/:id', pages.comingSoon, {
        redirectTo: (params) => gamehallCategoryPath(params.id ?? ''),
      }),
      soon('jackpots', 'jackpots', 'jackpots'),
      soon('jackpots-id', 'jackpots/:id', 'jackpots'),
      soon('loyalty', 'loyalty', 'loyalty'),
      soon('loyalty-shop', 'loyalty/shop', 'loyaltyShop'),
      soon('loyalty-sysname', 'loyalty/:sysname', 'loyalty'),
      soon('offers', 'offers', 'offers'),
      soon('offers-id', 'offers/:id', 'offers'),
      page('profile', 'profile', pages.comingSoon, { redirectTo: paths.profileSettings }),
      soon('profile-settings', 'profile/settings', 'profileSettings'),
      soon('profile-security', 'profile/security', 'profileSecurity'),
      soon('profile-verification', 'profile/verification', 'profileVerification'),
      soon('profile-responsible-game', 'profile/responsible-game', 'profileResponsibleGame'),
      soon('profile-bets', 'profile/bets', 'profileBets'),
      soon('profile-loyalty', 'profile/loyalty', 'profileLoyalty'),
      soon('profile-bonuses', 'profile/bonuses', 'profileBonuses'),
      soon('profile-cashback', 'profile/cashback', 'profileCashback'),
      soon('profile-notification', 'profile/notification', 'profileNotification'),
      soon('promotions', 'promotions', 'promotions'),
      soon('promotions-id', 'promotions/:id', 'promotions'),
      soon('providers', 'providers', 'providers'),
      soon('support', 'support', 'support'),
      soon('tournaments', 'tournaments', 'tournaments'),
      soon('tournaments-id', 'tournaments/:id', 'tournaments'),
      soon('tournaments-id-gamehall', 'tournaments/:id/gamehall', 'tournaments'),
      page('unsubscribe', 'unsubscribe', pages.unsubscribe),
      soon('winners', 'winners', 'winners'),
      soon('responsible-game', 'responsible-game', 'responsibleGame'),
      soon('bets-all', 'bets/*', 'bets'),
      page('not-found', '*', pages.notFound),
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
