import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/layout/page-loader';
import { LOCALES, type Locale } from '@/config/locales';
import { activateLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { RootLayout } from './routes/root-layout';
import { RouteErrorPage } from './routes/route-error';

/** Every page, with unprefixed paths; each locale mounts the same table under its prefix. */
function pageRoutes(): RouteObject[] {
  return [
    { index: true, lazy: async () => ({ Component: (await import('./routes/home')).HomePage }) },
    { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundPage }) },
  ];
}

function localeRoute(locale: Locale): RouteObject {
  return {
    path: localizePath('/', locale),
    // Pages render only once their locale's messages are loaded and active.
    loader: async () => {
      await activateLocale(locale);
      return null;
    },
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorPage,
    children: pageRoutes(),
  };
}

export const routes: RouteObject[] = LOCALES.map(localeRoute);

export function createAppRouter() {
  return createBrowserRouter(routes);
}
