//! Settlement arithmetic: what a bet returns, exactly, in minor units.
//!
//! A selection's result is the feed's (after Betradar's Unified Odds Feed): won or lost, a
//! **void factor** (0, ½ or 1: the part of the stake refunded) and a **dead-heat factor** (the
//! part of the winning stake paid at full odds when runners tie). So a selection returns, per
//! unit staked on it, `win × odds + void`, where `void` is the void factor and `win` is
//! `(1 − void) × dead_heat` when it won and 0 when it lost ([`Outcome`]). An Asian quarter line
//! is two half-stakes on the neighbouring lines; a result that wins one half and voids the other
//! is `won` with void factor ½, one that loses one half and voids the other is `lost` with void
//! factor ½ — the same money as two half bets, since returns are linear in the stake.
//!
//! A **line** (a single, or one combination of a system bet, or an accumulator) returns
//! `stake × Π legs`: legs multiply, a void leg counts as odds 1, a lost leg makes it 0. The
//! product is computed exactly (an unbounded integer numerator divided by each leg's denominator
//! in turn: `⌊⌊n / a⌋ / b⌋ = ⌊n / ab⌋`) and rounded **down** to the minor unit once per line —
//! never per leg, so the order of the legs cannot change a payout. A bet returns the sum of its
//! lines, capped at the maximum payout.
//!
//! **System bets** expand `m` selections into every combination of the sizes the kind names
//! ([`System`]): trixie, patent, yankee, lucky 15, super yankee (Canadian), lucky 31, heinz,
//! lucky 63, super heinz, goliath, and "k from m" for any k. The stake is per line. Bookmakers'
//! "lucky" consolation bonuses (double odds for a single winner…) are promotions, not part of the
//! bet, and are not paid here.
//!
//! **Cash-out** of an open bet: its fair value is each line's `stake × Π settled legs ×
//! Π (odds taken / odds now)` for the legs still open (the bet's potential return weighted by the
//! current implied probabilities), lines with a lost leg count 0, and the offer is that value
//! less a margin in basis points, rounded down. A leg whose market is suspended has no price now:
//! no offer.

use super::odds::{Odds, SCALE};
use serde::{Deserialize, Serialize};

/// A non-negative fraction `num / den` with small terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratio {
    pub num: u32,
    pub den: u32,
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    pub const HALF: Ratio = Ratio { num: 1, den: 2 };
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// A fraction from 0 to 1 inclusive with a denominator of at most 1000.
    pub fn new(num: u32, den: u32) -> Option<Ratio> {
        (den > 0 && den <= 1000 && num <= den).then(|| Ratio { num, den }.reduced())
    }

    /// Parses `1`, `0`, `0.5`, `1/2`, `1/3`.
    pub fn parse(text: &str) -> Option<Ratio> {
        let text = text.trim();
        if let Some((n, d)) = text.split_once('/') {
            return Ratio::new(n.trim().parse().ok()?, d.trim().parse().ok()?);
        }
        match text {
            "0" => Some(Ratio::ZERO),
            "1" => Some(Ratio::ONE),
            "0.5" => Some(Ratio::HALF),
            _ => None,
        }
    }

    fn reduced(self) -> Ratio {
        let g = gcd(u64::from(self.num), u64::from(self.den)).max(1);
        Ratio { num: (u64::from(self.num) / g) as u32, den: (u64::from(self.den) / g) as u32 }
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 { write!(f, "{}", self.num) } else { write!(f, "{}/{}", self.num, self.den) }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A settled selection: see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub won: bool,
    /// The part of the stake refunded: 0, ½ or 1.
    pub void_factor: Ratio,
    /// The part of the (unvoided) winning stake paid at full odds; 1 without a tie.
    pub dead_heat: Ratio,
}

impl Outcome {
    pub const WON: Outcome = Outcome { won: true, void_factor: Ratio::ZERO, dead_heat: Ratio::ONE };
    pub const LOST: Outcome = Outcome { won: false, void_factor: Ratio::ZERO, dead_heat: Ratio::ONE };
    pub const VOID: Outcome = Outcome { won: false, void_factor: Ratio::ONE, dead_heat: Ratio::ONE };
    /// Half the stake won, half refunded (an Asian line landing between its two halves).
    pub const HALF_WON: Outcome = Outcome { won: true, void_factor: Ratio::HALF, dead_heat: Ratio::ONE };
    /// Half the stake lost, half refunded.
    pub const HALF_LOST: Outcome = Outcome { won: false, void_factor: Ratio::HALF, dead_heat: Ratio::ONE };

