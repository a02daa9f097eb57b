// Odds and the slip's arithmetic, exact: a price is decimal odds in ten-thousandths (2.5 is
// 25000) as the server holds it, money is integer minor units, and products are BigInt, so what
// the slip shows is what the server computes (its `product_floor`: stake × Π odds, rounded down
// once per line). The display forms follow the server's `Odds::display` (decimal with two places;
// the nearest fraction with a denominator up to 100; American rounded half away from zero), so a
// price the server sent only as decimal (a refusal's new odds) shows in the player's format.

export const ODDS_FORMATS = ['decimal', 'fractional', 'american'] as const;
export type OddsFormat = (typeof ODDS_FORMATS)[number];

export const ACCEPT_ODDS = ['never', 'higher', 'any'] as const;
export type AcceptOdds = (typeof ACCEPT_ODDS)[number];

const SCALE = 10_000n;

/** "2.5" / "2.50" / "12" → ten-thousandths (25000n); null for anything else or a price not above 1. */
export function parseOdds(text: string): bigint | null {
  const match = /^(\d{1,6})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  const scaled = BigInt(match[1] ?? '0') * SCALE + BigInt((match[2] ?? '').padEnd(4, '0'));
  return scaled > SCALE ? scaled : null;
}

/** Half-up division of non-negative integers. */
function divRound(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

/** |p/q − profit/SCALE| scaled by q·SCALE. */
function fractionError(p: bigint, q: bigint, profit: bigint): bigint {
  const a = p * SCALE;
  const b = profit * q;
  return a > b ? a - b : b - a;
}

/** The simplest fraction num/den (den ≤ 100) for the profit part, as the server picks it. */
export function asFraction(scaled: bigint): [bigint, bigint] {
  const profit = scaled - SCALE;
  let [p0, q0, p1, q1] = [0n, 1n, 1n, 0n];
  let [n, d] = [profit, SCALE];
  let best: [bigint, bigint] = [profit, SCALE];
  for (;;) {
    const a = n / d;
    const [p2, q2] = [a * p1 + p0, a * q1 + q0];
    if (q2 > 100n) {
      const k = (100n - q0) / (q1 > 0n ? q1 : 1n);
      const [ps, qs] = [k * p1 + p0, k * q1 + q0];
      if (qs > 0n && fractionError(ps, qs, profit) * best[1] < fractionError(best[0], best[1], profit) * qs) best = [ps, qs];
      break;
    }
    best = [p2, q2];
    if (fractionError(p2, q2, profit) * 2n <= q2) break;
    [p0, q0, p1, q1] = [p1, q1, p2, q2];
    const r = n - a * d;
    if (r === 0n) break;
    [n, d] = [d, r];
  }
  return best[0] === 0n ? [1n, 100n] : best;
}

/** A decimal price ("2.5") shown in `format`; the text as it is when it is not a price. */
export function formatOdds(decimal: string, format: OddsFormat): string {
  const scaled = parseOdds(decimal);
  if (scaled === null) return decimal;
  switch (format) {
    case 'decimal': {
      const hundredths = divRound(scaled, 100n);
      return `${String(hundredths / 100n)}.${String(hundredths % 100n).padStart(2, '0')}`;
    }
    case 'fractional': {
      const [num, den] = asFraction(scaled);
      return `${String(num)}/${String(den)}`;
    }
    case 'american': {
      const profit = scaled - SCALE;
      return profit >= SCALE ? `+${String(divRound(profit * 100n, SCALE))}` : `-${String(divRound(100n * SCALE, profit))}`;
    }
  }
}

/** The slip's bet types: several singles, one accumulator, or a system bet. */
export type SlipKind = 'single' | 'accumulator' | 'system';

/** The named systems the server takes and how many selections each needs, with the combination sizes. */
const NAMED_SYSTEMS: readonly { name: string; selections: number; fromSize: number }[] = [
  { name: 'trixie', selections: 3, fromSize: 2 },
  { name: 'patent', selections: 3, fromSize: 1 },
  { name: 'yankee', selections: 4, fromSize: 2 },
  { name: 'lucky15', selections: 4, fromSize: 1 },
  { name: 'super_yankee', selections: 5, fromSize: 2 },
  { name: 'lucky31', selections: 5, fromSize: 1 },
  { name: 'heinz', selections: 6, fromSize: 2 },
  { name: 'lucky63', selections: 6, fromSize: 1 },
  { name: 'super_heinz', selections: 7, fromSize: 2 },
  { name: 'goliath', selections: 8, fromSize: 2 },
];

/** The most selections one bet may carry (the server's MAX_SELECTIONS). */
export const MAX_SELECTIONS = 20;

/** The systems a slip of `m` selections can be: the named full covers for m, then "k from m" (doubles, trebles, …). */
export function systemsFor(m: number): string[] {
  if (m < 3 || m > MAX_SELECTIONS) return [];
  const named = NAMED_SYSTEMS.filter((system) => system.selections === m).map((system) => system.name);
  const from = Array.from({ length: m - 2 }, (_, index) => `from_${String(index + 2)}`);
  return [...named, ...from];
}

/** Every combination of `size` indices out of `m`, in increasing order (the server's line order). */
function combinations(m: number, size: number): number[][] {
  const lines: number[][] = [];
  const pick = Array.from({ length: size }, (_, index) => index);
  for (;;) {
    lines.push([...pick]);
    let i = size - 1;
    while (i >= 0 && (pick[i] ?? 0) >= m - size + i) i -= 1;
    if (i < 0) return lines;
    pick[i] = (pick[i] ?? 0) + 1;
    for (let j = i + 1; j < size; j += 1) pick[j] = (pick[j - 1] ?? 0) + 1;
  }
}

/** The lines of one bet of `m` selections (each a list of selection indices); null when the kind does not fit m. */
export function betLines(kind: Exclude<SlipKind, 'single'>, m: number, system?: string): number[][] | null {
  if (kind === 'accumulator') return m >= 2 && m <= MAX_SELECTIONS ? [Array.from({ length: m }, (_, index) => index)] : null;
  if (!system || m > MAX_SELECTIONS) return null;
  const named = NAMED_SYSTEMS.find((entry) => entry.name === system);
  let sizes: number[];
  if (named) {
    if (named.selections !== m) return null;
    sizes = Array.from({ length: m - named.fromSize + 1 }, (_, index) => named.fromSize + index);
  } else {
    const k = Number(/^from_(\d+)$/.exec(system)?.[1] ?? NaN);
    if (!Number.isInteger(k) || k < 1 || k > m) return null;
    sizes = [k];
  }
  return sizes.flatMap((size) => combinations(m, size));
}

/** What one line of `stakeMinor` returns if every leg wins: stake × Π odds, rounded down. */
export function lineReturn(stakeMinor: bigint, legs: readonly bigint[]): bigint {
  if (stakeMinor <= 0n) return 0n;
  const numerator = legs.reduce((product, odds) => product * odds, stakeMinor);
  return numerator / SCALE ** BigInt(legs.length);
}

export interface SlipTotals {
  /** How many bets (singles) or lines (one bet) the stake buys. */
  lines: number;
  /** Stake per line × lines, minor units. */
  stake: bigint;
  /** What comes back if every selection wins, minor units (before the operator's payout cap). */
  potential: bigint;
}

/**
 * The totals the slip shows: `odds` in slip order (decimal texts), `stakeMinor` per line.
 * Singles: one bet per selection; null when the kind does not fit the selections or a price is unreadable.
 */
export function slipTotals(kind: SlipKind, odds: readonly string[], stakeMinor: bigint, system?: string): SlipTotals | null {
  const prices = odds.map(parseOdds);
  if (prices.length === 0 || prices.some((price) => price === null)) return null;
  const legs = prices as bigint[];
  const lines = kind === 'single' ? legs.map((_, index) => [index]) : betLines(kind, legs.length, system);
  if (!lines || lines.length === 0) return null;
  const potential = lines.reduce((sum, line) => sum + lineReturn(stakeMinor, line.map((index) => legs[index] ?? SCALE)), 0n);
  return { lines: lines.length, stake: stakeMinor * BigInt(lines.length), potential };
}

