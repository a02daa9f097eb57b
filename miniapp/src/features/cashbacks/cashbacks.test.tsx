import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import type { Cashback } from './api/get-cashbacks';
import { isClaimable } from './cashback-item';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };
const NOW = Math.floor(Date.now() / 1000);

function cashback(overrides: Partial<Cashback> = {}): Cashback {
  return {
    id: 7,
    status: 'active',
    pays: 'real',
    description: 'Weekly cashback',
    amount: { amount: '12.50', currency: 'USD' },
    receiving_expired_at: NOW + 86_400,
    paid_out_at: null,
    end_date: NOW - 3_600,
    created_at: NOW - 3_600,
    ...overrides,
  };
}

const paid = cashback({ id: 3, status: 'paid_out', description: 'Daily cashback', paid_out_at: NOW - 86_400 });

async function item(id: number): Promise<HTMLElement> {
  const items = await screen.findAllByTestId('cashback-item');
  const found = items.find((element) => element.dataset.cashbackId === String(id));
  if (!found) throw new Error(`no cashback ${String(id)}`);
  return found;
}

describe('isClaimable', () => {
  it('is true for an active cashback before its claim time, and only then', () => {
    expect(isClaimable(cashback(), NOW)).toBe(true);
    expect(isClaimable(cashback({ receiving_expired_at: null }), NOW)).toBe(true);
    expect(isClaimable(cashback({ receiving_expired_at: NOW - 1 }), NOW)).toBe(false);
    expect(isClaimable(cashback({ receiving_expired_at: NOW }), NOW)).toBe(false);
    expect(isClaimable(paid, NOW)).toBe(false);
    expect(isClaimable(cashback({ status: 'removed' }), NOW)).toBe(false);
  });
});

describe('profile cashback tab', () => {
  it('says so when the player has no cashback', async () => {
    mockApi({ ...signedIn, 'cashbacks.get': { total: 0, items: [] } });
    renderApp('/profile/cashback');
    expect(await screen.findByTestId('cashbacks-none')).toHaveTextContent('No cashback yet.');
  });

  it('claims an active cashback with one call and lists it paid afterwards', async () => {
    const active = cashback();
    let items = [active, paid];
    const api = mockApi({
      ...signedIn,
      'cashbacks.get': () => ({ total: items.length, items }),
      'cashbacks.payout': () => {
        const done = { ...active, status: 'paid_out' as const, paid_out_at: NOW };
        items = [done, paid];
        return done;
      },
    });
    renderApp('/profile/cashback');

    const first = await item(7);
    expect(within(first).getByText('Weekly cashback')).toBeVisible();
    expect(within(first).getByText('$12.50')).toBeVisible();
    expect(within(await item(3)).queryByTestId('cashback-payout')).toBeNull();
    expect(api.calls('cashbacks.get')[0]?.url.searchParams.get('statuses')).toBe('pending,active,paid_out');

    fireEvent.click(within(first).getByTestId('cashback-payout'));
    await waitFor(() => {
      expect(api.calls('cashbacks.payout')).toHaveLength(1);
    });
    expect(api.calls('cashbacks.payout')[0]?.body?.get('cashback_id')).toBe('7');
    await waitFor(async () => {
      expect((await item(7)).dataset.status).toBe('paid_out');
    });
    expect(within(await item(7)).queryByTestId('cashback-payout')).toBeNull();
  });

  it('declines only after the player confirms, and can be kept', async () => {
    const api = mockApi({
      ...signedIn,
      'cashbacks.get': { total: 1, items: [cashback()] },
      'cashbacks.remove': { ...cashback(), status: 'removed' },
    });
    renderApp('/profile/cashback');

    const first = await item(7);
    fireEvent.click(within(first).getByTestId('cashback-remove'));
    expect(within(first).getByTestId('cashback-remove-confirm')).toHaveTextContent('Decline this cashback?');
    fireEvent.click(within(first).getByTestId('cashback-remove-no'));
    expect(within(first).queryByTestId('cashback-remove-confirm')).toBeNull();
    expect(api.calls('cashbacks.remove')).toHaveLength(0);

    fireEvent.click(within(first).getByTestId('cashback-remove'));
    fireEvent.click(within(first).getByTestId('cashback-remove-yes'));
    await waitFor(() => {
      expect(api.calls('cashbacks.remove')).toHaveLength(1);
    });
    expect(api.calls('cashbacks.remove')[0]?.body?.get('cashback_id')).toBe('7');
  });

  it('shows a cashback awaiting approval without Claim, and says when one pays as a bonus', async () => {
    mockApi({
      ...signedIn,
      'cashbacks.get': {
        total: 2,
        items: [cashback({ id: 8, status: 'pending', receiving_expired_at: null }), cashback({ id: 9, pays: 'bonus' })],
      },
    });
    renderApp('/profile/cashback');

    const waiting = await item(8);
    expect(within(waiting).getByTestId('cashback-pending')).toHaveTextContent('Our team checks this cashback');
    expect(within(waiting).getByText('Awaiting approval')).toBeVisible();
    expect(within(waiting).queryByTestId('cashback-payout')).toBeNull();
    const bonus = await item(9);
    expect(within(bonus).getByTestId('cashback-as-bonus')).toHaveTextContent('Paid as a bonus');
    expect(within(bonus).getByTestId('cashback-payout')).toBeVisible();
  });

  it('says why a claim was refused, in the player’s language', async () => {
    await activateLocale('fr');
    mockApi({
      ...signedIn,
      'cashbacks.get': { total: 1, items: [cashback()] },
      'cashbacks.payout': apiError('InvalidParameterException', 400, { cashback_id: ['CODE_EXPIRED'] }),
    });
    renderApp('/fr/profile/cashback');

    fireEvent.click(within(await item(7)).getByTestId('cashback-payout'));
    expect(await screen.findByText('Ce cashback ne peut plus être réclamé.')).toBeVisible();
  });
});
