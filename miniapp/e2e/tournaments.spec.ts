import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, PASSWORD, shoot, uniqueEmail } from './support';

// Tournaments and jackpots as a player meets them, against the real server: an operator opens a
// running opt-in tournament (stake scoring, every game, 100.00 for the first) and a hidden-trigger
// jackpot; the player joins on the tournament's page and plays house dice rounds while the page
// stays open: the leaderboard and the player's rank follow the live stream without a reload, and
// so does the jackpot's amount on /jackpots.

interface Info {
  balance_main: { amount: string };
}

interface Launch {
  token: string;
}

/** The dice stake of each round, and what it adds to a stake-scored tournament (minor units). */
const BET = '2.00';
const BET_MINOR = 200;

function operator() {
  return { authorization: `Bearer ${process.env.CROUPIER_E2E_ADMIN_TOKEN ?? ''}` };
}

/** POST /admin/{resource} as the operator; answers the new id. */
async function create(request: APIRequestContext, resource: string, data: Record<string, unknown>): Promise<number> {
  const response = await request.post(`/admin/${resource}`, { headers: operator(), data });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { status: string; data: { id: number } };
  expect(body.status).toBe('ok');
  return body.data.id;
}

/** Registers a USD player (the request context, so the page too, is signed in) and deposits 50.00 through the sandbox. */
async function fundedPlayer(request: APIRequestContext): Promise<void> {
  await api(request, 'auth.register', { email: uniqueEmail('tournament'), password: PASSWORD, currency: 'USD', terms: '1' });
  const started = (await api(request, 'cashier.makedeposit', { method: 'sandbox_card', amount: '50', campaign_offer_id: 'none' })) as { redirect_url: string };
  const paid = await request.post(started.redirect_url, { form: { outcome: 'success' } });
  expect(paid.ok(), await paid.text()).toBe(true);
  await expect
    .poll(async () => ((await api(request, 'account.getInfo')) as Info).balance_main.amount, { message: 'the deposit credited' })
    .toBe('50.00');
}

/** Plays `rounds` real-money dice rounds through the house round endpoint, as the game page's frame does. */
async function playDice(request: APIRequestContext, rounds: number): Promise<void> {
  const launched = await request.get('/platform/game/dice/play', { headers: { accept: 'application/json' } });
  expect(launched.status(), await launched.text()).toBe(200);
  const { token } = (await launched.json()) as Launch;
  for (let round = 0; round < rounds; round += 1) {
    const played = await request.post('/games/house/dice/round', { data: { token, bet: BET, target: '50.00', condition: 'under' } });
    expect(played.status(), await played.text()).toBe(200);
  }
}

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Marks the document: the mark is gone if the page reloads. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate("document.documentElement.dataset.e2eMark = 'kept'");
}

async function documentKept(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-e2e-mark', 'kept');
}

for (const width of [360, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test('a live tournament: join, play, climb the leaderboard; the jackpot grows as the rounds are played', async ({ page }, info) => {
      test.setTimeout(120_000);
      await journey(page, info, width);
    });
  });
}

