//! Video slot "Gem Rush": five reels, three rows, ten pay lines, a line bet of a tenth of the
//! bet. Line wins pay 3, 4 or 5 of a kind from the leftmost reel along a line; scatters
//! (anywhere) pay 2, 10 or 50 times the bet, and three or more start eight free spins where
//! every win is doubled (free spins do not retrigger). A round plays the spin and any free
//! spins it triggers, from the same provably-fair numbers.
//!
//! RTP, exactly: with E the mean win of a spin (lines + scatters) and p the chance to trigger,
//! RTP = E × (1 + 8 × 2 × p). The test finds E and p by enumerating all 20⁵ = 3,200,000
//! stop combinations through the very function that pays a spin (≈ 96.16 %).

use serde_json::{Value, json};

/// Every reel's strip: T ten, J jack, Q queen, K king, A ace, H clover, G crown, D diamond, S star (scatter).
pub const STRIP: &[u8; 20] = b"TJQKATJQSHTJKAGQTJQD";
pub const REELS: usize = 5;
pub const ROWS: usize = 3;
/// The row of each reel for each line.
pub const LINES: [[usize; REELS]; 10] = [
    [1, 1, 1, 1, 1],
    [0, 0, 0, 0, 0],
    [2, 2, 2, 2, 2],
    [0, 1, 2, 1, 0],
    [2, 1, 0, 1, 2],
    [0, 0, 1, 2, 2],
    [2, 2, 1, 0, 0],
    [1, 0, 0, 0, 1],
    [1, 2, 2, 2, 1],
    [1, 2, 1, 0, 1],
];
pub const SCATTER: u8 = b'S';
/// Scatter pays in multiples of the bet for 3, 4, 5 scatters.
pub const SCATTER_PAYS: [i64; 3] = [2, 10, 50];
pub const FREE_SPINS: usize = 8;
pub const FREE_SPIN_MULTIPLIER: i64 = 2;
pub const FLOATS: usize = REELS * (1 + FREE_SPINS);
pub const RTP_BP: i64 = 9_616;
pub const MAX_MULTIPLIER: i64 = 5_000;

/// Pays for 3, 4, 5 of a kind, in line bets.
pub fn line_pays(symbol: u8) -> [i64; 3] {
    match symbol {
        b'T' | b'J' => [12, 40, 100],
        b'Q' => [15, 40, 150],
        b'K' => [20, 60, 200],
        b'A' => [25, 75, 250],
        b'H' => [50, 100, 500],
        b'G' => [50, 200, 750],
        b'D' => [100, 300, 1_000],
        _ => [0, 0, 0],
    }
}

pub fn name(symbol: u8) -> &'static str {
    match symbol {
        b'T' => "ten",
        b'J' => "jack",
        b'Q' => "queen",
        b'K' => "king",
        b'A' => "ace",
        b'H' => "clover",
        b'G' => "crown",
        b'D' => "diamond",
        _ => "star",
    }
}

pub type Window = [[u8; ROWS]; REELS];

pub fn window(stops: [usize; REELS]) -> Window {
    let n = STRIP.len();
    let mut w = [[0_u8; ROWS]; REELS];
    for (reel, stop) in stops.iter().enumerate() {
        for row in 0..ROWS {
            w[reel][row] = STRIP[(stop + row) % n];
        }
    }
    w
}

#[derive(Debug, Default)]
pub struct SpinWin {
    /// In line bets (a tenth of the bet).
    pub units: i64,
    pub scatters: usize,
    /// (line index, symbol, count, line bets won)
    pub lines: Vec<(usize, u8, usize, i64)>,
}

/// What one spin pays, before any free-spin multiplier.
pub fn evaluate(w: &Window) -> SpinWin {
    let mut out = SpinWin::default();
    for (i, line) in LINES.iter().enumerate() {
        let first = w[0][line[0]];
        if first == SCATTER {
            continue;
        }
        let count = (1..REELS).take_while(|r| w[*r][line[*r]] == first).count() + 1;
        if count >= 3 {
            let pay = line_pays(first)[count - 3];
            out.units += pay;
            out.lines.push((i, first, count, pay));
        }
    }
    out.scatters = w.iter().flatten().filter(|s| **s == SCATTER).count();
    if out.scatters >= 3 {
        out.units += SCATTER_PAYS[out.scatters.min(5) - 3] * 10;
    }
    out
}

