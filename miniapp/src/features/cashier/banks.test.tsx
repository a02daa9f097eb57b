import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import type { PaymentMethod, WithdrawSettings } from './api';

afterEach(async () => {
  window.localStorage.clear();
  await activateLocale('en');
});

const usd = (amount: string) => ({ amount, currency: 'USD' });
const bankTransfer: PaymentMethod = { sysname: 'sandbox_bank', name: 'Bank transfer', min: usd('20.00'), max: usd('20000.00'), requisites: ['bank', 'iban'] };
const withdrawSettings: WithdrawSettings = {
  currency: 'USD',
  methods: [bankTransfer],
  balance: usd('1234.50'),
  period_limit: usd('5000.00'),
  period_available: usd('5000.00'),
  requirements: { contact_confirmed: true, profile_complete: true, kyc_required: false, kyc_verified: false },
};
const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };

describe('the bank requisite', () => {
  it('is a choice among the provider’s banks for the player, and the server’s refusal shows on it', async () => {
    const api = mockApi({
      ...signedIn,
      'cashier.getwithdrawsettings': withdrawSettings,
      'cashier.getbanks': [{ id: 'sandbox-north', name: 'North Sandbox Bank' }, { id: 'sandbox-post', name: 'Sandbox Postal Bank' }],
      'cashier.makewithdrawal': apiError('InvalidParameterException', 422, { requisites: ['UNSUPPORTED'], requisite: 'bank' }),
    });
    renderApp('/cashier/withdraw');
    const bank = await screen.findByRole('combobox', { name: 'Bank' });
    await waitFor(() => { expect(within(bank).getAllByRole('option')).toHaveLength(3); });
    expect(api.calls('cashier.getbanks')[0]?.url.searchParams.get('method')).toBe('sandbox_bank');
    fireEvent.change(bank, { target: { value: 'sandbox-post' } });
    fireEvent.change(screen.getByRole('textbox', { name: /IBAN/i }), { target: { value: 'FR76' } });
    fireEvent.change(screen.getByLabelText('Amount (USD)'), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => { expect(api.calls('cashier.makewithdrawal')).toHaveLength(1); });
    expect(api.calls('cashier.makewithdrawal')[0]?.body?.get('requisites')).toBe('bank=sandbox-post\niban=FR76');
    expect(await screen.findByText('Value is not supported')).toBeInTheDocument();
  });
});