async function journey(page: Page, info: TestInfo, width: number): Promise<void> {
  const snap = async (name: string) => {
    await shoot(page, info, `${name}-at-${String(width)}`);
    await page.setViewportSize({ width, height: 800 });
  };
  const now = Math.floor(Date.now() / 1000);
  const title = `Sprint ${String(width)} ${String(now)}`;
  const tournamentId = await create(page.request, 'tournaments', {
    title_en: title,
    title_fr: `Sprint FR ${String(width)} ${String(now)}`,
    description_en: 'Wager the most within the hour.',
    description_fr: 'Misez le plus dans l’heure.',
    starts_at: now - 60,
    ends_at: now + 3600,
    time_zone: 'UTC',
    currencies: ['USD'],
    scoring: 'stake',
    participation: 'opt_in',
    min_bet: null,
    games: { sysnames: [], categories: [], providers: [] },
    prizes: [{ rank_from: 1, rank_to: 1, kind: 'money', amount: 10_000 }],
  });
  // The secret trigger lies between the seed and 2000.00: these rounds add cents, far from it.
  const poolId = await create(page.request, 'jackpots', {
    title_en: `Mystery ${String(width)} ${String(now)}`,
    title_fr: `Mystère ${String(width)} ${String(now)}`,
    description_en: 'A hidden trigger, provably fair.',
    description_fr: 'Un déclencheur caché, à l’équité prouvable.',
    currency: 'USD',
    seed: 100_000,
    contribution_bps: 100,
    trigger: 'hidden',
    must_drop_before: 200_000,
    games: { sysnames: [], categories: [], providers: [] },
  });
  await fundedPlayer(page.request);

  // The running list shows it; its page explains it.
  await page.goto('/tournaments');
  const card = page.getByTestId('tournament-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('tournament-window')).toContainText('(UTC)');
  await expect(card.getByTestId('tournament-countdown')).toContainText('Ends in');
  await snap('tournaments');
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(`/tournaments/${String(tournamentId)}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId('tournament-rules')).toContainText('Every game');
  await expect(page.getByTestId('tournament-prize')).toHaveText(['1$100.00']);
  await expect(page.getByRole('link', { name: 'Play the qualifying games' })).toHaveAttribute('href', `/tournaments/${String(tournamentId)}/gamehall`);
  expect(await seriousViolations(page)).toEqual([]);

  // Join: the player now has a standing, with nothing scored yet.
  await page.getByTestId('tournament-join').click();
  await expect(page.getByTestId('tournament-joined')).toBeVisible();
  await expect(page.getByTestId('my-score')).toHaveAttribute('data-score', '0');
  await snap('tournament-joined');

  // Rounds played elsewhere (the page stays open): the stream brings the new board.
  await markDocument(page);
  await playDice(page.request, 3);
  await expect(page.getByTestId('my-score')).toHaveAttribute('data-score', String(3 * BET_MINOR), { timeout: 15_000 });
  await expect(page.getByTestId('my-rank')).toHaveAttribute('data-rank', '1');
  const mine = page.locator('[data-testid="leaderboard-row"][data-me="true"]');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('$6.00');
  await documentKept(page);
  await snap('tournament-leaderboard');

  await playDice(page.request, 1);
  await expect(page.getByTestId('my-score')).toHaveAttribute('data-score', String(4 * BET_MINOR), { timeout: 15_000 });
  await expect(mine).toContainText('$8.00');
  await documentKept(page);

  // The qualifying games: every game, so the whole hall.
  await page.getByRole('link', { name: 'Play the qualifying games' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Games of ${title}` })).toBeVisible();
  await expect(page.locator('[data-testid="game-card"][data-sysname="dice"]')).toBeVisible();

  // The jackpot: its amount follows the rounds without a reload.
  await page.goto('/jackpots');
  const pool = page.locator(`[data-testid="jackpot-card"][data-pool-id="${String(poolId)}"]`);
  await expect(pool.getByTestId('jackpot-trigger')).toContainText('Hidden trigger (provably fair)');
  await expect(pool.getByTestId('jackpot-hash')).toHaveText(/^[0-9a-f]{64}$/);
  const amount = pool.getByTestId('jackpot-amount');
  await expect(amount).toHaveAttribute('data-minor', /^\d+$/);
  const before = Number(await amount.getAttribute('data-minor'));
  expect(before).toBeGreaterThanOrEqual(100_000);
  expect(await seriousViolations(page)).toEqual([]);
  await markDocument(page);
  await playDice(page.request, 3);
  // 1 % of three 2.00 stakes: 6 cents more, within a few of the stream's seconds.
  await expect.poll(async () => Number(await amount.getAttribute('data-minor')), { timeout: 15_000 }).toBeGreaterThanOrEqual(before + 6);
  await documentKept(page);
  await snap('jackpots');

  await pool.getByRole('link', { name: /See the jackpot/ }).click();
  await expect(page).toHaveURL(`/jackpots/${String(poolId)}`);
  await expect(page.getByTestId('jackpot-contribution')).toContainText('1.00 %');
  await expect(page.getByTestId('jackpot-amount')).toHaveAttribute('data-minor', /^\d+$/);

  // The winners list, with the player's say in how they appear.
  await page.goto('/winners');
  await expect(page.getByRole('heading', { level: 1, name: 'Winners' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'How you appear in the winners list' }).getByRole('radio')).toHaveCount(3);
  await page.getByRole('button', { name: 'Jackpots' }).click();
  await expect(page.getByRole('button', { name: 'Jackpots' })).toHaveAttribute('aria-pressed', 'true');
  expect(await seriousViolations(page)).toEqual([]);
  await snap('winners');

  // The same tournament in French.
  await page.goto(`/fr/tournaments/${String(tournamentId)}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Classement' })).toBeVisible();
  await expect(page.getByTestId('tournament-joined')).toHaveText('Vous participez.');
  await expect(page.getByTestId('my-rank')).toHaveAttribute('data-rank', '1');
  await snap('fr-tournament');
}
