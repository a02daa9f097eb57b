import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fr } from './fr';
import { initialLocale, messages } from './provider';
import { KNOWN_CODES } from '../lib/http';
import { PERMISSIONS } from '../lib/permissions';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keys(inner, prefix ? `${prefix}.${key}` : key));
}

function at(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

describe('the console’s texts', () => {
  it('has every English key in French, none empty, and no French text left in English', () => {
    expect(keys(fr).sort()).toEqual(keys(en).sort());
    const english = keys(en);
    for (const key of english) {
      expect(at(en, key), key).not.toBe('');
      expect(at(fr, key), key).not.toBe('');
    }
    const same = english.filter((key) => at(en, key) === at(fr, key) && !/\.(id|ip|email|name)$|Id$/.test(key));
    // Words the two languages share (Bonus, Jackpots, Sessions, Notes, Action, Support, Marketing…).
    expect(same.length).toBeLessThan(english.length / 8);
  });

  it('has words for every field code the data provider maps', () => {
    for (const code of KNOWN_CODES) expect(at(en, `bo.codes.${code}`), code).toBeTypeOf('string');
  });

  it('keeps react-admin’s own texts in both languages', () => {
    expect(at(messages.en, 'ra.action.cancel')).toBe('Cancel');
    expect(at(messages.fr, 'ra.action.cancel')).toBe('Annuler');
  });

  it('starts in French for a French browser, English otherwise', () => {
    expect(initialLocale(['fr-FR', 'en'])).toBe('fr');
    expect(initialLocale(['en-GB', 'fr'])).toBe('en');
    expect(initialLocale([])).toBe('en');
  });

  it('names the permissions the contract lists', () => {
    expect(PERMISSIONS).toHaveLength(17);
  });
});
