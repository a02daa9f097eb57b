import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, PASSWORD, shoot, uniqueEmail } from './support';
import { BOT_TOKEN, initDataFor, lastEvent, launchHash, mockTelegram, pressBackButton, telegramEvents } from './telegram-mock';

// The sportsbook as a player meets it, against the real server and its sandbox feed (a seeded
// calendar that always has events in play and upcoming): a guest browses /betting and is asked
// to sign in to bet; a funded player opens an upcoming event's markets, picks a price there and
// another on a second event, places them as an accumulator (accepting new odds if the feed moved
// the prices in between), and finds the bet, with its two selections, in /profile/bets.
//
// In play (issue 20's journey): the operators' sandbox clock (POST /admin/sportsbook/sandbox/advance)
// moves the feed's time, so prices move while the slip is open and the matches end and settle
// within the test. A player picks a price from each of two matches in play, sees the odds change,
// accepts and places them as singles; the clock passes the final whistle and /profile/bets and the
// balance show the settlement. One of the two is the most likely outcome on offer; should neither
// win, the journey bets again (at most five rounds), so a win is always shown. At 360 and 1280 px,
// and once inside the mocked Telegram webview (back button, haptics).

interface Info {
  balance_main: { amount: string };
}

/** Registers a USD player (the request context, so the page too, is signed in) and deposits 50.00 through the sandbox. */
async function fundedPlayer(request: APIRequestContext): Promise<void> {
  await api(request, 'auth.register', { email: uniqueEmail('betting'), password: PASSWORD, currency: 'USD', terms: '1' });
  await deposit(request);
}

/** Deposits 50.00 through the sandbox cashier for the signed-in player (who has no money yet). */
async function deposit(request: APIRequestContext): Promise<void> {
  const started = (await api(request, 'cashier.makedeposit', { method: 'sandbox_card', amount: '50', campaign_offer_id: 'none' })) as { redirect_url: string };
  const paid = await request.post(started.redirect_url, { form: { outcome: 'success' } });
  expect(paid.ok(), await paid.text()).toBe(true);
  await expect
    .poll(async () => ((await api(request, 'account.getInfo')) as Info).balance_main.amount, { message: 'the deposit credited' })
    .toBe('50.00');
}

/** The slip: a column on wide screens, a drawer opened from its bar on phones. */
async function openSlip(page: Page, width: number) {
  const slip = page.getByTestId('bet-slip');
  if (width < 1024 && !(await slip.isVisible())) await page.getByTestId('slip-bar').click();
  await expect(slip).toBeVisible();
  return slip;
}

async function closeSlip(page: Page, width: number) {
  if (width < 1024) await page.getByRole('button', { name: 'Close the bet slip' }).click();
}

for (const width of [360, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test('betting: browse as a guest, then place an accumulator from two events and find it in /profile/bets', async ({ page }, info) => {
      test.setTimeout(120_000);
      await journey(page, info, width);
    });
    test('betting in play: two selections, the odds move while the slip is open, accepted and placed, the feed settles a win', async ({ page }, info) => {
      test.setTimeout(180_000);
      await fundedPlayer(page.request);
      await inPlayJourney(page, info, width, null);
    });
  });
}

test('betting in play inside Telegram: full screen, back button, a haptic on placement, the win settled', async ({ page }, info) => {
  test.skip(BOT_TOKEN === '', 'the server of this run has no bot token');
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 640 });
  await mockTelegram(page, { theme: 'dark', allowFullscreen: true });
  const { initData } = initDataFor('e2e_betting');
  const signIn = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth.telegram');
  await page.goto(`/betting${launchHash(initData, 'dark')}`);
  expect((await signIn).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  // The demo content's after-login campaign popup (SPEC §4), once.
  const popup = page.getByRole('dialog');
  await expect(popup).toContainText('Weekend reload');
  await popup.getByRole('button', { name: 'Close' }).click();
  await expect(popup).toHaveCount(0);
  // A player who came from Telegram chooses the account's currency before the first deposit.
  await api(page.request, 'account.setCurrency', { currency: 'USD', terms: '1' });
  await deposit(page.request);
  await inPlayJourney(page, info, 360, {
    haptics: () => telegramEvents(page, 'web_app_trigger_haptic_feedback'),
    back: async () => {
      await expect.poll(() => lastEvent(page, 'web_app_setup_back_button')).toEqual({ is_visible: true });
      await pressBackButton(page);
    },
  });
});

