import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountInfo } from '@/features/account/api/get-account-info';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { telegramStore } from '@/lib/telegram';
import { GUEST, mockApi, player, type MockHandler } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

// SPEC §4 "Login success": the unseen cashback, then the campaign popups, are queued after a
// password login and after the Telegram sign-in alike.

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  for (const waiting of dialogs.store.get().queued) dialogs.close(waiting.id);
  dialogs.closeAll({ immediate: true });
  telegramStore.set({ active: false, launch: null, scheme: null, isFullscreen: false });
  window.localStorage.clear();
  vi.restoreAllMocks();
});

const CASHBACK = {
  id: 31,
  status: 'active',
  pays: 'real',
  description: 'Your weekly 10% back',
  amount: { amount: '7.00', currency: 'USD' },
  receiving_expired_at: null,
  paid_out_at: null,
  end_date: 1_900_000_000,
  created_at: 1_800_000_000,
};

const CAMPAIGN = {
  id: 3,
  attributes: { sysname: 'weekend-reload', title: 'Weekend reload', text: '50% on Saturdays', kind: 'curtain', size: 'full', audience: 'player', showAfterLogin: true },
};

function strapi(data: unknown): Response {
  return new Response(JSON.stringify({ data, meta: {} }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** A fake server whose sign-in method (`auth.login` or `auth.telegram`) signs the player in. */
function server(signInMethod: string, stored: Record<string, string>) {
  let current: AccountInfo = GUEST;
  const signedIn = player();
  const signIn: MockHandler = () => {
    current = signedIn;
    return signedIn;
  };
  return mockApi({
    'account.getInfo': () => current,
    'account.getprofileinfo': { contacts: [] },
    [signInMethod]: signIn,
    'cashbacks.get': { total: 1, items: [CASHBACK] },
    'storage.get': ({ url }: { url: URL }) => stored[url.searchParams.get('key') ?? ''] ?? null,
    'storage.set': 1,
    '/cms/api/popups': () => strapi([CAMPAIGN]),
  });
}

/** Closes the cashback popup, then the campaign popup it held back, checking what is remembered. */
async function closeBothAndCheckStorage(api: ReturnType<typeof mockApi>) {
  const cashback = await screen.findByRole('dialog', { name: 'Cashback for you: $7.00' });
  expect(dialogs.store.get().queued.map((dialog) => dialog.name)).toEqual(['popup:weekend-reload']);
  fireEvent.click(within(cashback).getByRole('button', { name: 'Great' }));

  const campaign = await screen.findByRole('dialog', { name: 'Weekend reload' });
  expect(within(campaign).getByText('50% on Saturdays')).toBeVisible();
  fireEvent.click(within(campaign).getByRole('button', { name: 'OK' }));

  await waitFor(() => {
    expect(api.calls('storage.set')).toHaveLength(2);
  });
  expect(api.calls('storage.set').map((call) => [call.body?.get('key'), call.body?.get('value')])).toEqual([
    ['already_seen_cashback_id', '31'],
    ['already_seen_campaign_popups', '["spring-sale","weekend-reload"]'],
  ]);
  expect(screen.queryByRole('dialog')).toBeNull();
}

/** Signs in through the dialog opened by the entry parameter, on the home page (the page login lands on). */
async function signInThroughDialog() {
  renderApp('/?show_popup_auth=1');
  const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
  fireEvent.change(await within(dialog).findByLabelText('Email or phone'), { target: { value: 'player@example.com' } });
  fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'secret12' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));
}

describe('popups after login', () => {
  it('a password login queues the campaign popup after the unseen cashback', async () => {
    const api = server('auth.login', { already_seen_campaign_popups: '["spring-sale"]' });
    await signInThroughDialog();

    await closeBothAndCheckStorage(api);
  });

  it('a campaign popup seen before is not shown again after login', async () => {
    const api = server('auth.login', { already_seen_cashback_id: '31', already_seen_campaign_popups: '["weekend-reload"]' });
    await signInThroughDialog();

    await waitFor(() => {
      expect(api.calls('storage.get').map((call) => call.url.searchParams.get('key'))).toEqual([
        'already_seen_cashback_id',
        'already_seen_campaign_popups',
      ]);
    });
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(dialogs.store.get().queued).toEqual([]);
    expect(api.calls('storage.set')).toHaveLength(0);
  });

  it('the Telegram sign-in queues the same popups', async () => {
    const api = server('auth.telegram', { already_seen_cashback_id: '30', already_seen_campaign_popups: '["spring-sale"]' });
    const launch = { initData: 'user=%7B%22id%22%3A42%7D&hash=ab', user: { id: 42, username: 'ann', languageCode: 'en' }, hash: 'ab', startParam: null, platform: 'android' };
    telegramStore.set({ active: true, launch, scheme: 'dark', isFullscreen: false });
    renderApp('/');

    await closeBothAndCheckStorage(api);
    expect(api.calls('auth.telegram')).toHaveLength(1);
    expect(api.calls('auth.login')).toHaveLength(0);
  });
});
