import { describe, expect, it } from 'vitest';
import { spinsByGame, type FreespinPack } from './freespins';

function pack(id: number, sysname: string, remaining: number, expires: number, status: FreespinPack['status'] = 'active'): FreespinPack {
  return {
    id,
    game: { sysname, name: sysname },
    remaining_count: remaining,
    total_count: 50,
    bet: '0.20',
    currency: 'USD',
    win_account: 'bonus',
    won: '0.00',
    status,
    expires_at: expires,
  };
}

describe('spinsByGame', () => {
  it('adds up the active packs of each game and keeps the soonest expiry', () => {
    const spins = spinsByGame([pack(1, 'gem-rush', 30, 2_000), pack(2, 'gem-rush', 5, 1_000), pack(3, 'lucky-sevens', 10, 3_000)]);
    expect(spins.get('gem-rush')).toEqual({ remaining: 35, bet: '0.20', currency: 'USD', expiresAt: 1_000 });
    expect(spins.get('lucky-sevens')?.remaining).toBe(10);
  });

  it('leaves out used, expired and empty packs', () => {
    const spins = spinsByGame([pack(1, 'gem-rush', 0, 2_000), pack(2, 'dice', 4, 1_000, 'expired'), pack(3, 'plinko', 4, 1_000, 'used')]);
    expect(spins.size).toBe(0);
  });
});
