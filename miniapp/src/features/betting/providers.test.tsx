// External sportsbook providers in the client: /betting's book switch (none without providers),
// the sign-in prompt for a guest, the launched frame for a player with its error states, the
// choice kept in the address (reload, back), and the provider bets on /profile/bets with their
// filters, pages and both languages.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import { PROVIDER_BETS_PAGE_SIZE, type ProviderBet } from './api/providers';
import { PROVIDER_RELAUNCH_MARGIN_MS } from './provider-book';
import { initialSlip, slipStore } from './slip-store';

beforeEach(() => {
  window.localStorage.clear();
  slipStore.set(initialSlip());
});

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };
const SPORTS = { total: 0, items: [], providers: ['acme', 'betzone'], provider_titles: { acme: 'acme', betzone: 'betzone' } };
/** The same providers, one with a display name configured. */
const TITLED = { ...SPORTS, provider_titles: { acme: 'Acme Sports', betzone: 'betzone' } };
const NO_PROVIDERS = { total: 0, items: [], providers: [], provider_titles: {} };
const EVENTS = { total: 0, items: [] };
const LAUNCH = { provider: 'acme', url: 'https://acme.example/frame?token=tok-1&currency=USD', token: 'tok-1', currency: 'USD', expires_at: 1_900_000_000, expires_in: 14_400 };

function providerBet(overrides: Partial<ProviderBet> = {}): ProviderBet {
  return {
    provider: 'acme',
    bet_id: 'AC-77',
    kind: 'accumulator',
    system: null,
    stake: { amount: '3.00', currency: 'USD' },
    potential: { amount: '9.00', currency: 'USD' },
    payout: { amount: '9.00', currency: 'USD' },
    status: 'won',
    created_at: 1_767_618_000,
    settled_at: 1_767_625_000,
    selections: [
      { id: 's-1', event: 'Lyon v Nice', market: 'Match winner', selection: 'Lyon', odds: '2.00', result: 'won', dead_heat: null },
      { id: 's-2', event: 'Metz v Brest', market: 'Total 2.5', selection: 'Over', odds: '1.50', result: 'won', dead_heat: '1/2' },
    ],
    ...overrides,
  };
}

