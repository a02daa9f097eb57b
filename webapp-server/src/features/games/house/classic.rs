//! Classic slot: three reels of twenty stops, one pay line (the middle row). The player sees
//! three rows; only the middle one pays. Pays, in multiples of the bet: three sevens 300, three
//! bars 100, three bells 50, three plums 25, three oranges 15, three lemons 11, three cherries
//! 10; two cherries from the left 4; one cherry on the first reel 1. Every one of the
//! 20³ = 8,000 stop combinations is equally likely; the enumeration test finds the return to
//! player exactly 7,710 / 8,000 = 96.375 % (published as 96.37 %).

use serde_json::{Value, json};

/// The strip of every reel: C cherry, L lemon, O orange, P plum, B bell, R bar, S seven.
pub const STRIP: &[u8; 20] = b"CLCOLPCBLOCPLOSCLPOR";
/// Three of a kind, in multiples of the bet.
pub const THREE: [(u8, i64); 7] =
    [(b'S', 300), (b'R', 100), (b'B', 50), (b'P', 25), (b'O', 15), (b'L', 11), (b'C', 10)];
pub const TWO_CHERRIES: i64 = 4;
pub const ONE_CHERRY: i64 = 1;
pub const FLOATS: usize = 3;
/// Return to player in basis points (exact, see the test).
pub const RTP_BP: i64 = 9_637;

pub fn name(symbol: u8) -> &'static str {
    match symbol {
        b'C' => "cherry",
        b'L' => "lemon",
        b'O' => "orange",
        b'P' => "plum",
        b'B' => "bell",
        b'R' => "bar",
        _ => "seven",
    }
}

/// The pay of a middle line, in multiples of the bet.
pub fn pay(line: [u8; 3]) -> i64 {
    if line[0] == line[1] && line[1] == line[2] {
        return THREE.iter().find(|(s, _)| *s == line[0]).map_or(0, |(_, p)| *p);
    }
    match (line[0], line[1]) {
        (b'C', b'C') => TWO_CHERRIES,
        (b'C', _) => ONE_CHERRY,
        _ => 0,
    }
}

pub fn stop(f: f64) -> usize {
    ((f * STRIP.len() as f64) as usize).min(STRIP.len() - 1)
}

/// Plays a spin from three numbers in [0, 1): (multiplier in 1/10,000, what happened).
pub fn play(floats: &[f64]) -> (i64, Value) {
    let stops: Vec<usize> = floats.iter().take(3).map(|f| stop(*f)).collect();
    let n = STRIP.len();
    let reels: Vec<Vec<&str>> =
        stops.iter().map(|s| (0..3).map(|row| name(STRIP[(s + n - 1 + row) % n])).collect()).collect();
    let line = [STRIP[stops[0]], STRIP[stops[1]], STRIP[stops[2]]];
    let multiplier = pay(line);
    (multiplier * 10_000, json!({ "reels": reels, "stops": stops, "multiplier": multiplier, "won": multiplier > 0 }))
}

pub fn paytable() -> Value {
    json!({
        "three_of_a_kind": THREE.iter().map(|(s, p)| json!({ "symbol": name(*s), "pays": p })).collect::<Vec<_>>(),
        "two_cherries": TWO_CHERRIES,
        "one_cherry": ONE_CHERRY,
        "strip": STRIP.iter().map(|s| name(*s)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_return_to_player_is_96_375_percent_by_enumeration() {
        let mut paid = 0;
        let mut combos = 0;
        for a in STRIP {
            for b in STRIP {
                for c in STRIP {
                    paid += pay([*a, *b, *c]);
                    combos += 1;
                }
            }
        }
        assert_eq!((paid, combos), (7_710, 8_000));
        assert_eq!(paid * 10_000 / combos, RTP_BP);
    }

    #[test]
    fn a_spin_reads_the_middle_row_of_each_reel() {
        // Stop 14 is the seven on every reel.
        let f = 14.5 / 20.0;
        let (m, outcome) = play(&[f, f, f]);
        assert_eq!(m, 3_000_000);
        assert_eq!(outcome["reels"][0], json!(["orange", "seven", "cherry"]));
        assert_eq!(play(&[0.0, 0.0, 0.99]).0, 40_000, "two cherries then a bar");
        assert_eq!(play(&[0.0, 0.06, 0.0]).0, 10_000, "one cherry");
        assert_eq!(play(&[0.06, 0.0, 0.0]).0, 0);
        assert_eq!(stop(0.999_999), 19);
    }
}
