import { describe, expect, it } from 'vitest';
import { localeFromPath, localizePath, stripLocale, switchLocalePath } from './locale-path';

describe('localeFromPath', () => {
  it.each([
    ['/', 'en'],
    ['/gamehall', 'en'],
    ['/fr', 'fr'],
    ['/fr/', 'fr'],
    ['/fr/gamehall', 'fr'],
    ['/FR/gamehall', 'fr'],
    ['/fr?tab=deposit', 'fr'],
    ['/french-roulette', 'en'],
    ['/en/gamehall', 'en'],
  ])('%s is %s', (path, locale) => {
    expect(localeFromPath(path)).toBe(locale);
  });
});

describe('stripLocale', () => {
  it.each([
    ['/fr', '/'],
    ['/fr/', '/'],
    ['/fr/gamehall', '/gamehall'],
    ['/fr/cashier/history?tab=bonuses#top', '/cashier/history?tab=bonuses#top'],
    ['/fr?show_popup_reg=1', '/?show_popup_reg=1'],
    ['/gamehall', '/gamehall'],
    ['/french-roulette', '/french-roulette'],
  ])('%s → %s', (path, stripped) => {
    expect(stripLocale(path)).toBe(stripped);
  });
});

describe('localizePath', () => {
  it('leaves English paths unprefixed', () => {
    expect(localizePath('/', 'en')).toBe('/');
    expect(localizePath('/gamehall', 'en')).toBe('/gamehall');
  });

  it('puts French paths under /fr without a trailing slash on the home page', () => {
    expect(localizePath('/', 'fr')).toBe('/fr');
    expect(localizePath('/?popup=promo', 'fr')).toBe('/fr?popup=promo');
    expect(localizePath('/gamehall', 'fr')).toBe('/fr/gamehall');
    expect(localizePath('/jackpots/7?x=1', 'fr')).toBe('/fr/jackpots/7?x=1');
  });
});

describe('switchLocalePath', () => {
  it('maps a page to the same page in the other language, both ways', () => {
    expect(switchLocalePath('/', 'fr')).toBe('/fr');
    expect(switchLocalePath('/fr', 'en')).toBe('/');
    expect(switchLocalePath('/gamehall?category=slots', 'fr')).toBe('/fr/gamehall?category=slots');
    expect(switchLocalePath('/fr/gamehall?category=slots', 'en')).toBe('/gamehall?category=slots');
    expect(switchLocalePath('/fr/gamehall', 'fr')).toBe('/fr/gamehall');
  });
});
