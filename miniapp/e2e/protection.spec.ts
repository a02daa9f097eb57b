import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, PASSWORD, registerReadyToWithdraw, shoot, signInThroughDialog, uniqueEmail } from './support';

// Player protection as players meet it, against the real server: identity verification through
// the sandbox provider's page unblocking a withdrawal; self-exclusion with its confirmation,
// which signs the player out and closes deposits; the reality check over a game; the support
// page with its FAQ, a message to support and the sandbox chat.

interface Info {
  uid: number;
}

/** Deposits `amount` USD by card through the sandbox provider's page. */
async function depositByCard(page: Page, amount: string): Promise<void> {
  await page.goto('/cashier/deposit/sandbox_card');
  const form = page.getByRole('region', { name: 'Card (sandbox)' });
  const none = form.getByTestId('deposit-offer-none');
  if ((await none.count()) > 0) await none.check();
  await form.getByLabel('Amount (USD)').fill(amount);
  await form.getByRole('button', { name: /^Deposit/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await page.getByRole('button', { name: 'success' }).click();
  await expect(page).toHaveURL(/\/cashier\/paysuccess\/[0-9a-f-]+$/);
}

/** A 1×1 PNG: the document photo. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('identity verification through the sandbox page lifts an operator\'s KYC block on withdrawals', async ({ page }, info) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('kyc');
  // What a withdrawal needs: a confirmed contact and the personal data.
  await registerReadyToWithdraw(page.request, email);
  await depositByCard(page, '40');
  // An operator asks for verification before any more money moves.
  const { uid } = (await api(page.request, 'account.getInfo')) as Info;
  const token = process.env.CROUPIER_E2E_ADMIN_TOKEN ?? '';
  const blocked = await page.request.post(`/admin/players/${String(uid)}/verification`, {
    headers: { authorization: `Bearer ${token}` },
    data: { status: 'none', kyc_block: true, reason: 'source of funds check' },
  });
  expect(blocked.status(), await blocked.text()).toBe(200);

  await page.goto('/cashier/withdraw');
  await page.getByLabel('Amount (USD)').fill('10');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(page.getByText('Identity verification is required.').first()).toBeVisible();
  // The identity-verification dialog leads to the verification page.
  const ask = page.getByTestId('verification-dialog');
  await expect(ask).toContainText('Verify your identity to continue.');
  await ask.getByRole('button', { name: 'Verify now' }).click();
  await expect(page).toHaveURL('/profile/verification');
  const card = page.getByTestId('verification');
  await expect(card).toHaveAttribute('data-status', 'none');
  await expect(card).toContainText('Please verify your identity before your next deposit or withdrawal.');
  await shoot(page, info, 'profile-verification');
  await card.getByTestId('verification-start').click();
  await expect(page).toHaveURL(/\/sandbox\/kyc\//);
  await page.getByLabel(/Document image/).setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: PNG });
  await page.getByLabel("Reviewer's decision").selectOption('approve');
  await page.getByRole('button', { name: 'Send the review' }).click();
  await expect(page).toHaveURL('/profile/verification');
  await expect(page.getByTestId('verification')).toHaveAttribute('data-status', 'verified');
  await expect(page.getByText('Your identity is verified.')).toBeVisible();

  await page.goto('/cashier/withdraw');
  await page.getByLabel('Amount (USD)').fill('10');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  // The first deposit may have taken the welcome bonus: withdrawing burns it once confirmed.
  const made = page.getByTestId('withdrawal-made');
  const burn = page.getByTestId('burn-bonuses-confirm');
  await expect(made.or(burn)).toBeVisible();
  if (await burn.isVisible()) await burn.click();
  await expect(made.getByTestId('payment-item')).toHaveAttribute('data-status', 'pending');
});

test('self-exclusion is confirmed first, signs the player out and closes deposits', async ({ page }, info) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('exclude');
  await api(page.request, 'auth.register', { email, password: PASSWORD, currency: 'USD', terms: '1' });
  await page.goto('/cashier/deposit');
  await expect(page.getByTestId('deposit-limit-prompt')).toBeVisible();

  await page.goto('/profile/responsible-game');
  // Loss and wager limits sit beside deposit limits.
  await page.getByRole('group', { name: 'Kind of limit' }).getByRole('button', { name: 'Losses' }).click();
  await page.getByLabel('Per week').fill('50');
  await page.getByRole('button', { name: 'Set limit' }).click();
  await expect(page.getByTestId('loss-limits')).toContainText('$50.00');

  const form = page.getByTestId('self_exclusion-form');
  await expect(form.getByLabel('Duration')).toHaveValue('183');
  await form.getByRole('button', { name: 'Self-exclude' }).click();
  const confirm = page.getByTestId('exclusion-confirm');
  await expect(confirm).toContainText('This cannot be undone early.');
  const go = confirm.getByTestId('exclusion-confirm-button');
  await expect(go).toBeDisabled();
  await shoot(page, info, 'self-exclusion-confirm');
  await confirm.getByLabel('I have read this and want to go ahead').check();
  await go.click();

  // Signed out at once.
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // Signing in again shows what applies; deposits are closed.
  await signInThroughDialog(page, email);
  await expect(page.getByText(/Self-exclusion until/).first()).toBeVisible();
  await page.goto('/cashier/deposit/sandbox_card');
  await expect(page.getByTestId('exclusion-banner')).toBeVisible();
  const deposit = page.getByRole('region', { name: 'Card (sandbox)' });
  await deposit.getByLabel('Amount (USD)').fill('20');
  await deposit.getByRole('button', { name: /^Deposit/ }).click();
  await expect(page.getByText('Your time-out or self-exclusion is in force').first()).toBeVisible();
  await expect(page).toHaveURL('/cashier/deposit/sandbox_card');
  await shoot(page, info, 'cashier-deposit-excluded');
});

test('the reality check interrupts play over the game with the session and its result', async ({ page }) => {
  test.setTimeout(120_000);
  await page.clock.install();
  const email = uniqueEmail('reality');
  await api(page.request, 'auth.register', { email, password: PASSWORD, currency: 'USD', terms: '1' });
  await api(page.request, 'responsibleGaming.setRealityCheck', { minutes: '15' });
  // The watcher asks for the session's start before it sets its timer: wait for that.
  const asked = page.waitForResponse((response) => response.url().includes('/api/responsibleGaming.realityCheck'));
  await page.goto('/game/dice');
  await page.getByRole('alertdialog', { name: 'Demo mode' }).getByRole('button', { name: 'Try the demo' }).click();
  await expect(page.locator('iframe')).toBeVisible();
  await asked;
  await page.clock.fastForward('15:05');
  const dialog = page.getByTestId('reality-check');
  // The dialog's request and rendering run on the page's (fake) timers: let them run.
  const shows = async () => {
    await expect
      .poll(async () => {
        await page.clock.runFor(500);
        return dialog.isVisible();
      })
      .toBe(true);
  };
  await shows();
  await expect(dialog).toContainText('You have been playing for');
  await expect(page.getByTestId('reality-net')).toContainText('$0.00');
  // It sits above the game's frame: its buttons take the click.
  const rescheduled = page.waitForResponse((response) => response.url().includes('/api/responsibleGaming.realityCheck'));
  await dialog.getByRole('button', { name: 'Keep playing' }).click();
  await expect(dialog).toBeHidden();
  await rescheduled;
  await page.clock.fastForward('15:00');
  await shows();
  await dialog.getByRole('button', { name: 'Stop and sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

for (const width of [360, 1280]) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test('the support page: the FAQ, a message to support and the sandbox chat', async ({ page }, info) => {
      await page.goto('/support');
      await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
      await page.getByText('How do I contact support?').click();
      await expect(page.getByText(/support@croupier\.example/)).toBeVisible();
      await page.getByLabel('E-mail').fill('not-an-email');
      await page.getByLabel('Name').fill('Sam');
      await page.getByLabel('Message').fill('short');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(page.getByText('Wrong email address')).toBeVisible();
      await page.getByLabel('E-mail').fill(uniqueEmail('support'));
      await page.getByLabel('Message').fill('My deposit does not show in my balance.');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(page.getByTestId('feedback-sent')).toBeVisible();

      await page.getByTestId('chat-open').click();
      const chat = page.getByTestId('chat-panel');
      await expect(chat).toContainText('How can we help you?');
      await chat.getByLabel('Type your message').fill('Hello, is anyone there?');
      await chat.getByRole('button', { name: 'Send' }).click();
      await expect(chat).toContainText('an agent will answer you');
      const box = await chat.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      await shoot(page, info, `support-${String(width)}`);
    });
  });
}
