import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi, player } from '@/test/api-mock';
import { bonus, offer } from '@/test/bonus-fixtures';
import { renderApp } from '@/test/render-app';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };

const wagering = bonus();
const awaiting = bonus({
  id: 12,
  status: 'offered',
  title: 'Weekend reload',
  amount: '0.00',
  balance: '0.00',
  wager_target: '0.00',
  wagered: '0.00',
  progress: 0,
  awaiting_deposit: false,
  min_deposit: '20.00',
  can_activate: true,
});
const finished = bonus({ id: 5, status: 'completed', title: 'Spring spins', expires_at: null, finished_at: 1_700_000_000, can_remove: false });

/** bonuses.get answering the running bonuses and the finished ones by the statuses asked. */
function bonusesGet(current = [wagering, awaiting]) {
  return ({ url }: { url: URL }) =>
    url.searchParams.get('statuses') === 'offered,active,wagering'
      ? { total: current.length, items: current }
      : { total: 1, items: [finished] };
}

/** The profile's bonus card at `index`, once the list is there. */
async function bonusCard(index: number): Promise<HTMLElement> {
  const card = (await screen.findAllByTestId('bonus-card'))[index];
  if (!card) throw new Error(`no bonus card ${String(index)}`);
  return card;
}

describe('profile bonuses tab', () => {
  it('shows the running bonuses with their wagering, and the finished ones', async () => {
    const waiting = { ...awaiting, status: 'active' as const, awaiting_deposit: true, can_activate: false, can_deactivate: true };
    mockApi({ ...signedIn, 'bonuses.get': bonusesGet([wagering, waiting]) });
    renderApp('/profile/bonuses');

    const cards = await screen.findAllByTestId('bonus-card');
    expect(cards).toHaveLength(2);
    const [first, second] = cards as [HTMLElement, HTMLElement];
    expect(within(first).getByTestId('bonus-progress')).toHaveAttribute('aria-valuenow', '25');
    expect(within(first).getByTestId('bonus-wagered')).toHaveTextContent('$875.00 of $3,500.00 wagered');
    expect(within(first).getByTestId('bonus-balance')).toHaveTextContent('$80.00');
    expect(within(first).getByTestId('bonus-max-bet')).toHaveTextContent('$5.00');
    expect(within(first).getByTestId('bonus-expires')).toHaveTextContent(/^Expires in 2 d 0[01]:\d\d:\d\d$/);
    expect(within(second).getByTestId('bonus-awaiting-deposit')).toHaveTextContent('Waiting for a deposit of at least $20.00.');
    expect(within(second).getByRole('link', { name: 'Make a deposit' })).toHaveAttribute('href', '/cashier/deposit');
    expect(within(second).getByTestId('bonus-deactivate')).toBeVisible();

    const history = await screen.findByTestId('bonus-history');
    expect(within(history).getByTestId('bonus-history-item')).toHaveTextContent('Spring spins');
    expect(within(history).getByText('Completed')).toBeVisible();
  });

  it('activates an offered bonus once the player confirms', async () => {
    const api = mockApi({ ...signedIn, 'bonuses.get': bonusesGet(), 'bonuses.activate': { ...awaiting, status: 'active' } });
    renderApp('/profile/bonuses');

    const card = await bonusCard(1);
    fireEvent.click(within(card).getByTestId('bonus-activate'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Activate this bonus?' });
    expect(api.calls('bonuses.activate')).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('bonus-activate-confirm'));

    expect(await screen.findByText('The bonus is activated.')).toBeVisible();
    expect(api.calls('bonuses.activate')[0]?.body?.get('bonus_id')).toBe('12');
  });

  it('warns that removing a wagering bonus loses its balance, and removes nothing when cancelled', async () => {
    const api = mockApi({ ...signedIn, 'bonuses.get': bonusesGet(), 'bonuses.remove': { ...wagering, status: 'forfeited' } });
    renderApp('/profile/bonuses');

    const card = await bonusCard(0);
    fireEvent.click(within(card).getByTestId('bonus-remove'));
    let dialog = await screen.findByRole('alertdialog', { name: 'Remove this bonus?' });
    expect(dialog).toHaveTextContent('Its balance of $80.00 and your wagering progress will be lost.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => {
      expect(screen.queryByRole('alertdialog')).toBeNull();
    });

    fireEvent.click(within(card).getByTestId('bonus-remove'));
    dialog = await screen.findByRole('alertdialog', { name: 'Remove this bonus?' });
    fireEvent.click(within(dialog).getByTestId('bonus-remove-confirm'));
    expect(await screen.findByText('The bonus is removed.')).toBeVisible();
    expect(api.calls('bonuses.remove').map((call) => call.body?.get('bonus_id'))).toEqual(['11']);
  });

  it('does not warn about a balance when the bonus is only offered', async () => {
    mockApi({ ...signedIn, 'bonuses.get': bonusesGet() });
    renderApp('/profile/bonuses');
    const card = await bonusCard(1);
    fireEvent.click(within(card).getByTestId('bonus-remove'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this bonus?' });
    expect(dialog).toHaveTextContent('Weekend reload is removed and cannot be taken again.');
    expect(dialog).not.toHaveTextContent('will be lost');
  });

  it('applies a promo code: the field is cleared and the activated popup opens', async () => {
    const weekend = offer({ id: 2, sysname: 'weekend', description: { ...offer().description, title: 'Weekend reload', reward: '50% up to 200.00 USD' } });
    const api = mockApi({
      ...signedIn,
      'bonuses.get': bonusesGet([]),
      'campaigns.activateOffer': { offer: weekend, bonus: { ...awaiting, status: 'active', awaiting_deposit: true } },
    });
    renderApp('/profile/bonuses');

    expect(await screen.findByTestId('bonus-none')).toBeVisible();
    const input = screen.getByTestId('promo-code-input');
    fireEvent.change(input, { target: { value: ' WEEKEND ' } });
    fireEvent.click(screen.getByTestId('promo-code-submit'));

    const popup = await screen.findByTestId('promo-code-activated');
    expect(popup).toHaveTextContent('Weekend reload: 50% up to 200.00 USD.');
    expect(popup).toHaveTextContent('Waiting for a deposit of at least $20.00.');
    expect(screen.getByRole('dialog', { name: 'Promo code activated' })).toBeVisible();
    expect(input).toHaveValue('');
    expect(api.calls('campaigns.activateOffer')[0]?.body?.get('promo_code')).toBe('WEEKEND');
  });

  it('marks the field invalid with the message of the first code, in French too', async () => {
    mockApi({
      ...signedIn,
      'bonuses.get': bonusesGet([]),
      'campaigns.activateOffer': apiError('InvalidParameterException', 400, { promo_code: ['PROMO_USED'] }),
    });
    renderApp('/fr/profile/bonuses');

    const input = await screen.findByTestId('promo-code-input');
    fireEvent.change(input, { target: { value: 'WEEKEND' } });
    fireEvent.click(screen.getByTestId('promo-code-submit'));

    expect(await screen.findByText('Vous avez déjà utilisé ce code')).toBeVisible();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveValue('WEEKEND');
    expect(screen.queryByTestId('promo-code-activated')).toBeNull();

    // Typing again clears the mark.
    fireEvent.change(input, { target: { value: 'WEEKEND2' } });
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('checks what a code gives without using it', async () => {
    const api = mockApi({ ...signedIn, 'bonuses.get': bonusesGet([]), 'campaigns.checkPromocode': offer() });
    renderApp('/profile/bonuses');
    fireEvent.change(await screen.findByTestId('promo-code-input'), { target: { value: 'WELCOME' } });
    fireEvent.click(screen.getByTestId('promo-code-check'));
    expect(await screen.findByText('This code gives: Welcome bonus — 100% up to 500.00 USD + 50 free spins')).toBeVisible();
    expect(api.calls('campaigns.activateOffer')).toHaveLength(0);
  });
});

describe('offers and promotions pages', () => {
  const welcome = offer();

  it('lists the offers; a guest is asked to register to take one', async () => {
    const api = mockApi({ 'campaigns.getoffers': { total: 1, items: [welcome] } });
    renderApp('/offers');

    const card = await screen.findByTestId('offer-card');
    expect(within(card).getByRole('link', { name: 'Welcome bonus' })).toHaveAttribute('href', '/offers/1');
    expect(card).toHaveTextContent('100% up to 500.00 USD + 50 free spins');
    // In the site's default currency for a guest, once the general info is there.
    await waitFor(() => {
      expect(card).toHaveTextContent('Minimum deposit $10.00');
    });
    expect(card).toHaveTextContent('Wager ×35');
    fireEvent.click(await within(card).findByTestId('offer-register'));
    expect(await screen.findByRole('dialog', { name: 'Register' })).toBeVisible();
    expect(api.calls('campaigns.getoffers')[0]?.url.searchParams.get('offset')).toBe('0');
  });

  it('lets a player take an offer they satisfy, and shows the ones taken', async () => {
    let taken = false;
    const api = mockApi({
      ...signedIn,
      'campaigns.getoffers': () => ({ total: 1, items: [taken ? { ...welcome, taken: true, bonus_id: 11 } : welcome] }),
      'campaigns.takepromotions': () => {
        taken = true;
        return { offer: { ...welcome, taken: true, bonus_id: 11 }, bonus: bonus({ status: 'offered' }) };
      },
    });
    renderApp('/offers');

    fireEvent.click(await screen.findByTestId('offer-take'));
    expect(await screen.findByText('The bonus is yours: find it in your bonuses.')).toBeVisible();
    expect(api.calls('campaigns.takepromotions')[0]?.body?.get('offer_id')).toBe('1');
    expect(await screen.findByTestId('offer-taken')).toHaveTextContent('Taken');
    expect(screen.getByRole('link', { name: 'My bonuses' })).toHaveAttribute('href', '/profile/bonuses');
  });

  it('says why an offer cannot be taken', async () => {
    mockApi({
      ...signedIn,
      'campaigns.getoffers': { total: 1, items: [welcome] },
      'campaigns.takepromotions': apiError('InvalidParameterException', 400, { offer_id: ['PROMO_NOT_ELIGIBLE'] }),
    });
    renderApp('/offers');
    fireEvent.click(await screen.findByTestId('offer-take'));
    expect(await screen.findByText('This code is not available for your account')).toBeVisible();
  });

  it('shows one offer in full by its id, and says when it is not running', async () => {
    mockApi({ 'campaigns.getoffers': { total: 1, items: [welcome] } });
    const { unmount } = renderApp('/offers/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome bonus' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Terms' })).toBeVisible();
    expect(screen.getByText('Wager the bonus 35 times within 30 days.')).toBeVisible();
    unmount();

    renderApp('/fr/offers/99');
    expect(await screen.findByTestId('offer-not-found')).toHaveTextContent('Cette offre n’est plus disponible.');
    expect(screen.getByRole('link', { name: 'Toutes les offres' })).toHaveAttribute('href', '/fr/offers');
  });

  it('tells the offers as promotions, each leading to its page by sysname', async () => {
    mockApi({ 'campaigns.getoffers': { total: 1, items: [welcome] } });
    const { router } = renderApp('/promotions');
    const card = await screen.findByTestId('promotion-card');
    expect(card.querySelector('img')).toHaveAttribute('src', '/uploads/banner-welcome.svg');
    fireEvent.click(within(card).getByRole('link', { name: 'Learn more' }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/promotions/welcome');
    });
    const page = await screen.findByTestId('promotion-page');
    expect(within(page).getByRole('heading', { level: 1, name: 'Welcome bonus' })).toBeVisible();
    expect(within(page).getByRole('link', { name: 'All promotions' })).toHaveAttribute('href', '/promotions');
  });

  it('says when nothing runs', async () => {
    mockApi({ 'campaigns.getoffers': { total: 0, items: [] } });
    renderApp('/promotions');
    expect(await screen.findByText('No promotion is running right now.')).toBeVisible();
  });
});
