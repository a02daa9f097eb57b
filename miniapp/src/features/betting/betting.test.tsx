import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { STORAGE_KEYS } from '@/lib/storage';
import { apiError, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import type { Bet } from './api/bets';
import type { SportEvent } from './api/get-catalog';
import { betLines, formatOdds, lineReturn, parseOdds, slipTotals, systemsFor } from './odds';
import { applyPrices, initialSlip, slipStore } from './slip-store';

beforeEach(() => {
  window.localStorage.clear();
  slipStore.set(initialSlip());
});

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };
const KICK_OFF = Math.floor(Date.now() / 1000) + 3600;

function event(id: number, home: string, away: string, prices: [string, string, string], overrides: Partial<SportEvent> = {}): SportEvent {
  const keys = ['home', 'draw', 'away'] as const;
  const names = [home, 'Draw', away];
  return {
    id,
    sport: 'football',
    league: 'Premier Division',
    home,
    away,
    starts_at: KICK_OFF,
    status: 'scheduled',
    clock: null,
    home_score: null,
    away_score: null,
    markets: [
      {
        id: id * 10,
        key: '1x2',
        name: 'Match result',
        state: 'active',
        selections: keys.map((key, index) => ({
          id: id * 100 + index,
          key,
          name: names[index] ?? key,
          odds: prices[index] ?? null,
          odds_display: prices[index] ?? null,
          result: null,
        })),
      },
    ],
    ...overrides,
  };
}

const EVENTS = [event(1, 'Ashford', 'Belmont', ['2.50', '3.20', '2.80']), event(2, 'Carrow', 'Dunmore', ['1.50', '4.00', '6.00'])];
const SPORTS = {
  total: 1,
  items: [{ sport: 'football', name: 'Football', upcoming: 2, live: 0, leagues: [{ name: 'Premier Division', upcoming: 2, live: 0 }] }],
};

function bet(overrides: Partial<Bet> = {}): Bet {
  return {
    id: 31,
    kind: 'accumulator',
    system: null,
    lines: 1,
    stake_per_line: { amount: '2.00', currency: 'USD' },
    stake: { amount: '2.00', currency: 'USD' },
    potential: { amount: '7.50', currency: 'USD' },
    payout: { amount: '0.00', currency: 'USD' },
    funds: 'main',
    betting_bonus_id: null,
    boost_paid: null,
    status: 'open',
    cash_out: { amount: '1.85', currency: 'USD' },
    created_at: Math.floor(Date.now() / 1000),
    settled_at: null,
    selections: [
      { selection_id: 100, event_id: 1, event: 'Ashford v Belmont', event_status: 'scheduled', market: '1x2', selection: 'home', odds: '2.5', odds_display: '2.50', result: 'won' },
      { selection_id: 201, event_id: 2, event: 'Carrow v Dunmore', event_status: 'live', market: 'totals:2.5', selection: 'over', odds: '1.5', odds_display: '1.50', result: 'open' },
    ],
    ...overrides,
  };
}

describe('odds as the player chose to see them', () => {
  it.each([
    ['2.5', '2.50', '3/2', '+150'],
    ['2.0', '2.00', '1/1', '+100'],
    ['1.5', '1.50', '1/2', '-200'],
    ['1.3333', '1.33', '1/3', '-300'],
    ['1.9091', '1.91', '10/11', '-110'],
    ['3.75', '3.75', '11/4', '+275'],
    ['101', '101.00', '100/1', '+10000'],
    ['1.01', '1.01', '1/100', '-10000'],
    ['1.005', '1.01', '1/100', '-20000'],
    ['3.1416', '3.14', '212/99', '+214'],
  ])('%s is %s, %s, %s (the server’s own table)', (price, decimal, fractional, american) => {
    expect(formatOdds(price, 'decimal')).toBe(decimal);
    expect(formatOdds(price, 'fractional')).toBe(fractional);
    expect(formatOdds(price, 'american')).toBe(american);
  });

  it('reads only prices above evens, to four places', () => {
    expect(parseOdds('2.5')).toBe(25_000n);
    expect(parseOdds('12')).toBe(120_000n);
    expect(parseOdds('1')).toBeNull();
    expect(parseOdds('1.23456')).toBeNull();
    expect(parseOdds('-2')).toBeNull();
    expect(formatOdds('n/a', 'american')).toBe('n/a');
  });
});

