import { expect, test } from './fixtures';
import { api, registerThroughApi, SHORT_FORCE_LOGOUT_SECONDS, uniqueEmail } from './support';

test('an idle player is warned during the last 20 % and then signed out', async ({ page }) => {
  test.setTimeout(60_000);
  await registerThroughApi(page.request, uniqueEmail('idle'));
  await page.goto('/promotions');
  await expect(page.getByTestId('header-balance')).toBeVisible();
  const loadedAt = Date.now();

  const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(warning).toBeVisible({ timeout: SHORT_FORCE_LOGOUT_SECONDS * 1000 });
  const warnedAfter = (Date.now() - loadedAt) / 1000;
  expect(warnedAfter).toBeGreaterThanOrEqual(SHORT_FORCE_LOGOUT_SECONDS * 0.8 - 1);
  await expect(warning.getByTestId('inactivity-countdown')).toHaveText(/You will be signed out in [12] s/);

  // "Stay signed in" is covered by the unit tests; the next journey shows the server's session
  // living on while the page keeps calling (it records activity every quarter of the limit).
  await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible({
    timeout: SHORT_FORCE_LOGOUT_SECONDS * 1000,
  });
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL('/');
});

test('a player playing in a game’s frame is not signed out for inactivity; back on the page, they are', async ({ page }) => {
  test.setTimeout(60_000);
  await registerThroughApi(page.request, uniqueEmail('frame-idle'));
  await page.goto('/game/lucky-sevens');
  // No deposit yet: the demo, in the game's frame.
  await page.getByRole('alertdialog', { name: 'Demo mode' }).getByRole('button', { name: 'Try the demo' }).click();
  const frame = page.locator('iframe[title="Lucky Sevens"]');
  await expect(page.frameLocator('iframe[title="Lucky Sevens"]').locator('#play')).toBeVisible();
  // The player clicks into the game and plays there: nothing of it reaches the page.
  await frame.click();
  expect(await page.evaluate('document.activeElement && document.activeElement.tagName')).toBe('IFRAME');
  const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
  // Three whole forced-logout periods: no warning, and the server's session lives on too.
  for (let period = 0; period < 3; period += 1) {
    await page.waitForTimeout(SHORT_FORCE_LOGOUT_SECONDS * 1000);
    await expect(warning).toHaveCount(0);
  }
  await expect(page.getByText('You were signed out after a period of inactivity.')).toHaveCount(0);
  const info = (await api(page.request, 'account.getInfo')) as { uid: number };
  expect(info.uid).toBeGreaterThan(0);

  // Focus back on the page and nothing more: warned, then signed out.
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await expect(warning).toBeVisible({ timeout: SHORT_FORCE_LOGOUT_SECONDS * 1000 });
  await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible({
    timeout: SHORT_FORCE_LOGOUT_SECONDS * 1000,
  });
});
