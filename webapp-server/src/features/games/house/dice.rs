//! Dice (over/under): a roll from 0.00 to 100.00 (10,001 outcomes). The player picks a target
//! between 2.00 and 98.00 and whether the roll must be under or over it. The payout multiplier
//! is 99 % × 10,001 / (winning outcomes), rounded down to 1/10,000, so the return to player is
//! at most 99.00 % and, as the test shows by enumerating every outcome of every target, never
//! below 98.99 %.

use serde::Deserialize;
use serde_json::{Value, json};

pub const OUTCOMES: i64 = 10_001;
pub const TARGET_MIN: i64 = 200;
pub const TARGET_MAX: i64 = 9_800;
/// Return to player in basis points.
pub const RTP_BP: i64 = 9_900;

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Params {
    /// Hundredths: 5000 is 50.00.
    pub target: i64,
    /// `under` or `over`.
    pub over: bool,
}

impl Params {
    pub fn parse(value: &Value) -> Option<Params> {
        let target = value["target"].as_str().map_or_else(
            || value["target"].as_f64().map(|t| (t * 100.0).round() as i64),
            |t| {
                croupier_shared::Money::parse_major(t, croupier_shared::Currency::parse("USD")?).ok().map(|m| m.minor())
            },
        )?;
        let over = match value["condition"].as_str()? {
            "over" => true,
            "under" => false,
            _ => return None,
        };
        (TARGET_MIN..=TARGET_MAX).contains(&target).then_some(Params { target, over })
    }

    pub fn winning_outcomes(self) -> i64 {
        if self.over { OUTCOMES - 1 - self.target } else { self.target }
    }

    /// The multiplier in 1/10,000.
    pub fn multiplier_e4(self) -> i64 {
        RTP_BP * OUTCOMES / self.winning_outcomes()
    }

    pub fn wins(self, roll: i64) -> bool {
        if self.over { roll > self.target } else { roll < self.target }
    }
}

/// The roll, in hundredths, from one number in [0, 1).
pub fn roll(f: f64) -> i64 {
    ((f * OUTCOMES as f64) as i64).clamp(0, OUTCOMES - 1)
}

/// Plays one round: (multiplier in 1/10,000 — 0 for a loss — and what happened).
pub fn play(params: Params, f: f64) -> (i64, Value) {
    let r = roll(f);
    let won = params.wins(r);
    let multiplier = if won { params.multiplier_e4() } else { 0 };
    let outcome = json!({
        "roll": format!("{}.{:02}", r / 100, r % 100),
        "target": format!("{}.{:02}", params.target / 100, params.target % 100),
        "condition": if params.over { "over" } else { "under" },
        "won": won,
        "multiplier": format!("{}.{:04}", params.multiplier_e4() / 10_000, params.multiplier_e4() % 10_000),
    });
    (multiplier, outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_returns_between_98_99_and_99_percent_by_enumeration() {
        let bet: i128 = 10_000;
        for over in [false, true] {
            for target in TARGET_MIN..=TARGET_MAX {
                let p = Params { target, over };
                let mut paid: i128 = 0;
                for r in 0..OUTCOMES {
                    if p.wins(r) {
                        paid += bet * i128::from(p.multiplier_e4()) / 10_000;
                    }
                }
                let rtp_ppm = paid * 1_000_000 / (bet * i128::from(OUTCOMES));
                assert!((989_900..=990_000).contains(&rtp_ppm), "target {target} over {over}: {rtp_ppm} ppm");
            }
        }
    }

    #[test]
    fn rolls_cover_every_outcome_and_no_more() {
        assert_eq!(roll(0.0), 0);
        assert_eq!(roll(0.999_999_999), 10_000);
        let p = Params { target: 5_000, over: false };
        assert!(p.wins(4_999) && !p.wins(5_000));
        let p = Params { target: 5_000, over: true };
        assert!(p.wins(5_001) && !p.wins(5_000));
        assert_eq!(Params { target: 5_000, over: false }.winning_outcomes(), 5_000);
        assert_eq!(Params { target: 5_000, over: true }.winning_outcomes(), 5_000);
    }

    #[test]
    fn parameters_are_read_strictly() {
        assert!(Params::parse(&json!({"target": "50.00", "condition": "under"})).is_some());
        assert!(Params::parse(&json!({"target": 49.5, "condition": "over"})).is_some());
        assert!(Params::parse(&json!({"target": "1.99", "condition": "under"})).is_none());
        assert!(Params::parse(&json!({"target": "98.01", "condition": "over"})).is_none());
        assert!(Params::parse(&json!({"target": "50", "condition": "sideways"})).is_none());
        assert!(Params::parse(&json!({"condition": "under"})).is_none());
    }
}
