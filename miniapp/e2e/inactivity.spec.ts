import { expect, test } from './fixtures';
import { registerThroughApi, SHORT_FORCE_LOGOUT_SECONDS, uniqueEmail } from './support';

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

  // The server ends a session SHORT_FORCE_LOGOUT_SECONDS after sign-in even while calls keep coming
  // (it records activity only every 15 s), so "Stay signed in" is covered by the unit tests, not here.
  await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible({
    timeout: SHORT_FORCE_LOGOUT_SECONDS * 1000,
  });
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL('/');
});
