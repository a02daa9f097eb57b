import { describe, expect, it } from 'vitest';
import { decodeDeepLink, deepLinkPath } from './deep-link';

describe('deep-link payloads (shared/src/telegram/deep_link.rs grammar)', () => {
  it('reads the reference example', () => {
    expect(decodeDeepLink('pWELCOME-gbook__of__dead-r42-xttd__7')).toEqual({
      promoCode: 'WELCOME',
      target: { kind: 'game', value: 'book_of_dead' },
      referral: '42',
      tracking: { track_id: 'td_7' },
    });
    expect(decodeDeepLink('gbook__of_hdead')?.target).toEqual({ kind: 'game', value: 'book_of-dead' });
    expect(decodeDeepLink('')).toEqual({ promoCode: null, target: null, referral: null, tracking: {} });
  });

  it('is strict like the reference', () => {
    for (const bad of ['-pA', 'pA-', 'pA--gB', 'zA', 'PA', '_A', 'xzA', 'x', 'p', 'xt', 'pA B', 'pA.B', 'pé', 'pA_', 'pA_x', 'pA_H', 'r', 'r01', 'r1a', 'r18446744073709551616', 'r1__', 'vcasino', 'vHome', 'pA-pB', 'gA-vhome', 'xtA-xtB']) {
      expect(decodeDeepLink(bad), bad).toBeNull();
    }
    expect(decodeDeepLink('r18446744073709551615')?.referral).toBe('18446744073709551615');
  });

  it('opens the target page', () => {
    expect(deepLinkPath({ kind: 'page', value: 'deposit' })).toBe('/cashier/deposit');
    expect(deepLinkPath({ kind: 'game', value: 'dice' })).toBe('/game/dice');
    expect(deepLinkPath({ kind: 'tournament', value: '12' })).toBe('/tournaments/12');
    expect(deepLinkPath({ kind: 'offer', value: '3' })).toBe('/offers/3');
  });
});
