import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale, i18n } from '@/lib/i18n';
import { mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import { activeBettingBonus, type BettingBonus } from './api/betting-bonuses';
import { bettingBonusReward } from './betting-bonuses';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] }, 'bonuses.get': { total: 0, items: [] } };

function bettingBonus(overrides: Partial<BettingBonus> = {}): BettingBonus {
  return {
    id: 31,
    kind: 'freebet',
    status: 'offered',
    campaign_id: 3,
    title: 'Cup final free bet',
    description: 'A free bet for the final.',
    currency: 'USD',
    amount: '10.00',
    boost_percent: null,
    max_extra: null,
    awaiting_deposit: false,
    expires_at: 1_900_000_000,
    created_at: 1_700_000_000,
    activated_at: null,
    finished_at: null,
    can_activate: true,
    can_remove: true,
    ...overrides,
  };
}

const boost = bettingBonus({ id: 32, kind: 'odds_boost', title: 'Weekend boost', amount: null, boost_percent: 50, max_extra: '25.00' });

/** BettingBonuses.get answering the running ones and the finished ones by the statuses asked. */
function bettingGet(current: BettingBonus[], finished: BettingBonus[] = []) {
  return ({ url }: { url: URL }) =>
    url.searchParams.get('statuses') === 'offered,active' ? { total: current.length, items: current } : { total: finished.length, items: finished };
}

describe('betting bonuses', () => {
  it('says what each kind gives, in both languages', async () => {
    expect(bettingBonusReward(bettingBonus(), 'en')).toBe('Free bet of $10.00');
    expect(bettingBonusReward(boost, 'en')).toBe('+50% odds boost (extra winnings up to $25.00)');
    await activateLocale('fr');
    expect(i18n.t('bonuses.betting.title')).toBe('Bonus sportifs');
    expect(bettingBonusReward(boost, 'fr')).toContain('Cote boostée de +50 %');
  });

  it('finds the active one for the bet slip', () => {
    expect(activeBettingBonus(undefined)).toBeNull();
    expect(activeBettingBonus({ total: 2, items: [bettingBonus(), { ...boost, status: 'active' }] })?.id).toBe(32);
    expect(activeBettingBonus({ total: 1, items: [bettingBonus({ status: 'active', awaiting_deposit: true })] })).toBeNull();
  });

  it('lists them in the profile, activates one after the confirm and opens the betting-bonus-activated dialog', async () => {
    const api = mockApi({
      ...signedIn,
      'BettingBonuses.get': bettingGet([bettingBonus(), boost], [bettingBonus({ id: 9, status: 'used', title: 'Old free bet', can_activate: false, can_remove: false })]),
      'BettingBonuses.activate': { bonus: { ...bettingBonus(), status: 'active', can_activate: false }, dialog: 'betting-bonus-activated' },
    });
    renderApp('/profile/bonuses');

    const cards = await screen.findAllByTestId('betting-bonus-card');
    expect(cards).toHaveLength(2);
    const [first, second] = cards as [HTMLElement, HTMLElement];
    expect(within(first).getByTestId('betting-bonus-reward')).toHaveTextContent('Free bet of $10.00');
    expect(within(second).getByTestId('betting-bonus-reward')).toHaveTextContent('+50% odds boost');
    expect(await screen.findByTestId('betting-bonus-history-item')).toHaveTextContent('Used');

    fireEvent.click(within(first).getByTestId('betting-bonus-activate'));
    const confirm = await screen.findByRole('alertdialog', { name: 'Activate this betting bonus?' });
    expect(api.calls('BettingBonuses.activate')).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('betting-bonus-activate-confirm'));

    const activated = await screen.findByRole('alertdialog', { name: 'Betting bonus activated' });
    expect(activated).toHaveTextContent('Cup final free bet is ready: Free bet of $10.00.');
    expect(api.calls('BettingBonuses.activate')[0]?.body?.get('bonus_id')).toBe('31');
    expect(within(activated).getByTestId('betting-bonus-activated')).toHaveTextContent('Go to betting');
  });

  it('removes one only once the player confirms', async () => {
    const api = mockApi({
      ...signedIn,
      'BettingBonuses.get': bettingGet([boost]),
      'BettingBonuses.remove': { ...boost, status: 'cancelled', can_activate: false, can_remove: false },
    });
    renderApp('/profile/bonuses');
    const card = await screen.findByTestId('betting-bonus-card');
    fireEvent.click(within(card).getByTestId('betting-bonus-remove'));
    let dialog = await screen.findByRole('alertdialog', { name: 'Remove this bonus?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => {
      expect(screen.queryByRole('alertdialog')).toBeNull();
    });
    expect(api.calls('BettingBonuses.remove')).toHaveLength(0);
    fireEvent.click(within(card).getByTestId('betting-bonus-remove'));
    dialog = await screen.findByRole('alertdialog', { name: 'Remove this bonus?' });
    fireEvent.click(within(dialog).getByTestId('betting-bonus-remove-confirm'));
    expect(await screen.findByText('The bonus is removed.')).toBeVisible();
    expect(api.calls('BettingBonuses.remove').map((call) => call.body?.get('bonus_id'))).toEqual(['32']);
  });
});
