import { expect, test } from './fixtures';

async function localeCookie(page: import('@playwright/test').Page) {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'i18n_locale');
}

test('French lives under /fr, with the i18n_locale cookie for a year', async ({ page }) => {
  await page.goto('/fr/tournaments');

  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { level: 1, name: 'Tournois' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'En cours' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Connexion' })).toBeVisible();
  const cookie = await localeCookie(page);
  expect(cookie?.value).toBe('fr');
  const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
  expect(days).toBeGreaterThan(364);
  expect(days).toBeLessThanOrEqual(365);

  const changed = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/account.changelocale');
  await page.getByRole('link', { name: 'English' }).click();
  await expect(page).toHaveURL('/tournaments');
  expect((await changed).postData()).toContain('en');
  await expect(page.getByRole('button', { name: 'Running' })).toHaveAttribute('aria-pressed', 'true');
  expect((await localeCookie(page))?.value).toBe('en');
});

test('routes answer under both prefixes, case-insensitively, with the redirects of the route table', async ({ page }) => {
  await page.goto('/FR/Jackpots/7');
  await expect(page.getByRole('heading', { level: 1, name: 'Jackpots' })).toBeVisible();
  await expect(page.locator('[data-layout]')).toHaveAttribute('data-layout', 'default');

  await page.goto('/gamehall/live');
  await expect(page).toHaveURL('/gamehall?category=live');

  await page.goto('/fr/game/book-of-ra');
  await expect(page.locator('[data-layout]')).toHaveAttribute('data-layout', 'game');

  await page.goto('/forms/sign_in');
  await expect(page.locator('[data-layout]')).toHaveAttribute('data-layout', 'empty');
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();

  await page.goto('/fr/cashier/paysuccess/12');
  await expect(page).toHaveURL(`/fr?redirectUrl=${encodeURIComponent('/fr/cashier/paysuccess/12')}`);
  await expect(page.getByRole('dialog', { name: 'Connexion' })).toBeVisible();
});
