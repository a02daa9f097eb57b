import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, PASSWORD, shoot, uniqueEmail } from './support';

// The game history as a player meets it, against the real server: a bank-transfer deposit (the
// bank chosen from the provider's list), three rounds of Lucky Sevens, the rounds in
// /profile/bets with their balance after, and the CSV export downloaded and read back.

interface Round {
  round: string;
  bet: string;
  win: string;
  balance_after: string | null;
}

for (const width of [360, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test('a bank deposit, three rounds, the history and its CSV', async ({ page }, info) => {
      test.setTimeout(120_000);
      await journey(page, info, width);
    });
  });
}

async function journey(page: Page, info: TestInfo, width: number): Promise<void> {
  const email = uniqueEmail('history');
  await api(page.request, 'auth.register', { email, password: PASSWORD, currency: 'USD', terms: '1' });

  // The bank transfer offers the sandbox provider's banks for a USD player.
  await page.goto('/cashier/deposit/sandbox_bank');
  const form = page.getByRole('region', { name: 'Bank transfer (sandbox)' });
  const bank = form.getByRole('combobox', { name: 'Bank' });
  await expect(bank.getByRole('option')).toHaveText(['Choose your bank', 'North Sandbox Bank', 'Sandbox Postal Bank']);
  await bank.selectOption('sandbox-north');
  await form.getByLabel('IBAN').fill('FR7630006000011234567890189');
  const offers = form.getByTestId('deposit-offer-none');
  if ((await offers.count()) > 0) await offers.check();
  await form.getByLabel('Amount (USD)').fill('50');
  await form.getByRole('button', { name: /^Deposit/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await page.getByRole('button', { name: 'success' }).click();
  await expect(page).toHaveURL(/\/cashier\/paysuccess\/[0-9a-f-]+$/);

  await page.goto('/game/lucky-sevens');
  const game = page.frameLocator('iframe[title="Lucky Sevens"]');
  await expect(game.locator('#play')).toBeVisible();
  for (let round = 1; round <= 3; round += 1) {
    await game.locator('#play').click();
    await expect(game.locator('#history li')).toHaveCount(round);
  }

  const history = (await api(page.request, 'games.getHistory', { count: '10' })) as { total: number; items: Round[] };
  expect(history.total).toBe(3);
  await page.goto('/profile/bets');
  const rounds = page.getByTestId('game-round');
  await expect(rounds).toHaveCount(3);
  for (const [index, round] of history.items.entries()) {
    await expect(rounds.nth(index)).toHaveAttribute('data-round', round.round);
    await expect(rounds.nth(index).getByTestId('round-balance')).toContainText(round.balance_after ?? '—');
  }
  await shoot(page, info, `profile-bets-at-${String(width)}`);
  await page.setViewportSize({ width, height: 800 });

  // The export: pending, then the link; the file's rows are the rounds played.
  const panel = page.getByTestId('history-export');
  await panel.getByRole('button', { name: 'Export my history' }).click();
  const link = panel.getByTestId('history-download');
  await expect(link).toBeVisible({ timeout: 15_000 });
  await expect(panel).toContainText('3 rounds');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await download.path();
  const csv = (await readFile(path, 'utf8')).trim().split('\n');
  expect(csv[0]).toBe('round,game,provider,mode,currency,bet,win,balance_after,status,created_at');
  expect(csv).toHaveLength(4);
  for (const [index, round] of history.items.entries()) {
    const fields = csv[index + 1]?.split(',') ?? [];
    expect(fields[0]).toBe(round.round);
    expect(fields.slice(1, 8)).toEqual(['lucky-sevens', 'house', 'real', 'USD', round.bet, round.win, round.balance_after ?? '']);
  }

  await page.goto('/fr/profile/bets');
  await expect(page.getByRole('heading', { name: 'Historique de jeu' })).toBeVisible();
  await expect(page.getByTestId('history-export')).toContainText('Télécharger le CSV');
}
