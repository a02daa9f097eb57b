import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { serverBinary, miniappDir, startServer, type RunningServer } from './server';
import { api, registerReadyToWithdraw, registerThroughApi, uniqueEmail } from './support';

// The back office (issue 22) against the real server and Chromium: the first admin is created
// with the CLI, signs in with the TOTP code computed here (enrolling at the first sign-in), creates
// a finance operator, finds a player, corrects the balance above the four-eyes limit (nothing moves),
// the finance operator approves it (the ledger moves), the player's balance and the audit trail
// show it; the finance operator approves a withdrawal and pays it out. Its own server, so the CLI
// writes to the database the server reads.

/** RFC 4648 base32 (the TOTP secret's alphabet). */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8) bytes.push(parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP: HMAC-SHA1, 30-second steps, 6 digits. */
function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, '0');
}

const WIDE = [1280, 1920] as const;

/** Full-page screenshots of the console at the two desktop widths. */
async function shootWide(page: Page, info: TestInfo, name: string): Promise<void> {
  for (const width of WIDE) {
    await page.setViewportSize({ width, height: 1000 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: info.outputPath(`backoffice-${name}-${String(width)}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 1000 });
}

/** `croupier-server admin operators create EMAIL ROLE NAME`, the password in the environment. */
async function createOperatorWithCli(dataDir: string, email: string, role: string, name: string, password: string): Promise<string> {
  const child = spawn(serverBinary(), ['admin', 'operators', 'create', email, role, name], {
    cwd: dataDir,
    env: {
      ...process.env,
      DATABASE_URL: `sqlite://${path.join(dataDir, 'e2e.db')}`,
      CROUPIER_ENV: 'dev',
      CROUPIER_OPERATOR_PASSWORD: password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, `the CLI said:\n${output}`).toBe(0);
  return output;
}

/** Signs in on the console's sign-in page as an operator who has not enrolled yet: enrols with the shown secret. */
async function signInEnrolling(page: Page, base: string, email: string, password: string, landing = /\/backoffice\/players$/): Promise<void> {
  await page.goto(`${base}/backoffice`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const secretField = page.getByTestId('enrol-secret');
  await expect(secretField).toHaveValue(/^[A-Z2-7]{16,}=*$/);
  await expect(page.getByTestId('enrol-qr')).toBeVisible();
  const secret = await secretField.inputValue();
  await page.getByLabel('Authenticator code').fill(totp(secret));
  await page.getByRole('button', { name: 'Enable and sign in' }).click();
  await expect(page).toHaveURL(landing);
}

/** Answers the action dialog opened by `button` with `reason`, confirming with the dialog's own `confirm` button. */
async function answerDialog(page: Page, reason: string, confirm: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Reason(?! code)/).fill(reason);
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

interface Info {
  uid: number;
  balance_main: { amount: string };
}

async function newOperatorPage(browser: Browser, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  return page;
}

test.describe('the back office', () => {
  test.use({ viewport: { width: 1280, height: 1000 } });

  let server: RunningServer;
  let dataDir: string;

  test.beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'croupier-backoffice-'));
    server = await startServer(serverBinary(), path.join(miniappDir, 'dist'), 'backoffice', { CROUPIER_REGISTRATIONS_PER_IP_HOUR: '1000' }, { dataDir });
  });

  test.afterAll(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('first admin from the CLI, four-eyes balance correction, audit trail, withdrawal approved and paid', async ({ page, browser, playwright }, info) => {
    test.setTimeout(240_000);
    const base = server.baseUrl;

    // A player with money and a withdrawal waiting.
    const player: APIRequestContext = await playwright.request.newContext({ baseURL: base });
    const playerEmail = uniqueEmail('backoffice-player');
    await registerReadyToWithdraw(player, playerEmail);
    const started = (await api(player, 'cashier.makedeposit', { method: 'sandbox_card', amount: '100', campaign_offer_id: 'none' })) as { redirect_url: string };
    expect((await player.post(started.redirect_url, { form: { outcome: 'success' } })).ok()).toBe(true);
    await expect.poll(async () => ((await api(player, 'account.getInfo')) as Info).balance_main.amount).toBe('100.00');
    await api(player, 'cashier.makewithdrawal', { method: 'sandbox_card', amount: '20' });
    const { uid } = (await api(player, 'account.getInfo')) as Info;
    const before = ((await api(player, 'account.getInfo')) as Info).balance_main.amount;

    // The first admin, from the command line; they enrol their TOTP at the first sign-in.
    const adminEmail = uniqueEmail('backoffice-admin');
    const adminPassword = 'first admin pass phrase';
    await createOperatorWithCli(dataDir, adminEmail, 'admin', 'First Admin', adminPassword);
    await signInEnrolling(page, base, adminEmail, adminPassword);
    await shootWide(page, info, 'players');

    // The admin creates a finance operator.
    const financeEmail = uniqueEmail('backoffice-finance');
    const financePassword = 'finance pass phrase 42';
    await page.getByRole('menuitem', { name: 'Operators' }).click();
    await expect(page).toHaveURL(/\/backoffice\/operators$/);
    await expect(page.getByRole('row').filter({ hasText: adminEmail })).toBeVisible();
    await page.getByRole('link', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/backoffice\/operators\/create$/);
    await page.getByRole('textbox', { name: /^E-mail/ }).fill(financeEmail);
    await page.getByLabel('Name').fill('Fiona Finance');
    await page.getByLabel('Role').click();
    await page.getByRole('option', { name: 'Finance' }).click();
    await page.getByLabel(/^Password/).fill(financePassword);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('row').filter({ hasText: financeEmail })).toContainText('Finance');

    // Find the player by e-mail and open their page.
    await page.getByRole('menuitem', { name: 'Players' }).click();
    await page.getByPlaceholder('Id, e-mail, phone, Telegram id or nickname').fill(playerEmail);
    const row = page.getByRole('row').filter({ hasText: playerEmail });
    await expect(row).toHaveCount(1);
    await row.getByRole('cell', { name: String(uid), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/backoffice/players/${String(uid)}/show$`));
    const balances = page.getByTestId('player-balances');
    await expect(balances).toContainText(`$${before}`);

    // A credit of 2,500.00 is above the four-eyes limit (1,000.00): it waits, nothing moves.
    await page.getByTestId('player-correct').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Amount').fill('2500');
    await shootWide(page, info, 'correct-balance');
    await answerDialog(page, 'Goodwill for the outage of 25 November', 'Correct balance');
    await expect(page.getByText('The correction waits for a second operator’s approval.')).toBeVisible();
    expect(((await api(player, 'account.getInfo')) as Info).balance_main.amount).toBe(before);

    // The requester cannot approve it; the finance operator can.
    await page.getByRole('menuitem', { name: 'Corrections' }).click();
    const pending = page.getByRole('row').filter({ hasText: 'Goodwill for the outage of 25 November' });
    await expect(pending).toContainText('Waiting for approval');
    await shootWide(page, info, 'corrections-pending');
    await pending.getByRole('button', { name: 'Approve' }).click();
    await answerDialogExpectingRefusal(page, 'Approving my own request');

    const financeErrors: string[] = [];
    const finance = await newOperatorPage(browser, financeErrors);
    await signInEnrolling(finance, base, financeEmail, financePassword);
    await finance.getByRole('menuitem', { name: 'Corrections' }).click();
    const waiting = finance.getByRole('row').filter({ hasText: 'Goodwill for the outage of 25 November' });
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await answerDialog(finance, 'Checked against the incident ticket', 'Approve');
    await expect(finance.getByText('The correction is approved and applied.')).toBeVisible();

    // The money moved through the ledger: the player's balance and their page show it.
    const after = (Number(before.replace(/,/g, '')) + 2500).toFixed(2);
    await expect.poll(async () => ((await api(player, 'account.getInfo')) as Info).balance_main.amount).toBe(after);
    await page.goto(`${base}/backoffice/players/${String(uid)}/show`);
    await expect(balances).toContainText(`$${Number(after).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    await page.getByRole('tab', { name: 'Ledger' }).click();
    await expect(page.getByRole('row').filter({ hasText: '+$2,500.00' })).toHaveCount(1);
    await shootWide(page, info, 'player-ledger');

    // The audit trail has the request, the refused self-approval and the approval, with their reasons.
    await page.getByRole('menuitem', { name: 'Audit trail' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Goodwill for the outage of 25 November' }).first()).toBeVisible();
    const approval = page.getByRole('row').filter({ hasText: 'Checked against the incident ticket' });
    await expect(approval).toContainText('Fiona Finance');
    await expect(approval).toContainText('Done');
    await expect(page.getByRole('row').filter({ hasText: 'Denied' }).first()).toBeVisible();
    await shootWide(page, info, 'audit');

    // The withdrawal queue: approve, then pay out; each step is in the history.
    await finance.getByRole('menuitem', { name: 'Withdrawals' }).click();
    await finance.getByLabel('Player id').fill(String(uid));
    const queued = finance.getByRole('row').filter({ hasText: '$20.00' });
    await expect(queued).toContainText('Pending');
    await queued.getByRole('cell', { name: '$20.00' }).click();
    await finance.getByTestId('withdrawal-approve').click();
    await answerDialog(finance, 'Documents checked', 'Approve');
    await expect(finance.getByText('The withdrawal is updated.')).toBeVisible();
    await finance.getByTestId('withdrawal-paid').click();
    await answerDialog(finance, 'Sent to the card on file', 'Pay out');
    const history = finance.getByTestId('withdrawal-history');
    await expect(history).toContainText('Documents checked');
    await expect(history).toContainText('Sent to the card on file');
    await expect(finance.getByText('Paid', { exact: true }).first()).toBeVisible();
    await shootWide(finance, info, 'withdrawal-paid');

    expect(financeErrors, 'errors in the finance operator’s page').toEqual([]);
    await finance.context().close();
    await player.dispose();
  });

  test('the Loyalty page: rates edited, a level refused by the server, a player’s points adjusted from their page', async ({ page, playwright }, info) => {
    test.setTimeout(180_000);
    const base = server.baseUrl;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
    });
    const player: APIRequestContext = await playwright.request.newContext({ baseURL: base });
    await registerThroughApi(player, uniqueEmail('loyalty-player'));
    const { uid } = (await api(player, 'account.getInfo')) as Info;

    const email = uniqueEmail('loyalty-admin');
    await createOperatorWithCli(dataDir, email, 'admin', 'Loyalty Admin', 'loyalty admin pass phrase');
    await signInEnrolling(page, base, email, 'loyalty admin pass phrase');

    // The demo programme, as the server made it.
    await page.getByRole('menuitem', { name: 'Loyalty' }).click();
    await expect(page).toHaveURL(/\/backoffice\/loyalty$/);
    await expect(page.getByTestId('loyalty-active')).toHaveText('The programme is on');
    await expect(page.getByTestId('loyalty-levels')).toContainText('Platinum');
    await expect(page.getByTestId('loyalty-products')).toContainText('cashback-boost');
    await expect(page.getByTestId('loyalty-quests')).toContainText('hundred-slot-rounds');

    // Rates: every rate of the list goes back with the one changed.
    await page.getByTestId('loyalty-rates-edit').click();
    await expect(page.getByLabel(/^Game type/).first()).toBeVisible();
    const gameTypes = await page.getByLabel(/^Game type/).all();
    const currencies = await page.getByRole('combobox', { name: /^Currency/ }).allTextContents();
    let row = -1;
    for (const [index, input] of gameTypes.entries()) {
      if ((await input.inputValue()) === 'sport' && currencies[index] === 'EUR') row = index;
    }
    expect(row).toBeGreaterThanOrEqual(0);
    await page.getByLabel(/^Milli-points per unit/).nth(row).fill('250');
    await page.getByTestId('loyalty-rates-form-save').click();
    await expect(page.getByText('The loyalty programme is saved.')).toBeVisible();
    const rates = page.getByTestId('loyalty-rates');
    await expect(rates.getByRole('row').filter({ hasText: 'sport' }).filter({ hasText: 'EUR' })).toContainText('25');

    // Levels: a campaign that is not a manual one is the server's to refuse, shown on the form.
    await page.getByTestId('loyalty-levels-edit').click();
    await page.getByLabel(/^Campaign id/).nth(1).fill('999999');
    await page.getByTestId('loyalty-levels-form-save').click();
    await expect(page.getByTestId('loyalty-server-errors')).toContainText('Campaign id: Not found');
    await page.screenshot({ path: info.outputPath('backoffice-loyalty-levels-refused-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 820, height: 1100 });
    await page.screenshot({ path: info.outputPath('backoffice-loyalty-levels-refused-820.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.getByRole('button', { name: 'Cancel' }).click();

    // From the player's page to their loyalty account; points given with a reason.
    await page.goto(`${base}/backoffice/players/${String(uid)}/show`);
    await page.getByTestId('player-loyalty-account').click();
    await expect(page).toHaveURL(new RegExp(`/backoffice/loyalty\\?player=${String(uid)}$`));
    await page.getByTestId('player-grant-points').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Points/).fill('250');
    await expect(dialog.getByTestId('points-summary')).toHaveText(`Gives 250 points to player #${String(uid)}.`);
    await dialog.getByLabel(/^Reason/).fill('Goodwill after the outage');
    await dialog.getByRole('button', { name: 'Loyalty points', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    const entries = page.getByTestId('loyalty-entries');
    await expect(entries.getByRole('row').filter({ hasText: 'operator: Goodwill after the outage' })).toContainText('Operator adjustment');
    await expect(page.getByTestId('loyalty-account-summary')).toContainText('250');
    await page.setViewportSize({ width: 820, height: 1100 });
    await page.screenshot({ path: info.outputPath('backoffice-loyalty-account-820.png'), fullPage: true });

    expect(errors, 'errors in the page').toEqual([]);
    await player.dispose();
  });

  test('a content operator edits a page title and the site shows it', async ({ page }, info) => {
    test.setTimeout(60_000);
    const base = server.baseUrl;
    const email = uniqueEmail('backoffice-content');
    const password = 'content pass phrase 7';
    await createOperatorWithCli(dataDir, email, 'content', 'Carla Content', password);
    await signInEnrolling(page, base, email, password, /\/backoffice/);
    await page.getByRole('menuitem', { name: 'Content' }).click();
    await page.getByTestId('content-type-pages').click();
    await page.getByTestId('content-edit-1').click();
    await expect(page.getByTestId('content-preview')).toHaveAttribute('href', '/about');
    const title = page.getByLabel(/^title/);
    await expect(title).toHaveValue('About Croupier');
    await title.fill('About Croupier, edited');
    await page.getByLabel(/^Reason/).fill('New wording from the brand team');
    await page.getByTestId('content-save').click();
    await expect(page.getByText('The entry is saved.')).toBeVisible();
    await shootWide(page, info, 'content-edit');
    const site = await page.request.get(`${base}/about`);
    expect(await site.text()).toContain('<title>About Croupier, edited');
  });
});

/** Submits the open action dialog and expects the server's refusal to keep it open with the message. */
async function answerDialogExpectingRefusal(page: Page, reason: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Reason(?! code)/).fill(reason);
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByText('Another operator must approve this')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
}
