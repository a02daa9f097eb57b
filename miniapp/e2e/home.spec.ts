import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

function generalInfoRequest(page: Page) {
  return page.waitForRequest((request) => new URL(request.url()).pathname === '/api/metadata.getgeneralinfo');
}

test('the home page welcomes in English at / and in French at /fr', async ({ page, request }, testInfo) => {
  const englishCall = generalInfoRequest(page);
  await page.goto('/');

  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Croupier' })).toBeVisible();
  const defaultCurrency = page.getByTestId('default-currency');
  await expect(defaultCurrency).toContainText('USD');
  await expect(defaultCurrency).toContainText('US dollar');
  await expect(page.getByRole('list', { name: 'Languages' }).getByRole('listitem')).toHaveText(['English', 'French']);
  const englishQuery = new URL((await englishCall).url()).searchParams;
  expect(englishQuery.get('locale')).toBe('en');
  expect(englishQuery.get('v')).toBe('2.34');
  await page.screenshot({ path: testInfo.outputPath('home-en.png'), fullPage: true });

  const frenchCall = generalInfoRequest(page);
  await page.goto('/fr');

  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { level: 1, name: 'Bienvenue chez Croupier' })).toBeVisible();
  await expect(page.getByTestId('default-currency')).toContainText('Dollar américain');
  await expect(page.getByRole('list', { name: 'Langues' }).getByRole('listitem')).toHaveText(['Anglais', 'Français']);
  expect(new URL((await frenchCall).url()).searchParams.get('locale')).toBe('fr');
  await page.screenshot({ path: testInfo.outputPath('home-fr.png'), fullPage: true });

  // The server itself sets <html lang> from the path, before any script runs.
  expect(await (await request.get('/')).text()).toContain('<html lang="en"');
  expect(await (await request.get('/fr')).text()).toContain('<html lang="fr"');
});

test('the language switch moves between / and /fr and back', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('default-currency')).toContainText('US dollar');

  await page.getByRole('link', { name: 'Français' }).click();

  await expect(page).toHaveURL(/\/fr$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bienvenue chez Croupier' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByTestId('default-currency')).toContainText('Dollar américain');
  expect((await page.context().cookies()).find((cookie) => cookie.name === 'i18n_locale')?.value).toBe('fr');

  await page.getByRole('link', { name: 'English' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Croupier' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('an unknown page says so in the language of its path', async ({ page }, testInfo) => {
  await page.goto('/fr/nulle-part');
  await expect(page.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('not-found-fr.png') });

  await page.goto('/nowhere');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('the page carries the shell styles inline, preloads the site stylesheet, and the entry attaches it once', async ({ page, request }) => {
  // The served HTML: the shell's styles inline, the site's stylesheet only preloaded (nothing
  // render-blocking), and small (the whole stylesheet inline made every page 65 KB).
  const html = await (await request.get('/', { headers: { 'accept-encoding': 'identity' } })).text();
  expect(html).toMatch(/<style>:root\{[^<]*--color-bg:[^<]*\.boot-main\{/);
  const preload = /<link rel="preload" as="style" crossorigin href="(\/assets\/style-[^"]+\.css)">/.exec(html);
  expect(preload).not.toBeNull();
  expect(html).not.toContain('rel="stylesheet"');
  expect(html.length).toBeLessThan(16_000);

  // In the browser the entry attaches that file once, and the page renders styled: a rule only
  // the site's stylesheet has (a CSS module's class on the header) applies.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Croupier' })).toBeVisible();
  const sheets = page.locator('link[rel="stylesheet"]');
  await expect(sheets).toHaveCount(1);
  expect(new URL((await sheets.getAttribute('href')) ?? '', page.url()).pathname).toBe(preload?.[1]);
  const header = page.locator('header').first();
  await expect(header).toHaveCSS('position', /sticky|fixed/);
});

test('a row of games keeps its height when its games arrive, so the page does not move under a tap', async ({ page }) => {
  // The lobby's game lists are held until the skeleton rows have been measured.
  let holding = true;
  const held: (() => Promise<void>)[] = [];
  await page.route(
    (url) => url.pathname === '/api/games.get',
    async (route) => {
      if (holding) held.push(() => route.continue());
      else await route.continue();
    },
  );
  await page.goto('/');
  const row = page.locator('[data-testid^="game-row-"]').first();
  await expect(row.getByTestId('game-card-skeleton').first()).toBeVisible();
  await expect.poll(() => held.length).toBeGreaterThan(0);
  const before = await row.boundingBox();
  expect(before).not.toBeNull();

  holding = false;
  await Promise.all(held.map((release) => release()));
  await expect(row.getByTestId('game-card').first()).toBeVisible();
  await expect(row.getByTestId('game-card-skeleton')).toHaveCount(0);
  const after = await row.boundingBox();
  expect(Math.abs((after?.height ?? 0) - (before?.height ?? 0))).toBeLessThanOrEqual(1);
});
