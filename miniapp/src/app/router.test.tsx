import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fatalErrorStore, installGlobalErrorHandling } from '@/lib/api/error-pages';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  fatalErrorStore.set(null);
  window.localStorage.clear();
  await activateLocale('en');
});

async function layoutOf(): Promise<string | null> {
  const element = await waitFor(() => {
    const found = document.querySelector('[data-layout]');
    if (!found) throw new Error('no layout yet');
    return found;
  });
  return element.getAttribute('data-layout');
}

/** SPEC §2 route table: path → route name, layout. */
const ROUTES: [string, string, string][] = [
  ['/betting', 'betting', 'default'],
  ['/betting/event/12', 'betting-event-id', 'default'],
  ['/cashier/deposit', 'cashier-deposit', 'default'],
  ['/cashier/deposit/visa', 'cashier-deposit-sysname', 'default'],
  ['/cashier/history?tab=withdrawal', 'cashier-history', 'default'],
  ['/cashier/receipt', 'cashier-receipt', 'default'],
  ['/cashier/wallet', 'cashier-wallet', 'default'],
  ['/cashier/withdraw', 'cashier-withdraw', 'default'],
  ['/confirmation', 'confirmation', 'default'],
  ['/confirmation/success', 'confirmation-success', 'default'],
  ['/gamehall?category=slots', 'gamehall', 'default'],
  ['/jackpots', 'jackpots', 'default'],
  ['/jackpots/12', 'jackpots-id', 'default'],
  ['/loyalty', 'loyalty', 'default'],
  ['/loyalty/gold', 'loyalty-sysname', 'default'],
  ['/loyalty/shop', 'loyalty-shop', 'default'],
  ['/offers', 'offers', 'default'],
  ['/offers/3', 'offers-id', 'default'],
  ['/profile/settings?from=x&toastType=success', 'profile-settings', 'default'],
  ['/profile/security', 'profile-security', 'default'],
  ['/profile/verification', 'profile-verification', 'default'],
  ['/profile/responsible-game', 'profile-responsible-game', 'default'],
  ['/profile/bets', 'profile-bets', 'default'],
  ['/profile/loyalty', 'profile-loyalty', 'default'],
  ['/profile/bonuses', 'profile-bonuses', 'default'],
  ['/profile/cashback', 'profile-cashback', 'default'],
  ['/profile/notification', 'profile-notification', 'default'],
  ['/promotions', 'promotions', 'default'],
  ['/promotions/summer', 'promotions-id', 'default'],
  ['/providers', 'providers', 'default'],
  ['/support', 'support', 'default'],
  ['/tournaments', 'tournaments', 'default'],
  ['/tournaments/5', 'tournaments-id', 'default'],
  ['/tournaments/5/gamehall', 'tournaments-id-gamehall', 'default'],
  ['/winners', 'winners', 'default'],
  ['/responsible-game', 'responsible-game', 'default'],
  ['/bets/anything/at/all', 'bets-all', 'default'],
  ['/game/book-of-ra', 'game-sysname', 'game'],
];

describe('route table (SPEC §2)', () => {
  describe.each(['', '/fr'])('with prefix "%s"', (prefix) => {
    it.each(ROUTES)('%s is %s on the %s layout', async (path, name, layout) => {
      mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
      renderApp(`${prefix}${path}`);
      expect(await layoutOf()).toBe(layout);
      // Built screens and placeholders alike carry their route's name.
      const page = await waitFor(() => {
        const found = document.querySelector<HTMLElement>('[data-route]');
        if (!found) throw new Error('no page yet');
        return found;
      });
      expect(page.dataset.route).toBe(name);
    });
  });

  it('matches paths case-insensitively', async () => {
    mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
    renderApp('/FR/Jackpots/ABC');
    expect((await screen.findByTestId('jackpot-page')).dataset.route).toBe('jackpots-id');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jackpots' })).toBeVisible();
  });

  it('opens the sportsbook at /betting in the language of the path', async () => {
    mockApi({ 'sportsbook.getSports': { total: 0, items: [] }, 'sportsbook.getEvents': { total: 0, items: [] } });
    renderApp('/fr/betting');
    expect(await screen.findByRole('heading', { level: 1, name: 'Paris sportifs' })).toBeVisible();
    expect(await screen.findByText('Aucun match en cours pour le moment.')).toBeVisible();
    renderApp('/betting');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sports betting' })).toBeVisible();
  });

  it('puts the sign-in forms on the empty layout', async () => {
    mockApi();
    renderApp('/forms/sign_up');
    expect(await layoutOf()).toBe('empty');
    expect(await screen.findByRole('form', { name: 'Register' })).toBeVisible();
  });

  it('puts the icon sprite page on the svg-sprite layout', async () => {
    mockApi();
    renderApp('/_icons');
    expect(await layoutOf()).toBe('svg-sprite');
    expect(await screen.findByText('spade')).toBeVisible();
  });

  it('answers a content slug with not found while the content service has no page', async () => {
    mockApi();
    renderApp('/fr/about-us');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
    expect(await layoutOf()).toBe('default');
  });
});

