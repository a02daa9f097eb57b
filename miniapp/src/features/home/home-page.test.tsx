import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { apiError, GENERAL_INFO, mockApi } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

afterEach(async () => {
  await activateLocale('en');
});

describe('home page', () => {
  it('welcomes in English and shows the general info with English labels', async () => {
    const api = mockApi();

    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Croupier' })).toBeVisible();
    const defaultCurrency = await screen.findByTestId('default-currency');
    expect(defaultCurrency).toHaveTextContent('USD');
    expect(defaultCurrency).toHaveTextContent('US dollar');

    const currencies = within(screen.getByRole('list', { name: 'Available currencies' })).getAllByRole('listitem');
    expect(currencies.map((item) => item.textContent)).toEqual([
      'USDUS dollar',
      'EUREuro',
      'GBPBritish pound',
      'JPY',
    ]);
    const languages = within(screen.getByRole('list', { name: 'Languages' })).getAllByRole('listitem');
    expect(languages.map((item) => item.textContent)).toEqual(['English', 'French']);

    const calls = api.calls('metadata.getgeneralinfo');
    expect(calls).toHaveLength(1);
    const url = calls[0]?.url;
    expect(url?.searchParams.get('locale')).toBe('en');
    expect(url?.searchParams.get('v')).toBe('2.34');
    expect(document.documentElement.lang).toBe('en');
  });

  it('welcomes in French under /fr, asks the server in French and links back to English', async () => {
    const api = mockApi();

    renderApp('/fr');

    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue chez Croupier' })).toBeVisible();
    expect(await screen.findByTestId('default-currency')).toHaveTextContent('Dollar américain');
    const languages = within(screen.getByRole('list', { name: 'Langues' })).getAllByRole('listitem');
    expect(languages.map((item) => item.textContent)).toEqual(['Anglais', 'Français']);
    expect(api.calls('metadata.getgeneralinfo')[0]?.url.searchParams.get('locale')).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(screen.getByRole('link', { name: 'English' })).toHaveAttribute('href', '/');
  });

  it('switches language through the link, keeping the page, and tells the server', async () => {
    const api = mockApi({ 'account.changelocale': 1 });
    const { router } = renderApp('/');
    await screen.findByTestId('default-currency');

    fireEvent.click(screen.getByRole('link', { name: 'Français' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue chez Croupier' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr');
    expect(await screen.findByTestId('default-currency')).toHaveTextContent('Dollar américain');
    await vi.waitFor(() => {
      expect(api.calls('account.changelocale')).toHaveLength(1);
    });
    expect(api.calls('account.changelocale')[0]?.body?.get('locale')).toBe('fr');
  });

  it('shows a translated error with a retry that loads the data', async () => {
    let calls = 0;
    const api = mockApi({
      'metadata.getgeneralinfo': () => {
        calls += 1;
        return calls === 1 ? apiError('InternalServerErrorException', 500, {}, 'Down') : GENERAL_INFO;
      },
    });

    renderApp('/fr');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Impossible de charger les informations du site.');

    fireEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));

    expect(await screen.findByTestId('default-currency')).toHaveTextContent('USD');
    expect(api.calls('metadata.getgeneralinfo')).toHaveLength(2);
  });

  it('shows a translated loading state while the general info is on its way', async () => {
    mockApi();
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(() => new Promise<Response>(() => undefined)));

    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Croupier' })).toBeVisible();
    expect(screen.getAllByRole('status', { name: 'Loading…' }).length).toBeGreaterThan(0);
  });
});

describe('not-found page', () => {
  it('answers an unknown English path in English', async () => {
    mockApi();
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });

  it('answers an unknown path under /fr in French', async () => {
    mockApi();
    renderApp('/fr/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
  });
});
