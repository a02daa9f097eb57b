import { createHash, createHmac } from 'node:crypto';
import { expect, test } from './fixtures';
import { registerThroughApi, shoot, uniqueEmail } from './support';

// Linking Telegram from the ordinary web site: Telegram's Login Widget is stood in for by a
// script that answers what Telegram would (the fields signed with the bot token the server runs
// with, as core.telegram.org/widgets/login describes); the server checks the signature, the
// profile shows the link, and unlinking asks first.

const BOT_TOKEN = process.env.CROUPIER_E2E_BOT_TOKEN ?? '';

function widgetAnswer(id: number): Record<string, string> {
  const fields: Record<string, string> = { id: String(id), first_name: 'Widget', username: `w${String(id)}`, auth_date: String(Math.floor(Date.now() / 1000)) };
  const check = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key] ?? ''}`)
    .join('\n');
  const secret = createHash('sha256').update(BOT_TOKEN).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(check).digest('hex') };
}

for (const width of [360, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test('link Telegram with the Login Widget, then unlink it', async ({ page }, info) => {
      const telegramId = 880_000_000 + width + Math.floor(Math.random() * 100_000);
      const answer = widgetAnswer(telegramId);
      await page.addInitScript((data) => {
        const auth = (options: { bot_id: number }, callback: (d: Record<string, string>) => void) => {
          (globalThis as unknown as { __widgetBot?: number }).__widgetBot = options.bot_id;
          callback(data);
        };
        (globalThis as unknown as { Telegram: unknown }).Telegram = { Login: { auth } };
      }, answer);
      await registerThroughApi(page.request, uniqueEmail('tglink'));

      await page.goto('/profile/security');
      const section = page.getByTestId('telegram-link');
      await expect(section).toHaveAttribute('data-linked', 'false');
      await section.getByRole('button', { name: 'Link Telegram' }).click();
      await expect(section).toHaveAttribute('data-linked', 'true');
      expect(await page.evaluate(() => (globalThis as unknown as { __widgetBot?: number }).__widgetBot)).toBe(Number(BOT_TOKEN.split(':')[0]));
      await shoot(page, info, `profile-security-telegram-at-${String(width)}`);
      await page.setViewportSize({ width, height: 800 });

      await section.getByRole('button', { name: 'Unlink Telegram' }).click();
      const dialog = page.getByTestId('telegram-unlink-dialog');
      await expect(dialog).toContainText('You will no longer sign in with Telegram');
      await dialog.getByTestId('telegram-unlink-confirm').click();
      await expect(section).toHaveAttribute('data-linked', 'false');

      await page.goto('/fr/profile/security');
      await expect(page.getByTestId('telegram-link').getByRole('button', { name: 'Lier Telegram' })).toBeVisible();
    });
  });
}
