import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, siteConfigStore } from '@/config/site-config';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { telegramStore } from '@/lib/telegram';
import { toastStore } from '@/lib/toasts/toast-store';
import { apiError, GUEST, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

/** A Strapi-style answer of the content service. */
function strapi(data: unknown, status = 200): Response {
  return new Response(JSON.stringify({ data, meta: {} }), { status, headers: { 'Content-Type': 'application/json' } });
}

const entry = (id: number, attributes: Record<string, unknown>) => ({ id, attributes });

afterEach(async () => {
  siteConfigStore.set(DEFAULT_SITE_CONFIG);
  telegramStore.set({ active: false, launch: null, scheme: null, isFullscreen: false });
  dialogs.closeAll({ immediate: true });
  toastStore.set([]);
  await activateLocale('en');
});

describe('the site from the content service', () => {
  it('shows the menu and footer the content defines, and its content pages at /{slug}', async () => {
    const api = mockApi({
      '/cms/api/common': () =>
        strapi(
          entry(1, {
            menu: [{ label: 'live', title: 'Live tables', to: '/gamehall?category=live', icon: 'live' }],
            footer: { text: 'Demo brand.', columns: [{ title: 'Help', links: [{ title: 'FAQ', to: '/faq' }] }] },
          }),
        ),
      '/cms/api/pages': ({ url }: { url: URL }) =>
        strapi(
          url.searchParams.get('filters[slug][$eqi]') === 'About'
            ? [entry(1, { slug: 'about', title: 'About', content: '<h1>About us</h1><script>bad()</script>' })]
            : [],
        ),
      '/cms/api/redirects': () => strapi([]),
    });
    const { container } = renderApp('/About');

    expect(await screen.findByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
    expect(container.querySelector('script')).toBeNull();
    expect(await screen.findByRole('link', { name: 'Live tables' })).toHaveAttribute('href', '/gamehall?category=live');
    const footer = screen.getByRole('navigation', { name: 'Site links' });
    expect(within(footer).getByRole('heading', { name: 'Help' })).toBeVisible();
    expect(screen.getByText('Demo brand.')).toBeVisible();
    expect(api.calls('/cms/api/pages')[0]?.url.searchParams.get('locale')).toBe('en');
  });

  it('an unknown slug is the not-found page; a content redirect sends elsewhere first', async () => {
    mockApi({
      '/cms/api/pages': () => strapi([]),
      '/cms/api/redirects': () => strapi([entry(1, { from_url: '/promo/*', to_url: '/promotions/*' })]),
    });
    const { router } = renderApp('/fr/promo/summer?x=1');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/fr/promotions/summer');
    });
    expect(router.state.location.search).toBe('?x=1');

    await act(() => router.navigate('/nothing-here'));
    expect(await screen.findByTestId('system-page-notFound')).toBeVisible();
  });

  it('keeps the defaults when the content service fails', async () => {
    mockApi({ '/cms/api/common': () => strapi(null, 500) });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Live' })).toBeInTheDocument();
  });

  it('opens a content popup named by the popup parameter', async () => {
    mockApi({
      '/cms/api/popups': () => strapi([entry(7, { sysname: 'welcome-bonus', title: 'Welcome bonus', text: 'Claim it', kind: 'popup', audience: 'guest' })]),
    });
    renderApp('/?popup=welcome-bonus');
    const dialog = await screen.findByRole('dialog', { name: 'Welcome bonus' });
    expect(within(dialog).getByText('Claim it')).toBeVisible();
  });
});

describe('inside Telegram', () => {
  const launch = { initData: 'user=%7B%22id%22%3A42%7D&hash=ab', user: { id: 42, username: 'ann', languageCode: 'fr' }, hash: 'ab', startParam: 'promo-X', platform: 'android' };

  it('signs the player in from the init data with no form', async () => {
    let signedIn = false;
    const api = mockApi({
      'account.getInfo': () => (signedIn ? player() : GUEST),
      'auth.telegram': () => {
        signedIn = true;
        return player({ is_registration_completed: false });
      },
    });
    telegramStore.set({ active: true, launch, scheme: 'dark', isFullscreen: false });
    renderApp('/');

    expect(await screen.findByRole('button', { name: 'Account menu' })).toBeVisible();
    const body = api.calls('auth.telegram')[0]?.body;
    expect(body?.get('init_data')).toBe(launch.initData);
    expect(body?.get('is_tg')).toBe('1');
    expect(body?.get('id')).toBe('42');
    expect(body?.get('username')).toBe('ann');
    expect(body?.get('hash')).toBe('ab');
    expect(body?.get('language_code')).toBe('fr');
    expect(body?.get('payload')).toBe('promo-X');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lands on the deep link target once signed in, remembering its promo code', async () => {
    let signedIn = false;
    mockApi({
      'account.getInfo': () => (signedIn ? player() : GUEST),
      'auth.telegram': () => {
        signedIn = true;
        return player();
      },
    });
    telegramStore.set({ active: true, launch: { ...launch, startParam: 'pWELCOME-vpromotions' }, scheme: 'dark', isFullscreen: false });
    const { router } = renderApp('/fr');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/fr/promotions');
    });
    expect(window.localStorage.getItem('promo_code')).toBe('WELCOME');
  });

  it('shows the SPEC §8 toast when Telegram sign-in fails', async () => {
    mockApi({ 'auth.telegram': () => apiError('AuthorizationException', 401) });
    telegramStore.set({ active: true, launch, scheme: 'dark', isFullscreen: false });
    renderApp('/');
    expect(await screen.findByText('Wrong registration server error')).toBeVisible();
  });
});