describe('/betting with external providers', () => {
  it('looks as before when no provider is configured', async () => {
    mockApi({ 'sportsbook.getSports': NO_PROVIDERS, 'sportsbook.getEvents': EVENTS });
    renderApp('/betting');
    expect(await screen.findByTestId('events-empty')).toBeVisible();
    expect(screen.queryByTestId('books')).toBeNull();
  });

  it('asks a guest who chooses a provider to sign in, and keeps the choice in the address', async () => {
    const api = mockApi({ 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': EVENTS });
    const { router } = renderApp('/betting');
    const books = await screen.findByTestId('books');
    expect(within(books).getByRole('button', { name: 'Our sportsbook' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(within(books).getByRole('button', { name: 'acme' }));
    expect(await screen.findByRole('dialog')).toBeVisible();
    expect(router.state.location.search).toBe('?book=acme');
    expect(await screen.findByTestId('provider-sign-in')).toHaveTextContent('Sign in to bet at acme.');
    expect(within(screen.getByTestId('books')).getByRole('button', { name: 'acme' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls('sportsbook.launch')).toHaveLength(0);
    // Back: the house book again.
    dialogs.closeAll({ immediate: true });
    await act(async () => {
      await router.navigate(-1);
    });
    expect(await screen.findByTestId('events-empty')).toBeVisible();
    expect(router.state.location.search).toBe('');
  });

  it('opens the provider’s frame for a player from the address, and goes back to the house book', async () => {
    const api = mockApi({ ...signedIn, 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': EVENTS, 'sportsbook.launch': LAUNCH });
    const { router } = renderApp('/betting?book=acme');
    const frame = await screen.findByTestId('provider-frame');
    expect(frame).toHaveAttribute('src', LAUNCH.url);
    expect(frame).toHaveAttribute('title', 'acme sportsbook');
    expect(api.calls('sportsbook.launch')).toHaveLength(1);
    expect(api.calls('sportsbook.launch')[0]?.body?.get('provider')).toBe('acme');
    // The house slip is not shown beside a provider's own.
    expect(screen.queryByTestId('bet-slip')).toBeNull();
    fireEvent.click(within(screen.getByTestId('books')).getByRole('button', { name: 'Our sportsbook' }));
    expect(await screen.findByTestId('events-empty')).toBeVisible();
    expect(router.state.location.search).toBe('');
  });

  it('launches the frame again before its token ends, and when the page comes back into view past that', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const quarter = 15 * 60_000;
      const api = mockApi({ ...signedIn, 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': EVENTS, 'sportsbook.launch': { ...LAUNCH, expires_in: 900 } });
      renderApp('/betting?book=acme');
      expect(await screen.findByTestId('provider-frame')).toHaveAttribute('src', LAUNCH.url);
      api.on('sportsbook.launch', { ...LAUNCH, url: 'https://acme.example/frame?token=tok-2', token: 'tok-2', expires_in: 900 });
      // By the device's clock from the answer, not by `expires_at` (far off here).
      await act(async () => {
        await vi.advanceTimersByTimeAsync(quarter - PROVIDER_RELAUNCH_MARGIN_MS - 1_000);
      });
      expect(api.calls('sportsbook.launch')).toHaveLength(1);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_000);
      });
      await waitFor(() => {
        expect(screen.getByTestId('provider-frame')).toHaveAttribute('src', 'https://acme.example/frame?token=tok-2');
      });
      expect(api.calls('sportsbook.launch')).toHaveLength(2);
      // A phone asleep past the next one: back into view, it launches at once.
      api.on('sportsbook.launch', { ...LAUNCH, url: 'https://acme.example/frame?token=tok-3', token: 'tok-3', expires_in: 900 });
      vi.setSystemTime(Date.now() + quarter);
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await waitFor(() => {
        expect(screen.getByTestId('provider-frame')).toHaveAttribute('src', 'https://acme.example/frame?token=tok-3');
      });
      expect(api.calls('sportsbook.launch')).toHaveLength(3);
      // A token that ends almost at once is not relaunched in a loop: the next one waits the margin.
      api.on('sportsbook.launch', { ...LAUNCH, url: 'https://acme.example/frame?token=tok-4', token: 'tok-4', expires_in: 1 });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(quarter - PROVIDER_RELAUNCH_MARGIN_MS);
      });
      await waitFor(() => {
        expect(screen.getByTestId('provider-frame')).toHaveAttribute('src', 'https://acme.example/frame?token=tok-4');
      });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(PROVIDER_RELAUNCH_MARGIN_MS - 1_000);
      });
      expect(api.calls('sportsbook.launch')).toHaveLength(4);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_000);
      });
      expect(api.calls('sportsbook.launch')).toHaveLength(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a player who bets in the frame signed in past the forced-logout time, and signs out one who left the page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      // 1,800 s (the mock's time_to_force_logout): warned at 24 min, signed out at 30 without activity.
      const api = mockApi({ ...signedIn, 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': EVENTS, 'sportsbook.launch': LAUNCH, 'auth.logout': 1 });
      renderApp('/betting?book=acme');
      const frame = await screen.findByTestId('provider-frame');
      // The player clicks into the frame and bets there (nothing reaches the page).
      frame.focus();
      act(() => {
        window.dispatchEvent(new Event('blur'));
      });
      // A minute at a time: the signed-in watchers load (a chunk of their own) meanwhile.
      for (let minute = 0; minute < 45; minute += 1) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(60_000);
        });
      }
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(api.calls('auth.logout')).toHaveLength(0);
      expect(screen.getByTestId('provider-frame')).toBeInTheDocument();
      // The phone locked: timed again, and signed out 30 minutes on.
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      for (let minute = 0; minute < 30; minute += 1) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(60_000);
        });
      }
      await waitFor(() => {
        expect(api.calls('auth.logout')).toHaveLength(1);
      });
    } finally {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      vi.useRealTimers();
    }
  });

  it('shows the loading state, then a refusal with a retry that launches again', async () => {
    const api = mockApi({ ...signedIn, 'sportsbook.getSports': SPORTS, 'sportsbook.launch': apiError('UnknownErrorException', 500, {}, '') });
    // The launch answers once the loading state has been seen.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = api.fetch.getMockImplementation();
    api.fetch.mockImplementation(async (input, init) => {
      if (typeof input === 'string' && input.includes('sportsbook.launch')) await gate;
      if (!answer) throw new Error('no fetch mock');
      return answer(input, init);
    });
    renderApp('/betting?book=betzone');
    expect(await screen.findByRole('status', { name: 'Opening betzone…' })).toBeInTheDocument();
    expect(screen.getByTestId('provider-box')).toHaveAttribute('aria-busy', 'true');
    release();
    const alert = await screen.findByTestId('provider-error');
    expect(alert).toHaveTextContent('betzone could not be opened. Please try again.');
    api.on('sportsbook.launch', { ...LAUNCH, provider: 'betzone', url: 'https://betzone.example/?t=2' });
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('provider-frame')).toHaveAttribute('src', 'https://betzone.example/?t=2');
    expect(api.calls('sportsbook.launch')).toHaveLength(2);
  });

  it('asks a player without a currency to complete the registration, in French', async () => {
    mockApi({
      ...signedIn,
      'sportsbook.getSports': SPORTS,
      'sportsbook.launch': apiError('UserNeedProfileDataException', 409, { missing: ['currency'] }),
      'account.getCurrencies': ['USD', 'EUR'],
    });
    renderApp('/fr/betting?book=acme');
    const alert = await screen.findByTestId('provider-error');
    expect(alert).toHaveAttribute('data-error', 'UserNeedProfileDataException');
    expect(alert).toHaveTextContent('Terminez votre inscription (choisissez votre devise) pour parier chez acme.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Terminer mon inscription' }));
    expect(await screen.findByRole('dialog')).toBeVisible();
  });

  it('shows the house book for an unknown provider in the address', async () => {
    const api = mockApi({ ...signedIn, 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': EVENTS });
    renderApp('/betting?book=nobody');
    expect(await screen.findByTestId('events-empty')).toBeVisible();
    expect(within(screen.getByTestId('books')).getByRole('button', { name: 'Our sportsbook' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls('sportsbook.launch')).toHaveLength(0);
  });
});

describe('the player’s provider bets', () => {
  it('switches from the house bets to a provider’s, with each selection, the payout, filters and pages', async () => {
    const page = Array.from({ length: PROVIDER_BETS_PAGE_SIZE }, (_, index) => providerBet({ bet_id: `AC-${String(index)}` }));
    const api = mockApi({
      ...signedIn,
      'sportsbook.getSports': SPORTS,
      'bets.get': { total: 0, items: [] },
      'games.getHistory': { items: [], total: 0 },
    });
    api.on('sportsbook.getProviderBets', ({ url }: { url: URL }) =>
      url.searchParams.get('offset') === '0' ? { total: PROVIDER_BETS_PAGE_SIZE + 1, items: page } : { total: PROVIDER_BETS_PAGE_SIZE + 1, items: [providerBet({ bet_id: 'AC-last', status: 'open' })] },
    );
    const { router } = renderApp('/profile/bets');
    expect(await screen.findByTestId('bets-empty')).toHaveTextContent('You have no open bet.');
    fireEvent.click(within(screen.getByTestId('bets-books')).getByRole('button', { name: 'acme' }));
    await waitFor(() => {
      expect(router.state.location.search).toBe('?book=acme');
    });
    fireEvent.click(screen.getByTestId('bets-settled'));
    const cards = await screen.findAllByTestId('provider-bet-card');
    expect(cards).toHaveLength(PROVIDER_BETS_PAGE_SIZE);
    const last = api.calls('sportsbook.getProviderBets').at(-1)?.url.searchParams;
    expect([last?.get('provider'), last?.get('status'), last?.get('offset'), last?.get('count')]).toEqual(['acme', 'settled', '0', String(PROVIDER_BETS_PAGE_SIZE)]);
    const card = cards[0] ?? document.body;
    expect(card).toHaveTextContent('Accumulator (2 selections)');
    expect(card).toHaveTextContent('acme, ref. AC-0');
    expect(within(card).getByTestId('bet-status')).toHaveTextContent('Won');
    const legs = within(card).getAllByTestId('bet-selection');
    expect(legs[0]).toHaveTextContent('Lyon');
    expect(legs[0]).toHaveTextContent('Match winner · Lyon v Nice');
    expect(legs[0]).toHaveTextContent('2.00');
    expect(legs[1]).toHaveTextContent('Won · dead heat 1/2');
    expect(within(card).getByTestId('bet-stake')).toHaveTextContent('$3.00');
    expect(within(card).getByTestId('bet-payout')).toHaveTextContent('$9.00');

    fireEvent.click(screen.getByTestId('provider-bets-more'));
    expect(await screen.findByText('acme, ref. AC-last', { exact: false })).toBeVisible();
    expect(screen.getAllByTestId('provider-bet-card')).toHaveLength(PROVIDER_BETS_PAGE_SIZE + 1);
    expect(api.calls('sportsbook.getProviderBets').at(-1)?.url.searchParams.get('offset')).toBe(String(PROVIDER_BETS_PAGE_SIZE));
    expect(screen.queryByTestId('provider-bets-more')).toBeNull();
    expect(screen.getAllByTestId('provider-bet-card').at(-1)?.querySelector('[data-testid="bet-potential"]')).toHaveTextContent('$9.00');
  });

  it('has an empty state per provider and filter, in French', async () => {
    mockApi({
      ...signedIn,
      'sportsbook.getSports': SPORTS,
      'bets.get': { total: 0, items: [] },
      'games.getHistory': { items: [], total: 0 },
      'sportsbook.getProviderBets': { total: 0, items: [] },
    });
    renderApp('/fr/profile/bets?book=betzone');
    expect(await screen.findByTestId('bets-empty')).toHaveTextContent("Vous n'avez aucun pari en cours chez betzone.");
    expect(within(screen.getByTestId('bets-books')).getByRole('button', { name: 'Nos paris sportifs' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows a provider’s display name wherever players see it, and keeps its name in the address and calls', async () => {
    const api = mockApi({
      ...signedIn,
      'sportsbook.getSports': TITLED,
      'sportsbook.getEvents': EVENTS,
      'sportsbook.launch': LAUNCH,
      'bets.get': { total: 0, items: [] },
      'games.getHistory': { items: [], total: 0 },
      'sportsbook.getProviderBets': { total: 1, items: [providerBet()] },
    });
    const { router } = renderApp('/betting?book=acme');
    expect(await screen.findByTestId('provider-frame')).toHaveAttribute('title', 'Acme Sports sportsbook');
    const books = screen.getByTestId('books');
    expect(within(books).getByRole('button', { name: 'Acme Sports' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(books).getByRole('button', { name: 'betzone' })).toHaveAttribute('aria-pressed', 'false');
    expect(api.calls('sportsbook.launch')[0]?.body?.get('provider')).toBe('acme');
    await act(async () => {
      await router.navigate('/profile/bets?book=acme');
    });
    expect(await screen.findByTestId('provider-bet-card')).toHaveTextContent('Acme Sports, ref. AC-77');
    expect(within(screen.getByTestId('bets-books')).getByRole('button', { name: 'Acme Sports' })).toHaveAttribute('aria-pressed', 'true');
    expect(api.calls('sportsbook.getProviderBets').at(-1)?.url.searchParams.get('provider')).toBe('acme');
  });

  it('shows no switch without providers', async () => {
    mockApi({ ...signedIn, 'sportsbook.getSports': NO_PROVIDERS, 'bets.get': { total: 0, items: [] }, 'games.getHistory': { items: [], total: 0 } });
    renderApp('/profile/bets');
    expect(await screen.findByTestId('bets-empty')).toBeVisible();
    expect(screen.queryByTestId('bets-books')).toBeNull();
  });
});