    /// A void factor must be 0, ½ or 1; a dead-heat factor above 0.
    pub fn new(won: bool, void_factor: Ratio, dead_heat: Ratio) -> Option<Outcome> {
        let void_ok = [Ratio::ZERO, Ratio::HALF, Ratio::ONE].contains(&void_factor.reduced());
        (void_ok && dead_heat.num > 0).then_some(Outcome { won, void_factor: void_factor.reduced(), dead_heat })
    }

    /// What one unit staked on the selection at `odds` returns: `(num, den)`, reduced.
    pub fn factor(self, odds: Odds) -> (u64, u64) {
        let v = self.void_factor;
        let d = self.dead_heat;
        // win = (1 − v) × d when won; return = win × odds / SCALE + v.
        let (win_num, win_den) = if self.won {
            (u64::from(v.den - v.num) * u64::from(d.num), u64::from(v.den) * u64::from(d.den))
        } else {
            (0, 1)
        };
        let den = win_den * u64::from(v.den) * SCALE;
        let num = win_num * u64::from(v.den) * odds.scaled() + u64::from(v.num) * win_den * SCALE;
        let g = gcd(num, den).max(1);
        (num / g, den / g)
    }
}

/// An unbounded unsigned integer, little-endian base 2³²: enough for a product of many prices.
#[derive(Debug, Clone)]
struct Big(Vec<u32>);

impl Big {
    fn from(value: u64) -> Big {
        Big(vec![value as u32, (value >> 32) as u32])
    }

    fn mul(&mut self, factor: u64) {
        let (lo, hi) = (factor & 0xffff_ffff, factor >> 32);
        let mut out = vec![0_u32; self.0.len() + 2];
        for (shift, part) in [(0, lo), (1, hi)] {
            let mut carry = 0_u64;
            for (i, &limb) in self.0.iter().enumerate() {
                let cell = u64::from(out[i + shift]) + u64::from(limb) * part + carry;
                out[i + shift] = cell as u32;
                carry = cell >> 32;
            }
            let mut i = self.0.len() + shift;
            while carry > 0 && i < out.len() {
                let cell = u64::from(out[i]) + carry;
                out[i] = cell as u32;
                carry = cell >> 32;
                i += 1;
            }
        }
        self.0 = out;
        self.trim();
    }

    /// Floor division by `divisor` (> 0, below 2³²·2³² is fine: done in two 32-bit steps when wide).
    fn div(&mut self, divisor: u64) {
        if divisor >> 32 == 0 {
            let d = divisor.max(1);
            let mut rem = 0_u64;
            for limb in self.0.iter_mut().rev() {
                let cur = (rem << 32) | u64::from(*limb);
                *limb = (cur / d) as u32;
                rem = cur % d;
            }
        } else {
            // Long division bit by bit with a 128-bit remainder (divisor < 2⁶⁴).
            let d = u128::from(divisor);
            let mut rem = 0_u128;
            for limb in self.0.iter_mut().rev() {
                let mut q = 0_u32;
                for bit in (0..32).rev() {
                    rem = (rem << 1) | u128::from((*limb >> bit) & 1);
                    if rem >= d {
                        rem -= d;
                        q |= 1 << bit;
                    }
                }
                *limb = q;
            }
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.0.len() > 1 && self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// The value, or `None` above `i64::MAX`.
    fn to_i64(&self) -> Option<i64> {
        if self.0.len() > 2 {
            return None;
        }
        let v = u64::from(self.0[0]) | (u64::from(self.0.get(1).copied().unwrap_or(0)) << 32);
        i64::try_from(v).ok()
    }
}

/// `⌊stake × Π num_i / Π den_i⌋`, saturating at `i64::MAX` (a cap always applies after).
pub fn product_floor(stake: i64, factors: &[(u64, u64)]) -> i64 {
    if stake <= 0 {
        return 0;
    }
    let mut n = Big::from(stake.unsigned_abs());
    for &(num, _) in factors {
        n.mul(num);
    }
    for &(_, den) in factors {
        n.div(den);
    }
    n.to_i64().unwrap_or(i64::MAX)
}

/// One leg of a line as settlement sees it: the price taken and, once known, the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    pub odds: Odds,
    pub outcome: Option<Outcome>,
}

/// What a line returns when every leg is settled (`None` while one is open).
pub fn line_return(stake: i64, legs: &[Leg]) -> Option<i64> {
    let factors: Option<Vec<(u64, u64)>> = legs.iter().map(|l| l.outcome.map(|o| o.factor(l.odds))).collect();
    Some(product_floor(stake, &factors?))
}

/// What a line returns if every open leg wins at its price (settled legs as settled).
pub fn line_potential(stake: i64, legs: &[Leg]) -> i64 {
    let factors: Vec<(u64, u64)> = legs.iter().map(|l| l.outcome.unwrap_or(Outcome::WON).factor(l.odds)).collect();
    product_floor(stake, &factors)
}

/// The system-bet kinds: every combination of the sizes named, out of `m` selections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum System {
    /// 3 selections: 3 doubles and a treble (4 lines).
    Trixie,
    /// 3 selections: 3 singles, 3 doubles and a treble (7 lines).
    Patent,
    /// 4 selections: 6 doubles, 4 trebles, a fourfold (11 lines).
    Yankee,
    /// 4 selections: the yankee plus 4 singles (15 lines).
    Lucky15,
    /// 5 selections: doubles up to the fivefold (26 lines); also called a Canadian.
    SuperYankee,
    /// 5 selections: the super yankee plus 5 singles (31 lines).
    Lucky31,
    /// 6 selections: doubles up to the sixfold (57 lines).
    Heinz,
    /// 6 selections: the heinz plus 6 singles (63 lines).
    Lucky63,
    /// 7 selections: doubles up to the sevenfold (120 lines).
    SuperHeinz,
    /// 8 selections: doubles up to the eightfold (247 lines).
    Goliath,
    /// Every combination of exactly `k` of the selections ("doubles", "trebles", "2 from 4").
    From(u8),
}

