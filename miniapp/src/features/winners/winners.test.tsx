import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { mockApi, player, type MockHandler } from '@/test/api-mock';
import { mockLive } from '@/test/event-source';
import { renderApp } from '@/test/render-app';
import { withWinner, WINNERS_FEED_LIMIT, type Winner } from './api/get-winners';

afterEach(async () => {
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };
const now = Math.floor(Date.now() / 1000);

function winner(overrides: Partial<Winner> = {}): Winner {
  return {
    id: 1,
    kind: 'game',
    name: 'Ann',
    game: { sysname: 'dice', title: 'Dice' },
    amount: { amount: '1250.00', currency: 'USD' },
    multiplier: '125.00',
    at: now - 5 * 60,
    tournament_id: null,
    pool_id: null,
    ...overrides,
  };
}

const jackpotWin = winner({ id: 2, kind: 'jackpot', name: 'Bob', game: null, multiplier: null, pool_id: 3, amount: { amount: '5000.00', currency: 'USD' } });

/** `winners.get` answering the wins of the asked kind. */
function winnersGet(all: Winner[]): MockHandler {
  return ({ url }) => {
    const kind = url.searchParams.get('kind') ?? 'all';
    const items = all.filter((w) => kind === 'all' || w.kind === kind);
    return { items, total: items.length };
  };
}

describe('the feed', () => {
  it('adds a win on top once, keeping the newest ones', () => {
    const feed = { items: [winner()], total: 1 };
    expect(withWinner(feed, winner()).items).toHaveLength(1);
    expect(withWinner(feed, jackpotWin).items.map((w) => w.id)).toEqual([2, 1]);
    const full = { items: Array.from({ length: WINNERS_FEED_LIMIT }, (_, id) => winner({ id: id + 10 })), total: 99 };
    const next = withWinner(full, jackpotWin);
    expect(next.items).toHaveLength(WINNERS_FEED_LIMIT);
    expect(next.items[0]?.id).toBe(2);
    expect(next.total).toBe(100);
  });
});

describe('/winners', () => {
  it('lists the big wins and puts a pushed one on top', async () => {
    const live = mockLive();
    const api = mockApi({ 'winners.get': winnersGet([winner(), jackpotWin]) });
    renderApp('/winners');
    const items = await screen.findAllByTestId('winner-item');
    expect(screen.getByRole('heading', { level: 1, name: 'Winners' })).toBeVisible();
    expect(api.calls('winners.get')[0]?.url.searchParams.get('kind')).toBe('all');
    const [ann, bob] = items;
    if (!ann || !bob) throw new Error('two wins expected');
    expect(ann).toHaveTextContent('Ann');
    expect(ann).toHaveTextContent('$1,250.00');
    expect(ann).toHaveTextContent('×125.00');
    expect(ann).toHaveTextContent('5 minutes ago');
    expect(within(ann).getByRole('link', { name: 'Dice' })).toHaveAttribute('href', '/game/dice');
    expect(within(bob).getByRole('link', { name: 'Jackpot' })).toHaveAttribute('href', '/jackpots/3');
    // Guests have no privacy setting and the server is not asked.
    expect(screen.queryByTestId('winners-privacy')).toBeNull();
    expect(api.calls('winners.getPrivacy')).toHaveLength(0);

    await waitFor(() => {
      expect(live.open('/live/winners')).toHaveLength(1);
    });
    expect(live.open('/live/winners')[0]?.url).toBe('/live/winners?locale=en');
    await live.push('/live/winners', 'winner', winner({ id: 7, name: 'Cleo', at: now, multiplier: '500.00', game: { sysname: 'plinko', title: 'Plinko' } }));
    const updated = screen.getAllByTestId('winner-item');
    expect(updated).toHaveLength(3);
    expect(updated[0]).toHaveTextContent('Cleo');
    expect(updated[0]).toHaveTextContent('×500.00');
    expect(within(updated[0] ?? document.body).getByRole('link', { name: 'Plinko' })).toHaveAttribute('href', '/game/plinko');
    expect(api.calls('winners.get')).toHaveLength(1);
  });

  it('filters by kind with the chips, and pushes only matching wins into a filtered feed', async () => {
    const live = mockLive();
    const api = mockApi({ 'winners.get': winnersGet([winner(), jackpotWin]) });
    renderApp('/winners');
    await screen.findAllByTestId('winner-item');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(screen.getByRole('button', { name: 'Jackpots' }));
    await waitFor(() => {
      expect(screen.getAllByTestId('winner-item')).toHaveLength(1);
    });
    expect(api.calls('winners.get').at(-1)?.url.searchParams.get('kind')).toBe('jackpot');
    expect(screen.getByRole('button', { name: 'Jackpots' })).toHaveAttribute('aria-pressed', 'true');

    await live.push('/live/winners', 'winner', winner({ id: 8, name: 'Dan' }));
    expect(screen.getAllByTestId('winner-item')).toHaveLength(1);
    await live.push('/live/winners', 'winner', winner({ id: 9, kind: 'jackpot', name: 'Eve', game: null, pool_id: 3 }));
    expect(screen.getAllByTestId('winner-item')[0]).toHaveTextContent('Eve');

    fireEvent.click(screen.getByRole('button', { name: 'Games' }));
    await waitFor(() => {
      expect(api.calls('winners.get').at(-1)?.url.searchParams.get('kind')).toBe('game');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Tournaments' }));
    await waitFor(() => {
      expect(api.calls('winners.get').at(-1)?.url.searchParams.get('kind')).toBe('tournament');
    });
    expect(await screen.findByTestId('winners-empty')).toHaveTextContent('No big win to show yet.');
  });

  it('lets a player choose how they appear, saved with winners.setPrivacy', async () => {
    const api = mockApi({
      ...signedIn,
      'winners.get': winnersGet([winner()]),
      'winners.getPrivacy': { display: 'masked' },
      'winners.setPrivacy': ({ body }: { body: FormData | null }) => ({ display: body?.get('display') }),
    });
    renderApp('/winners');
    const setting = await screen.findByRole('group', { name: 'How you appear in the winners list' });
    await waitFor(() => {
      expect(within(setting).getByRole('radio', { name: 'Your login, partly hidden' })).toBeChecked();
    });
    fireEvent.click(within(setting).getByRole('radio', { name: 'Not shown' }));
    await waitFor(() => {
      expect(api.calls('winners.setPrivacy')).toHaveLength(1);
    });
    expect(api.calls('winners.setPrivacy')[0]?.body?.get('display')).toBe('hidden');
    await waitFor(() => {
      expect(within(setting).getByRole('radio', { name: 'Not shown' })).toBeChecked();
    });
    expect(await screen.findByText('Your choice is saved.')).toBeVisible();
  });

  it('speaks French under /fr', async () => {
    await activateLocale('fr');
    mockApi({ ...signedIn, 'winners.get': winnersGet([winner(), jackpotWin]), 'winners.getPrivacy': { display: 'nickname' } });
    renderApp('/fr/winners');
    const [ann] = await screen.findAllByTestId('winner-item');
    expect(screen.getByRole('heading', { level: 1, name: 'Gagnants' })).toBeVisible();
    expect(ann).toHaveTextContent('il y a 5 minutes');
    expect(ann?.textContent).toContain('1\u202f250,00\u00a0$');
    expect(within(ann ?? document.body).getByRole('link', { name: 'Dice' })).toHaveAttribute('href', '/fr/game/dice');
    expect(screen.getByRole('group', { name: 'Types de gains' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Tournois' })).toBeVisible();
    const setting = screen.getByRole('group', { name: 'Comment vous apparaissez dans la liste des gagnants' });
    await waitFor(() => {
      expect(within(setting).getByRole('radio', { name: 'Votre pseudo' })).toBeChecked();
    });
  });
});
