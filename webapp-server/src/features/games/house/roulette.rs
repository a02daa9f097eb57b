//! European roulette: one zero, 37 pockets. Bets (each pays its stake back plus the odds):
//! straight (a number, 35 to 1), red / black, odd / even, low (1–18) / high (19–36) (1 to 1),
//! dozen 1–3 and column 1–3 (2 to 1). Zero loses every outside bet. Every bet returns
//! 36 / 37 = 97.297 % — the enumeration test checks each one over the 37 pockets.

use croupier_shared::{Currency, Money};
use serde_json::{Value, json};

pub const RED: [u8; 18] = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];
pub const POCKETS: u8 = 37;
pub const MAX_CHIPS: usize = 20;
pub const FLOATS: usize = 1;
pub const RTP_BP: i64 = 9_729;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Straight(u8),
    Red,
    Black,
    Odd,
    Even,
    Low,
    High,
    Dozen(u8),
    Column(u8),
}

impl Kind {
    pub fn parse(kind: &str, number: Option<i64>) -> Option<Kind> {
        let n = number.and_then(|n| u8::try_from(n).ok());
        Some(match kind {
            "straight" => Kind::Straight(n.filter(|n| *n < POCKETS)?),
            "red" => Kind::Red,
            "black" => Kind::Black,
            "odd" => Kind::Odd,
            "even" => Kind::Even,
            "low" => Kind::Low,
            "high" => Kind::High,
            "dozen" => Kind::Dozen(n.filter(|n| (1..=3).contains(n))?),
            "column" => Kind::Column(n.filter(|n| (1..=3).contains(n))?),
            _ => return None,
        })
    }

    pub fn name(self) -> (&'static str, Option<u8>) {
        match self {
            Kind::Straight(n) => ("straight", Some(n)),
            Kind::Red => ("red", None),
            Kind::Black => ("black", None),
            Kind::Odd => ("odd", None),
            Kind::Even => ("even", None),
            Kind::Low => ("low", None),
            Kind::High => ("high", None),
            Kind::Dozen(d) => ("dozen", Some(d)),
            Kind::Column(c) => ("column", Some(c)),
        }
    }

    pub fn covers(self, n: u8) -> bool {
        let outside = n != 0;
        match self {
            Kind::Straight(s) => s == n,
            Kind::Red => RED.contains(&n),
            Kind::Black => outside && !RED.contains(&n),
            Kind::Odd => outside && n % 2 == 1,
            Kind::Even => outside && n.is_multiple_of(2),
            Kind::Low => (1..=18).contains(&n),
            Kind::High => (19..=36).contains(&n),
            Kind::Dozen(d) => outside && (n - 1) / 12 + 1 == d,
            Kind::Column(c) => outside && (n - 1) % 3 + 1 == c,
        }
    }

    /// What a winning unit returns, stake included.
    pub fn returns(self) -> i64 {
        match self {
            Kind::Straight(_) => 36,
            Kind::Dozen(_) | Kind::Column(_) => 3,
            _ => 2,
        }
    }

    pub fn all() -> Vec<Kind> {
        let mut all: Vec<Kind> = (0..POCKETS).map(Kind::Straight).collect();
        all.extend([Kind::Red, Kind::Black, Kind::Odd, Kind::Even, Kind::Low, Kind::High]);
        all.extend((1..=3).map(Kind::Dozen));
        all.extend((1..=3).map(Kind::Column));
        all
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Chip {
    pub kind: Kind,
    /// Minor units.
    pub amount: i64,
}

/// Reads `bets`: `[{"type","number"?,"amount"}]`, 1 to 20 of them, each at least `min` minor
/// units, adding up to `total`.
pub fn parse(params: &Value, currency: Currency, min: i64, total: i64) -> Result<Vec<Chip>, &'static str> {
    let bets = params["bets"].as_array().ok_or("Place at least one bet on the table.")?;
    if bets.is_empty() || bets.len() > MAX_CHIPS {
        return Err("Place from 1 to 20 bets on the table.");
    }
    let mut chips = Vec::with_capacity(bets.len());
    for b in bets {
        let kind = Kind::parse(b["type"].as_str().unwrap_or(""), b["number"].as_i64())
            .ok_or("Unknown bet: straight (0–36), red, black, odd, even, low, high, dozen or column (1–3).")?;
        let amount = b["amount"]
            .as_str()
            .and_then(|a| Money::parse_major(a.trim(), currency).ok())
            .map(|m| m.minor())
            .filter(|a| *a >= min)
            .ok_or("Each bet needs an amount of at least the table minimum.")?;
        chips.push(Chip { kind, amount });
    }
    // Checked: chips of huge amounts must not overflow the sum (a panic, found by fuzzing).
    if chips.iter().try_fold(0_i64, |sum, c| sum.checked_add(c.amount)) != Some(total) {
        return Err("The bets must add up to the total bet.");
    }
    Ok(chips)
}

pub fn pocket(f: f64) -> u8 {
    ((f * f64::from(POCKETS)) as u8).min(POCKETS - 1)
}

pub fn color(n: u8) -> &'static str {
    if n == 0 {
        "green"
    } else if RED.contains(&n) {
        "red"
    } else {
        "black"
    }
}

