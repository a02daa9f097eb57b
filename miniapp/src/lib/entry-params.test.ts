import { describe, expect, it } from 'vitest';
import { readEntryIntent, safeRedirectTarget, withoutPopupParams, type EntryContext } from './entry-params';

const guestAt = (search: string, extra: Partial<EntryContext> = {}) =>
  readEntryIntent({ search, hash: '', isGuest: true, isGamePage: false, storedShowPopupReg: null, ...extra });

describe('entry query parameters', () => {
  it('show_popup_reg opens registration for a guest, and so does one kept in local storage', () => {
    expect(guestAt('?show_popup_reg=1').signInPopup).toBe('registration');
    expect(guestAt('', { storedShowPopupReg: '1' }).signInPopup).toBe('registration');
  });

  it('show_popup_auth opens the authorization popup for a guest', () => {
    expect(guestAt('?show_popup_auth=1').signInPopup).toBe('authorization');
  });

  it('redirectUrl asks a guest to sign in', () => {
    const intent = guestAt('?redirectUrl=%2Fcashier%2Fdeposit');
    expect(intent.signInPopup).toBe('authorization');
    expect(intent.redirectUrl).toBe('/cashier/deposit');
  });

  it('opens nothing for a signed-in player', () => {
    expect(guestAt('?show_popup_reg=1&show_popup_auth=1', { isGuest: false }).signInPopup).toBeNull();
  });

  it('prevent_close=1 makes the popup non-closable', () => {
    expect(guestAt('?show_popup_reg=1&prevent_close=1').preventClose).toBe(true);
    expect(guestAt('?show_popup_reg=1&prevent_close=0').preventClose).toBe(false);
  });

  it('#real on a game page opens registration for a guest and returns to the index on close', () => {
    const intent = guestAt('', { hash: '#real', isGamePage: true });
    expect(intent.signInPopup).toBe('registration');
    expect(intent.returnHomeOnClose).toBe(true);
    expect(guestAt('', { hash: '#real', isGamePage: false }).signInPopup).toBeNull();
  });

  it('remembers promo_code and backUrl', () => {
    const intent = guestAt('?promo_code=WELCOME100&backUrl=%2Fgame%2Fstarburst');
    expect(intent.promoCode).toBe('WELCOME100');
    expect(intent.backUrl).toBe('/game/starburst');
  });

  it('reads popup', () => {
    expect(guestAt('?popup=summer').namedPopup).toBe('summer');
    expect(guestAt('?popup=').namedPopup).toBeNull();
  });

  it('keeps the tracking parameters for the tag manager', () => {
    const intent = guestAt('?track_id=td_42&publisher_id=7&goal_id=3&goal_entry_id=9&link_id=x&show_popup_reg=1&utm=no');
    expect(intent.tracking).toEqual({
      track_id: 'td_42',
      publisher_id: '7',
      goal_id: '3',
      goal_entry_id: '9',
      link_id: 'x',
      show_popup_reg: '1',
    });
  });

  it('removes only the popup parameters from the address', () => {
    expect(withoutPopupParams('?show_popup_reg=1&prevent_close=1&show_popup_auth=1&track_id=a')).toBe('?track_id=a');
    expect(withoutPopupParams('?show_popup_reg=1')).toBe('');
  });

  it('follows only same-site paths after sign-in', () => {
    expect(safeRedirectTarget('/profile/settings?x=1')).toBe('/profile/settings?x=1');
    expect(safeRedirectTarget('//evil.example')).toBeNull();
    expect(safeRedirectTarget('/\\evil.example')).toBeNull();
    expect(safeRedirectTarget('https://evil.example')).toBeNull();
    expect(safeRedirectTarget(null)).toBeNull();
  });
});