impl System {
    /// `trixie`, `lucky15`, `super_yankee`, …, or `2/4`-style "k from m" as `k_from`: the form
    /// the API takes is the name, or `from_k` (`from_2` = doubles, `from_3` = trebles).
    pub fn parse(name: &str) -> Option<System> {
        let name = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        Some(match name.as_str() {
            "trixie" => System::Trixie,
            "patent" => System::Patent,
            "yankee" => System::Yankee,
            "lucky15" | "lucky_15" => System::Lucky15,
            "super_yankee" | "canadian" => System::SuperYankee,
            "lucky31" | "lucky_31" => System::Lucky31,
            "heinz" => System::Heinz,
            "lucky63" | "lucky_63" => System::Lucky63,
            "super_heinz" => System::SuperHeinz,
            "goliath" => System::Goliath,
            "doubles" => System::From(2),
            "trebles" => System::From(3),
            other => {
                let k: u8 = other.strip_prefix("from_")?.parse().ok()?;
                if !(1..=MAX_SELECTIONS as u8).contains(&k) {
                    return None;
                }
                System::From(k)
            }
        })
    }

    pub fn name(self) -> String {
        match self {
            System::Trixie => "trixie".into(),
            System::Patent => "patent".into(),
            System::Yankee => "yankee".into(),
            System::Lucky15 => "lucky15".into(),
            System::SuperYankee => "super_yankee".into(),
            System::Lucky31 => "lucky31".into(),
            System::Heinz => "heinz".into(),
            System::Lucky63 => "lucky63".into(),
            System::SuperHeinz => "super_heinz".into(),
            System::Goliath => "goliath".into(),
            System::From(k) => format!("from_{k}"),
        }
    }

    /// The number of selections the kind needs (`None`: any number from k up).
    pub fn selections(self) -> Option<usize> {
        match self {
            System::Trixie | System::Patent => Some(3),
            System::Yankee | System::Lucky15 => Some(4),
            System::SuperYankee | System::Lucky31 => Some(5),
            System::Heinz | System::Lucky63 => Some(6),
            System::SuperHeinz => Some(7),
            System::Goliath => Some(8),
            System::From(_) => None,
        }
    }

    /// The combination sizes of the kind, out of `m` selections.
    fn sizes(self, m: usize) -> std::ops::RangeInclusive<usize> {
        match self {
            System::Patent | System::Lucky15 | System::Lucky31 | System::Lucky63 => 1..=m,
            System::From(k) => usize::from(k)..=usize::from(k),
            _ => 2..=m,
        }
    }

