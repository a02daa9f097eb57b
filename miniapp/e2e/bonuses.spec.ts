import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, E2E_BONUS_WAGER_CAP, PASSWORD, registerReadyToWithdraw, shoot, uniqueEmail } from './support';

// The bonus engine as a player meets it, against the real server (whose wagering multiplier is
// capped at E2E_BONUS_WAGER_CAP, so a bonus is wagered in a few rounds): a promo code from a
// link, a deposit that credits it, house rounds until it completes; and a withdrawal that burns
// a bonus once the player confirms.

interface Amount {
  amount: string;
  currency: string;
}

interface Info {
  balance_main: Amount;
  balance_bonus: Amount;
}

interface BonusItem {
  id: number;
  status: string;
  amount: string;
  balance: string;
  wager_target: string;
  progress: number;
}

interface OfferItem {
  id: number;
  sysname: string;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

async function balances(request: APIRequestContext): Promise<{ main: number; bonus: number }> {
  const info = (await api(request, 'account.getInfo')) as Info;
  return { main: cents(info.balance_main.amount), bonus: cents(info.balance_bonus.amount) };
}

/** GET /api/{method} with a query; answers `data`, failing on an error envelope. */
async function read(request: APIRequestContext, method: string, query: Record<string, string>): Promise<unknown> {
  const params = new URLSearchParams({ ...query, locale: 'en', v: '2.34' });
  const response = await request.get(`/api/${method}?${params.toString()}`);
  const body = (await response.json()) as { status: string; data?: unknown; error?: unknown };
  expect(body.status, `${method}: ${JSON.stringify(body.error)}`).toBe('ok');
  return body.data;
}

async function bonuses(request: APIRequestContext, statuses: string): Promise<BonusItem[]> {
  return ((await read(request, 'bonuses.get', { statuses })) as { items: BonusItem[] }).items;
}

async function depositOffer(request: APIRequestContext, sysname: string): Promise<string> {
  const offers = (await read(request, 'campaigns.getoffers', { trigger: 'deposit' })) as { items: OfferItem[] };
  const offer = offers.items.find((item) => item.sysname === sysname);
  expect(offer, `the ${sysname} offer on the deposit page`).toBeDefined();
  return String(offer?.id);
}

/** Deposits `amount` through the sandbox with the deposit page's bonus choice `offer`. */
async function deposit(page: Page, amount: string, offer: string) {
  await page.goto('/cashier/deposit');
  const form = page.getByRole('region', { name: 'Card (sandbox)' });
  await form.getByTestId(`deposit-offer-${offer}`).check();
  await form.getByLabel('Amount (USD)').fill(amount);
  await form.getByRole('button', { name: /^Deposit/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await page.getByRole('button', { name: 'success' }).click();
  await expect(page).toHaveURL(/\/cashier\/paysuccess\/[0-9a-f-]+$/);
}

test('a promo code from a link: registration, a deposit credits the bonus, house rounds wager it to real money', async ({ page }, info) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('bonus');

  // The link's code is in the registration form; registering applies it.
  await page.goto('/?show_popup_reg=1&promo_code=WEEKEND');
  const dialog = page.getByRole('dialog', { name: 'Register' });
  await expect(dialog.getByLabel('Promo code')).toHaveValue('WEEKEND');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Create my account' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('header-balance')).toContainText('$0.00');

  // The bonus waits for a deposit of at least 20.
  await page.goto('/profile/bonuses');
  const card = page.getByTestId('bonus-card');
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-status', 'active');
  await expect(card.getByTestId('bonus-awaiting-deposit')).toContainText('$20.00');
  await shoot(page, info, 'profile-bonuses-waiting');

  // The offers page shows the welcome offer and the taken weekend one.
  await page.goto('/offers');
  await expect(page.locator('[data-testid="offer-card"][data-sysname="welcome"]')).toBeVisible();
  await expect(page.locator('[data-testid="offer-card"][data-sysname="weekend"]').getByTestId('offer-taken')).toBeVisible();
  await shoot(page, info, 'offers');

  // A deposit of 40.00 for the weekend offer: 50% gives 20.00 of bonus, wagered once.
  await deposit(page, '40', await depositOffer(page.request, 'weekend'));
  await expect(page.getByTestId('receipt')).toHaveAttribute('data-status', 'success');
  const wagering = await bonuses(page.request, 'wagering');
  expect(wagering).toHaveLength(1);
  expect(wagering[0]).toMatchObject({ status: 'wagering', amount: '20.00', balance: '20.00' });
  expect(cents(wagering[0]?.wager_target ?? '0')).toBe(2_000 * E2E_BONUS_WAGER_CAP);
  expect(await balances(page.request)).toEqual({ main: 4_000, bonus: 2_000 });

  await page.goto('/profile/bonuses');
  await expect(card).toHaveAttribute('data-status', 'wagering');
  await expect(card.getByTestId('bonus-progress')).toHaveAttribute('data-progress', '0');
  await expect(card.getByTestId('bonus-wagered')).toContainText('$20.00');
  await shoot(page, info, 'profile-bonuses-wagering');

  // Lucky Sevens (a slot: 100% of each stake counts) at 1.00 a round: real money is spent
  // first, the bonus waits, and twenty rounds wager it.
  await page.goto('/game/lucky-sevens');
  await expect(page.getByTestId('game-mode')).toHaveText('Real money');
  const game = page.frameLocator('iframe[title="Lucky Sevens"]');
  await expect(game.locator('#play')).toBeVisible();
  let before = await balances(page.request);
  for (let round = 1; round <= 30; round += 1) {
    before = await balances(page.request);
    await game.locator('#play').click();
    await expect(game.locator('#history li')).toHaveCount(round);
    if ((await bonuses(page.request, 'completed')).length > 0) break;
  }
  expect(await bonuses(page.request, 'completed'), 'the bonus completed within 30 rounds').toHaveLength(1);
  // Completion turned the bonus money into real money: the main balance grew by at least the
  // bonus less the last round's 1.00 stake, and no bonus money is left.
  const after = await balances(page.request);
  expect(after.bonus).toBe(0);
  expect(after.main - before.main).toBeGreaterThanOrEqual(before.bonus - 100);
  expect(before.bonus).toBe(2_000);

  await page.goto('/profile/bonuses');
  await expect(page.getByTestId('bonus-none')).toBeVisible();
  await expect(page.locator('[data-testid="bonus-history-item"][data-status="completed"]')).toHaveCount(1);
  await expect(page.getByTestId('header-balance')).toContainText(`$${(after.main / 100).toFixed(2)}`);
  await shoot(page, info, 'profile-bonuses-completed');
  await page.goto('/cashier/history?tab=bonuses');
  await expect(page.getByTestId('history-list')).toContainText('Weekend');
  await shoot(page, info, 'cashier-history-bonuses');
});

test('a withdrawal while a bonus is wagering burns it once the player confirms', async ({ page }, info) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('burn');
  // What a withdrawal needs: a confirmed contact and the personal data.
  await registerReadyToWithdraw(page.request, email);

  // The first deposit takes the welcome offer (100% + free spins).
  await deposit(page, '30', await depositOffer(page.request, 'welcome'));
  expect(await balances(page.request)).toEqual({ main: 3_000, bonus: 3_000 });

  // Its 50 free spins of Gem Rush show in the lobby and on the game's page.
  await page.goto('/gamehall?providers=house');
  await expect(page.locator('[data-testid="game-card"][data-sysname="gem-rush"]').getByTestId('freespins-badge')).toHaveText('Free spins: 50');
  await page.goto('/game/gem-rush');
  await expect(page.getByTestId('freespins-notice')).toContainText('Free spins on this game: 50 at $0.20 each');
  await shoot(page, info, 'game-freespins');

  await page.goto('/cashier/withdraw');
  await page.getByLabel('Amount (USD)').fill('10');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  const confirm = page.getByTestId('burn-bonuses-confirm-dialog');
  await expect(confirm).toContainText('$30.00');
  await shoot(page, info, 'withdraw-burn-bonuses');
  // Cancelling changes nothing.
  await confirm.getByTestId('confirm-cancel').click();
  await expect(confirm).toBeHidden();
  expect(await balances(page.request)).toEqual({ main: 3_000, bonus: 3_000 });
  await expect(page.getByTestId('withdrawal-made')).toHaveCount(0);

  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await page.getByTestId('burn-bonuses-confirm').click();
  await expect(page.getByTestId('withdrawal-made').getByTestId('payment-item')).toHaveAttribute('data-status', 'pending');
  expect(await balances(page.request)).toEqual({ main: 2_000, bonus: 0 });
  const forfeited = await bonuses(page.request, 'forfeited');
  expect(forfeited).toHaveLength(1);
  expect(forfeited[0]).toMatchObject({ status: 'forfeited', amount: '30.00' });

  await page.goto('/profile/bonuses');
  await expect(page.locator('[data-testid="bonus-history-item"][data-status="forfeited"]')).toHaveCount(1);
});
