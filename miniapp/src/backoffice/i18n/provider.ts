// react-admin's i18n provider: ra-language-english / ra-language-french with the console's own
// keys on top; the locale switch sits in the app bar (and on the sign-in page).
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import { en } from './en';
import { fr } from './fr';

export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'fr', name: 'Français' },
];

export const messages = {
  en: { ...englishMessages, ...en },
  fr: { ...frenchMessages, ...fr },
};

/** The browser's language when it is French, English otherwise. */
export function initialLocale(languages: readonly string[] = navigator.languages): 'en' | 'fr' {
  return languages[0]?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

export function createI18nProvider(locale: 'en' | 'fr' = initialLocale()) {
  return polyglotI18nProvider((wanted) => (wanted === 'fr' ? messages.fr : messages.en), locale, LOCALES, {
    allowMissing: false,
  });
}
