import { queryOptions } from '@tanstack/react-query';
import { cmsGet } from './cms';
import { docs, nonEmptyStr } from './read';

/** SPEC §2 content-defined redirect: `from_url` may end in `*`, which `to_url` may repeat. */
export interface ContentRedirect {
  from: string;
  to: string;
}

export type RedirectTarget = { external: true; url: string } | { external: false; path: string };

export function toRedirects(value: unknown): ContentRedirect[] {
  return (docs(value) ?? []).flatMap((doc) => {
    const from = nonEmptyStr(doc.from_url);
    const to = nonEmptyStr(doc.to_url);
    return from !== undefined && to !== undefined ? [{ from, to }] : [];
  });
}

const trimSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/**
 * Where `path` (unprefixed, no query) is sent, if a redirect matches: the exact `from_url`
 * (case-insensitively, trailing slash ignored) or, for `from/*`, anything under `from/`, the
 * matched rest replacing a `*` in `to_url`. Exact matches win over wildcards.
 */
export function matchRedirect(path: string, redirects: readonly ContentRedirect[]): RedirectTarget | null {
  const wanted = trimSlash(path).toLowerCase();
  const exact = redirects.find((redirect) => !redirect.from.endsWith('*') && trimSlash(redirect.from).toLowerCase() === wanted);
  let to: string | null = exact?.to ?? null;
  if (to === null) {
    for (const redirect of redirects) {
      if (!redirect.from.endsWith('*')) continue;
      const prefix = redirect.from.slice(0, -1).toLowerCase();
      if (!wanted.startsWith(prefix) || wanted.length === prefix.length) continue;
      const rest = trimSlash(path).slice(prefix.length);
      to = redirect.to.replace('*', rest);
      break;
    }
  }
  if (to === null) return null;
  if (isExternalUrl(to)) return { external: true, url: to };
  // Only paths of this site; `//host` would leave it.
  if (!to.startsWith('/') || to.startsWith('//')) return null;
  return { external: false, path: to };
}

export function redirectsQueryOptions() {
  return queryOptions({
    queryKey: ['content', 'redirects'],
    // Redirects are not localized.
    queryFn: async ({ signal }) => toRedirects(await cmsGet('redirects', { 'pagination[pageSize]': 100 }, { signal, locale: null })),
    staleTime: 5 * 60_000,
  });
}
