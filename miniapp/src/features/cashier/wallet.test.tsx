import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

afterEach(async () => {
  window.localStorage.clear();
  await activateLocale('en');
});

const eur = (amount: string) => ({ amount, currency: 'EUR' });
const balances = { balance_main: eur('92.00'), balance_bonus: eur('0.00'), balance_betting_bonus: eur('0.00'), balance_fun: eur('0.00') };

describe('the wallet', () => {
  it('shows a main balance in another currency at the reference rate of the site’s currency', async () => {
    const api = mockApi({
      'account.getInfo': player({ balance_main: eur('92.00') }),
      'account.getprofileinfo': { contacts: [] },
      'account.getBalance': balances,
      'account.getcurrencyrates': { base: 'USD', rates: [{ currency: 'USD', rate: '1' }, { currency: 'EUR', rate: '0.92' }] },
    });
    renderApp('/cashier/wallet');
    expect(await screen.findByTestId('wallet-reference')).toHaveTextContent('About $100.00 at today’s reference rate');
    expect(api.calls('account.getcurrencyrates')).toHaveLength(1);
  });

  it('asks for no rate when the balance is in the site’s currency', async () => {
    const usd = (amount: string) => ({ amount, currency: 'USD' });
    const api = mockApi({
      'account.getInfo': player(),
      'account.getprofileinfo': { contacts: [] },
      'account.getBalance': { balance_main: usd('5.00'), balance_bonus: usd('0.00'), balance_betting_bonus: usd('0.00'), balance_fun: usd('0.00') },
    });
    renderApp('/cashier/wallet');
    expect(await screen.findByTestId('wallet')).toHaveTextContent('$5.00');
    expect(screen.queryByTestId('wallet-reference')).toBeNull();
    expect(api.calls('account.getcurrencyrates')).toHaveLength(0);
  });
});