describe('the slip’s arithmetic', () => {
  it('rounds a line down once, after multiplying every price', () => {
    // 0.01 × 1.55 × 1.55 = 0.024025 → 0.02; rounding after each leg would give 0.01.
    expect(lineReturn(1n, [15_500n, 15_500n])).toBe(2n);
    expect(lineReturn(100n, [25_000n])).toBe(250n);
  });

  it('counts lines as the full covers do', () => {
    expect(betLines('system', 3, 'trixie')).toHaveLength(4);
    expect(betLines('system', 3, 'patent')).toHaveLength(7);
    expect(betLines('system', 4, 'yankee')).toHaveLength(11);
    expect(betLines('system', 4, 'lucky15')).toHaveLength(15);
    expect(betLines('system', 5, 'super_yankee')).toHaveLength(26);
    expect(betLines('system', 6, 'heinz')).toHaveLength(57);
    expect(betLines('system', 7, 'super_heinz')).toHaveLength(120);
    expect(betLines('system', 8, 'goliath')).toHaveLength(247);
    expect(betLines('system', 4, 'from_2')).toHaveLength(6);
    expect(betLines('system', 4, 'trixie')).toBeNull();
    expect(betLines('accumulator', 1)).toBeNull();
    expect(systemsFor(4)).toEqual(['yankee', 'lucky15', 'from_2', 'from_3']);
    expect(systemsFor(2)).toEqual([]);
  });

  it('shows a £1 yankee at evens as the bet calculators do: 11 lines, 11.00 staked, 72.00 back', () => {
    // At evens a line of k legs pays 2^k: 6 doubles × 4.00, 4 trebles × 8.00 and the fourfold 16.00.
    const totals = slipTotals('system', ['2', '2', '2', '2'], 100n, 'yankee');
    expect(totals).toEqual({ lines: 11, stake: 1100n, potential: 6n * 400n + 4n * 800n + 1600n });
    // A lucky 15 adds the four singles (4 × 2.00).
    expect(slipTotals('system', ['2', '2', '2', '2'], 100n, 'lucky15')?.potential).toBe(7200n + 800n);
  });

  it('treats singles as one bet per selection and an accumulator as one line', () => {
    expect(slipTotals('single', ['2.5', '1.5'], 200n)).toEqual({ lines: 2, stake: 400n, potential: 500n + 300n });
    expect(slipTotals('accumulator', ['2.5', '1.5'], 200n)).toEqual({ lines: 1, stake: 200n, potential: 750n });
    expect(slipTotals('accumulator', ['2.5'], 200n)).toBeNull();
  });
});

/** Picks the selection's price button on the page. */
async function pick(selectionId: number) {
  const button = await waitFor(() => {
    const found = document.querySelector<HTMLButtonElement>(`[data-testid="odds-button"][data-selection="${String(selectionId)}"]`);
    if (!found) throw new Error(`no price for ${String(selectionId)}`);
    return found;
  });
  fireEvent.click(button);
  return button;
}

