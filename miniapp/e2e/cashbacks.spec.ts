import { expect, test } from './fixtures';
import { api, PASSWORD, shoot, uniqueEmail } from './support';

// Cashback as a player meets it, against the real server: an operator gives one, the player
// claims it from the profile (once, however often the button is pressed) and declines another;
// the cashier's history lists both.

interface Info {
  uid: number;
  balance_main: { amount: string };
}

test('a cashback given by an operator is claimed once from the profile, another declined', async ({ page }, info) => {
  const email = uniqueEmail('cashback');
  await api(page.request, 'auth.register', { email, password: PASSWORD, currency: 'USD', terms: '1' });
  const { uid } = (await api(page.request, 'account.getInfo')) as Info;
  const token = process.env.CROUPIER_E2E_ADMIN_TOKEN ?? '';
  const endDate = Math.floor(Date.now() / 1000) + 7 * 86_400;
  const give = async (amount: number, what: string) => {
    const response = await page.request.post('/admin/cashbacks', {
      headers: { authorization: `Bearer ${token}` },
      data: { user_id: uid, amount, currency: 'USD', description_en: `${what} cashback`, description_fr: `Cashback ${what}`, end_date: endDate },
    });
    expect(response.status(), await response.text()).toBe(200);
  };
  await give(1_250, 'Weekly');
  await give(300, 'Daily');

  await page.goto('/profile/cashback');
  const weekly = page.getByTestId('cashback-item').filter({ hasText: 'Weekly cashback' });
  const daily = page.getByTestId('cashback-item').filter({ hasText: 'Daily cashback' });
  await expect(weekly).toHaveAttribute('data-status', 'active');
  await shoot(page, info, 'profile-cashback');

  await weekly.getByTestId('cashback-payout').click();
  await expect(weekly).toHaveAttribute('data-status', 'paid_out');
  await expect(weekly.getByTestId('cashback-payout')).toHaveCount(0);
  await expect(page.getByTestId('header-balance')).toContainText('$12.50');
  // A retried claim pays nothing more.
  const again = await page.request.post('/api/cashbacks.payout?locale=en&v=2.34', {
    form: { cashback_id: (await weekly.getAttribute('data-cashback-id')) ?? '' },
  });
  expect(((await again.json()) as { data: { status: string } }).data.status).toBe('paid_out');
  expect(((await api(page.request, 'account.getInfo')) as Info).balance_main.amount).toBe('12.50');

  await daily.getByTestId('cashback-remove').click();
  await expect(daily.getByTestId('cashback-remove-confirm')).toContainText('Decline this cashback?');
  await daily.getByTestId('cashback-remove-yes').click();
  await expect(daily).toHaveCount(0);
  expect(((await api(page.request, 'account.getInfo')) as Info).balance_main.amount).toBe('12.50');

  await page.goto('/cashier/history?tab=cashbacks');
  const list = page.getByTestId('history-list');
  await expect(list.locator('[data-testid="cashback-item"][data-status="paid_out"]')).toContainText('Paid');
  await expect(list.locator('[data-testid="cashback-item"][data-status="removed"]')).toContainText('Declined');
  await shoot(page, info, 'cashier-history-cashbacks');

  await page.goto('/fr/profile/cashback');
  await expect(page.getByTestId('cashback-item').first()).toContainText('Versé');
});