describe('redirects (SPEC §2)', () => {
  it.each([
    ['/cashier', '/cashier/deposit', ''],
    ['/fr/cashier', '/fr/cashier/deposit', ''],
    ['/cashier/billing', '/cashier/deposit', ''],
    ['/profile', '/profile/settings', ''],
    ['/fr/profile', '/fr/profile/settings', ''],
    ['/gamehall/live', '/gamehall', '?category=live'],
    ['/fr/GameHall/Table%20games', '/fr/gamehall', '?category=Table+games'],
  ])('%s → %s%s', async (from, pathname, search) => {
    mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
    const { router } = renderApp(from);
    await waitFor(() => {
      expect(router.state.location.pathname).toBe(pathname);
    });
    expect(router.state.location.search).toBe(search);
  });
});

describe('system pages (SPEC §2)', () => {
  it.each([
    ['/cashier/paysuccess/41', 'Payment successful', 'Play now', '/gamehall'],
    ['/cashier/payfail', 'Payment failed', 'Try again', '/cashier/deposit'],
    ['/cashier/paycancel', 'Payment cancelled', 'Back to the deposit', '/cashier/deposit'],
    ['/cashier/paynewwindow', 'Payment opened in a new window', 'Back to the deposit', '/cashier/deposit'],
  ])('%s shows "%s" with a button to %s', async (path, title, button, target) => {
    mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeVisible();
    expect(screen.getByRole('link', { name: button })).toHaveAttribute('href', target);
  });

  it('has no button on the pending page', async () => {
    mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
    renderApp('/fr/cashier/paypending/9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Paiement en attente' })).toBeVisible();
    expect(screen.getByTestId('payment-page-paypending').querySelector('a')).toBeNull();
  });

  it('sends payment success back to a stored backUrl', async () => {
    window.localStorage.setItem('backUrl', '/game/starburst');
    mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
    renderApp('/cashier/paysuccess');
    expect(await screen.findByRole('link', { name: 'Play now' })).toHaveAttribute('href', '/game/starburst');
  });

  it('shows the user blocked page, with a button to support, when the server says the player is banned', async () => {
    const uninstall = installGlobalErrorHandling();
    mockApi({ 'account.getInfo': apiError('UserBannedException', 403, { ban_type: 'permanent' }) });
    renderApp('/promotions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is blocked' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/support');
    uninstall();
  });

  it('shows maintenance on the empty layout when the site is unavailable', async () => {
    const uninstall = installGlobalErrorHandling();
    mockApi({ 'metadata.getgeneralinfo': apiError('ApplicationUnavailableException', 503) });
    renderApp('/fr');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nous revenons vite' })).toBeVisible();
    expect(await layoutOf()).toBe('empty');
    uninstall();
  });

  it('shows forbidden on the empty layout for a 403', async () => {
    const uninstall = installGlobalErrorHandling();
    mockApi({ 'account.getInfo': apiError('AccessDeniedException', 403) });
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Access denied' })).toBeVisible();
    expect(await layoutOf()).toBe('empty');
    uninstall();
  });

  it('shows the unsubscribe page after unsubscribing with the token', async () => {
    const api = mockApi({ 'account.unsubscribe': 1 });
    renderApp('/unsubscribe?token=abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
    expect(api.calls('account.unsubscribe')[0]?.body?.get('token')).toBe('abc');
  });
});
