import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, PASSWORD, shoot, uniqueEmail } from './support';

// The loyalty club as a player meets it, against the real server: an operator credits points
// (crossing Silver), the player sees the notices, their points and level at /loyalty, buys in the
// shop (once), meets the insufficient-funds dialog, and changes character in the profile.

interface Info {
  uid: number;
}

for (const width of [360, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test('the club: notices, points and level, a purchase, not enough points, a new character', async ({ page }, info) => {
      await journey(page, info, width);
    });
  });
}

async function journey(page: Page, info: TestInfo, width: number): Promise<void> {
  // Screenshots at both widths, then back to the width this run plays at.
  const snap = async (name: string) => {
    await shoot(page, info, `${name}-at-${String(width)}`);
    await page.setViewportSize({ width, height: 800 });
  };
  const email = uniqueEmail('loyalty');
  await api(page.request, 'auth.register', { email, password: PASSWORD, currency: 'USD', terms: '1' });
  const { uid } = (await api(page.request, 'account.getInfo')) as Info;
  const token = process.env.CROUPIER_E2E_ADMIN_TOKEN ?? '';
  const credit = await page.request.post('/admin/loyalty/points', {
    headers: { authorization: `Bearer ${token}` },
    data: { user_id: uid, points: 1200, reason: 'e2e welcome', key: `e2e-${String(uid)}` },
  });
  expect(credit.status(), await credit.text()).toBe(200);

  await page.goto('/loyalty');
  await expect(page.getByTestId('loyalty-points')).toContainText('1200 chips');
  await expect(page.getByTestId('loyalty-level')).toContainText('Silver');
  await expect(page.getByTestId('loyalty-level-item')).toHaveCount(4);
  // The first interaction fetches the notices: the welcome and Silver.
  await page.getByTestId('loyalty-page').click({ position: { x: 5, y: 5 } });
  const notice = page.getByTestId('loyalty-notice');
  await expect(notice.first()).toBeVisible();
  await expect(page.locator('[data-testid="loyalty-notice"][data-trigger="level"]')).toContainText('Silver');
  await snap('loyalty');
  await expect(notice).toHaveCount(0, { timeout: 8_000 });

  await page.getByTestId('loyalty-shop-link').click();
  const bonus = page.locator('[data-testid="shop-product"][data-sysname="bonus-5"]');
  await bonus.getByTestId('shop-buy').click();
  await expect(page.getByTestId('shop-confirm-dialog')).toContainText('1100 chips left');
  await snap('loyalty-shop-confirm');
  await page.getByTestId('shop-confirm-yes').click();
  await expect(page.getByTestId('shop-success')).toContainText('1100 chips left');
  await page.getByTestId('shop-dialog-close').click();
  await expect(page.getByTestId('loyalty-points')).toContainText('1100 chips');
  const bonuses = (await api(page.request, 'bonuses.get')) as { items?: { title?: string }[] } | { title?: string }[];
  expect(JSON.stringify(bonuses)).toContain('Club bonus');

  const big = page.locator('[data-testid="shop-product"][data-sysname="bonus-50"]');
  await big.getByTestId('shop-buy').click();
  await expect(page.getByTestId('shop-insufficient')).toContainText('900 chips more');
  await snap('loyalty-shop-insufficient');
  await page.getByTestId('shop-dialog-close').click();

  await page.goto('/profile/loyalty');
  await page.getByTestId('character-change').click();
  await page.locator('[data-testid="character-option"][data-sysname="shark"]').click();
  await page.getByTestId('character-confirm-yes').click();
  await expect(page.getByTestId('profile-loyalty-character')).toHaveAttribute('data-character', 'shark');
  await snap('profile-loyalty');

  await page.goto('/fr/loyalty');
  await expect(page.getByTestId('loyalty-points')).toContainText('1100 jetons');
  await expect(page.getByTestId('loyalty-level')).toContainText('Argent');
}
