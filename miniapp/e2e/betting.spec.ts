import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, PASSWORD, shoot, uniqueEmail } from './support';

// The sportsbook as a player meets it, against the real server and its sandbox feed (a seeded
// calendar that always has events in play and upcoming): a guest browses /betting and is asked
// to sign in to bet; a funded player opens an upcoming event's markets, picks a price there and
// another on a second event, places them as an accumulator (accepting new odds if the feed moved
// the prices in between), and finds the bet, with its two selections, in /profile/bets.

interface Info {
  balance_main: { amount: string };
}

/** Registers a USD player (the request context, so the page too, is signed in) and deposits 50.00 through the sandbox. */
async function fundedPlayer(request: APIRequestContext): Promise<void> {
  await api(request, 'auth.register', { email: uniqueEmail('betting'), password: PASSWORD, currency: 'USD', terms: '1' });
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
  });
}

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
