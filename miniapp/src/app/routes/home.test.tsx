import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { activateLocale } from '@/lib/i18n';
import { AppProvider } from '../provider';
import { routes } from '../router';

const GENERAL_INFO = {
  analytic: { gtm_id: null },
  available_currencies: ['USD', 'EUR', 'GBP', 'JPY'],
  available_locales: ['en', 'fr'],
  default_currency: 'USD',
  is_seon_enabled: false,
  domain_state: 'active',
  domain_type: 'main',
  time_to_force_logout: 1800,
  is_bonus_isolation_enabled: false,
  is_game_history_export_enabled: true,
  user_inactivity_cashier_time: 900,
  user_inactivity_pp_time: 900,
};

function envelope(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function mockFetch(...responses: Response[]) {
  const fetchMock = vi.fn<typeof fetch>();
  for (const response of responses) fetchMock.mockResolvedValueOnce(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

function calledUrl(fetchMock: ReturnType<typeof mockFetch>, call = 0): URL {
  const input = fetchMock.mock.calls[call]?.[0];
  if (typeof input !== 'string') throw new Error(`fetch call ${call} had no URL string`);
  return new URL(input, 'http://localhost');
}

afterEach(async () => {
  await activateLocale('en');
});

describe('home page', () => {
  it('welcomes in English and shows the general info with English labels', async () => {
    const fetchMock = mockFetch(envelope({ status: 'ok', data: GENERAL_INFO }));

    renderAt('/');

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

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const url = calledUrl(fetchMock);
    expect(url.pathname).toBe('/api/metadata.getgeneralinfo');
    expect(url.searchParams.get('locale')).toBe('en');
    expect(url.searchParams.get('v')).toBe('2.34');
    expect(document.documentElement.lang).toBe('en');
  });

  it('welcomes in French under /fr, asks the server in French and links back to English', async () => {
    const fetchMock = mockFetch(envelope({ status: 'ok', data: GENERAL_INFO }));

    renderAt('/fr');

    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue chez Croupier' })).toBeVisible();
    expect(await screen.findByTestId('default-currency')).toHaveTextContent('Dollar américain');
    const languages = within(screen.getByRole('list', { name: 'Langues' })).getAllByRole('listitem');
    expect(languages.map((item) => item.textContent)).toEqual(['Anglais', 'Français']);
    expect(calledUrl(fetchMock).searchParams.get('locale')).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(screen.getByRole('link', { name: 'English' })).toHaveAttribute('href', '/');
  });

  it('switches language through the link, keeping the page', async () => {
    mockFetch(
      envelope({ status: 'ok', data: GENERAL_INFO }),
      envelope({ status: 'ok', data: GENERAL_INFO }),
    );
    const router = renderAt('/');
    await screen.findByTestId('default-currency');

    fireEvent.click(screen.getByRole('link', { name: 'Français' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue chez Croupier' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr');
    expect(await screen.findByTestId('default-currency')).toHaveTextContent('Dollar américain');
  });

  it('shows a translated error with a retry that loads the data', async () => {
    const fetchMock = mockFetch(
      envelope(
        { status: 'error', error: { type: 'ApplicationUnavailableException', message: 'Down', error_data: {} } },
        503,
      ),
      envelope({ status: 'ok', data: GENERAL_INFO }),
    );

    renderAt('/fr');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Impossible de charger les informations du site.');

    fireEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));

    expect(await screen.findByTestId('default-currency')).toHaveTextContent('USD');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shows a translated loading state while the general info is on its way', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(() => new Promise<Response>(() => undefined)));

    renderAt('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Croupier' })).toBeVisible();
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
  });
});

describe('not-found page', () => {
  it('answers an unknown English path in English', async () => {
    renderAt('/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });

  it('answers an unknown path under /fr in French', async () => {
    renderAt('/fr/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
  });
});
