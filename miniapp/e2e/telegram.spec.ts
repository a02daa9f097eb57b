import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { BOT_TOKEN, THEMES, initDataFor, lastEvent, launchHash, mockTelegram, pressBackButton, telegramEvents } from './telegram-mock';

// Issue 9, the site inside Telegram: a mocked Telegram client (what the Android app provides:
// `window.TelegramWebviewProxy.postEvent` to call it, `window.Telegram.WebView.receiveEvent` for
// its answers, launch parameters in the address) whose init data this test signs with the bot
// token the server runs with (global-setup: TELEGRAM_BOT_TOKEN); the mock is in telegram-mock.ts.

const distAssets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/assets');

for (const variant of [
  { theme: 'dark', allowFullscreen: true },
  { theme: 'light', allowFullscreen: false },
] as const) {
  test(`Telegram (${variant.theme}): open → signed in with no form → lobby → game ${variant.allowFullscreen ? 'full screen' : '(full screen refused)'} → back button`, async ({ page }, testInfo) => {
    test.skip(BOT_TOKEN === '', 'the server of this run has no bot token');
    await page.setViewportSize({ width: 360, height: 640 });
    await mockTelegram(page, variant);
    const { initData, userId } = initDataFor(`e2e_${variant.theme}`);

    const signIn = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth.telegram');
    await page.goto(`/${launchHash(initData, variant.theme)}`);

    // Signed in from the init data: no form, the header shows the account.
    const answer = await signIn;
    expect(answer.status()).toBe(200);
    const form = answer.request().postDataBuffer()?.toString() ?? '';
    expect(form).toContain(`name="id"\r\n\r\n${String(userId)}`);
    expect(form).toContain('name="is_tg"\r\n\r\n1');
    expect(form).toContain('name="init_data"');
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    // SPEC §4: a sign-in queues the content's after-login campaign popup once; closed, it is remembered.
    const campaign = page.getByRole('dialog');
    await expect(campaign).toContainText('Weekend reload');
    await campaign.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await telegramEvents(page, 'web_app_ready')).toHaveLength(1);

    // Theme params became the design tokens; Telegram's safe areas (24 + 40 px) pad the header.
    const look = await page.evaluate(`(() => {
      const root = getComputedStyle(document.documentElement);
      const header = document.querySelector('[data-layout="default"] header');
      return {
        bg: root.getPropertyValue('--color-bg').trim(),
        text: root.getPropertyValue('--color-text').trim(),
        scheme: document.documentElement.dataset.theme,
        headerPaddingTop: header ? getComputedStyle(header).paddingTop : null,
      };
    })()`);
    expect(look).toEqual({
      bg: THEMES[variant.theme].bg_color,
      text: THEMES[variant.theme].text_color,
      scheme: variant.theme,
      headerPaddingTop: '64px',
    });
    await page.screenshot({ path: testInfo.outputPath(`telegram-home-${variant.theme}-360x640.png`) });

    // The lobby, through the app's own menu; Telegram's back button appears off the home page.
    await page.getByRole('navigation', { name: 'Quick menu' }).getByRole('link', { name: 'Casino' }).click();
    await expect(page).toHaveURL(/\/gamehall/);
    await expect.poll(() => lastEvent(page, 'web_app_setup_back_button')).toEqual({ is_visible: true });
    const game = page.locator('a[href^="/game/"]').first();
    await expect(game).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`telegram-lobby-${variant.theme}-360x640.png`) });

    // A game: full screen asked for (visibleFullScreen "telegram" in the demo content), closing
    // needs confirmation, vertical swipes stay with the game.
    await game.click();
    await expect(page).toHaveURL(/\/game\//);
    const shell = page.locator('[data-layout="game"]');
    await expect.poll(() => telegramEvents(page, 'web_app_request_fullscreen')).toHaveLength(1);
    await expect(shell).toHaveAttribute('data-fullscreen', variant.allowFullscreen ? 'true' : 'false');
    await expect.poll(() => lastEvent(page, 'web_app_setup_closing_behavior')).toEqual({ need_confirmation: true });
    await expect.poll(() => lastEvent(page, 'web_app_setup_swipe_behavior')).toEqual({ allow_vertical_swipe: false });
    // Refused or not, the game layout fills the screen with its bar in view.
    const box = await shell.boundingBox();
    expect(box?.height).toBeGreaterThan(600);
    await expect(page.locator('[data-layout="game"] header a').first()).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`telegram-game-${variant.theme}-360x640.png`) });

    // A settled bet (the game frame reports its balance after each round) gives a haptic.
    await page.evaluate("window.postMessage({ type: 'croupier:balance', balance: '9.00', currency: 'USD' }, location.origin)");
    await expect
      .poll(() => telegramEvents(page, 'web_app_trigger_haptic_feedback'))
      .toContainEqual({ type: 'impact', impact_style: 'medium' });

    // Telegram's back button drives the router: back to the lobby, the game's settings undone.
    await pressBackButton(page);
    await expect(page).toHaveURL(/\/gamehall/);
    await expect.poll(() => lastEvent(page, 'web_app_setup_closing_behavior')).toEqual({ need_confirmation: false });
    await expect.poll(() => lastEvent(page, 'web_app_setup_swipe_behavior')).toEqual({ allow_vertical_swipe: true });
    if (variant.allowFullscreen) await expect.poll(() => telegramEvents(page, 'web_app_exit_fullscreen')).toHaveLength(1);
    await pressBackButton(page);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => lastEvent(page, 'web_app_setup_back_button')).toEqual({ is_visible: false });
  });
}

test('Telegram: a startapp deep link lands the new player on its page with its promo code', async ({ page }) => {
  test.skip(BOT_TOKEN === '', 'the server of this run has no bot token');
  await page.setViewportSize({ width: 360, height: 640 });
  await mockTelegram(page, { theme: 'dark', allowFullscreen: true });
  const { initData } = initDataFor('e2e_deeplink', { start_param: 'pWELCOME-vpromotions' });
  const signIn = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth.telegram');
  await page.goto(`/${launchHash(initData, 'dark')}`);
  expect((await signIn).status()).toBe(200);
  await expect(page).toHaveURL(/\/promotions$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  expect(await page.evaluate("window.localStorage.getItem('promo_code')")).toBe('WELCOME');
});

test('Telegram: init data that fails verification signs nobody in and shows the SPEC §8 toast', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await mockTelegram(page, { theme: 'dark', allowFullscreen: true });
  const { initData } = initDataFor('e2e_tampered');
  const tampered = initData.replace('e2e_tampered', 'e2e_tamperer');
  const signIn = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth.telegram');
  await page.goto(`/${launchHash(tampered, 'dark')}`);
  expect((await signIn).status()).toBe(401);
  await expect(page.getByText('Wrong registration server error')).toBeVisible();
  await expect
    .poll(() => telegramEvents(page, 'web_app_trigger_haptic_feedback'))
    .toContainEqual({ type: 'notification', notification_type: 'error' });
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('the development mock of Telegram is not in the production build', () => {
  const bundle = readdirSync(distAssets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(path.join(distAssets, file), 'utf8'))
    .join('\n');
  expect(bundle).toContain('web_app_request_fullscreen');
  expect(bundle).not.toContain('croupier_dev');
  expect(bundle).not.toContain('tgMock');
});
