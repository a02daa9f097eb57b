import { describe, expect, it } from 'vitest';
import { guardRedirect, isGuardedPattern } from './guard';

const at = (path: string) => {
  const url = new URL(path, 'http://localhost');
  return { pathname: url.pathname, search: url.search };
};

describe('route guard', () => {
  it.each([
    ['/cashier/deposit', 'cashier-deposit'],
    ['/cashier/history?tab=bonuses', 'cashier-history'],
    ['/profile/settings', 'profile-settings'],
    ['/profile/bets', 'profile-bets'],
    ['/responsible-game', 'responsible-game'],
    ['/bets/123', 'bets-all'],
  ])('sends a guest on %s to the index with redirectUrl', (path, name) => {
    const target = guardRedirect(at(path), name, true);
    expect(target).toBe(`/?redirectUrl=${encodeURIComponent(path)}`);
  });

  it('keeps the locale: a guest on /fr/profile/settings goes to /fr', () => {
    expect(guardRedirect(at('/fr/profile/settings'), 'profile-settings', true)).toBe(
      `/fr?redirectUrl=${encodeURIComponent('/fr/profile/settings')}`,
    );
  });

  it('matches the path case-insensitively', () => {
    expect(guardRedirect(at('/CASHIER/Deposit'), 'cashier-deposit', true)).toBe(
      `/?redirectUrl=${encodeURIComponent('/CASHIER/Deposit')}`,
    );
  });

  it('lets signed-in players through', () => {
    expect(guardRedirect(at('/cashier/deposit'), 'cashier-deposit', false)).toBeNull();
  });

  it('lets guests into open areas and into slug-named pages whatever their slug', () => {
    expect(guardRedirect(at('/promotions'), 'promotions', true)).toBeNull();
    expect(guardRedirect(at('/betting'), 'betting', true)).toBeNull();
    expect(guardRedirect(at('/cashier-bonus-rules'), 'slug', true)).toBeNull();
  });

  it('knows which route patterns can be guarded', () => {
    expect(isGuardedPattern('cashier/deposit/:sysname')).toBe(true);
    expect(isGuardedPattern('bets/*')).toBe(true);
    expect(isGuardedPattern('*')).toBe(true);
    expect(isGuardedPattern('promotions/:id')).toBe(false);
  });
});
