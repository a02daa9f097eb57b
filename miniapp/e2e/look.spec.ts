import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerThroughApi, uniqueEmail } from './support';

const WIDTHS = [360, 768, 1280, 1920] as const;

async function seriousViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('the home page and the sign-in dialogs have no serious accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('default-currency')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' }).getByLabel('Email or phone')).toBeVisible();
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);

  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('tab', { name: 'Register' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' }).getByLabel('Email')).toBeVisible();
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
});

test('the dialogs work from the keyboard: focus stays inside and Escape closes', async ({ page }) => {
  await page.goto('/');
  const opener = page.getByRole('button', { name: 'Sign in' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await expect(dialog.getByLabel('Email or phone')).toBeVisible();
  for (let step = 0; step < 12; step += 1) {
    await page.keyboard.press('Tab');
    await expect(dialog.locator(':focus')).toHaveCount(1);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

for (const width of WIDTHS) {
  test(`screenshots at ${String(width)} px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.getByTestId('default-currency')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`home-guest-${String(width)}.png`), fullPage: true });

    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('dialog', { name: 'Register' }).getByLabel('Email')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`registration-${String(width)}.png`) });
    await page.keyboard.press('Escape');

    await registerThroughApi(page.request, uniqueEmail(`look${String(width)}`));
    await page.goto('/fr/promotions');
    await expect(page.getByTestId('header-balance')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`promotions-player-fr-${String(width)}.png`), fullPage: true });
  });
}
