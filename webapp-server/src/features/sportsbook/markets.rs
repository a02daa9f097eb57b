//! Markets, their selections and how a final score settles them.
//!
//! A market is identified within its event by a key: `1x2`, `moneyline`, `double_chance`,
//! `btts`, `correct_score`, `totals:2.5`, `handicap:-0.25`. Lines are held in quarters
//! ([`Line`]) so that Asian quarter lines are exact. A handicap is the home side's (`handicap:-1`
//! gives the home side −1 and the away side +1); totals count both sides' goals or points.
//!
//! Settlement from a score: a whole or half line wins, pushes (void) or loses; a quarter line is
//! the two half-stakes on the lines a quarter either side ([`settle::Outcome`]'s half results).
//! States: `active` (bets taken), `suspended` (no bets, no cash-out), `settled`, `cancelled`
//! (every bet on it is void).

use super::settle::{Outcome, Ratio};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A handicap or total in quarters of a goal or point: `-0.25` is `-1`, `2.5` is `10`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Line(pub i32);

impl Line {
    /// The most a line may be either side of zero: 400.
    pub const LIMIT: i32 = 1600;

    /// `2.5`, `-0.25`, `+1`, `0`, `2.75`.
    pub fn parse(text: &str) -> Option<Line> {
        let text = text.trim();
        let (negative, rest) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (whole, fraction) = rest.split_once('.').unwrap_or((rest, ""));
        if whole.is_empty() || whole.len() > 4 || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let quarters = match fraction.trim_end_matches('0') {
            "" => 0,
            "25" => 1,
            "5" => 2,
            "75" => 3,
            _ => return None,
        };
        let value = whole.parse::<i32>().ok()? * 4 + quarters;
        (value <= Line::LIMIT).then_some(Line(if negative { -value } else { value }))
    }

