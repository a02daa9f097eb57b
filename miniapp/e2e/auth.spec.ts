import { expect, test } from './fixtures';
import { api, codeFromMailbox, PASSWORD, registerThroughApi, signInThroughDialog, uniqueEmail } from './support';

test('a guest on a player page is sent to /?redirectUrl=… and returns there after signing in', async ({ page, request }) => {
  const email = uniqueEmail('guard');
  await registerThroughApi(request, email);

  await page.goto('/cashier/history?tab=withdrawal');

  await expect(page).toHaveURL(`/?redirectUrl=${encodeURIComponent('/cashier/history?tab=withdrawal')}`);
  const dialog = await signInThroughDialog(page, email, { opened: true });
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/cashier/history?tab=withdrawal');
  await expect(page.getByRole('heading', { level: 1, name: 'Payment history' })).toBeVisible();
  await expect(page.getByTestId('header-balance')).toContainText('$0.00');
});

test('registration through the dialog, e-mail confirmation from the mailbox, logout, then login', async ({ page, request }) => {
  const email = uniqueEmail('register');
  await page.goto('/');

  await page.getByRole('button', { name: 'Register' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill('short');
  await dialog.getByRole('button', { name: 'Create my account' }).click();
  // The client's own rules answer first, in SPEC §5's words.
  await expect(dialog.getByText('Min length is 6')).toBeVisible();
  await expect(dialog.getByText('Unchecked checkbox')).toBeVisible();

  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Nickname').fill('Lucky_7');
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Create my account' }).click();
  await expect(dialog.getByText('Wrong fake name')).toBeVisible();
  await dialog.getByLabel('Nickname').fill('');
  await dialog.getByRole('button', { name: 'Create my account' }).click();

  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/');
  await expect(page.getByTestId('header-balance')).toContainText('$0.00');
  await expect(page.getByTestId('registration-hint')).toBeVisible();

  // The server mailed a code to the new address at registration.
  const hint = page.getByTestId('confirm-contact-hint');
  await expect(hint).toContainText(email);
  await hint.getByRole('button', { name: 'Confirm' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm your email' });
  await confirm.getByLabel('Code').fill('000000');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm.getByText('Wrong SMS code')).toBeVisible();
  await confirm.getByLabel('Code').fill(await codeFromMailbox(request, email));
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Thank you, your contact is confirmed.')).toBeVisible();
  await expect(hint).toBeHidden();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('header-balance')).toBeHidden();
  expect((await api(page.request, 'account.getInfo')) as { uid: number }).toMatchObject({ uid: 0 });

  const login = await signInThroughDialog(page, email, { password: 'wrong-password' });
  await expect(login.getByText('Wrong login or password')).toBeVisible();
  await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await login.getByRole('button', { name: 'Sign in' }).click();
  await expect(login).toBeHidden();
  await expect(page.getByTestId('header-balance')).toBeVisible();
});

test('two-factor login: the code step with its countdown, a wrong code, then the mailed code', async ({ page }) => {
  const email = uniqueEmail('twofactor');
  // page.request shares the page's cookies: the page is signed in as this player.
  await registerThroughApi(page.request, email);
  const enabledAt = Date.now();
  expect(await api(page.request, 'account.changeTwoFactorAuth', { enable: '1' })).toMatchObject({ resend_time: 60 });
  const enableCode = await codeFromMailbox(page.request, email, enabledAt);
  expect(await api(page.request, 'account.confirmTwoFactorAuth', { code: enableCode })).toBe(1);
  expect(await api(page.request, 'auth.logout')).toBe(1);

  await page.goto('/fr');
  await page.getByRole('link', { name: 'English' }).click();
  const askedAt = Date.now();
  const dialog = await signInThroughDialog(page, email);

  await expect(dialog.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await expect(dialog.getByTestId('resend-countdown')).toHaveText(/New code available in (60|59|58) s/);
  await dialog.getByLabel('Code').fill('12345');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('The code must contain 6 digits')).toBeVisible();

  const code = await codeFromMailbox(page.request, email, askedAt);
  const wrong = code === '000000' ? '111111' : '000000';
  await dialog.getByLabel('Code').fill(wrong);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Code invalid')).toBeVisible();

  await dialog.getByLabel('Code').fill(code);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('header-balance')).toBeVisible();
  expect((await api(page.request, 'account.getInfo')) as { two_factor_auth: boolean }).toMatchObject({
    two_factor_auth: true,
  });
});

test('show_popup_reg with prevent_close keeps the registration open until it is done', async ({ page }) => {
  await page.goto('/promotions?show_popup_reg=1&prevent_close=1&promo_code=WELCOME');
  const dialog = page.getByRole('dialog', { name: 'Register' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Promo code')).toHaveValue('WELCOME');
  expect(await page.evaluate('window.localStorage.getItem("show_popup_reg")')).toBe('1');

  // The kept show_popup_reg would open registration again: this visit starts afresh.
  await page.evaluate('window.localStorage.clear()');
  await page.goto('/promotions?show_popup_auth=1&track_id=abc');
  const signIn = page.getByRole('dialog', { name: 'Sign in' });
  await signIn.getByRole('button', { name: 'Close' }).click();
  await expect(signIn).toBeHidden();
  await expect(page).toHaveURL('/promotions?track_id=abc');
});