async function journey(page: Page, info: TestInfo, width: number): Promise<void> {
  const snap = async (name: string) => {
    await shoot(page, info, `${name}-at-${String(width)}`);
    await page.setViewportSize({ width, height: 800 });
  };

  // A guest browses: sports, live events with their prices; betting asks them to sign in.
  await page.goto('/betting');
  await expect(page.getByRole('heading', { level: 1, name: 'Sports betting' })).toBeVisible();
  await expect(page.getByTestId('tab-live')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('event-card').first()).toBeVisible();
  await page.locator('[data-testid="odds-button"]:enabled').first().click();
  let slip = await openSlip(page, width);
  await expect(slip.getByTestId('slip-entry')).toHaveCount(1);
  await slip.getByRole('button', { name: 'Sign in to bet' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeHidden();
  await slip.getByRole('button', { name: 'Clear the slip' }).click();
  await closeSlip(page, width);

  await fundedPlayer(page.request);

  // Upcoming events: the first one's page with every market, one price from it.
  await page.goto('/betting?tab=upcoming');
  await expect(page.getByTestId('tab-upcoming')).toHaveAttribute('aria-pressed', 'true');
  const cards = page.getByTestId('event-card');
  await expect(cards.nth(1)).toBeVisible();
  const firstId = await cards.nth(0).getAttribute('data-event');
  const secondId = await cards.nth(1).getAttribute('data-event');
  await cards.nth(0).getByTestId('event-markets-link').click();
  await expect(page).toHaveURL(`/betting/event/${firstId ?? ''}`);
  await expect(page.getByTestId('market').nth(1)).toBeVisible();
  await page.locator('[data-testid="market"][data-state="active"] [data-testid="odds-button"]:enabled').first().click();
  await snap('betting-event');

  // Back to the list: a price on the second event.
  await page.getByRole('link', { name: /All events/ }).click();
  await page.getByTestId('tab-upcoming').click();
  const second = page.locator(`[data-testid="event-card"][data-event="${secondId ?? ''}"]`);
  await second.locator('[data-testid="odds-button"]:enabled').first().click();

  // The slip: two selections as an accumulator, 1.00 staked.
  slip = await openSlip(page, width);
  await expect(slip.getByTestId('slip-entry')).toHaveCount(2);
  await slip.getByRole('button', { name: 'Accumulator' }).click();
  await slip.getByTestId('slip-stake').fill('1');
  await expect(slip.getByTestId('slip-total-stake')).toHaveText('$1.00');
  await expect(slip.getByTestId('slip-potential')).toHaveText(/^\$\d+\.\d\d$/);
  await snap('betting-slip');
  await slip.getByTestId('slip-place').click();
  // The sandbox moves prices: a refusal shows the new odds, and accepting them places the bet.
  const placed = page.getByText('Your bet is placed.');
  await expect(placed.or(slip.getByTestId('slip-odds-changed'))).toBeVisible();
  if (!(await placed.isVisible())) await slip.getByRole('button', { name: 'Accept the new odds and place' }).click();
  await expect(placed).toBeVisible();
  await expect
    .poll(async () => ((await api(page.request, 'account.getInfo')) as Info).balance_main.amount, { message: 'the stake taken' })
    .toBe('49.00');

  // The bet in the profile, with its two selections still open.
  await page.goto('/profile/bets');
  const bet = page.getByTestId('bet-card').first();
  await expect(bet).toContainText('Accumulator (2 selections)');
  await expect(bet.getByTestId('bet-selection')).toHaveCount(2);
  await expect(bet.getByTestId('bet-status')).toHaveText('Open');
  await expect(bet.getByTestId('bet-stake')).toHaveText('$1.00');
  await snap('profile-bets');
}

const ADMIN_TOKEN = process.env.CROUPIER_E2E_ADMIN_TOKEN ?? '';

interface Selection {
  id: number;
  odds: string | null;
}
interface Market {
  key: string;
  state: string;
  selections: Selection[];
}
interface SportEvent {
  id: number;
  sport: string;
  status: string;
  markets: Market[];
}
interface BetView {
  status: string;
  stake: { amount: string };
  payout: { amount: string };
}

/** Moves the sandbox feed's clock; the feed's snapshot at the new time is stored and settled before the answer. */
async function advanceFeed(request: APIRequestContext, minutes: number): Promise<void> {
  const response = await request.post('/admin/sportsbook/sandbox/advance', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { minutes, reason: 'e2e betting journey' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function apiGet<T>(request: APIRequestContext, method: string, query: Record<string, string>): Promise<T> {
  const response = await request.get(`/api/${method}?${new URLSearchParams({ locale: 'en', v: '2.34', ...query }).toString()}`);
  const body = (await response.json()) as { status: string; data: T };
  expect(body.status, method).toBe('ok');
  return body.data;
}

/**
 * The offered prices of an event's active markets, shortest first: match result, double chance and
 * totals, at 1.10 or more (a shorter price is nearly decided, and the sandbox soon suspends it).
 */
function offered(event: SportEvent): Selection[] {
  return event.markets
    .filter((market) => market.state === 'active' && /^(1x2|moneyline|double_chance|totals:)/.test(market.key))
    .flatMap((market) => market.selections)
    .filter((selection) => selection.odds !== null && Number(selection.odds) >= 1.1)
    .sort((a, b) => Number(a.odds) - Number(b.odds));
}

/**
 * Two matches in play with prices on offer: the first's most likely outcome, and the match-result
 * price of a second whose prices move with the clock (football, basketball or ice hockey; a tennis
 * match's move only when a set ends).
 */
async function twoInPlay(request: APIRequestContext): Promise<{ first: SportEvent; likely: Selection; second: SportEvent; price: Selection } | null> {
  const live = await apiGet<{ items: SportEvent[] }>(request, 'sportsbook.getEvents', { status: 'live', count: '50' });
  const full: SportEvent[] = [];
  for (const item of live.items) {
    const event = await apiGet<SportEvent>(request, 'sportsbook.getEvent', { event_id: String(item.id) });
    if (event.status === 'live' && offered(event).length > 0) full.push(event);
  }
  const mainPrice = (event: SportEvent) =>
    event.markets
      .find((market) => market.state === 'active' && (market.key === '1x2' || market.key === 'moneyline'))
      ?.selections.find((selection) => selection.odds !== null);
  const second = ['football', 'basketball', 'ice_hockey']
    .map((sport) => full.find((event) => event.sport === sport && mainPrice(event) !== undefined))
    .find((event) => event !== undefined);
  const first = full.find((event) => event !== second);
  if (!first || !second) return null;
  const likely = offered(first)[0];
  const price = mainPrice(second);
  if (!likely || !price) return null;
  return { first, likely, second, price };
}

interface InTelegram {
  haptics: () => Promise<unknown[]>;
  back: () => Promise<void>;
}

async function inPlayJourney(page: Page, info: TestInfo, width: number, telegram: InTelegram | null): Promise<void> {
  const money = (text: string) => Math.round(Number(text) * 100);
  const viewport = page.viewportSize() ?? { width, height: 800 };
  const snap = async (name: string) => {
    await shoot(page, info, `${name}-at-${String(width)}${telegram ? '-telegram' : ''}`);
    await page.setViewportSize(viewport);
  };
  let balance = 5000;
  for (let round = 1; round <= 5; round += 1) {
    // Two matches in play. A goal suspends a match's markets for a minute, and at some hours the
    // calendar has only two or three matches in play, one of them tennis or nearly decided: move
    // the clock on, two minutes at first, then by quarter hours so new kick-offs (one every half
    // hour) come into play; three hours of tries cover six kick-offs.
    let picked = await twoInPlay(page.request);
    for (let tries = 0; picked === null && tries < 14; tries += 1) {
      await advanceFeed(page.request, tries < 2 ? 2 : 15);
      picked = await twoInPlay(page.request);
    }
    if (picked === null) throw new Error('the sandbox has no two matches in play with prices');
    const { first, likely, second, price } = picked;

    // /betting → the first match's markets → its most likely outcome.
    await page.goto('/betting');
    await expect(page.getByTestId('tab-live')).toHaveAttribute('aria-pressed', 'true');
    await page.locator(`[data-testid="event-card"][data-event="${String(first.id)}"] [data-testid="event-markets-link"]`).click();
    await expect(page).toHaveURL(`/betting/event/${String(first.id)}`);
    await page.locator(`[data-testid="odds-button"][data-selection="${String(likely.id)}"]`).click();
    if (balance === 5000) await snap('betting-in-play-event');
    // Back to the list (Telegram's own back button inside Telegram), the second match's price.
    if (telegram) await telegram.back();
    else await page.getByRole('link', { name: /All events/ }).click();
    await expect(page).toHaveURL(/\/betting(\?|$)/);
    await page.locator(`[data-testid="event-card"][data-event="${String(second.id)}"] [data-testid="event-markets-link"]`).click();
    await expect(page).toHaveURL(`/betting/event/${String(second.id)}`);
    await page.locator(`[data-testid="odds-button"][data-selection="${String(price.id)}"]`).click();

    // The slip: two singles of 1.00.
    const slip = await openSlip(page, width);
    await expect(slip.getByTestId('slip-entry')).toHaveCount(2);
    await slip.getByRole('button', { name: 'Singles' }).click();
    await slip.getByTestId('slip-stake').fill('1');
    await expect(slip.getByTestId('slip-total-stake')).toHaveText('$2.00');

    // The clock moves while the slip is open: new prices arrive live, the slip shows what they were.
    const was = slip.getByTestId('slip-was');
    for (let minute = 0; minute < 8 && !(await was.first().isVisible()); minute += 1) {
      await advanceFeed(page.request, 1);
      await was.first().waitFor({ state: 'visible', timeout: 3000 }).catch(() => undefined);
    }
    // Neither price moved in eight minutes (both markets quiet, or suspended by a goal and
    // reopened at their old price: CI of 2026-11-28): this round picks two matches again.
    if (!(await was.first().isVisible())) {
      await slip.getByRole('button', { name: 'Clear the slip' }).click();
      await closeSlip(page, width);
      continue;
    }
    // A goal may have suspended a market for a minute: wait for it to reopen. One that stays
    // suspended (its outcome all but decided) ends this round: the slip is cleared, and the next
    // round picks again.
    for (let minute = 0; minute < 3 && (await slip.getByTestId('slip-suspended').isVisible()); minute += 1) {
      await advanceFeed(page.request, 1);
      await page.waitForTimeout(1000);
    }
    if (await slip.getByTestId('slip-suspended').isVisible()) {
      await slip.getByRole('button', { name: 'Clear the slip' }).click();
      await closeSlip(page, width);
      continue;
    }
    await expect(slip.getByTestId('slip-odds-changed')).toBeVisible();
    if (balance === 5000) await snap('betting-in-play-odds-changed');
    await slip.getByRole('button', { name: 'Accept the new odds and place' }).click();
    const placed = page.getByText('Your 2 bets are placed.');
    await expect(placed.or(slip.getByTestId('slip-odds-changed'))).toBeVisible();
    // Moved again between the two requests: accept once more.
    if (!(await placed.isVisible())) await slip.getByRole('button', { name: 'Accept the new odds and place' }).click();
    await expect(page.getByText(/Your (2 bets are|bet is) placed\./).first()).toBeVisible();
    balance -= 200;
    await expect.poll(async () => money(((await api(page.request, 'account.getInfo')) as Info).balance_main.amount)).toBe(balance);
    if (telegram) {
      await expect.poll(telegram.haptics).toContainEqual({ type: 'impact', impact_style: 'medium' });
    }
    await closeSlip(page, width);

    // Four hours on, both matches are over: the feed's results settle the bets.
    await advanceFeed(page.request, 240);
    const settled = (await apiGet<{ items: BetView[] }>(page.request, 'bets.get', { status: 'settled', count: '2' })).items;
    expect(settled).toHaveLength(2);
    const payout = settled.reduce((sum, bet) => sum + money(bet.payout.amount), 0);
    balance += payout;
    await expect.poll(async () => money(((await api(page.request, 'account.getInfo')) as Info).balance_main.amount)).toBe(balance);

    await page.goto('/profile/bets');
    await page.getByRole('group', { name: 'Which bets' }).getByRole('button', { name: 'Settled' }).click();
    await expect(page.getByTestId('bet-card').nth(1)).toBeVisible();
    const won = page.locator('[data-testid="bet-card"][data-status="won"]');
    if (settled.some((bet) => bet.status === 'won')) {
      await expect(won.first()).toBeVisible();
      await expect(won.first().getByTestId('bet-status')).toHaveText('Won');
      await expect(won.first().getByTestId('bet-payout')).toHaveText(/^\$\d+\.\d\d$/);
      await expect(page.getByTestId('header-balance').first()).toContainText((balance / 100).toFixed(2));
      await snap('betting-in-play-won');
      return;
    }
  }
  throw new Error('five rounds of bets on the most likely outcomes and no win');
}
