import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { i18n, activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player, type MockHandler } from '@/test/api-mock';
import { mockLive } from '@/test/event-source';
import { renderApp } from '@/test/render-app';
import type { Leaderboard } from './api/get-leaderboard';
import { newerBoard } from './api/get-leaderboard';
import { untilNextPhase, type Tournament } from './api/get-tournaments';
import { formatScore, prizeText, rankText } from './score';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };
const now = Math.floor(Date.now() / 1000);
// 2030-03-12 17:00 UTC is 18:00 in Paris.
const START = Date.UTC(2030, 2, 12, 17, 0) / 1000;

function tournament(overrides: Partial<Tournament> = {}): Tournament {
  return {
    id: 5,
    title: 'Spring Sprint',
    description: 'Wager the most in a week.',
    image: null,
    status: 'running',
    starts_at: now - 3600,
    ends_at: now + 2 * 86_400 + 3 * 3600,
    time_zone: 'Europe/Paris',
    scoring: 'stake',
    participation: 'opt_in',
    min_bet: { amount: '0.50', currency: 'USD' },
    currencies: ['USD'],
    game_sysnames: ['dice', 'plinko'],
    prizes: [
      { rank_from: 1, rank_to: 1, kind: 'money', amount: { amount: '100.00', currency: 'USD' }, points: null, freespins: null },
      { rank_from: 2, rank_to: 5, kind: 'points', amount: null, points: 500, freespins: null },
    ],
    prize_pool: { amount: '1500.00', currency: 'USD' },
    participants: 1234,
    joined: false,
    my: null,
    ...overrides,
  };
}

function board(overrides: Partial<Leaderboard> = {}): Leaderboard {
  return {
    tournament_id: 5,
    total: 2,
    items: [
      { rank: 1, name: 'Ann', score: 12_550, is_me: false },
      { rank: 2, name: 'Bob', score: 900, is_me: false },
    ],
    me: null,
    version: 1,
    ...overrides,
  };
}

/** `tournaments.get`: one by id, else the list of the asked status. */
function tournamentsGet(one: Tournament, lists: Partial<Record<string, Tournament[]>> = {}): MockHandler {
  return ({ url }) => {
    if (url.searchParams.has('id')) return Number(url.searchParams.get('id')) === one.id ? one : apiError('InvalidParameterException', 404, { id: ['NOT_FOUND'] });
    const items = lists[url.searchParams.get('status') ?? ''] ?? [];
    return { items, total: items.length };
  };
}

describe('scores and prizes', () => {
  const t = i18n.t.bind(i18n);

  it('shows a score as the scoring counts it', () => {
    expect(formatScore(12_550, { scoring: 'stake', currencies: ['USD'] }, t, 'en')).toBe('$125.50');
    expect(formatScore(12_550, { scoring: 'win', currencies: ['EUR'] }, t, 'fr')).toBe('125,50\u00a0€');
    expect(formatScore(1234, { scoring: 'multiplier', currencies: ['USD'] }, t, 'en')).toBe('×12.34');
    expect(formatScore(1, { scoring: 'points', currencies: [] }, t, 'en')).toBe('1 point');
    expect(formatScore(2500, { scoring: 'points', currencies: [] }, t, 'en')).toBe('2,500 points');
  });

  it('names ranks and prizes', () => {
    const [first, rest] = tournament().prizes;
    if (!first || !rest) throw new Error('no prizes');
    expect(rankText(first, t)).toBe('1');
    expect(rankText(rest, t)).toBe('2–5');
    expect(prizeText(first, t, 'en')).toBe('$100.00');
    expect(prizeText(rest, t, 'en')).toBe('500 loyalty points');
    expect(
      prizeText({ ...first, kind: 'freespins', amount: null, freespins: { count: 20, game: 'Gem Rush', bet: { amount: '0.20', currency: 'USD' } } }, t, 'en'),
    ).toBe('20 free spins on Gem Rush at $0.20');
  });

  it('asks again a second after the next start or end, and not at all once every one has ended', () => {
    const nowMs = now * 1000;
    expect(untilNextPhase([tournament({ ends_at: now + 60 }), tournament({ status: 'upcoming', starts_at: now + 30 })], nowMs)).toBe(31_000);
    expect(untilNextPhase([tournament({ ends_at: now - 5 })], nowMs)).toBe(5000);
    expect(untilNextPhase([tournament({ ends_at: now + 365 * 86_400 })], nowMs)).toBe(2 ** 31 - 1);
    expect(untilNextPhase([tournament({ status: 'finished' })], nowMs)).toBe(false);
    expect(untilNextPhase([], nowMs)).toBe(false);
  });

  it('keeps the newer leaderboard', () => {
    expect(newerBoard(board({ version: 3 }), board({ version: 2 })).version).toBe(3);
    expect(newerBoard(board({ version: 3 }), board({ version: 4 })).version).toBe(4);
    expect(newerBoard(undefined, board()).version).toBe(1);
  });
});