    pub fn is_quarter(self) -> bool {
        self.0.rem_euclid(2) == 1
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let v = self.0.unsigned_abs();
        let fraction = ["", ".25", ".5", ".75"][(v % 4) as usize];
        write!(f, "{sign}{}{fraction}", v / 4)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MarketKind {
    /// Home, draw, away over regular time.
    MatchResult,
    /// Home or away, with no draw (tennis, basketball with overtime).
    Moneyline,
    /// `home_draw`, `home_away`, `draw_away`.
    DoubleChance,
    /// `over` / `under` the line, counting both sides.
    Totals(Line),
    /// `home` / `away` with the home side's handicap.
    Handicap(Line),
    /// Both teams to score: `yes` / `no`.
    BothTeamsToScore,
    /// `h:a` for each score up to [`CORRECT_SCORE_MAX`] a side, and `other`.
    CorrectScore,
}

/// The highest score a side can have in a correct-score selection (above it: `other`).
pub const CORRECT_SCORE_MAX: u32 = 4;

impl MarketKind {
    pub fn key(self) -> String {
        match self {
            MarketKind::MatchResult => "1x2".into(),
            MarketKind::Moneyline => "moneyline".into(),
            MarketKind::DoubleChance => "double_chance".into(),
            MarketKind::Totals(line) => format!("totals:{line}"),
            MarketKind::Handicap(line) => format!("handicap:{line}"),
            MarketKind::BothTeamsToScore => "btts".into(),
            MarketKind::CorrectScore => "correct_score".into(),
        }
    }

    pub fn parse(key: &str) -> Option<MarketKind> {
        Some(match key {
            "1x2" => MarketKind::MatchResult,
            "moneyline" => MarketKind::Moneyline,
            "double_chance" => MarketKind::DoubleChance,
            "btts" => MarketKind::BothTeamsToScore,
            "correct_score" => MarketKind::CorrectScore,
            other => {
                let (kind, line) = other.split_once(':')?;
                let line = Line::parse(line)?;
                match kind {
                    "totals" if line.0 > 0 => MarketKind::Totals(line),
                    "handicap" => MarketKind::Handicap(line),
                    _ => return None,
                }
            }
        })
    }

    /// The family name without the line (`totals`), for grouping and translations.
    pub fn family(self) -> &'static str {
        match self {
            MarketKind::MatchResult => "1x2",
            MarketKind::Moneyline => "moneyline",
            MarketKind::DoubleChance => "double_chance",
            MarketKind::Totals(_) => "totals",
            MarketKind::Handicap(_) => "handicap",
            MarketKind::BothTeamsToScore => "btts",
            MarketKind::CorrectScore => "correct_score",
        }
    }

    /// Every selection key of the market.
    pub fn selections(self) -> Vec<String> {
        match self {
            MarketKind::MatchResult => vec!["home".into(), "draw".into(), "away".into()],
            MarketKind::Moneyline | MarketKind::Handicap(_) => vec!["home".into(), "away".into()],
            MarketKind::DoubleChance => vec!["home_draw".into(), "home_away".into(), "draw_away".into()],
            MarketKind::Totals(_) => vec!["over".into(), "under".into()],
            MarketKind::BothTeamsToScore => vec!["yes".into(), "no".into()],
            MarketKind::CorrectScore => {
                let mut keys: Vec<String> = (0..=CORRECT_SCORE_MAX)
                    .flat_map(|h| (0..=CORRECT_SCORE_MAX).map(move |a| format!("{h}:{a}")))
                    .collect();
                keys.push("other".into());
                keys
            }
        }
    }

    /// How the final score `home`–`away` settles `selection`; `None` for a key the market lacks.
    /// A moneyline with a tied score (which a sport without draws should never report) is void.
    pub fn settle(self, selection: &str, home: u32, away: u32) -> Option<Outcome> {
        let won = |w: bool| if w { Outcome::WON } else { Outcome::LOST };
        let (h, a) = (i64::from(home), i64::from(away));
        Some(match (self, selection) {
            (MarketKind::MatchResult, "home") => won(h > a),
            (MarketKind::MatchResult, "draw") => won(h == a),
            (MarketKind::MatchResult, "away") => won(h < a),
            (MarketKind::Moneyline, "home" | "away") if h == a => Outcome::VOID,
            (MarketKind::Moneyline, "home") => won(h > a),
            (MarketKind::Moneyline, "away") => won(h < a),
            (MarketKind::DoubleChance, "home_draw") => won(h >= a),
            (MarketKind::DoubleChance, "home_away") => won(h != a),
            (MarketKind::DoubleChance, "draw_away") => won(h <= a),
            (MarketKind::BothTeamsToScore, "yes") => won(h > 0 && a > 0),
            (MarketKind::BothTeamsToScore, "no") => won(h == 0 || a == 0),
            (MarketKind::Totals(line), "over") => split(line, |l| 4 * (h + a) - i64::from(l)),
            (MarketKind::Totals(line), "under") => split(line, |l| i64::from(l) - 4 * (h + a)),
            (MarketKind::Handicap(line), "home") => split(line, |l| 4 * (h - a) + i64::from(l)),
            (MarketKind::Handicap(line), "away") => split(line, |l| 4 * (a - h) - i64::from(l)),
            (MarketKind::CorrectScore, "other") => won(home > CORRECT_SCORE_MAX || away > CORRECT_SCORE_MAX),
            (MarketKind::CorrectScore, key) => {
                let (sh, sa) = key.split_once(':')?;
                let (sh, sa): (u32, u32) = (sh.parse().ok()?, sa.parse().ok()?);
                if sh > CORRECT_SCORE_MAX || sa > CORRECT_SCORE_MAX {
                    return None;
                }
                won(sh == home && sa == away)
            }
            _ => return None,
        })
    }
}

/// Settles a line (in quarters) from `margin(l)`, the selection's margin over line `l` in
/// quarters (> 0 won, 0 push, < 0 lost). A quarter line is two half-stakes a quarter either side.
fn split(line: Line, margin: impl Fn(i32) -> i64) -> Outcome {
    let part = |l: i32| margin(l).signum();
    let (a, b) = if line.is_quarter() { (part(line.0 - 1), part(line.0 + 1)) } else { (part(line.0), part(line.0)) };
    match (a.max(b), a.min(b)) {
        (1, 1) => Outcome::WON,
        (1, 0) => Outcome::HALF_WON,
        (0, 0) => Outcome::VOID,
        (0, -1) => Outcome::HALF_LOST,
        // Half won and half lost (lines half a goal apart cannot straddle a whole score, but
        // the arithmetic is kept general): half the stake at full odds.
        (1, -1) => Outcome { won: true, void_factor: Ratio::ZERO, dead_heat: Ratio::HALF },
        _ => Outcome::LOST,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MarketState {
    Active,
    Suspended,
    Settled,
    Cancelled,
}

impl MarketState {
    pub fn as_str(self) -> &'static str {
        match self {
            MarketState::Active => "active",
            MarketState::Suspended => "suspended",
            MarketState::Settled => "settled",
            MarketState::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<MarketState> {
        Some(match text {
            "active" => MarketState::Active,
            "suspended" => MarketState::Suspended,
            "settled" => MarketState::Settled,
            "cancelled" => MarketState::Cancelled,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line::parse(text).expect("valid line")
    }

    #[test]
    fn lines_read_and_print_in_quarters() {
        for (text, quarters, shown) in [
            ("2.5", 10, "2.5"),
            ("-0.25", -1, "-0.25"),
            ("+1", 4, "1"),
            ("0", 0, "0"),
            ("2.75", 11, "2.75"),
            ("-1.50", -6, "-1.5"),
        ] {
            assert_eq!(line(text), Line(quarters));
            assert_eq!(Line(quarters).to_string(), shown);
        }
        for bad in ["", "-", "2.3", "1e2", "abc", "0.125", "9999"] {
            assert_eq!(Line::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn market_keys_round_trip() {
        for kind in [
            MarketKind::MatchResult,
            MarketKind::Moneyline,
            MarketKind::DoubleChance,
            MarketKind::Totals(line("2.25")),
            MarketKind::Handicap(line("-0.75")),
            MarketKind::BothTeamsToScore,
            MarketKind::CorrectScore,
        ] {
            assert_eq!(MarketKind::parse(&kind.key()), Some(kind));
        }
        assert_eq!(MarketKind::parse("totals:-1"), None);
        assert_eq!(MarketKind::parse("corners"), None);
        assert_eq!(MarketKind::CorrectScore.selections().len(), 26);
    }

    #[test]
    fn asian_handicaps_settle_as_two_half_stakes() {
        let home = |l: &str, h, a| MarketKind::Handicap(line(l)).settle("home", h, a);
        let away = |l: &str, h, a| MarketKind::Handicap(line(l)).settle("away", h, a);
        // −0.25 on the home side: a draw refunds half and loses half; a win wins.
        assert_eq!(home("-0.25", 1, 1), Some(Outcome::HALF_LOST));
        assert_eq!(away("-0.25", 1, 1), Some(Outcome::HALF_WON));
        assert_eq!(home("-0.25", 2, 1), Some(Outcome::WON));
        // −0.75: winning by one wins half (−0.5) and pushes half (−1).
        assert_eq!(home("-0.75", 2, 1), Some(Outcome::HALF_WON));
        assert_eq!(away("-0.75", 2, 1), Some(Outcome::HALF_LOST));
        assert_eq!(home("-0.75", 3, 1), Some(Outcome::WON));
        // Whole lines push; half lines never do.
        assert_eq!(home("-1", 2, 1), Some(Outcome::VOID));
        assert_eq!(home("+0.5", 0, 0), Some(Outcome::WON));
        assert_eq!(home("0", 0, 0), Some(Outcome::VOID));
    }

    #[test]
    fn totals_count_both_sides() {
        let over = |l: &str, h, a| MarketKind::Totals(line(l)).settle("over", h, a);
        let under = |l: &str, h, a| MarketKind::Totals(line(l)).settle("under", h, a);
        assert_eq!(over("2.5", 2, 1), Some(Outcome::WON));
        assert_eq!(under("2.5", 2, 1), Some(Outcome::LOST));
        assert_eq!(over("2.25", 1, 1), Some(Outcome::HALF_LOST));
        assert_eq!(under("2.25", 1, 1), Some(Outcome::HALF_WON));
        assert_eq!(over("3", 2, 1), Some(Outcome::VOID));
        assert_eq!(over("2.75", 2, 1), Some(Outcome::HALF_WON));
    }

    #[test]
    fn the_other_markets_read_the_score() {
        let s = |k: MarketKind, sel: &str, h, a| k.settle(sel, h, a);
        assert_eq!(s(MarketKind::MatchResult, "draw", 0, 0), Some(Outcome::WON));
        assert_eq!(s(MarketKind::DoubleChance, "home_draw", 0, 0), Some(Outcome::WON));
        assert_eq!(s(MarketKind::DoubleChance, "home_away", 0, 0), Some(Outcome::LOST));
        assert_eq!(s(MarketKind::BothTeamsToScore, "yes", 1, 0), Some(Outcome::LOST));
        assert_eq!(s(MarketKind::CorrectScore, "2:1", 2, 1), Some(Outcome::WON));
        assert_eq!(s(MarketKind::CorrectScore, "other", 5, 1), Some(Outcome::WON));
        assert_eq!(s(MarketKind::CorrectScore, "other", 4, 4), Some(Outcome::LOST));
        assert_eq!(s(MarketKind::CorrectScore, "7:1", 7, 1), None);
        assert_eq!(s(MarketKind::Moneyline, "home", 3, 3), Some(Outcome::VOID));
        assert_eq!(s(MarketKind::MatchResult, "over", 3, 3), None);
    }

    #[test]
    fn exactly_one_selection_wins_the_exclusive_markets() {
        for h in 0..7 {
            for a in 0..7 {
                for kind in [
                    MarketKind::MatchResult,
                    MarketKind::BothTeamsToScore,
                    MarketKind::CorrectScore,
                    MarketKind::Totals(Line(10)),
                ] {
                    let winners =
                        kind.selections().iter().filter(|s| kind.settle(s, h, a) == Some(Outcome::WON)).count();
                    assert_eq!(winners, 1, "{kind:?} {h}:{a}");
                }
            }
        }
    }
}