    /// The lines for `m` selections, each a list of selection indices in increasing order:
    /// by size, then lexicographically. `None` when `m` does not fit the kind.
    pub fn lines(self, m: usize) -> Option<Vec<Vec<usize>>> {
        match self.selections() {
            Some(n) if n != m => return None,
            None if m > MAX_SELECTIONS => return None,
            _ => {}
        }
        if let System::From(k) = self
            && (k == 0 || usize::from(k) > m)
        {
            return None;
        }
        let mut lines = Vec::new();
        for size in self.sizes(m) {
            let mut pick: Vec<usize> = (0..size).collect();
            loop {
                lines.push(pick.clone());
                // The next combination: bump the rightmost index that can still move.
                let Some(i) = (0..size).rev().find(|&i| pick[i] < m - size + i) else { break };
                pick[i] += 1;
                for j in i + 1..size {
                    pick[j] = pick[j - 1] + 1;
                }
            }
        }
        Some(lines)
    }
}

/// The most selections one bet may carry.
pub const MAX_SELECTIONS: usize = 20;

/// The shape of a bet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BetKind {
    /// One selection per bet; a slip of several singles is several bets.
    Single,
    /// Every selection in one line.
    Accumulator,
    System(System),
}

impl BetKind {
    /// The lines of a bet of `m` selections (see [`System::lines`]).
    pub fn lines(self, m: usize) -> Option<Vec<Vec<usize>>> {
        match self {
            BetKind::Single => (m == 1).then(|| vec![vec![0]]),
            BetKind::Accumulator => (2..=MAX_SELECTIONS).contains(&m).then(|| vec![(0..m).collect()]),
            BetKind::System(system) => system.lines(m),
        }
    }
}

/// A bet's selections (their prices and results) and lines, with the stake per line.
#[derive(Debug, Clone)]
pub struct Slip {
    pub legs: Vec<Leg>,
    pub lines: Vec<Vec<usize>>,
    pub stake_per_line: i64,
}

impl Slip {
    pub fn new(kind: BetKind, legs: Vec<Leg>, stake_per_line: i64) -> Option<Slip> {
        let lines = kind.lines(legs.len())?;
        Some(Slip { legs, lines, stake_per_line })
    }

    /// The total stake: per line × lines.
    pub fn total_stake(&self) -> Option<i64> {
        self.stake_per_line.checked_mul(i64::try_from(self.lines.len()).ok()?)
    }

    fn line_legs(&self, line: &[usize]) -> Vec<Leg> {
        line.iter().filter_map(|&i| self.legs.get(i).copied()).collect()
    }

    /// The return once every selection is settled, capped at `max_payout`; `None` while open.
    pub fn settle(&self, max_payout: i64) -> Option<i64> {
        let mut total = 0_i64;
        for line in &self.lines {
            total = total.saturating_add(line_return(self.stake_per_line, &self.line_legs(line))?);
        }
        Some(total.min(max_payout))
    }

    /// The return if every open selection wins, capped at `max_payout`.
    pub fn potential(&self, max_payout: i64) -> i64 {
        self.lines
            .iter()
            .map(|line| line_potential(self.stake_per_line, &self.line_legs(line)))
            .fold(0_i64, i64::saturating_add)
            .min(max_payout)
    }

    /// Whether the bet can no longer return anything (every line has a lost leg).
    pub fn lost(&self) -> bool {
        self.lines.iter().all(|line| {
            line.iter().any(|&i| {
                self.legs.get(i).and_then(|l| l.outcome).is_some_and(|o| !o.won && o.void_factor == Ratio::ZERO)
            })
        })
    }

    /// The cash-out offer (see the module docs) given each selection's price now (`None`: its
    /// market is suspended, so no offer), less `margin_bp` basis points, capped at `max_payout`.
    /// `None` when there is nothing to offer.
    pub fn cash_out(&self, current: &[Option<Odds>], margin_bp: u32, max_payout: i64) -> Option<i64> {
        if current.len() != self.legs.len() || self.legs.iter().all(|l| l.outcome.is_some()) {
            return None;
        }
        let mut total = 0_i64;
        for line in &self.lines {
            let mut factors = Vec::with_capacity(line.len() + 1);
            for &i in line {
                let leg = self.legs.get(i)?;
                factors.push(match leg.outcome {
                    Some(outcome) => outcome.factor(leg.odds),
                    // Odds taken over odds now: above 1 when the price shortened.
                    None => (leg.odds.scaled(), current.get(i).copied().flatten()?.scaled()),
                });
            }
            factors.push((u64::from(10_000 - margin_bp.min(10_000)), 10_000));
            total = total.saturating_add(product_floor(self.stake_per_line, &factors));
        }
        let offer = total.min(max_payout);
        (offer > 0).then_some(offer)
    }
}

#[cfg(test)]
mod tests;