describe('/tournaments', () => {
  it('lists the running tournaments with their window in both zones, pool, players, rule and countdown', async () => {
    const api = mockApi({
      'tournaments.get': tournamentsGet(tournament(), {
        running: [tournament({ starts_at: START, ends_at: START + 7 * 86_400 + 3600, status: 'running' })],
        upcoming: [tournament({ id: 6, title: 'Summer Cup', status: 'upcoming', starts_at: now + 3 * 3600 + 4 * 60, ends_at: now + 86_400 })],
      }),
    });
    renderApp('/tournaments');
    const card = await screen.findByTestId('tournament-card');
    expect(screen.getByRole('heading', { level: 1, name: 'Tournaments' })).toBeVisible();
    expect(within(card).getByRole('link', { name: 'Spring Sprint' })).toHaveAttribute('href', '/tournaments/5');
    expect(within(card).getByTestId('tournament-window')).toHaveTextContent('12.03.2030 18:00 – 19.03.2030 19:00 (Europe/Paris)');
    expect(within(card).getByTestId('tournament-window')).toHaveTextContent(/Your time: \d\d\.03\.2030 \d+:00 – \d\d\.03\.2030 \d+:00/);
    expect(within(card).getByTestId('tournament-prize-pool')).toHaveTextContent('$1,500.00');
    expect(within(card).getByTestId('tournament-participants')).toHaveTextContent('1,234');
    expect(card).toHaveTextContent('Every qualifying bet adds its stake');
    expect(within(card).getByTestId('tournament-countdown')).toHaveTextContent(/^Ends in /);
    expect(api.calls('tournaments.get')[0]?.url.searchParams.get('status')).toBe('running');
    expect(screen.getByRole('button', { name: 'Running' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(screen.getByRole('button', { name: 'Upcoming' }));
    const upcoming = await screen.findByRole('link', { name: 'Summer Cup' });
    const countdown = within(upcoming.closest('li') ?? document.body).getByTestId('tournament-countdown');
    expect(countdown.textContent).toMatch(/^Starts in 03:0[34]:\d\d$/);
    expect(api.calls('tournaments.get').at(-1)?.url.searchParams.get('status')).toBe('upcoming');

    fireEvent.click(screen.getByRole('button', { name: 'Finished' }));
    expect(await screen.findByTestId('tournaments-empty')).toHaveTextContent('No tournament has finished yet.');
  });

  it('speaks French under /fr', async () => {
    await activateLocale('fr');
    mockApi({ 'tournaments.get': tournamentsGet(tournament(), { running: [tournament({ starts_at: START, ends_at: START + 3600 })] }) });
    renderApp('/fr/tournaments');
    const card = await screen.findByTestId('tournament-card');
    expect(screen.getByRole('heading', { level: 1, name: 'Tournois' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'En cours' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(card).getByRole('link', { name: 'Spring Sprint' })).toHaveAttribute('href', '/fr/tournaments/5');
    expect(card).toHaveTextContent('Cagnotte');
    expect(within(card).getByTestId('tournament-prize-pool').textContent).toBe('1\u202f500,00\u00a0$');
    expect(card).toHaveTextContent('Votre heure :');
    expect(card).toHaveTextContent('Chaque mise éligible ajoute son montant');
  });
});

describe('/tournaments/{id}', () => {
  it('shows the description, the rules and the prizes; joining calls tournaments.participate', async () => {
    let joined = false;
    const api = mockApi({
      ...signedIn,
      'tournaments.get': () => tournament({ joined }),
      'leaderboard.get': board(),
      'tournaments.participate': () => {
        joined = true;
        return { joined: true, rank: null, score: 0 };
      },
    });
    renderApp('/tournaments/5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring Sprint' })).toBeVisible();
    expect(screen.getByText('Wager the most in a week.')).toBeVisible();
    const rules = screen.getByTestId('tournament-rules');
    expect(rules).toHaveTextContent('$0.50');
    expect(rules).toHaveTextContent('USD');
    expect(rules).toHaveTextContent('Press Join to take part');
    expect(rules).toHaveTextContent('2 games');
    const prizes = screen.getAllByTestId('tournament-prize').map((row) => row.textContent);
    expect(prizes).toEqual(['1$100.00', '2–5500 loyalty points']);
    expect(screen.getByRole('link', { name: 'Play the qualifying games' })).toHaveAttribute('href', '/tournaments/5/gamehall');

    const rows = await screen.findAllByTestId('leaderboard-row');
    expect(rows.map((row) => row.textContent)).toEqual(['1Ann$125.50', '2Bob$9.00']);
    expect(screen.queryByTestId('my-rank')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByTestId('tournament-joined')).toHaveTextContent('You are taking part.');
    expect(api.calls('tournaments.participate')).toHaveLength(1);
    expect(api.calls('tournaments.participate')[0]?.body?.get('tournament_id')).toBe('5');
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
  });

  it('asks a guest to sign in instead of joining', async () => {
    const api = mockApi({ 'tournaments.get': tournament(), 'leaderboard.get': board() });
    renderApp('/tournaments/5');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in to join' }));
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeVisible();
    expect(api.calls('tournaments.participate')).toHaveLength(0);
  });

  it('offers no join for an automatic or a finished tournament', async () => {
    mockApi({ ...signedIn, 'tournaments.get': tournament({ participation: 'automatic' }), 'leaderboard.get': board() });
    renderApp('/tournaments/5');
    await screen.findByTestId('tournament-rules');
    expect(screen.getByTestId('tournament-rules')).toHaveTextContent('Every qualifying bet takes part on its own.');
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
  });

  it('updates the leaderboard and the player’s rank from the live stream, without a reload', async () => {
    const live = mockLive();
    const api = mockApi({
      ...signedIn,
      'tournaments.get': tournament({ joined: true }),
      'leaderboard.get': board({ me: { rank: null, score: 0, gap_to_prize: null, prize: null } }),
    });
    renderApp('/tournaments/5');
    const myRank = await screen.findByTestId('my-rank');
    expect(myRank).toHaveTextContent('not ranked yet');
    expect(myRank).toHaveAttribute('data-rank', '');
    await waitFor(() => {
      expect(live.open('/live/tournaments/5')).toHaveLength(1);
    });
    const [source] = live.open('/live/tournaments/5');
    expect(source?.url).toBe('/live/tournaments/5?locale=en');
    expect(source?.withCredentials).toBe(true);

    await live.push('/live/tournaments/5', 'leaderboard', board({
        version: 2,
        total: 3,
        items: [
          { rank: 1, name: 'Ann', score: 12_550, is_me: false },
          { rank: 2, name: 'Bob', score: 900, is_me: false },
          { rank: 3, name: 'Me', score: 500, is_me: true },
        ],
        me: { rank: 3, score: 500, gap_to_prize: 400, prize: null },
      }));
    expect(screen.getByTestId('my-rank')).toHaveAttribute('data-rank', '3');
    expect(screen.getByTestId('my-rank')).toHaveTextContent('#3');
    expect(screen.getByTestId('my-gap')).toHaveTextContent('$4.00 more to reach the next prize.');
    const mine = screen.getAllByTestId('leaderboard-row').at(-1);
    expect(mine).toHaveAttribute('data-me', 'true');
    expect(mine).toHaveTextContent('Me (you)$5.00');

    // A board older than the one shown changes nothing.
    await live.push('/live/tournaments/5', 'leaderboard', board({ version: 1, me: { rank: 9, score: 1, gap_to_prize: null, prize: null } }));
    expect(screen.getByTestId('my-rank')).toHaveAttribute('data-rank', '3');

    await live.push('/live/tournaments/5', 'leaderboard', board({
        version: 3,
        items: [{ rank: 1, name: 'Me', score: 20_000, is_me: true }],
        me: { rank: 1, score: 20_000, gap_to_prize: null, prize: tournament().prizes[0] ?? null },
      }));
    expect(screen.getByTestId('my-rank')).toHaveAttribute('data-rank', '1');
    expect(screen.getByTestId('my-standing')).toHaveTextContent('Your prize now: $100.00');
    expect(screen.getAllByTestId('leaderboard-row')).toHaveLength(1);
    expect(api.calls('leaderboard.get')).toHaveLength(1);
  });

  it('keeps every place of the top on the board, the open ones too, from the start', async () => {
    mockApi({ 'tournaments.get': tournament(), 'leaderboard.get': board({ items: [], total: 0 }) });
    renderApp('/tournaments/5');
    expect(await screen.findByTestId('leaderboard-empty')).toHaveTextContent('Nobody has scored yet.');
    const table = within(screen.getByTestId('leaderboard')).getByRole('table', { hidden: true });
    expect(table.querySelectorAll('tbody tr')).toHaveLength(10);
    expect(screen.queryAllByTestId('leaderboard-row')).toHaveLength(0);
  });

  it('shows the player’s own row below the top when they are further down', async () => {
    mockApi({
      ...signedIn,
      'tournaments.get': tournament({ joined: true }),
      'leaderboard.get': board({ me: { rank: 42, score: 100, gap_to_prize: 800, prize: null } }),
    });
    renderApp('/tournaments/5');
    expect(await screen.findByTestId('leaderboard-my-row')).toHaveTextContent('42you$1.00');
    expect(screen.getAllByTestId('leaderboard-row')).toHaveLength(2);
  });

  it('closes the live stream on leaving the page', async () => {
    const live = mockLive();
    mockApi({ 'tournaments.get': tournamentsGet(tournament()), 'leaderboard.get': board() });
    const { router } = renderApp('/tournaments/5');
    await screen.findAllByTestId('leaderboard-row');
    expect(live.open('/live/tournaments/5')).toHaveLength(1);
    await act(async () => {
      await router.navigate('/tournaments');
    });
    await screen.findByTestId('tournaments-page');
    expect(live.open('/live/tournaments/5')).toHaveLength(0);
  });

  it('reads French, with the rules, the leaderboard and the prizes', async () => {
    await activateLocale('fr');
    mockApi({ ...signedIn, 'tournaments.get': tournament(), 'leaderboard.get': board() });
    renderApp('/fr/tournaments/5');
    expect(await screen.findByRole('heading', { level: 2, name: 'Règles' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Classement' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Prix' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Participer' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Jouer aux jeux du tournoi' })).toHaveAttribute('href', '/fr/tournaments/5/gamehall');
    expect((await screen.findAllByTestId('leaderboard-row'))[0]?.textContent).toBe('1Ann125,50\u00a0$');
  });

  it('says so when there is no such tournament', async () => {
    mockApi({ 'tournaments.get': tournamentsGet(tournament()) });
    renderApp('/tournaments/77');
    expect(await screen.findByTestId('tournament-not-found')).toHaveTextContent('This tournament does not exist');
    expect(screen.getByRole('heading', { level: 1, name: 'Tournaments' })).toBeVisible();
  });
});

describe('/tournaments/{id}/gamehall', () => {
  it('lists the qualifying games through games.get with their sysnames', async () => {
    const api = mockApi({
      'tournaments.get': tournament(),
      'games.get': {
        total: 1,
        items: [
          { id: 1, sysname: 'dice', name: 'Dice', image_url: '/dice.svg', description: {}, provider: 'house', type: 'fast', rtp: '99', volatility: 'low', has_demo: true, config: null, is_favourite: false },
        ],
      },
    });
    renderApp('/tournaments/5/gamehall');
    expect(await screen.findByRole('heading', { level: 1, name: 'Games of Spring Sprint' })).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Dice' })).toHaveAttribute('href', '/game/dice');
    const options = JSON.parse(api.calls('games.get')[0]?.url.searchParams.get('options') ?? '{}') as Record<string, unknown>;
    expect(options.sysnames).toEqual(['dice', 'plinko']);
    expect(screen.getByRole('link', { name: 'Back to the tournament' })).toHaveAttribute('href', '/tournaments/5');
  });

  it('lists every game for a tournament open to all games, in French', async () => {
    await activateLocale('fr');
    const api = mockApi({ 'tournaments.get': tournament({ game_sysnames: [] }), 'games.get': { total: 0, items: [] } });
    renderApp('/fr/tournaments/5/gamehall');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jeux de Spring Sprint' })).toBeVisible();
    await waitFor(() => {
      expect(api.calls('games.get')).toHaveLength(1);
    });
    const options = JSON.parse(api.calls('games.get')[0]?.url.searchParams.get('options') ?? '{}') as Record<string, unknown>;
    expect(options.sysnames).toBeUndefined();
  });
});
