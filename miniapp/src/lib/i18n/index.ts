import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE_SECONDS,
  LOCALES,
  type Locale,
} from '@/config/locales';
import en from '@/locales/en.json';

export type Messages = typeof en;

// Typing each loader as returning `Messages` makes tsc reject a locale file that lacks a key of en.json.
const MESSAGE_LOADERS: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => Promise.resolve({ default: en }),
  fr: () => import('@/locales/fr.json'),
};

void i18n.use(initReactI18next).init({
  resources: { [DEFAULT_LOCALE]: { translation: en } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  initAsync: false,
  interpolation: { escapeValue: false },
  // A key missing from en.json is a bug: fail loudly while developing and testing.
  saveMissing: import.meta.env.DEV,
  missingKeyHandler: (_languages, _namespace, key) => {
    throw new Error(`Missing translation key "${key}"`);
  },
});

/** The language of the page being shown; the API client sends it with every call. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** Loads the locale's messages if needed, switches to it and remembers the choice. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (!i18n.hasResourceBundle(locale, 'translation')) {
    const { default: messages } = await MESSAGE_LOADERS[locale]();
    i18n.addResourceBundle(locale, 'translation', messages);
  }
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`;
}

/** The current locale, re-rendering the caller when it changes. */
export function useLocale(): Locale {
  const { i18n: instance } = useTranslation();
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

export { i18n };
