import { DEFAULT_LOCALE, isLocale, type Locale } from '@/config/locales';

const PREFIX = /^\/([^/?#]+)(?=[/?#]|$)/;

/** Reads the locale from a path's first segment; an unknown or missing prefix means the default locale. */
export function localeFromPath(pathname: string): Locale {
  const segment = PREFIX.exec(pathname)?.[1]?.toLowerCase();
  return segment !== DEFAULT_LOCALE && isLocale(segment) ? segment : DEFAULT_LOCALE;
}

/** Removes the locale prefix: `/fr/gamehall?x=1` → `/gamehall?x=1`, `/fr` → `/`. */
export function stripLocale(path: string): string {
  if (localeFromPath(path) === DEFAULT_LOCALE) return path;
  const rest = path.replace(PREFIX, '');
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Adds the locale prefix to an unprefixed path: (`/gamehall`, fr) → `/fr/gamehall`, (`/`, fr) → `/fr`. */
export function localizePath(path: string, locale: Locale): string {
  if (locale === DEFAULT_LOCALE) return path;
  if (path === '/' || path.startsWith('/?') || path.startsWith('/#')) return `/${locale}${path.slice(1)}`;
  return `/${locale}${path}`;
}

/** The same page in another locale. */
export function switchLocalePath(path: string, locale: Locale): string {
  return localizePath(stripLocale(path), locale);
}