describe('/betting and the slip', () => {
  it('lists the events with their prices, builds an accumulator and places it after accepting moved odds', async () => {
    const api = mockApi({
      ...signedIn,
      'sportsbook.getSports': SPORTS,
      'sportsbook.getEvents': { total: 2, items: EVENTS },
    });
    let attempts = 0;
    api.on('bets.place', () => {
      attempts += 1;
      return attempts === 1 ? apiError('InvalidParameterException', 400, { selections: ['ODDS_CHANGED'], odds: { '100': '2.40', '201': '4.00' } }) : bet();
    });
    renderApp('/betting?tab=upcoming');
    const cards = await screen.findAllByTestId('event-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0] ?? document.body).getByRole('link', { name: 'Ashford v Belmont' })).toHaveAttribute('href', '/betting/event/1');
    expect(api.calls('sportsbook.getEvents')[0]?.url.searchParams.get('status')).toBe('upcoming');
    expect(api.calls('sportsbook.getEvents')[0]?.url.searchParams.get('odds_format')).toBe('decimal');

    expect(await pick(100)).toHaveAttribute('aria-pressed', 'true');
    await pick(201);
    const slip = screen.getByTestId('bet-slip');
    expect(within(slip).getAllByTestId('slip-entry')).toHaveLength(2);
    fireEvent.click(within(slip).getByRole('button', { name: 'Accumulator' }));
    fireEvent.change(within(slip).getByTestId('slip-stake'), { target: { value: '2' } });
    expect(within(slip).getByTestId('slip-total-stake')).toHaveTextContent('$2.00');
    expect(within(slip).getByTestId('slip-potential')).toHaveTextContent('$20.00');

    fireEvent.click(within(slip).getByTestId('slip-place'));
    expect(await within(slip).findByTestId('slip-odds-changed')).toHaveTextContent('The odds have changed');
    const first = api.calls('bets.place')[0]?.body;
    expect(first?.get('kind')).toBe('accumulator');
    expect(first?.get('selections')).toBe('100,201');
    expect(first?.get('odds')).toBe('2.50,4.00');
    expect(first?.get('stake')).toBe('2');
    expect(first?.get('accept_odds')).toBe('never');
    // The new price is shown beside the old one, and the return follows it.
    expect(within(slip).getAllByTestId('slip-odds')[0]).toHaveTextContent('2.40');
    expect(within(slip).getByTestId('slip-was')).toHaveTextContent('was 2.50');
    expect(within(slip).getByTestId('slip-potential')).toHaveTextContent('$19.20');

    const infoCalls = api.calls('account.getInfo').length;
    fireEvent.click(within(slip).getByRole('button', { name: 'Accept the new odds and place' }));
    expect(await screen.findByText('Your bet is placed.')).toBeVisible();
    const second = api.calls('bets.place')[1]?.body;
    expect(second?.get('odds')).toBe('2.40,4.00');
    expect(second?.get('request_id')).not.toBe(first?.get('request_id'));
    expect(await within(slip).findByTestId('slip-empty')).toBeVisible();
    await waitFor(() => {
      expect(api.calls('account.getInfo').length).toBeGreaterThan(infoCalls);
    });
  });

  it('places singles one bet per selection and keeps a suspended selection off the button', async () => {
    const api = mockApi({ ...signedIn, 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': { total: 2, items: EVENTS }, 'bets.place': bet({ kind: 'single' }) });
    renderApp('/betting?tab=upcoming');
    await pick(100);
    await pick(202);
    const slip = screen.getByTestId('bet-slip');
    fireEvent.change(within(slip).getByTestId('slip-stake'), { target: { value: '1.50' } });
    expect(within(slip).getByText('2 bets')).toBeVisible();
    expect(within(slip).getByTestId('slip-total-stake')).toHaveTextContent('$3.00');
    expect(within(slip).getByTestId('slip-potential')).toHaveTextContent('$12.75');
    fireEvent.click(within(slip).getByTestId('slip-place'));
    expect(await screen.findByText('Your 2 bets are placed.')).toBeVisible();
    expect(api.calls('bets.place').map((call) => call.body?.get('selections'))).toEqual(['100', '202']);
    expect(api.calls('bets.place').map((call) => call.body?.get('kind'))).toEqual(['single', 'single']);
  });

  it('offers the active free bet for one single: its amount is the stake and the bet names it', async () => {
    const freebet = {
      id: 77, kind: 'freebet', status: 'active', campaign_id: 1, title: 'Free bet', description: '', currency: 'USD', amount: '5.00',
      boost_percent: null, max_extra: null, awaiting_deposit: false, expires_at: null, created_at: 1, activated_at: 2, finished_at: null,
      can_activate: false, can_remove: true,
    };
    const api = mockApi({
      ...signedIn,
      'sportsbook.getSports': SPORTS,
      'sportsbook.getEvents': { total: 2, items: EVENTS },
      'BettingBonuses.get': { total: 1, items: [freebet] },
      'bets.place': bet({ kind: 'single', funds: 'betting_bonus', betting_bonus_id: 77 }),
    });
    renderApp('/betting?tab=upcoming');
    await pick(100);
    const slip = screen.getByTestId('bet-slip');
    expect(await within(slip).findByTestId('slip-bonus')).toHaveTextContent('Use my bonus: Free bet of $5.00');
    expect(within(slip).getByTestId('slip-stake')).toHaveValue('5.00');
    expect(within(slip).getByTestId('slip-freebet-note')).toBeVisible();
    fireEvent.click(within(slip).getByTestId('slip-place'));
    expect(await screen.findByText('Your bet is placed.')).toBeVisible();
    const sent = api.calls('bets.place')[0]?.body;
    expect([sent?.get('betting_bonus_id'), sent?.get('funds'), sent?.get('stake')]).toEqual(['77', 'betting_bonus', '5.00']);
  });

  it('marks a selection whose market the server says is suspended, and places nothing until it goes', async () => {
    const api = mockApi({
      ...signedIn,
      'sportsbook.getSports': SPORTS,
      'sportsbook.getEvents': { total: 2, items: EVENTS },
      'bets.place': apiError('InvalidParameterException', 400, { selections: ['MARKET_SUSPENDED'], odds: { '100': null } }),
    });
    renderApp('/betting?tab=upcoming');
    await pick(100);
    const slip = screen.getByTestId('bet-slip');
    fireEvent.change(within(slip).getByTestId('slip-stake'), { target: { value: '1' } });
    fireEvent.click(within(slip).getByTestId('slip-place'));
    expect(await within(slip).findByTestId('slip-suspended')).toBeVisible();
    expect(within(slip).getByText('Suspended')).toBeVisible();
    expect(within(slip).getByTestId('slip-place')).toBeDisabled();
    expect(api.calls('bets.place')).toHaveLength(1);
  });

  it('asks the player to accept prices that moved live while the slip is open', async () => {
    mockApi({ ...signedIn, 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': { total: 2, items: EVENTS } });
    renderApp('/betting?tab=upcoming');
    await pick(100);
    const slip = screen.getByTestId('bet-slip');
    expect(within(slip).getByTestId('slip-place')).toHaveTextContent('Place bet');
    expect(within(slip).queryByTestId('slip-odds-changed')).toBeNull();
    act(() => {
      applyPrices(new Map([[100, '2.60']]));
    });
    expect(within(slip).getByTestId('slip-was')).toHaveTextContent('was 2.50');
    expect(within(slip).getByTestId('slip-odds-changed')).toHaveTextContent('The odds have changed');
    expect(within(slip).getByTestId('slip-place')).toHaveTextContent('Accept the new odds and place');
  });

  it('asks a guest to sign in instead of placing', async () => {
    const api = mockApi({ 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': { total: 2, items: EVENTS } });
    renderApp('/betting?tab=upcoming');
    await pick(100);
    const slip = screen.getByTestId('bet-slip');
    fireEvent.click(within(slip).getByRole('button', { name: 'Sign in to bet' }));
    expect(await screen.findByRole('dialog')).toBeVisible();
    expect(api.calls('bets.place')).toHaveLength(0);
  });

  it('keeps the odds format and asks the server for it', async () => {
    const api = mockApi({ 'sportsbook.getSports': SPORTS, 'sportsbook.getEvents': { total: 2, items: EVENTS } });
    renderApp('/betting');
    fireEvent.click(within(await screen.findByTestId('odds-format')).getByRole('button', { name: 'Fractional' }));
    await waitFor(() => {
      expect(api.calls('sportsbook.getEvents').at(-1)?.url.searchParams.get('odds_format')).toBe('fractional');
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.oddsFormat)).toBe('fractional');
    expect(initialSlip().format).toBe('fractional');
  });

  it('shows an event’s every market in French, with a suspended one disabled', async () => {
    const one = event(1, 'Ashford', 'Belmont', ['2.50', '3.20', '2.80'], { status: 'live', clock: 63, home_score: 1, away_score: 0 });
    const suspended = { ...one.markets[0], id: 11, key: 'btts', name: 'Les deux équipes marquent', state: 'suspended' as const, selections: [{ id: 150, key: 'yes', name: 'Oui', odds: '1.80', odds_display: '4/5', result: null }] };
    mockApi({ 'sportsbook.getEvent': { ...one, markets: [...one.markets, suspended] } });
    renderApp('/fr/betting/event/1');
    expect(await screen.findByTestId('event-title')).toHaveTextContent('Ashford v Belmont');
    expect(screen.getByRole('heading', { level: 1, name: 'Paris sportifs' })).toBeVisible();
    expect(screen.getByTestId('event-state')).toHaveTextContent("En direct63'1 – 0");
    const markets = screen.getAllByTestId('market');
    expect(markets).toHaveLength(2);
    expect(within(markets[1] ?? document.body).getByText('Suspendu')).toBeVisible();
    expect(within(markets[1] ?? document.body).getByTestId('odds-button')).toBeDisabled();
    expect(screen.getByTestId('slip-empty')).toHaveTextContent('Choisissez des cotes');
  });
});

describe('the player’s bets', () => {
  it('lists open bets with each selection’s result and cashes one out after confirming', async () => {
    const api = mockApi({ ...signedIn, 'bets.get': { total: 1, items: [bet()] }, 'bets.cashOut': bet({ status: 'cashed_out', payout: { amount: '1.85', currency: 'USD' }, cash_out: null }) });
    renderApp('/bets/open');
    const card = await screen.findByTestId('bet-card');
    expect(card).toHaveTextContent('Accumulator (2 selections)');
    const legs = within(card).getAllByTestId('bet-selection');
    expect(legs[0]).toHaveTextContent('Ashford');
    expect(legs[0]).toHaveTextContent('Won');
    expect(legs[1]).toHaveTextContent('Over');
    expect(legs[1]).toHaveTextContent('Over/under 2.5');
    expect(within(card).getByTestId('bet-potential')).toHaveTextContent('$7.50');
    expect(api.calls('bets.get')[0]?.url.searchParams.get('status')).toBe('open');

    fireEvent.click(within(card).getByTestId('bet-cash-out'));
    const confirm = await screen.findByTestId('cash-out-confirm-dialog');
    expect(confirm).toHaveTextContent('You will receive $1.85 now');
    await act(async () => {
      fireEvent.click(within(confirm).getByTestId('cash-out-confirm'));
      await Promise.resolve();
    });
    expect(await screen.findByText('Cashed out: $1.85 added to your balance.')).toBeVisible();
    const body = api.calls('bets.cashOut')[0]?.body;
    expect(body?.get('bet_id')).toBe('31');
    expect(body?.get('amount')).toBe('1.85');
  });

  it('shows the new offer when the server’s is lower, in French on /profile/bets', async () => {
    mockApi({
      ...signedIn,
      'bets.get': { total: 1, items: [bet()] },
      'bets.cashOut': apiError('InvalidParameterException', 400, { amount: ['ODDS_CHANGED'], cash_out: '1.60' }),
      'games.getHistory': { items: [], total: 0 },
    });
    renderApp('/fr/profile/bets');
    const card = await screen.findByTestId('bet-card');
    expect(within(card).getByTestId('bet-status')).toHaveTextContent('En cours');
    fireEvent.click(within(card).getByTestId('bet-cash-out'));
    fireEvent.click(within(await screen.findByTestId('cash-out-confirm-dialog')).getByTestId('cash-out-confirm'));
    expect(await screen.findByText(/L'offre est passée à 1,60/)).toBeVisible();
  });
});
