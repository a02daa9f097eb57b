// The external providers' bets page in the whole console (react-admin, its router, the real
// providers) over a stubbed network: the list as the server pages it, the filters sent to the
// server (provider, player, status), a row's selections with their results, and the menu entry
// only for sportsbook.manage.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { providerBetsQuery } from '../lib/data-provider';
import { jsonResponse } from '../lib/test-fetch';
import { operatorWith, renderAt, type } from '../lib/test-render';

const finance = operatorWith('finance', ['players.read', 'reports.read', 'sportsbook.manage']);
const marketing = operatorWith('marketing', ['players.read', 'campaigns.manage', 'reports.read']);

/** A bet as provider.rs `admin_bets` answers it. */
const won = {
  id: 12,
  user_id: 41,
  provider: 'acme',
  bet_id: 'AC-9001',
  kind: 'accumulator',
  system: null,
  currency: 'EUR',
  stake: 300,
  potential: 900,
  payout: 900,
  expected_payout: 900,
  status: 'won',
  created_at: 1_767_618_000,
  settled_at: 1_767_625_000,
  selections: [
    { id: 's-1', event: 'Lyon v Nice', market: '1x2', selection: 'Lyon', odds: '2.00', result: 'won', dead_heat: null },
    { id: 's-2', event: 'Metz v Brest', market: 'Total 2.5', selection: 'Over', odds: '1.50', result: 'half_won', dead_heat: '1/2' },
  ],
};
const open = { ...won, id: 11, user_id: 42, bet_id: 'AC-9000', status: 'open', payout: 0, expected_payout: null, settled_at: null };

function serve(operator: object): URL[] {
  const sent: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const url = new URL(input, 'http://localhost');
      sent.push(url);
      if (url.pathname === '/backoffice/api/session') return Promise.resolve(jsonResponse({ operator }));
      if (url.pathname === '/backoffice/api/admin/sportsbook/provider-bets') {
        const items = url.searchParams.get('status') === 'won' ? [won] : [won, open];
        return Promise.resolve(jsonResponse({ status: 'ok', data: { items, total: items.length + 40 } }));
      }
      return Promise.resolve(jsonResponse([], 200, { 'Content-Range': 'x */0' }));
    }),
  );
  return sent;
}

const listCalls = (sent: URL[]) => sent.filter((url) => url.pathname === '/backoffice/api/admin/sportsbook/provider-bets');

beforeEach(() => {
  localStorage.clear();
});

describe('the provider bets query', () => {
  it('pages and filters on the server', () => {
    expect(providerBetsQuery({ pagination: { page: 3, perPage: 25 }, filter: { provider: ' acme ', user_id: 41, status: 'won', q: 'x' } })).toBe(
      '?offset=50&count=25&provider=acme&user_id=41&status=won',
    );
    expect(providerBetsQuery({ pagination: { page: 1, perPage: 10 }, filter: { provider: '' } })).toBe('?offset=0&count=10');
  });
});

describe('the provider bets page', () => {
  it('lists the bets with their amounts, filters them on the server and opens a bet’s selections', async () => {
    const sent = serve(finance);
    renderAt('/backoffice/provider_bets');
    const row = (await screen.findByText('AC-9001')).closest('tr');
    if (!row) throw new Error('no row');
    expect(row).toHaveTextContent('acme');
    expect(row).toHaveTextContent('41');
    expect(row).toHaveTextContent('Won');
    expect(row).toHaveTextContent(/3\.00/);
    expect(row).toHaveTextContent(/9\.00/);
    expect(screen.getByText('AC-9000').closest('tr')).toHaveTextContent('Open');
    expect(screen.getByRole('menuitem', { name: /Provider bets/ })).toBeInTheDocument();
    expect(listCalls(sent)[0]?.searchParams.get('offset')).toBe('0');
    expect(listCalls(sent)[0]?.searchParams.get('count')).toBe('25');

    type(/Provider/, 'acme');
    type(/Player/, '41');
    await waitFor(() => {
      const last = listCalls(sent).at(-1)?.searchParams;
      expect([last?.get('provider'), last?.get('user_id')]).toEqual(['acme', '41']);
    });
    fireEvent.mouseDown(screen.getByLabelText(/Status/));
    fireEvent.click(await screen.findByRole('option', { name: 'Won' }));
    await waitFor(() => {
      expect(listCalls(sent).at(-1)?.searchParams.get('status')).toBe('won');
    });
    await waitFor(() => {
      expect(screen.queryByText('AC-9000')).not.toBeInTheDocument();
    });

    fireEvent.click(screen.getByText('AC-9001'));
    const legs = await screen.findByTestId('provider-selections');
    expect(within(legs).getByTestId('provider-selection-s-1')).toHaveTextContent('Lyon v Nice1x2Lyon2.00Won');
    expect(within(legs).getByTestId('provider-selection-s-2')).toHaveTextContent('Half won (1/2)');
    // Read-only: no action on a bet.
    expect(screen.queryByRole('button', { name: /Delete|Edit|Create/ })).not.toBeInTheDocument();
  }, 60_000);

  it('is not in the menu without sportsbook.manage', async () => {
    serve(marketing);
    renderAt('/backoffice/campaigns');
    await screen.findByRole('menuitem', { name: /Campaigns/ });
    expect(screen.queryByRole('menuitem', { name: /Provider bets/ })).not.toBeInTheDocument();
  }, 60_000);
});
