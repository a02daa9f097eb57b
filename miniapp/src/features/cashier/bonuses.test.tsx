import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player } from '@/test/api-mock';
import { bonus, offer } from '@/test/bonus-fixtures';
import { renderApp } from '@/test/render-app';
import type { DepositSettings, PaymentInfo, PaymentMethod, WithdrawSettings } from './api';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
  await activateLocale('en');
});

const usd = (amount: string) => ({ amount, currency: 'USD' });
const card: PaymentMethod = { sysname: 'sandbox_card', name: 'Card', min: usd('10.00'), max: usd('5000.00'), requisites: [] };
const depositSettings: DepositSettings = { currency: 'USD', methods: [card], amount_presets: [{ currency: 'USD', amount: [{ value: 50 }] }], limits: [] };
const withdrawSettings: WithdrawSettings = {
  currency: 'USD',
  methods: [card],
  balance: usd('1234.50'),
  period_limit: usd('5000.00'),
  period_available: usd('5000.00'),
  requirements: { contact_confirmed: true, profile_complete: true, kyc_required: false, kyc_verified: false },
};
const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };

describe('deposit bonus choice', () => {
  const welcome = offer();
  const reload = offer({ id: 2, sysname: 'reload', description: { ...welcome.description, title: 'Reload' } });
  const unsatisfied = offer({ id: 3, sysname: 'vip', trigger: { ...welcome.trigger, user_satisfies_params: false } });

  it('offers the deposit offers the player satisfies, the first by default, and sends the choice', async () => {
    const api = mockApi({
      ...signedIn,
      'cashier.getdepositsettings': depositSettings,
      'campaigns.getoffers': { total: 3, items: [welcome, reload, unsatisfied] },
      // Refused, so the test stays on the page (a success leaves for the provider's page).
      'cashier.makedeposit': apiError('BillingUnavailableException', 503),
    });
    renderApp('/cashier/deposit');

    const choices = await screen.findByTestId('deposit-offers');
    expect(await within(choices).findByTestId('deposit-offer-1')).toBeChecked();
    expect(within(choices).getByTestId('deposit-offer-2')).not.toBeChecked();
    expect(within(choices).queryByTestId('deposit-offer-3')).toBeNull();
    expect(within(choices).getByTestId('deposit-offer-none')).not.toBeChecked();
    expect(choices).toHaveTextContent('Welcome bonus · 100% up to 500.00 USD + 50 free spins · Minimum deposit $10.00');
    expect(api.calls('campaigns.getoffers')[0]?.url.searchParams.get('trigger')).toBe('deposit');

    fireEvent.click(screen.getByRole('button', { name: 'Deposit $50.00' }));
    await waitFor(() => {
      expect(api.calls('cashier.makedeposit')).toHaveLength(1);
    });
    expect(api.calls('cashier.makedeposit')[0]?.body?.get('campaign_offer_id')).toBe('1');

    fireEvent.click(within(choices).getByTestId('deposit-offer-none'));
    fireEvent.click(screen.getByRole('button', { name: 'Deposit $50.00' }));
    await waitFor(() => {
      expect(api.calls('cashier.makedeposit')).toHaveLength(2);
    });
    expect(api.calls('cashier.makedeposit')[1]?.body?.get('campaign_offer_id')).toBe('none');
  });

  it('shows no choice when no offer fits, and leaves the choice to the server', async () => {
    const api = mockApi({
      ...signedIn,
      'cashier.getdepositsettings': depositSettings,
      'campaigns.getoffers': { total: 1, items: [unsatisfied] },
      'cashier.makedeposit': apiError('BillingUnavailableException', 503),
    });
    renderApp('/cashier/deposit');
    fireEvent.click(await screen.findByRole('button', { name: 'Deposit $50.00' }));
    await waitFor(() => {
      expect(api.calls('cashier.makedeposit')).toHaveLength(1);
    });
    expect(screen.queryByTestId('deposit-offers')).toBeNull();
    expect(api.calls('cashier.makedeposit')[0]?.body?.get('campaign_offer_id')).toBe('');
  });
});

describe('withdrawal with bonuses being wagered', () => {
  const made: PaymentInfo = {
    id: 'w1',
    type: 'withdrawal',
    method: 'sandbox_card',
    amount: usd('100.00'),
    status: 'pending',
    requisites: null,
    created_at: 1_700_000_000,
    updated_at: 1_700_000_000,
    domain: null,
  };

  function withdrawApi() {
    return mockApi({
      ...signedIn,
      'cashier.getwithdrawsettings': withdrawSettings,
      'cashier.getdepositsettings': depositSettings,
      'cashier.makewithdrawal': ({ body }: { body: FormData | null }) =>
        body?.get('burn_bonuses') === '1' ? made : apiError('BonusBurnConfirmationRequiredException', 409, { bonuses: 2, amount: '12.50' }),
    });
  }

  async function askToWithdraw() {
    fireEvent.change(await screen.findByLabelText('Amount (USD)'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    return screen.findByRole('alertdialog', { name: 'Withdraw and lose your bonuses?' });
  }

  it('asks before losing the bonuses, then withdraws again with burn_bonuses', async () => {
    const api = withdrawApi();
    renderApp('/cashier/withdraw');

    const dialog = await askToWithdraw();
    expect(dialog).toHaveTextContent('Bonuses being wagered: 2. Withdrawing now cancels them, and $12.50 of bonus money is lost.');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('burn-bonuses-confirm'));

    expect(await screen.findByTestId('withdrawal-made')).toBeVisible();
    const calls = api.calls('cashier.makewithdrawal');
    expect(calls.map((call) => call.body?.get('burn_bonuses') ?? null)).toEqual([null, '1']);
    expect(calls[1]?.body?.get('amount')).toBe('100');
    expect(calls[1]?.body?.get('method')).toBe('sandbox_card');
  });

  it('withdraws nothing when the player keeps the bonuses', async () => {
    const api = withdrawApi();
    renderApp('/fr/cashier/withdraw');
    fireEvent.change(await screen.findByLabelText('Montant (USD)'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Retirer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Retirer et perdre vos bonus ?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Garder mes bonus' }));
    await waitFor(() => {
      expect(screen.queryByRole('alertdialog')).toBeNull();
    });
    expect(api.calls('cashier.makewithdrawal')).toHaveLength(1);
    expect(screen.queryByTestId('withdrawal-made')).toBeNull();
  });
});

describe('bonuses history tab', () => {
  it('lists the bonuses with their amount, status and date', async () => {
    const finished = bonus({ id: 5, status: 'expired', title: 'Spring spins', amount: '25.00', finished_at: 1_700_000_000 });
    const api = mockApi({ ...signedIn, 'cashier.gethistory': { total: 1, items: [finished] } });
    renderApp('/cashier/history?tab=bonuses');

    const item = await screen.findByTestId('bonus-history-item');
    expect(item).toHaveTextContent('Spring spins');
    expect(item).toHaveTextContent('$25.00');
    expect(item).toHaveTextContent('Expired');
    expect(item).toHaveTextContent(/Finished \d\d\.\d\d\.2023/);
    const call = api.calls('cashier.gethistory').find((c) => c.url.searchParams.get('type') === 'bonuses');
    expect(call?.url.searchParams.get('offset')).toBe('0');
  });
});
