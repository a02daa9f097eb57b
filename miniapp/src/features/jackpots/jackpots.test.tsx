import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { mockApi } from '@/test/api-mock';
import { mockLive } from '@/test/event-source';
import { renderApp } from '@/test/render-app';
import type { JackpotWin } from './api/get-jackpot-winners';
import { newerPools, type Pool } from './api/get-jackpots';
import { checkDrop, commitment } from './fairness';

afterEach(async () => {
  await activateLocale('en');
});

// sha256("150000:pepper")
const HASH = '0043a62db0de31af2a360bd0893e8c8da13783061636a4584c127b6f2acd221f';
const now = Math.floor(Date.now() / 1000);

function pool(overrides: Partial<Pool> = {}): Pool {
  return {
    id: 3,
    title: 'Mega Pot',
    description: 'Grows with every bet.',
    image: null,
    status: 'active',
    amount: { amount: '1234.56', currency: 'USD' },
    amount_minor: 123_456,
    currency: 'USD',
    seed: { amount: '1000.00', currency: 'USD' },
    trigger: 'must_drop',
    must_drop_before: { amount: '2000.00', currency: 'USD' },
    trigger_hash: null,
    contribution_percent: '1.50',
    game_sysnames: [],
    cycle: 4,
    updated_at_ms: 1_000,
    last_win: { name: 'Ann', amount: { amount: '1500.00', currency: 'USD' }, at: now - 5 * 60 },
    ...overrides,
  };
}

const hidden = () =>
  pool({ id: 4, title: 'Mystery', trigger: 'hidden', must_drop_before: null, trigger_hash: 'ab12cd34', last_win: null, amount: { amount: '50.00', currency: 'USD' }, amount_minor: 5_000 });

function win(overrides: Partial<JackpotWin> = {}): JackpotWin {
  return {
    id: 11,
    pool_id: 4,
    pool_title: 'Mystery',
    name: 'Bob',
    amount: { amount: '1500.00', currency: 'USD' },
    game: { sysname: 'dice', title: 'Dice' },
    at: Date.UTC(2026, 2, 12, 17, 0) / 1000,
    cycle: 3,
    trigger: 150_000,
    salt: 'pepper',
    trigger_hash: HASH,
    ...overrides,
  };
}

const amountOf = (card: HTMLElement) => within(card).getByTestId('jackpot-amount');

describe('pools', () => {
  it('keeps a pool the server sent fresher than the pushed one', () => {
    const fresh = pool({ amount_minor: 200, updated_at_ms: 3_000 });
    const merged = newerPools([fresh], [pool({ amount_minor: 100, updated_at_ms: 2_000 }), hidden()]);
    expect(merged.map((p) => p.amount_minor)).toEqual([200, 5_000]);
  });

  it('checks a revealed trigger against the published hash', async () => {
    expect(commitment(150_000, 'pepper')).toBe('150000:pepper');
    expect(await checkDrop(150_000, 'pepper', HASH)).toBe('verified');
    expect(await checkDrop(150_001, 'pepper', HASH)).toBe('mismatch');
  });
});

describe('/jackpots', () => {
  it('shows each pool with its amount, trigger and last win, and follows the live amounts', async () => {
    const live = mockLive();
    mockApi({ 'Jackpots.get': [pool(), hidden()] });
    renderApp('/jackpots');
    const cards = await screen.findAllByTestId('jackpot-card');
    const [mega, mystery] = cards;
    if (!mega || !mystery) throw new Error('two pools expected');
    expect(screen.getByRole('heading', { level: 1, name: 'Jackpots' })).toBeVisible();
    expect(within(mega).getByRole('link', { name: 'Mega Pot' })).toHaveAttribute('href', '/jackpots/3');
    expect(amountOf(mega)).toHaveTextContent('$1,234.56');
    expect(amountOf(mega)).toHaveAttribute('data-minor', '123456');
    expect(within(mega).getByTestId('jackpot-trigger')).toHaveTextContent('Must drop before $2,000.00');
    expect(within(mega).getByTestId('jackpot-last-win')).toHaveTextContent('Last win: Ann won $1,500.00 5 minutes ago.');
    expect(within(mystery).getByTestId('jackpot-trigger')).toHaveTextContent('Hidden trigger (provably fair)');
    expect(within(mystery).getByTestId('jackpot-hash')).toHaveTextContent('ab12cd34');
    expect(within(mystery).getByTestId('jackpot-last-win')).toHaveTextContent('Not won yet.');

    await waitFor(() => {
      expect(live.open('/live/jackpots')).toHaveLength(1);
    });
    expect(live.open('/live/jackpots')[0]?.url).toBe('/live/jackpots?locale=en');
    await live.push('/live/jackpots', 'jackpots', [
      pool({ amount: { amount: '1237.89', currency: 'USD' }, amount_minor: 123_789, updated_at_ms: 2_000 }),
      hidden(),
    ]);
    // It counts up to the pushed amount, never past it.
    await waitFor(() => {
      expect(amountOf(mega)).toHaveAttribute('data-minor', '123789');
    });
    expect(Number(amountOf(mega).dataset.minor)).toBeLessThanOrEqual(123_789);
    expect(amountOf(mega)).toHaveTextContent('$1,237.89');

    // A drop starts again from the seed at once.
    await live.push('/live/jackpots', 'jackpots', [
      pool({ amount: { amount: '1000.00', currency: 'USD' }, amount_minor: 100_000, cycle: 5, updated_at_ms: 3_000 }),
      hidden(),
    ]);
    await waitFor(() => {
      expect(amountOf(mega)).toHaveAttribute('data-minor', '100000');
    });
  });

  it('speaks French under /fr', async () => {
    await activateLocale('fr');
    mockApi({ 'Jackpots.get': [pool(), hidden()] });
    renderApp('/fr/jackpots');
    const [mega, mystery] = await screen.findAllByTestId('jackpot-card');
    if (!mega || !mystery) throw new Error('two pools expected');
    expect(amountOf(mega).textContent).toBe('1\u202f234,56\u00a0$');
    expect(within(mega).getByTestId('jackpot-trigger').textContent).toBe('Doit tomber avant 2\u202f000,00\u00a0$');
    expect(within(mega).getByTestId('jackpot-last-win')).toHaveTextContent('Dernier gain : Ann a gagné');
    expect(within(mystery).getByTestId('jackpot-trigger')).toHaveTextContent('Déclencheur caché (équité prouvable)');
    expect(within(mega).getByRole('link', { name: 'Mega Pot' })).toHaveAttribute('href', '/fr/jackpots/3');
  });

  it('says so when no pool runs', async () => {
    mockApi({ 'Jackpots.get': [] });
    renderApp('/jackpots');
    expect(await screen.findByTestId('jackpots-empty')).toHaveTextContent('No jackpot is running right now.');
  });
});

