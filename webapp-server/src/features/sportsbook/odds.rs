//! Exact odds. A price is decimal odds held as an integer number of ten-thousandths
//! ([`SCALE`]): `2.5` is `25_000`. Nothing on a money path ever sees a float: the feeds' text is
//! parsed digit by digit, fractional and American prices are converted with integer arithmetic
//! (rounded half up to the fourth decimal, which is finer than any bookmaker quotes), and the
//! three display forms are derived from the integer.
//!
//! Display: decimal with two places (rounded half up, as bookmakers show them); fractional as
//! the simplest fraction within half a ten-thousandth when one with a denominator of at most 100
//! exists (`5/2`, `1/3` for 1.3333), otherwise the best such approximation (continued fractions);
//! American as `+150` / `-200` (rounded half away from zero), `+100` for evens.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Ten-thousandths per unit of decimal odds.
pub const SCALE: u64 = 10_000;
/// The lowest price a selection can have: 1.0001.
pub const MIN: u64 = SCALE + 1;
/// The highest price a selection can have: 10,000.00.
pub const MAX: u64 = 10_000 * SCALE;

/// Decimal odds in ten-thousandths, strictly between 1 and [`MAX`] inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u64", into = "u64")]
pub struct Odds(u64);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    #[error("odds must be written as a decimal (2.50), a fraction (3/2) or an American price (+150)")]
    Format,
    #[error("odds must be above 1 and at most 10000")]
    Range,
}

/// How a player wants prices shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OddsFormat {
    #[default]
    Decimal,
    Fractional,
    American,
}

impl OddsFormat {
    pub fn parse(text: &str) -> Option<OddsFormat> {
        match text.trim().to_ascii_lowercase().as_str() {
            "decimal" => Some(OddsFormat::Decimal),
            "fractional" => Some(OddsFormat::Fractional),
            "american" => Some(OddsFormat::American),
            _ => None,
        }
    }
}

impl TryFrom<u64> for Odds {
    type Error = OddsError;
    fn try_from(value: u64) -> Result<Odds, OddsError> {
        Odds::from_scaled(value)
    }
}

impl From<Odds> for u64 {
    fn from(odds: Odds) -> u64 {
        odds.0
    }
}

/// Divides rounding half up (`den` > 0).
fn div_round(num: u128, den: u128) -> u128 {
    (num + den / 2) / den
}

impl Odds {
    pub fn from_scaled(scaled: u64) -> Result<Odds, OddsError> {
        if (MIN..=MAX).contains(&scaled) { Ok(Odds(scaled)) } else { Err(OddsError::Range) }
    }

    /// The price in ten-thousandths.
    pub fn scaled(self) -> u64 {
        self.0
    }

    /// Parses `2.5`, `2.50`, `5/2`, `+150`, `-200` (whitespace around is ignored). A decimal with
    /// more than four places is rounded half up to four.
    pub fn parse(text: &str) -> Result<Odds, OddsError> {
        let text = text.trim();
        if let Some((num, den)) = text.split_once('/') {
            return Odds::fractional(digits(num)?, digits(den)?);
        }
        if let Some(rest) = text.strip_prefix('+') {
            return Odds::american(i64::try_from(digits(rest)?).map_err(|_| OddsError::Range)?);
        }
        if let Some(rest) = text.strip_prefix('-') {
            return Odds::american(-i64::try_from(digits(rest)?).map_err(|_| OddsError::Range)?);
        }
        Odds::decimal(text)
    }

    /// Parses a decimal price (`2.1`, `1.3333`, `15`).
    pub fn decimal(text: &str) -> Result<Odds, OddsError> {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        if whole.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
            return Err(OddsError::Format);
        }
        let whole = digits(whole)?;
        let mut scaled = u128::from(whole) * u128::from(SCALE);
        // The first four places are exact; the fifth rounds half up; the rest cannot change that.
        let mut unit = u128::from(SCALE / 10);
        for (i, b) in fraction.bytes().enumerate() {
            let digit = u128::from(b - b'0');
            if i < 4 {
                scaled += digit * unit;
                unit /= 10;
            } else {
                if i == 4 && digit >= 5 {
                    scaled += 1;
                }
                break;
            }
        }
        Odds::from_scaled(u64::try_from(scaled).map_err(|_| OddsError::Range)?)
    }

    /// Fractional odds `num/den` (profit per stake): decimal = 1 + num/den.
    pub fn fractional(num: u64, den: u64) -> Result<Odds, OddsError> {
        if den == 0 {
            return Err(OddsError::Format);
        }
        let scaled = u128::from(SCALE) + div_round(u128::from(num) * u128::from(SCALE), u128::from(den));
        Odds::from_scaled(u64::try_from(scaled).map_err(|_| OddsError::Range)?)
    }

    /// An American price: `+150` (profit on 100 staked) or `-200` (stake to win 100).
    pub fn american(price: i64) -> Result<Odds, OddsError> {
        match price {
            p if p >= 100 => Odds::fractional(p.unsigned_abs(), 100),
            p if p <= -100 => Odds::fractional(100, p.unsigned_abs()),
            _ => Err(OddsError::Range),
        }
    }

    /// The price as the player chose to see it.
    pub fn display(self, format: OddsFormat) -> String {
        match format {
            OddsFormat::Decimal => self.to_string(),
            OddsFormat::Fractional => {
                let (num, den) = self.as_fraction();
                format!("{num}/{den}")
            }
            OddsFormat::American => self.as_american(),
        }
    }

    /// The simplest fraction `num/den` (den ≤ 100) for the profit part, see the module docs.
    pub fn as_fraction(self) -> (u64, u64) {
        let profit = self.0 - SCALE;
        // Continued-fraction convergents of profit / SCALE, keeping the last whose denominator
        // fits; stop at the first within half a ten-thousandth.
        let (mut p0, mut q0, mut p1, mut q1) = (0_u64, 1_u64, 1_u64, 0_u64);
        let (mut n, mut d) = (profit, SCALE);
        let mut best = (profit, SCALE);
        loop {
            let a = n / d;
            let (p2, q2) = (a * p1 + p0, a * q1 + q0);
            if q2 > 100 {
                // The best semiconvergent with a denominator that still fits.
                let k = (100 - q0) / q1.max(1);
                let (ps, qs) = (k * p1 + p0, k * q1 + q0);
                // Errors compare per unit: error / denominator.
                if qs > 0
                    && u128::from(error(ps, qs, profit)) * u128::from(best.1)
                        < u128::from(error(best.0, best.1, profit)) * u128::from(qs)
                {
                    best = (ps, qs);
                }
                break;
            }
            best = (p2, q2);
            if error(p2, q2, profit) * 2 <= q2 {
                break;
            }
            (p0, q0, p1, q1) = (p1, q1, p2, q2);
            let r = n - a * d;
            if r == 0 {
                break;
            }
            (n, d) = (d, r);
        }
        // A price under 1.005 is still shown as a price: the smallest one, 1/100.
        if best.0 == 0 { (1, 100) } else { best }
    }

    /// The American price: `+{profit × 100}` from evens up, `-{100 / profit}` below.
    pub fn as_american(self) -> String {
        let profit = u128::from(self.0 - SCALE);
        let scale = u128::from(SCALE);
        if profit >= scale {
            format!("+{}", div_round(profit * 100, scale))
        } else {
            format!("-{}", div_round(100 * scale, profit))
        }
    }
}

