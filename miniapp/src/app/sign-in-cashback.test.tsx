import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountInfo } from '@/features/account/api/get-account-info';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { GUEST, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

afterEach(() => {
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
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

/** A fake server: account.getInfo answers the player once auth.login succeeded. */
function serverWithCashback(seen: string | null) {
  let current: AccountInfo = GUEST;
  const signedIn = player();
  return mockApi({
    'account.getInfo': () => current,
    'account.getprofileinfo': { contacts: [] },
    'auth.login': () => {
      current = signedIn;
      return signedIn;
    },
    'cashbacks.get': { total: 1, items: [CASHBACK] },
    'storage.get': seen,
    'storage.set': 1,
  });
}

async function signIn() {
  renderApp('/promotions?show_popup_auth=1');
  const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
  fireEvent.change(await within(dialog).findByLabelText('Email or phone'), { target: { value: 'player@example.com' } });
  fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'secret12' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));
}

describe('unseen cashback after login (SPEC §4)', () => {
  it('shows the new cashback once signed in and remembers it when closed', async () => {
    const api = serverWithCashback('30');
    await signIn();

    const popup = await screen.findByRole('dialog', { name: 'Cashback for you: $7.00' });
    expect(within(popup).getByText('Your weekly 10% back')).toBeVisible();
    expect(screen.queryByRole('dialog', { name: 'Sign in' })).toBeNull();
    fireEvent.click(within(popup).getByRole('button', { name: 'Great' }));

    await waitFor(() => {
      expect(api.calls('storage.set')).toHaveLength(1);
    });
    const body = api.calls('storage.set')[0]?.body;
    expect([body?.get('key'), body?.get('value')]).toEqual(['already_seen_cashback_id', '31']);
  });

  it('shows nothing when that cashback was seen before', async () => {
    const api = serverWithCashback('31');
    await signIn();

    await waitFor(() => {
      expect(api.calls('storage.get')).toHaveLength(1);
    });
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(api.calls('storage.set')).toHaveLength(0);
  });
});