fn stops(floats: &[f64]) -> [usize; REELS] {
    let mut s = [0; REELS];
    for (i, f) in floats.iter().take(REELS).enumerate() {
        s[i] = ((f * STRIP.len() as f64) as usize).min(STRIP.len() - 1);
    }
    s
}

fn spin_json(w: &Window, win: &SpinWin, multiplier: i64) -> Value {
    json!({
        "reels": w.iter().map(|r| r.iter().map(|s| name(*s)).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "lines": win.lines.iter().map(|(i, s, c, p)| json!({ "line": i + 1, "symbol": name(*s), "count": c, "pays": p * multiplier })).collect::<Vec<_>>(),
        "scatters": win.scatters,
        "win_line_bets": win.units * multiplier,
    })
}

/// Plays a spin and its free spins: (multiplier in 1/10,000, what happened).
pub fn play(floats: &[f64]) -> (i64, Value) {
    let w = window(stops(floats));
    let base = evaluate(&w);
    let mut units = base.units;
    let mut spins = vec![spin_json(&w, &base, 1)];
    let triggered = base.scatters >= 3;
    if triggered {
        for i in 0..FREE_SPINS {
            let fw = window(stops(&floats[REELS * (i + 1)..]));
            let free = evaluate(&fw);
            units += free.units * FREE_SPIN_MULTIPLIER;
            spins.push(spin_json(&fw, &free, FREE_SPIN_MULTIPLIER));
        }
    }
    let multiplier_e4 = units * 1_000;
    (
        multiplier_e4,
        json!({ "spins": spins, "free_spins": if triggered { FREE_SPINS } else { 0 }, "line_bets": units,
                "multiplier": format!("{}.{:01}", units / 10, units % 10), "won": units > 0 }),
    )
}

pub fn paytable() -> Value {
    json!({
        "lines": LINES,
        "symbols": b"DGHAKQJT".iter().map(|s| json!({ "symbol": name(*s), "pays": line_pays(*s) })).collect::<Vec<_>>(),
        "scatter_pays": SCATTER_PAYS,
        "free_spins": FREE_SPINS,
        "free_spin_multiplier": FREE_SPIN_MULTIPLIER,
        "strip": STRIP.iter().map(|s| name(*s)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_return_to_player_is_exact_by_enumeration() {
        let n = STRIP.len();
        let (mut units, mut triggers, mut combos) = (0_i128, 0_i128, 0_i128);
        let mut s = [0_usize; REELS];
        loop {
            let win = evaluate(&window(s));
            units += i128::from(win.units);
            triggers += i128::from(win.scatters >= 3);
            combos += 1;
            let mut r = 0;
            while r < REELS {
                s[r] += 1;
                if s[r] < n {
                    break;
                }
                s[r] = 0;
                r += 1;
            }
            if r == REELS {
                break;
            }
        }
        assert_eq!(combos, 3_200_000);
        // RTP = (units / combos / 10) × (1 + 16 × triggers / combos), in basis points.
        let bp = units * (combos + 16 * triggers) * 1_000 / (combos * combos);
        assert_eq!(bp, i128::from(RTP_BP), "units {units}, triggers {triggers}");
    }

    #[test]
    fn lines_pay_from_the_left_and_scatters_anywhere() {
        let mut w: Window = [[b'T', b'D', b'J']; REELS];
        w[3] = [b'Q', b'Q', b'Q'];
        let win = evaluate(&w);
        // Middle line: D D D Q → 3 diamonds (100); top: T T T Q (12); bottom: J J J Q (12);
        // line 8 (1,0,0,0,1): D T T → nothing.
        assert!(win.lines.contains(&(0, b'D', 3, 100)) && win.lines.contains(&(1, b'T', 3, 12)));
        let w: Window =
            [[b'S', b'T', b'J'], [b'S', b'K', b'J'], [b'T', b'S', b'Q'], [b'A', b'K', b'Q'], [b'A', b'K', b'T']];
        let win = evaluate(&w);
        assert_eq!(win.scatters, 3);
        assert_eq!(win.units, 20, "three scatters pay twice the bet");
        // Stop 8 puts a scatter at the top of every reel: five scatters, then eight free spins.
        let f = 8.5 / 20.0;
        let (_, outcome) = play(&[f; FLOATS]);
        assert_eq!(outcome["free_spins"], 8);
        assert_eq!(outcome["spins"].as_array().map(Vec::len), Some(9));
    }
}
