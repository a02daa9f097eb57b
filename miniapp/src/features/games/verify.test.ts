import { describe, expect, it } from 'vitest';
import { roundParams, type HouseRound } from '@/features/games/api';
import { checkRound } from './verify';
import { showsFullScreen } from './game-page';

const round: HouseRound = {
  round: 'r1',
  game: 'dice',
  bet: '1.00',
  win: '0.00',
  currency: 'USD',
  nonce: 3,
  outcome: { roll: '71.20', target: '50.00', condition: 'under', won: false, multiplier: '1.9800', nonce: 3 },
  server_seed_hash: 'abc',
  server_seed: 'seed',
  client_seed: 'client',
  created_at: 0,
};

describe('checkRound', () => {
  const derived = { roll: '71.20', target: '50.00', condition: 'under', won: false, multiplier: '1.9800' };

  it('verifies a round whose seeds re-derive the same outcome', () => {
    expect(checkRound(round, { server_seed_hash: 'abc', nonce: 3, outcome: derived })).toBe('verified');
  });

  it('checks the draw of a roulette round, not the stakes it is not given', () => {
    const spin = { ...round, game: 'roulette', outcome: { number: 7, color: 'red', bets: [{ type: 'red' }], won: true } };
    expect(checkRound(spin, { server_seed_hash: 'abc', nonce: 3, outcome: { number: 7, color: 'red', bets: [], won: false } })).toBe('verified');
    expect(checkRound(spin, { server_seed_hash: 'abc', nonce: 3, outcome: { number: 8, color: 'black', bets: [], won: false } })).toBe('mismatch');
  });

  it('rejects another hash, nonce or outcome', () => {
    expect(checkRound(round, { server_seed_hash: 'abd', nonce: 3, outcome: derived })).toBe('mismatch');
    expect(checkRound(round, { server_seed_hash: 'abc', nonce: 4, outcome: derived })).toBe('mismatch');
    expect(checkRound(round, { server_seed_hash: 'abc', nonce: 3, outcome: { ...derived, roll: '12.00' } })).toBe('mismatch');
    expect(checkRound(round, { server_seed_hash: 'abc', nonce: 3, outcome: {} })).toBe('mismatch');
  });
});

describe('showsFullScreen (SPEC §3 visibleFullScreen)', () => {
  it('follows the game config', () => {
    expect(showsFullScreen(null, false)).toBe(true);
    expect(showsFullScreen({ visibleFullScreen: 'all' }, true)).toBe(true);
    expect(showsFullScreen({ visibleFullScreen: 'telegram' }, false)).toBe(false);
    expect(showsFullScreen({ visibleFullScreen: 'telegram' }, true)).toBe(true);
    expect(showsFullScreen({ visibleFullScreen: 'product' }, true)).toBe(false);
    expect(showsFullScreen({ visibleFullScreen: 'product' }, false)).toBe(true);
    expect(showsFullScreen({ visibleFullScreen: 'none' }, false)).toBe(false);
  });
});

describe('roundParams', () => {
  it('prefers the recorded params and keeps plain values', () => {
    expect(roundParams({ params: { rows: 12, risk: 'high', bets: [{ type: 'red' }] }, outcome: { target: '50.00' } })).toEqual({ rows: '12', risk: 'high' });
    expect(roundParams({ outcome: { roll: '71.20', target: '50.00', condition: 'under' } })).toEqual({ target: '50.00', condition: 'under' });
    expect(roundParams({ outcome: null })).toEqual({});
  });
});
