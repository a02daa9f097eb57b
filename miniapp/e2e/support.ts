import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures';

/** CROUPIER_FORCE_LOGOUT_SECONDS of the inactivity project's server. */
export const SHORT_FORCE_LOGOUT_SECONDS = 6;

/** CROUPIER_BONUS_WAGER_CAP of the journeys' server: a bonus is wagered once. */
export const E2E_BONUS_WAGER_CAP = 1;

export const PASSWORD = 'Secret123';

let counter = 0;
/** An address no other journey of this run uses. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${String(Date.now())}-${String(counter)}@example.com`;
}

interface MailboxMessage {
  channel: string;
  to: string;
  subject: string;
  body: string;
  code: string | null;
  sent_at: number;
}

/** The newest code sent to `to` after `since` (ms), read from the dev mailbox. */
export async function codeFromMailbox(request: APIRequestContext, to: string, since = 0): Promise<string> {
  const latest = async (): Promise<string | null> => {
    const response = await request.get(`/dev/mailbox?to=${encodeURIComponent(to)}`);
    expect(response.status()).toBe(200);
    const messages = (await response.json()) as MailboxMessage[];
    return messages.find((message) => message.code !== null && message.sent_at >= since)?.code ?? null;
  };
  await expect.poll(latest, { message: `a code in the mailbox of ${to}` }).not.toBeNull();
  const code = await latest();
  if (code === null) throw new Error(`no code for ${to}`);
  return code;
}

/** Calls /api/{method} with the request context's cookies; answers `data`, failing on an error envelope. */
export async function api(request: APIRequestContext, method: string, form?: Record<string, string>): Promise<unknown> {
  const url = `/api/${method}?locale=en&v=2.34`;
  const response = form ? await request.post(url, { form }) : await request.get(url);
  const body = (await response.json()) as { status: string; data?: unknown; error?: unknown };
  expect(body.status, `${method}: ${JSON.stringify(body.error)}`).toBe('ok');
  return body.data;
}

/** Registers an account through the API; with `page.request`, the page is then signed in too. */
export async function registerThroughApi(request: APIRequestContext, email: string): Promise<void> {
  await api(request, 'auth.register', { email, password: PASSWORD, currency: 'USD', terms: '1' });
}

/** Registers `email` with what a withdrawal needs: the e-mail confirmed and the personal data filled. */
export async function registerReadyToWithdraw(request: APIRequestContext, email: string): Promise<void> {
  await registerThroughApi(request, email);
  await api(request, 'account.confirmContact', { contact: email, code: await codeFromMailbox(request, email) });
  await api(request, 'account.saveProfileInfo', {
    first_name: 'Ann',
    last_name: 'Lee',
    birth_date: '01.02.1985',
    country_code: 'GB',
    home_town: 'Leeds',
    address: '2 Park Row',
    postcode: '12345',
  });
}

/**
 * Signs in through the sign-in dialog, opening it from the header unless the page opened it
 * itself (`opened`); answers the dialog.
 */
export async function signInThroughDialog(page: Page, login: string, { password = PASSWORD, opened = false } = {}) {
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  if (!opened) await page.getByRole('button', { name: 'Sign in' }).click();
  await dialog.getByLabel('Email or phone').fill(login);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  return dialog;
}

const SHOT_WIDTHS = [360, 1280] as const;

/** Full-page screenshots of the current screen at phone and desktop widths, in the test output. */
export async function shoot(page: Page, info: TestInfo, name: string): Promise<void> {
  for (const width of SHOT_WIDTHS) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: info.outputPath(`${name}-${String(width)}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 360, height: 780 });
}
