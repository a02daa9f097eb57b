// The sportsbook pages in the whole console (react-admin, its router, the real providers) over a
// stubbed network: the markets list with their liability, a market's page and its suspend action's
// request, the limits editor's request in minor units, and the menu only for sportsbook.manage.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { operatorWith, renderAt, type } from '../lib/test-render';
import { jsonResponse } from '../lib/test-fetch';
import { actionsFor, optionalMinor, resultsBody } from './sportsbook';

const finance = operatorWith('finance', ['players.read', 'reports.read', 'sportsbook.manage']);
const marketing = operatorWith('marketing', ['players.read', 'campaigns.manage', 'reports.read']);

/** A market as operations.rs `market` answers it. */
const market = {
  id: 5,
  event_id: 2,
  event: 'Lyon v Nantes',
  sport: 'football',
  league: 'Ligue 1',
  event_status: 'scheduled',
  starts_at: 1_767_618_000,
  market: '1x2',
  state: 'active',
  held: false,
  operator_state: null,
  feed_state: 'active',
  held_by: null,
  held_reason: null,
  held_at: null,
  results_version: 0,
  liability: 2500,
  liabilities: [{ currency: 'EUR', bets: 2, stakes: 1500, max_payout: 2500 }],
  selections: [
    { id: 11, key: 'home', odds: '2.50', result: 'open', dead_heat: null, liability: [{ currency: 'EUR', bets: 1, stakes: 1000, payout: 2500, net: -1000 }] },
    { id: 12, key: 'draw', odds: '3.20', result: 'open', dead_heat: null, liability: [{ currency: 'EUR', bets: 1, stakes: 500, payout: 1600, net: -100 }] },
    { id: 13, key: 'away', odds: '2.90', result: 'open', dead_heat: null, liability: [{ currency: 'EUR', bets: 0, stakes: 0, payout: 0, net: 1500 }] },
  ],
};

const quiet = { ...market, id: 6, event: 'Lille v Lens', liability: 0, liabilities: [], selections: [] };

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

function serve(operator: object): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      if (method !== 'GET') sent.push({ method, path: url.pathname + url.search, body: JSON.parse((init.body as string | undefined) ?? 'null') });
      else sent.push({ method, path: url.pathname + url.search, body: null });
      if (url.pathname === '/backoffice/api/session') return Promise.resolve(jsonResponse({ operator }));
      if (url.pathname === '/backoffice/api/admin/sportsbook/markets') {
        return Promise.resolve(jsonResponse({ status: 'ok', data: { items: [quiet, market], total: 2 } }));
      }
      if (url.pathname === '/backoffice/api/admin/sportsbook/markets/5') return Promise.resolve(jsonResponse({ status: 'ok', data: market }));
      if (url.pathname === '/backoffice/api/admin/sportsbook/markets/5/suspend') {
        return Promise.resolve(jsonResponse({ status: 'ok', data: { ...market, state: 'suspended', held: true } }));
      }
      if (url.pathname === '/backoffice/api/admin/sportsbook/limits') {
        return Promise.resolve(jsonResponse({ status: 'ok', data: { sports: [], players: [] } }));
      }
      if (url.pathname.startsWith('/backoffice/api/admin/sportsbook/limits/')) {
        return Promise.resolve(jsonResponse({ status: 'ok', data: { id: 'football:EUR' } }));
      }
      return Promise.resolve(jsonResponse([], 200, { 'Content-Range': 'x */0' }));
    }),
  );
  return sent;
}



beforeEach(() => {
  localStorage.clear();
});

describe('sportsbook helpers', () => {
  it('offer the actions the market state allows', () => {
    expect(actionsFor('active', false)).toEqual(['suspend']);
    expect(actionsFor('suspended', true)).toEqual(['reopen', 'settle', 'void']);
    expect(actionsFor('suspended', false)).toEqual(['suspend', 'settle', 'void']);
    expect(actionsFor('settled', true)).toEqual(['resettle', 'void']);
    expect(actionsFor('cancelled', true)).toEqual(['resettle']);
  });

  it('write the results and amounts the server takes', () => {
    expect(resultsBody(market.selections, { result_home: 'won', dead_heat_home: ' 1/2 ', result_draw: 'lost', result_away: 'lost' })).toEqual([
      { selection: 'home', result: 'won', dead_heat: '1/2' },
      { selection: 'draw', result: 'lost' },
      { selection: 'away', result: 'lost' },
    ]);
    expect(optionalMinor('12.50', 'EUR')).toBe(1250);
    expect(optionalMinor('', 'EUR')).toBeNull();
    expect(optionalMinor('12.505', 'EUR')).toBeUndefined();
  });
});

describe('the sportsbook pages', () => {
  it('list the markets largest liability first, and suspend one with a reason', async () => {
    const sent = serve(finance);
    renderAt('/backoffice/sportsbook');
    const first = await screen.findByText('Lyon v Nantes');
    const rows = screen.getAllByRole('row');
    // The header, then the market with the largest liability.
    expect(rows[1]).toContainElement(first);
    expect(screen.getByText(/25\.00.*\(2\)/)).toBeInTheDocument();
    expect(sent.some((call) => call.path.startsWith('/backoffice/api/admin/sportsbook/markets?count=1000'))).toBe(true);
    expect(screen.getByRole('menuitem', { name: /Sportsbook limits/ })).toBeInTheDocument();

    fireEvent.click(first);
    const selections = await screen.findByTestId('selections');
    expect(within(selections).getByTestId('selection-home')).toHaveTextContent('2.50');
    expect(within(selections).getByTestId('selection-away')).toHaveTextContent('15.00');
    expect(screen.queryByTestId('market-settle')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('market-suspend'));
    const dialog = await screen.findByRole('dialog');
    type(/Reason/, 'Suspicious volume', dialog);
    const confirm = within(dialog).getAllByRole('button', { name: 'Suspend' }).at(-1);
    if (confirm) fireEvent.click(confirm);
    await waitFor(() => {
      expect(sent.some((call) => call.method === 'POST')).toBe(true);
    });
    expect(sent.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: '/backoffice/api/admin/sportsbook/markets/5/suspend',
      body: { reason: 'Suspicious volume' },
    });
  }, 60_000);

  it('sets a sport’s limits in minor units', async () => {
    const sent = serve(finance);
    renderAt('/backoffice/sportsbook-limits');
    await screen.findByTestId('sport-limits');
    fireEvent.click(screen.getByTestId('set-sport-limits'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByLabelText(/Sport/));
    fireEvent.click(await screen.findByRole('option', { name: 'Football' }));
    type(/Maximum stake/, '50', dialog);
    type(/Maximum payout/, '1000.50', dialog);
    type(/Reason/, 'Cup final', dialog);
    const save = within(dialog).getAllByRole('button', { name: 'Set limits of a sport' }).at(-1);
    if (save) fireEvent.click(save);
    await waitFor(() => {
      expect(sent.some((call) => call.method === 'PUT')).toBe(true);
    });
    expect(sent.find((call) => call.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/backoffice/api/admin/sportsbook/limits/sports/football',
      body: { currency: 'EUR', reason: 'Cup final', min_stake: null, max_stake: 5000, max_payout: 100050 },
    });
  }, 60_000);

  it('are not in the menu without sportsbook.manage', async () => {
    serve(marketing);
    renderAt('/backoffice/campaigns');
    await screen.findByRole('menuitem', { name: /Campaigns/ });
    expect(screen.queryByRole('menuitem', { name: /Sportsbook/ })).not.toBeInTheDocument();
  }, 60_000);
});
