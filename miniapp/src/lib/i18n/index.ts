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
import type en from '@/locales/en.json';
import enFirst from 'virtual:messages/en/first';
import { isDeferredKey, type MessagePart } from './message-parts';

export type Messages = typeof en;
/** fr.json has every key of en.json: tsc rejects it otherwise. */
export type FrenchMessages = Complete<typeof import('@/locales/fr.json')>;
type Complete<T extends Messages> = T;

// Each locale's messages in two parts (message-parts.ts): the first with the locale, the rest
// once a page or a lazy part asks for it (`loadAllMessages`).
const MESSAGE_LOADERS: Record<Locale, Record<MessagePart, () => Promise<{ default: Record<string, unknown> }>>> = {
  en: { first: () => Promise.resolve({ default: enFirst }), rest: () => import('virtual:messages/en/rest') },
  fr: { first: () => import('virtual:messages/fr/first'), rest: () => import('virtual:messages/fr/rest') },
};

const loadedParts = new Set<string>([`${DEFAULT_LOCALE}/first`]);
/** Whether the rest was asked for: a locale activated afterwards loads its rest too. */
let restWanted = false;

async function loadPart(locale: Locale, part: MessagePart): Promise<void> {
  const id = `${locale}/${part}`;
  if (loadedParts.has(id)) return;
  const { default: messages } = await MESSAGE_LOADERS[locale][part]();
  i18n.addResourceBundle(locale, 'translation', messages, true, false);
  loadedParts.add(id);
}

function restLoaded(): boolean {
  return loadedParts.has(`${currentLocale()}/rest`);
}

void i18n.use(initReactI18next).init({
  // A copy: adding the rest merges into the store's object, which is not the module's to change.
  resources: { [DEFAULT_LOCALE]: { translation: { ...enFirst } } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  initAsync: false,
  interpolation: { escapeValue: false },
  // Components re-render when the rest of the messages is added.
  react: { bindI18nStore: 'added' },
  // A key missing from en.json is a bug: fail loudly while developing and testing. In production
  // a key of the rest asked for before it is loaded loads it (see message-parts.ts).
  saveMissing: true,
  missingKeyHandler: (_languages, _namespace, key) => {
    if (import.meta.env.DEV) throw new Error(`Missing translation key "${key}"`);
    if (isDeferredKey(key) && !restLoaded()) void loadAllMessages();
  },
  // …and it shows nothing meanwhile rather than the key.
  parseMissingKeyHandler: (key) => (isDeferredKey(key) && !restLoaded() ? '' : key),
});

/**
 * Loads the rest of the current locale's messages (and of any locale activated later); resolves
 * once they are there. Route pages and lazy parts that use the deferred groups await it.
 */
export async function loadAllMessages(): Promise<void> {
  restWanted = true;
  await loadPart(currentLocale(), 'rest');
}

/** The language of the page being shown; the API client sends it with every call. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** Loads the locale's messages if needed, switches to it and remembers the choice. */
export async function activateLocale(locale: Locale): Promise<void> {
  await Promise.all([loadPart(locale, 'first'), restWanted ? loadPart(locale, 'rest') : undefined]);
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