/// |num/den − profit/SCALE| × den × SCALE: how far a fraction is from the price, scaled.
fn error(num: u64, den: u64, profit: u64) -> u64 {
    (u128::from(num) * u128::from(SCALE)).abs_diff(u128::from(profit) * u128::from(den)).try_into().unwrap_or(u64::MAX)
}

fn digits(text: &str) -> Result<u64, OddsError> {
    let text = text.trim();
    if text.is_empty() || text.len() > 12 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(OddsError::Format);
    }
    text.parse().map_err(|_| OddsError::Format)
}

impl fmt::Display for Odds {
    /// Two places, rounded half up.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hundredths = (self.0 + 50) / 100;
        write!(f, "{}.{:02}", hundredths / 100, hundredths % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odds(text: &str) -> Odds {
        Odds::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn the_three_notations_meet_in_one_integer() {
        assert_eq!(odds("2.5").scaled(), 25_000);
        assert_eq!(odds("3/2"), odds("2.50"));
        assert_eq!(odds("5/2").scaled(), 35_000);
        assert_eq!(odds("+150"), odds("2.5"));
        assert_eq!(odds("-200"), odds("1.5"));
        assert_eq!(odds("1/3").scaled(), 13_333);
        assert_eq!(odds("2/3").scaled(), 16_667);
        assert_eq!(odds("1.33335").scaled(), 13_334);
        assert_eq!(odds("1.333349999").scaled(), 13_333);
        assert_eq!(odds("100/1").scaled(), 1_010_000);
        assert_eq!(odds("-110").scaled(), 19_091);
    }

    #[test]
    fn bad_prices_are_refused() {
        for text in ["", "1", "1.0", "0.5", "abc", "2,5", "1.", "+99", "-50", "3/0", "-0", "20000", "1e3", "٣.5"] {
            assert!(Odds::parse(text).is_err(), "{text} was accepted");
        }
        assert!(serde_json::from_str::<Odds>("10000").is_err());
        assert_eq!(serde_json::from_str::<Odds>("25000").ok(), Some(odds("2.5")));
    }

    #[test]
    fn display_follows_the_bookmakers_conventions() {
        let cases = [
            ("2.5", "2.50", "3/2", "+150"),
            ("2.0", "2.00", "1/1", "+100"),
            ("1.5", "1.50", "1/2", "-200"),
            ("1/3", "1.33", "1/3", "-300"),
            ("1.9091", "1.91", "10/11", "-110"),
            ("11/4", "3.75", "11/4", "+275"),
            ("101", "101.00", "100/1", "+10000"),
            ("1.01", "1.01", "1/100", "-10000"),
            ("1.005", "1.01", "1/100", "-20000"),
            ("3.1416", "3.14", "212/99", "+214"),
        ];
        for (price, decimal, fractional, american) in cases {
            let o = odds(price);
            assert_eq!(o.display(OddsFormat::Decimal), decimal, "{price}");
            assert_eq!(o.display(OddsFormat::Fractional), fractional, "{price}");
            assert_eq!(o.display(OddsFormat::American), american, "{price}");
        }
    }

    #[test]
    fn every_fraction_shown_is_the_nearest_with_a_small_denominator() {
        for scaled in (MIN..=MIN + 40_000).step_by(7) {
            let o = Odds(scaled);
            let (num, den) = o.as_fraction();
            assert!((1..=100).contains(&den) && num >= 1, "{scaled}: {num}/{den}");
            let shown = error(num, den, scaled - SCALE);
            // No fraction with a denominator up to 100 is nearer.
            for d in 1..=100_u64 {
                let n = (((scaled - SCALE) * d + SCALE / 2) / SCALE).max(1);
                let theirs = error(n, d, scaled - SCALE);
                assert!(shown * d <= theirs * den, "{scaled}: {num}/{den} but {n}/{d} is nearer");
            }
        }
    }
}