/// Spins: (the win in minor units, what happened).
pub fn play(chips: &[Chip], f: f64, currency: Currency) -> (i128, Value) {
    let n = pocket(f);
    let mut win: i128 = 0;
    let bets: Vec<Value> = chips
        .iter()
        .map(|c| {
            let w = if c.kind.covers(n) { i128::from(c.amount) * i128::from(c.kind.returns()) } else { 0 };
            win += w;
            let (kind, number) = c.kind.name();
            json!({
                "type": kind,
                "number": number,
                "amount": Money::from_minor(c.amount, currency).to_decimal_string(),
                "win": Money::from_minor(i64::try_from(w).unwrap_or(i64::MAX), currency).to_decimal_string(),
            })
        })
        .collect();
    (win, json!({ "number": n, "color": color(n), "bets": bets, "won": win > 0 }))
}

pub fn paytable() -> Value {
    json!({
        "bets": [
            { "type": "straight", "pays": "35:1" }, { "type": "red", "pays": "1:1" }, { "type": "black", "pays": "1:1" },
            { "type": "odd", "pays": "1:1" }, { "type": "even", "pays": "1:1" }, { "type": "low", "pays": "1:1" },
            { "type": "high", "pays": "1:1" }, { "type": "dozen", "pays": "2:1" }, { "type": "column", "pays": "2:1" },
        ],
        "red": RED,
        "pockets": POCKETS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bet_returns_36_of_37_by_enumeration() {
        for kind in Kind::all() {
            let returned: i64 = (0..POCKETS).filter(|n| kind.covers(*n)).map(|_| kind.returns()).sum();
            assert_eq!(returned, 36, "{kind:?}");
            assert_eq!(returned * 10_000 / i64::from(POCKETS), RTP_BP);
        }
    }

    #[test]
    fn the_table_is_laid_out_as_in_a_casino() {
        assert_eq!((0..POCKETS).filter(|n| Kind::Black.covers(*n)).count(), 18);
        assert!(Kind::Column(1).covers(34) && Kind::Column(3).covers(36) && Kind::Dozen(3).covers(25));
        assert!(!Kind::Even.covers(0) && !Kind::Low.covers(0) && Kind::Straight(0).covers(0));
        assert_eq!((pocket(0.0), pocket(0.999_999)), (0, 36));
        let usd = Currency::parse("USD").unwrap_or_else(|| unreachable!());
        let bets =
            json!({"bets": [{"type": "red", "amount": "1.00"}, {"type": "straight", "number": 7, "amount": "0.50"}]});
        let chips = parse(&bets, usd, 10, 150).unwrap_or_default();
        let (win, outcome) = play(&chips, 7.5 / 37.0, usd);
        assert_eq!((win, outcome["number"].as_i64()), (200 + 1_800, Some(7)));
        assert!(parse(&bets, usd, 10, 151).is_err());
        assert!(parse(&json!({"bets": [{"type": "dozen", "number": 4, "amount": "1.00"}]}), usd, 10, 100).is_err());
        assert!(parse(&json!({"bets": [{"type": "straight", "number": 37, "amount": "1.00"}]}), usd, 10, 100).is_err());
        let huge = json!({"type": "red", "amount": "92233720368547758.07"});
        assert!(parse(&json!({ "bets": [huge, huge] }), usd, 10, 20_000).is_err());
    }
}
