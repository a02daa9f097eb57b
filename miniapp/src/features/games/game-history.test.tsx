import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { apiError, GENERAL_INFO, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import type { HistoryExport, HistoryRound } from './api';

afterEach(async () => {
  vi.useRealTimers();
  window.localStorage.clear();
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };

function round(n: number, overrides: Partial<HistoryRound> = {}): HistoryRound {
  return {
    round: `r-${String(n)}`,
    game: { sysname: 'dice', name: 'Dice' },
    provider: 'house',
    mode: 'real',
    currency: 'USD',
    bet: '1.00',
    win: '1.98',
    balance_after: `${String(100 + n)}.00`,
    status: 'closed',
    created_at: 1_700_000_000 + n,
    fairness: { server_seed_hash: 'ab'.repeat(32), server_seed: null, client_seed: 'c', nonce: n, params: { target: '50.00' }, outcome: { roll: 12 } },
    ...overrides,
  };
}

const rounds = [round(6), round(5, { provider: 'aggregator', fairness: null, game: { sysname: 'slot-x', name: 'Slot X' } }), round(4), round(3), round(2), round(1)];

function pageOf(url: URL) {
  const offset = Number(url.searchParams.get('offset') ?? '0');
  const count = Number(url.searchParams.get('count') ?? '4');
  return { total: rounds.length, items: rounds.slice(offset, offset + count) };
}

describe('the game history at /profile/bets', () => {
  it('lists the rounds four at a time with the bet, the win, the balance after and the fairness check', async () => {
    const api = mockApi({ ...signedIn, 'games.getHistory': ({ url }: { url: URL }) => pageOf(url), 'games.gethistoryexportrequest': null });
    renderApp('/profile/bets');
    const list = await screen.findByTestId('game-history');
    await waitFor(() => { expect(within(list).getAllByTestId('game-round')).toHaveLength(4); });
    const first = within(list).getAllByTestId('game-round')[0];
    if (!first) throw new Error('no round');
    expect(within(first).getByTestId('round-bet')).toHaveTextContent('1.00');
    expect(within(first).getByTestId('round-win')).toHaveTextContent('1.98');
    expect(within(first).getByTestId('round-balance')).toHaveTextContent('106.00');
    expect(within(first).getByText(/Change the seeds to reveal/)).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Dice' })).toHaveAttribute('href', '/game/dice');
    // The aggregator's round has no fairness check.
    const second = within(list).getAllByTestId('game-round')[1];
    expect(second && within(second).queryByText(/reveal/)).toBeNull();
    fireEvent.click(within(list).getByRole('button', { name: 'Show more' }));
    await waitFor(() => { expect(within(list).getAllByTestId('game-round')).toHaveLength(6); });
    expect(api.calls('games.getHistory').map((call) => call.url.searchParams.get('offset'))).toEqual(['0', '4']);
  });

  it('exports once per press, follows the job and offers the CSV when it is ready', async () => {
    let current: HistoryExport | null = null;
    let polls = 0;
    const api = mockApi({
      ...signedIn,
      'games.getHistory': { total: 0, items: [] },
      'games.gethistoryexportrequest': () => {
        polls += 1;
        if (current && polls >= 2) current = { ...current, status: 'ready', rows: 6, url: 'http://localhost/games/history/export/9/k.csv', expires_at: 1_800_000_000 };
        return current;
      },
      'games.createhistoryexportrequest': () => {
        current = { id: 9, status: 'pending', rows: 0, url: null, created_at: 1_700_000_000, expires_at: null };
        polls = 0;
        return current;
      },
    });
    renderApp('/profile/bets');
    const panel = await screen.findByTestId('history-export');
    expect(await screen.findByText('No rounds yet. The games you play show here, newest first.')).toBeInTheDocument();
    const button = within(panel).getByRole('button', { name: 'Export my history' });
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => { expect(panel).toHaveAttribute('data-status', 'pending'); });
    expect(within(panel).getByRole('status')).toHaveTextContent('Preparing your file');
    const link = await within(panel).findByTestId('history-download', {}, { timeout: 5000 });
    expect(link).toHaveAttribute('href', 'http://localhost/games/history/export/9/k.csv');
    expect(within(panel).getByRole('status')).toHaveTextContent('Your file is ready: 6 rounds');
    expect(api.calls('games.createhistoryexportrequest')).toHaveLength(1);
  });

  it('has no export when the operator turned it off, and speaks French', async () => {
    await activateLocale('fr');
    const api = mockApi({
      ...signedIn,
      'metadata.getgeneralinfo': { ...GENERAL_INFO, is_game_history_export_enabled: false },
      'games.getHistory': { total: 1, items: [round(1)] },
      'games.gethistoryexportrequest': apiError('AccessDeniedException', 403),
    });
    renderApp('/fr/profile/bets');
    const list = await screen.findByTestId('game-history');
    expect(await within(list).findByText('Historique de jeu')).toBeInTheDocument();
    expect(await within(list).findByText('Solde après')).toBeInTheDocument();
    expect(screen.queryByTestId('history-export')).toBeNull();
    expect(api.calls('games.gethistoryexportrequest')).toHaveLength(0);
  });
});
