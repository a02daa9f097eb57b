//! Prices from a score distribution, in integers (the sandbox must give the same prices on every
//! machine, which floating-point `exp` and `pow` do not promise).
//!
//! Probabilities are fixed-point fractions of [`ONE`] (2⁴⁸). A side's score is a binomial count
//! of scoring chances taken ([`binomial`]) on top of what it has already scored; two sides'
//! independent scores make a joint distribution ([`joint`]); each selection's expected return
//! per unit at odds `O` is `w·O + v` (`w`: the probability-weighted part of the stake that wins,
//! `v`: the part refunded, read from [`MarketKind::settle`] on every score, so quarter lines and
//! pushes price themselves), the fair price is `(1 − v) / w`, and the bookmaker's margin divides
//! it by `1 + margin`. Prices are rounded down to two decimals, as books quote them.

use crate::features::sportsbook::markets::MarketKind;
use crate::features::sportsbook::odds::{self, Odds};

/// Fixed-point one.
pub const ONE: u128 = 1 << 48;
/// Probabilities below this are dropped from a distribution (one in 2³⁶, about 1.5e-11).
const NEGLIGIBLE: u128 = ONE >> 36;

/// A score distribution: `(score, probability)`, probabilities summing to about [`ONE`].
pub type Dist = Vec<(u32, u128)>;
/// A joint distribution of both sides' scores.
pub type Joint = Vec<((u32, u32), u128)>;

fn mul(a: u128, b: u128) -> u128 {
    (a * b) >> 48
}

/// `offset + step × Binomial(n, p)` (`p` in [`ONE`] units).
pub fn binomial(n: u32, p: u128, step: u32, offset: u32) -> Dist {
    let p = p.min(ONE);
    let q = ONE - p;
    let mut dist = vec![ONE];
    for _ in 0..n {
        let mut next = vec![0_u128; dist.len() + 1];
        for (k, &pk) in dist.iter().enumerate() {
            next[k] += mul(pk, q);
            next[k + 1] += mul(pk, p);
        }
        dist = next;
    }
    dist.into_iter()
        .enumerate()
        .filter(|(_, pk)| *pk >= NEGLIGIBLE)
        .map(|(k, pk)| (offset + step * k as u32, pk))
        .collect()
}

/// Both sides' scores, taken as independent.
pub fn joint(home: &Dist, away: &Dist) -> Joint {
    let mut out = Vec::with_capacity(home.len() * away.len());
    for &(h, ph) in home {
        for &(a, pa) in away {
            let p = mul(ph, pa);
            if p >= NEGLIGIBLE {
                out.push(((h, a), p));
            }
        }
    }
    out
}

/// A market's prices from `joint`, with `margin_bp` basis points of margin. `None` when the
/// market is decided or nearly (a selection more than 99% sure, or priced under 1.01): such a
/// market is suspended rather than offered. Selections that cannot win get no price.
pub fn price(kind: MarketKind, joint: &Joint, margin_bp: u32) -> Option<Vec<(String, Odds)>> {
    let mut prices = Vec::new();
    for selection in kind.selections() {
        let (mut w, mut v) = (0_u128, 0_u128);
        for &((h, a), p) in joint {
            let Some(o) = kind.settle(&selection, h, a) else { continue };
            let (vn, vd) = (u128::from(o.void_factor.num), u128::from(o.void_factor.den));
            v += p * vn / vd;
            if o.won {
                w += p * (vd - vn) * u128::from(o.dead_heat.num) / (vd * u128::from(o.dead_heat.den));
            }
        }
        let stake_at_risk = ONE.saturating_sub(v);
        if w * 100 >= stake_at_risk * 99 && stake_at_risk > 0 {
            return None;
        }
        // Under 0.1% (or almost all refunded): not offered.
        if w * 1000 < ONE || stake_at_risk * 1000 < ONE {
            continue;
        }
        let scaled = stake_at_risk * u128::from(odds::SCALE) * 10_000 / (w * (10_000 + u128::from(margin_bp)));
        let scaled = u64::try_from(scaled / 100 * 100).unwrap_or(u64::MAX).min(1000 * odds::SCALE);
        if scaled < odds::SCALE + 100 {
            return None;
        }
        prices.push((selection, Odds::from_scaled(scaled).ok()?));
    }
    (!prices.is_empty()).then_some(prices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::sportsbook::markets::Line;

    fn total(dist: &Dist) -> u128 {
        dist.iter().map(|(_, p)| p).sum()
    }

    #[test]
    fn a_binomial_sums_to_one_and_has_its_mean() {
        let dist = binomial(18, ONE * 8 / 100, 1, 0);
        let sum = total(&dist);
        assert!(sum <= ONE && ONE - sum < ONE / 1_000_000, "{sum}");
        let mean: u128 = dist.iter().map(|(k, p)| u128::from(*k) * p).sum();
        // 18 × 0.08 = 1.44 goals.
        assert!((mean * 100 / ONE).abs_diff(144) <= 1, "{}", mean * 100 / ONE);
    }

    #[test]
    fn a_fair_coin_prices_at_evens_less_the_margin() {
        let coin = binomial(1, ONE / 2, 1, 0);
        let nothing = vec![(0, ONE)];
        let j = joint(&coin, &nothing);
        // Home wins on 1:0 and 0:0 is a tie, which a moneyline voids: home cannot lose, so the
        // market is not offered.
        assert_eq!(price(MarketKind::Moneyline, &j, 0), None);
        let totals = price(MarketKind::Totals(Line(2)), &j, 0).expect("a fair coin is not decided");
        assert_eq!(
            totals,
            vec![
                ("over".into(), Odds::parse("2.0").expect("odds")),
                ("under".into(), Odds::parse("2.0").expect("odds"))
            ]
        );
        let with_margin = price(MarketKind::Totals(Line(2)), &j, 500).expect("priced");
        assert_eq!(with_margin[0].1, Odds::parse("1.90").expect("odds"));
    }

    #[test]
    fn a_decided_market_is_not_offered() {
        let j = joint(&vec![(3, ONE)], &vec![(0, ONE)]);
        assert_eq!(price(MarketKind::MatchResult, &j, 500), None);
    }

    #[test]
    fn quarter_lines_price_between_their_neighbours() {
        let j = joint(&binomial(18, ONE * 8 / 100, 1, 0), &binomial(18, ONE * 6 / 100, 1, 0));
        let home = |l: i32| {
            price(MarketKind::Handicap(Line(l)), &j, 0)
                .expect("priced")
                .into_iter()
                .find(|(s, _)| s == "home")
                .expect("home")
                .1
        };
        assert!(home(0) < home(-1) && home(-1) < home(-2), "{} {} {}", home(0), home(-1), home(-2));
    }
}
