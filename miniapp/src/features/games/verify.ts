import type { HouseRound, Verification } from '@/features/games/api';

export type VerifyResult = 'verified' | 'mismatch';

/** Outcome values that depend on the stakes placed, which the verifier is not given. */
const STAKE_DEPENDENT: Readonly<Record<string, readonly string[]>> = { roulette: ['bets', 'won'] };

/**
 * A round checks out when the revealed server seed hashes to the hash shown before the round and
 * re-deriving the round from the seeds gives back every recorded outcome value.
 */
export function checkRound(round: HouseRound, verification: Verification): VerifyResult {
  if (verification.server_seed_hash !== round.server_seed_hash || verification.nonce !== round.nonce) return 'mismatch';
  const recorded = round.outcome ?? {};
  const derived = verification.outcome;
  const skipped = new Set(['nonce', ...(STAKE_DEPENDENT[round.game] ?? [])]);
  const keys = Object.keys(derived).filter((key) => !skipped.has(key));
  if (keys.length === 0) return 'mismatch';
  return keys.every((key) => JSON.stringify(recorded[key]) === JSON.stringify(derived[key])) ? 'verified' : 'mismatch';
}
