import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { localeFromPath, localizePath, stripLocale } from '@/lib/i18n/locale-path';
import { matchRedirect, redirectsQueryOptions } from './api/redirects';

/**
 * SPEC §2 content-defined redirects, for paths no route of the app owns (`/{slug}` and unknown
 * paths). The server answers a first visit with a 301 already; this covers navigation inside the
 * app. An internal target keeps the locale prefix and the query; an external one leaves the site.
 */
export function contentRedirectLoader(queryClient: QueryClient) {
  return async ({ request }: Pick<LoaderFunctionArgs, 'request'>): Promise<Response | null> => {
    const url = new URL(request.url);
    let redirects;
    try {
      redirects = await queryClient.query(redirectsQueryOptions());
    } catch (error) {
      console.warn('content redirects not loaded', error);
      return null;
    }
    const target = matchRedirect(stripLocale(url.pathname), redirects);
    if (!target) return null;
    if (target.external) {
      window.location.assign(target.url);
      // The page is leaving; render nothing new meanwhile.
      return new Promise<never>(() => undefined);
    }
    return redirect(localizePath(target.path, localeFromPath(url.pathname)) + url.search);
  };
}
