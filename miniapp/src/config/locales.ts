export const LOCALES = ['en', 'fr'] as const;

export type Locale = (typeof LOCALES)[number];

/** The default locale has no path prefix; every other locale lives under `/{locale}`. */
export const DEFAULT_LOCALE: Locale = 'en';

/** SPEC §2: the chosen locale is remembered in this cookie for 365 days. */
export const LOCALE_COOKIE = 'i18n_locale';
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