describe('/jackpots/{id}', () => {
  it('shows one pool: its amount live, games, contribution, winners with the revealed trigger checked', async () => {
    const live = mockLive();
    const api = mockApi({
      'Jackpots.get': [pool({ ...hidden(), game_sysnames: ['dice'], last_win: null })],
      'Jackpots.getWinners': { total: 1, items: [win()] },
      'games.get': {
        total: 1,
        items: [{ id: 1, sysname: 'dice', name: 'Dice', image_url: '/dice.svg', description: {}, provider: 'house', type: 'fast', rtp: '99', volatility: 'low', has_demo: true, config: null, is_favourite: false }],
      },
    });
    renderApp('/jackpots/4');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mystery' })).toBeVisible();
    expect(api.calls('Jackpots.get')[0]?.url.searchParams.get('id')).toBe('4');
    expect(screen.getByTestId('jackpot-contribution')).toHaveTextContent('1.50 % of every qualifying bet goes into the pool.');
    expect(screen.getByTestId('jackpot-hash')).toHaveTextContent('ab12cd34');

    const winner = await screen.findByTestId('jackpot-winner');
    expect(api.calls('Jackpots.getWinners')[0]?.url.searchParams.get('id')).toBe('4');
    expect(winner).toHaveTextContent('Bob');
    expect(winner).toHaveTextContent('$1,500.00');
    expect(within(winner).getByTestId('jackpot-revealed-trigger')).toHaveTextContent('150000');
    expect(winner).toHaveTextContent('pepper');
    expect(winner).toHaveTextContent(HASH);
    expect(await within(winner).findByTestId('jackpot-check')).toHaveAttribute('data-check', 'verified');
    expect(screen.getByTestId('jackpot-verify')).toHaveTextContent('compute sha256 of “150000:pepper” yourself');

    const games = screen.getByRole('region', { name: 'Games' });
    expect(await within(games).findByRole('link', { name: 'Dice' })).toHaveAttribute('href', '/game/dice');
    const options = JSON.parse(api.calls('games.get')[0]?.url.searchParams.get('options') ?? '{}') as Record<string, unknown>;
    expect(options.sysnames).toEqual(['dice']);

    await waitFor(() => {
      expect(live.open('/live/jackpots')).toHaveLength(1);
    });
    await live.push('/live/jackpots', 'jackpots', [pool(), { ...hidden(), amount: { amount: '51.00', currency: 'USD' }, amount_minor: 5_100, updated_at_ms: 5_000 }]);
    await waitFor(() => {
      expect(screen.getByTestId('jackpot-amount')).toHaveAttribute('data-minor', '5100');
    });
    expect(screen.getByTestId('jackpot-amount')).toHaveTextContent('$51.00');
  });

  it('flags a revealed trigger that does not match its hash, in French', async () => {
    await activateLocale('fr');
    mockApi({ 'Jackpots.get': [hidden()], 'Jackpots.getWinners': { total: 1, items: [win({ salt: 'salt' })] } });
    renderApp('/fr/jackpots/4');
    expect(await screen.findByRole('heading', { level: 2, name: 'Gagnants' })).toBeVisible();
    expect(await screen.findByTestId('jackpot-check')).toHaveAttribute('data-check', 'mismatch');
    expect(screen.getByTestId('jackpot-check')).toHaveTextContent('l’empreinte ne correspond pas');
    expect(screen.getByRole('heading', { level: 3, name: 'Comment vérifier un gain' })).toBeVisible();
    expect(screen.getByText('Tous les jeux alimentent ce jackpot.')).toBeVisible();
  });

  it('says so when there is no such pool, without asking for a malformed id', async () => {
    const api = mockApi({ 'Jackpots.get': [] });
    renderApp('/jackpots/9');
    expect(await screen.findByTestId('jackpot-not-found')).toHaveTextContent('This jackpot does not exist');
    renderApp('/jackpots/abc');
    await waitFor(() => {
      expect(screen.getAllByTestId('jackpot-not-found')).toHaveLength(2);
    });
    expect(api.calls('Jackpots.get').map((call) => call.url.searchParams.get('id'))).toEqual(['9']);
  });
});
