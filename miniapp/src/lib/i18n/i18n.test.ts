import { afterEach, describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import fr from '@/locales/fr.json';
import { activateLocale, currentLocale, i18n } from './index';

function keysOf(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

afterEach(async () => {
  await activateLocale('en');
});

describe('i18n', () => {
  it('has exactly the keys of en.json in fr.json', () => {
    expect(keysOf(fr).sort()).toEqual(keysOf(en).sort());
  });

  it('throws on a missing key in development', () => {
    // @ts-expect-error -- a key missing from en.json is a type error as well
    expect(() => i18n.t('home.noSuchKey')).toThrow('Missing translation key "home.noSuchKey"');
  });

  it('loads French on demand, switches to it and remembers it in the i18n_locale cookie', async () => {
    await activateLocale('fr');

    expect(currentLocale()).toBe('fr');
    expect(i18n.t('home.title')).toBe('Bienvenue chez Croupier');
    expect(document.documentElement.lang).toBe('fr');
    expect(document.cookie).toContain('i18n_locale=fr');

    await activateLocale('en');
    expect(i18n.t('home.title')).toBe('Welcome to Croupier');
    expect(document.documentElement.lang).toBe('en');
    expect(document.cookie).toContain('i18n_locale=en');
  });
});
