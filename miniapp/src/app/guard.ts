import { REDIRECT_URL } from '@/lib/entry-params';
import { localeFromPath, localizePath, stripLocale } from '@/lib/i18n/locale-path';

/** SPEC §2: areas a guest may not enter. */
const GUARDED_WORDS = ['bets', 'cashier', 'profile', 'responsible-game'] as const;

/** Content pages are never guarded, whatever their slug says. */
const UNGUARDED_ROUTES = new Set(['slug']);

/**
 * SPEC §2 route guard: a guest on a path containing bets, cashier, profile or responsible-game
 * (slug-named routes excepted) goes to the index of the path's locale with `redirectUrl`
 * holding the original address. Answers that index address, or null to let the visit through.
 */
export function guardRedirect(
  location: { pathname: string; search: string },
  routeName: string,
  isGuest: boolean,
): string | null {
  if (!isGuest || UNGUARDED_ROUTES.has(routeName)) return null;
  const path = stripLocale(location.pathname).toLowerCase();
  if (!GUARDED_WORDS.some((word) => path.includes(word))) return null;
  const home = localizePath('/', localeFromPath(location.pathname));
  const query = new URLSearchParams({ [REDIRECT_URL]: `${location.pathname}${location.search}` });
  return `${home}?${query.toString()}`;
}

/** Whether a route's path pattern can ever be guarded (so only those routes wait for the account). */
export function isGuardedPattern(pattern: string): boolean {
  return pattern === '*' || GUARDED_WORDS.some((word) => pattern.toLowerCase().includes(word));
}
