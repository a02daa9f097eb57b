import { describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import fr from '@/locales/fr.json';
import enFirst from 'virtual:messages/en/first';
import frRest from 'virtual:messages/fr/rest';
import { DEFERRED_GROUPS, isDeferredKey, messagePart } from './message-parts';

describe('message parts', () => {
  it('defers only groups that exist', () => {
    for (const group of DEFERRED_GROUPS) expect(Object.keys(en)).toContain(group);
  });

  it('splits a locale into two parts that together are the whole', () => {
    for (const messages of [en, fr]) {
      const first = messagePart(messages, 'first');
      const rest = messagePart(messages, 'rest');
      expect(Object.keys(rest).sort()).toEqual([...DEFERRED_GROUPS].sort());
      expect(Object.keys(first).filter((group) => group in rest)).toEqual([]);
      expect({ ...first, ...rest }).toEqual(messages);
    }
  });

  it('keeps the layout and the home page in the first part', () => {
    for (const group of ['app', 'header', 'footer', 'menu', 'home', 'lobby', 'serverErrors', 'auth']) {
      expect(isDeferredKey(`${group}.x`)).toBe(false);
    }
    expect(isDeferredKey('betting.title')).toBe(true);
    expect(isDeferredKey('cashier')).toBe(true);
  });

  it('is what the build serves as virtual:messages/{locale}/{part}', () => {
    expect(enFirst).toEqual(messagePart(en, 'first'));
    expect(frRest).toEqual(messagePart(fr, 'rest'));
  });
});
