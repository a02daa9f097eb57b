//! Plinko: a ball falls through 8, 12 or 16 rows of pegs, going left or right at each with even
//! odds, and lands in one of rows + 1 slots; slot k (k rights) pays the multiplier of the
//! chosen risk level's table. The enumeration test weighs each slot by its binomial
//! probability C(rows, k) / 2^rows: every table returns between 98.9 % and 99.2 %.

use serde_json::{Value, json};

pub const ROWS: [usize; 3] = [8, 12, 16];
pub const RISKS: [&str; 3] = ["low", "medium", "high"];
pub const MAX_FLOATS: usize = 16;
pub const RTP_BP: i64 = 9_900;

/// Multipliers in hundredths, from the edge slot to the centre (the table is symmetric).
fn half(rows: usize, risk: &str) -> &'static [i64] {
    match (rows, risk) {
        (8, "low") => &[560, 210, 110, 100, 50],
        (8, "medium") => &[1_300, 300, 130, 70, 40],
        (8, _) => &[2_900, 400, 150, 30, 20],
        (12, "low") => &[1_000, 300, 160, 140, 110, 100, 50],
        (12, "medium") => &[3_300, 1_100, 400, 200, 110, 60, 30],
        (12, _) => &[17_000, 2_400, 810, 200, 70, 20, 20],
        (16, "low") => &[1_600, 900, 200, 140, 140, 120, 110, 100, 50],
        (16, "medium") => &[11_000, 4_100, 1_000, 500, 300, 150, 100, 50, 30],
        (_, _) => &[100_000, 13_000, 2_600, 900, 400, 200, 20, 20, 20],
    }
}

/// The whole table, slot 0 (all lefts) to slot `rows` (all rights), in hundredths.
pub fn table(rows: usize, risk: &str) -> Vec<i64> {
    let h = half(rows, risk);
    h.iter().chain(h.iter().rev().skip(1)).copied().collect()
}

#[derive(Debug, Clone, Copy)]
pub struct Params {
    pub rows: usize,
    pub risk: &'static str,
}

impl Params {
    pub fn parse(value: &Value) -> Option<Params> {
        let rows = value["rows"].as_u64().or_else(|| value["rows"].as_str()?.parse().ok())?;
        let rows = ROWS.into_iter().find(|r| *r as u64 == rows)?;
        let risk = RISKS.into_iter().find(|r| Some(*r) == value["risk"].as_str())?;
        Some(Params { rows, risk })
    }
}

/// Drops a ball: (multiplier in 1/10,000, what happened).
pub fn play(params: Params, floats: &[f64]) -> (i64, Value) {
    let path: Vec<u8> = floats.iter().take(params.rows).map(|f| u8::from(*f >= 0.5)).collect();
    let slot = path.iter().filter(|r| **r == 1).count();
    let m = table(params.rows, params.risk)[slot];
    (
        m * 100,
        json!({ "rows": params.rows, "risk": params.risk, "path": path, "slot": slot,
                "multiplier": format!("{}.{:02}", m / 100, m % 100), "won": m > 0 }),
    )
}

pub fn paytable() -> Value {
    let mut tables = serde_json::Map::new();
    for rows in ROWS {
        for risk in RISKS {
            tables.insert(
                format!("{rows}-{risk}"),
                json!(table(rows, risk).iter().map(|m| format!("{}.{:02}", m / 100, m % 100)).collect::<Vec<_>>()),
            );
        }
    }
    json!({ "rows": ROWS, "risks": RISKS, "tables": tables })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn every_table_returns_about_99_percent_by_enumeration() {
        for rows in ROWS {
            for risk in RISKS {
                let t = table(rows, risk);
                assert_eq!(t.len(), rows + 1);
                let weighted: u64 = (0..=rows).map(|k| choose(rows as u64, k as u64) * t[k] as u64).sum();
                // In millionths of the bet.
                let rtp_ppm = weighted * 10_000 / (1_u64 << rows);
                assert!((989_000..=992_000).contains(&rtp_ppm), "{rows} {risk}: {rtp_ppm}");
            }
        }
    }

    #[test]
    fn the_ball_follows_the_numbers() {
        let p = Params::parse(&json!({"rows": 8, "risk": "high"})).unwrap_or_else(|| unreachable!());
        let (m, outcome) = play(p, &[0.9; 16]);
        assert_eq!((m, outcome["slot"].as_u64()), (290_000, Some(8)));
        assert_eq!(play(p, &[0.1, 0.9, 0.1, 0.9, 0.1, 0.9, 0.1, 0.9]).1["slot"], 4);
        assert!(Params::parse(&json!({"rows": 9, "risk": "high"})).is_none());
        assert!(Params::parse(&json!({"rows": 8, "risk": "wild"})).is_none());
    }
}
