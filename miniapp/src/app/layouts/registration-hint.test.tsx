import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountKeys } from '@/features/account/api/get-account-info';
import { cashierKeys } from '@/features/cashier/api';
import { GUEST, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const history = (total: number) => ({ total, items: [] });

describe('registration hint (SPEC §4)', () => {
  it('shows for a new player the server knows no successful deposit of', async () => {
    const api = mockApi({ 'account.getInfo': player({ reg_time: nowSeconds() - 600 }), 'cashier.gethistory': history(0) });
    renderApp('/');

    expect(await screen.findByTestId('registration-hint')).toBeVisible();
    const calls = api.calls('cashier.gethistory');
    expect(calls).toHaveLength(1);
    const params = calls[0]?.url.searchParams;
    expect(params?.get('type')).toBe('deposit');
    expect(params?.get('statuses')).toBe('success');
    expect(params?.get('count')).toBe('1');
  });

  it('stays hidden once the player has a deposit', async () => {
    const account = player({ reg_time: nowSeconds() - 600 });
    const api = mockApi({ 'account.getInfo': account, 'cashier.gethistory': history(1) });
    const { queryClient } = renderApp('/');

    await waitFor(() => {
      expect(queryClient.getQueryState(cashierKeys.hasDeposit(account.uid, account.balance_main.amount))?.status).toBe('success');
    });
    expect(await screen.findByTestId('header-balance')).toBeVisible();
    expect(screen.queryByTestId('registration-hint')).toBeNull();
    expect(api.calls('cashier.gethistory')).toHaveLength(1);
  });

  it('goes away when a deposit lands and the balance changes', async () => {
    const before = player({ reg_time: nowSeconds() - 600, balance_main: { amount: '0.00', currency: 'USD' } });
    const api = mockApi({ 'account.getInfo': before, 'cashier.gethistory': history(0) });
    const { queryClient } = renderApp('/');
    expect(await screen.findByTestId('registration-hint')).toBeVisible();

    api.on('account.getInfo', { ...before, balance_main: { amount: '50.00', currency: 'USD' } });
    api.on('cashier.gethistory', history(1));
    // What the balance refresh does on its interval.
    await act(() => queryClient.invalidateQueries({ queryKey: accountKeys.info() }));

    await waitFor(() => {
      expect(screen.queryByTestId('registration-hint')).toBeNull();
    });
    expect(api.calls('cashier.gethistory')).toHaveLength(2);
  });

  it('asks nothing more than 2 hours after registration', async () => {
    const api = mockApi({ 'account.getInfo': player({ reg_time: nowSeconds() - 7201 }), 'cashier.gethistory': history(0) });
    renderApp('/');

    expect(await screen.findByTestId('header-balance')).toBeVisible();
    expect(screen.queryByTestId('registration-hint')).toBeNull();
    expect(api.calls('cashier.gethistory')).toHaveLength(0);
  });

  it('asks nothing for a guest', async () => {
    const api = mockApi({ 'account.getInfo': GUEST, 'cashier.gethistory': history(0) });
    renderApp('/');

    expect(await screen.findByRole('button', { name: 'Register' })).toBeVisible();
    expect(screen.queryByTestId('registration-hint')).toBeNull();
    expect(api.calls('cashier.gethistory')).toHaveLength(0);
  });
});
