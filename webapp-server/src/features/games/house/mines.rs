//! Mines: a 5×5 field hides 1 to 24 mines. The player bets, then opens cells one at a time and
//! may cash out after any safe cell; a mine ends the round with nothing. After k safe cells the
//! cash-out multiplier is 99 % × C(25, k) / C(25 − mines, k) — the inverse of the chance of
//! getting that far — rounded down to 1/10,000, so every strategy returns at most 99 %; the
//! enumeration test checks every (mines, k) pair. The mine layout is a Fisher–Yates shuffle of
//! the 25 cells by the round's provably-fair numbers, fixed when the round starts; the round's
//! state lives on the server and the layout is shown once the round ends.
//!
//! An abandoned round is never forfeited or settled behind the player's back: it stays open, its
//! stake held in game settlement, and the next launch of mines in the same mode and currency —
//! from any device, with a new token — resumes it (`/state` answers it and the page shows the
//! field), so the player can cash out what was won or play on. A new bet is refused while a
//! round is open. (Decision: an automatic cash-out would choose for the player; a refund would
//! let a player peek at cells risk-free.)

use serde_json::{Value, json};

pub const CELLS: usize = 25;
pub const FLOATS: usize = CELLS - 1;
pub const RTP_BP: i64 = 9_900;
/// The highest cash-out multiplier (uncapped paths return 99 %; beyond this they return less).
pub const MAX_MULTIPLIER: i64 = 10_000;

pub fn parse(value: &Value) -> Option<usize> {
    let m = value["mines"].as_u64().or_else(|| value["mines"].as_str()?.parse().ok())?;
    usize::try_from(m).ok().filter(|m| (1..CELLS).contains(m))
}

fn choose(n: usize, k: usize) -> u128 {
    (0..k).fold(1_u128, |acc, i| acc * (n - i) as u128 / (i as u128 + 1))
}

/// The cash-out multiplier in 1/10,000 after `safe` safe cells with `mines` mines.
pub fn multiplier_e4(mines: usize, safe: usize) -> i64 {
    if safe == 0 {
        return 0;
    }
    let m = u128::from(RTP_BP as u64) * choose(CELLS, safe) / choose(CELLS - mines, safe);
    i64::try_from(m).unwrap_or(i64::MAX).min(MAX_MULTIPLIER * 10_000)
}

/// The mine cells (0–24, row by row) from the round's numbers.
pub fn layout(floats: &[f64], mines: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..CELLS).collect();
    for (i, f) in floats.iter().take(FLOATS).enumerate() {
        let j = i + ((f * (CELLS - i) as f64) as usize).min(CELLS - i - 1);
        cells.swap(i, j);
    }
    let mut mines: Vec<usize> = cells.into_iter().take(mines).collect();
    mines.sort_unstable();
    mines
}

pub fn fmt_e4(m: i64) -> String {
    format!("{}.{:04}", m / 10_000, m % 10_000)
}

pub fn paytable() -> Value {
    let rows: Vec<Value> = (1..CELLS)
        .map(|m| json!({ "mines": m, "multipliers": (1..=CELLS - m).map(|k| fmt_e4(multiplier_e4(m, k))).collect::<Vec<_>>() }))
        .collect();
    json!({ "cells": CELLS, "table": rows, "max_multiplier": MAX_MULTIPLIER })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cash_out_point_returns_at_most_99_percent_by_enumeration() {
        for mines in 1..CELLS {
            for safe in 1..=CELLS - mines {
                let m = multiplier_e4(mines, safe);
                // chance of `safe` safe cells × multiplier, in millionths.
                let rtp_ppm = choose(CELLS - mines, safe) * m as u128 * 100 / choose(CELLS, safe);
                assert!(rtp_ppm <= 990_000, "{mines} mines, {safe} safe: {rtp_ppm}");
                if m < MAX_MULTIPLIER * 10_000 {
                    assert!(rtp_ppm >= 989_900, "{mines} mines, {safe} safe: {rtp_ppm}");
                }
            }
        }
        assert_eq!(multiplier_e4(1, 1), 10_312);
        assert_eq!(multiplier_e4(24, 1), 247_500);
    }

    #[test]
    fn the_layout_has_the_mines_asked_for_and_depends_on_the_numbers() {
        let floats = crate::features::games::house::fair::floats("s", "c", 1, FLOATS);
        for mines in 1..CELLS {
            let l = layout(&floats, mines);
            assert_eq!(l.len(), mines);
            assert!(l.windows(2).all(|w| w[0] < w[1]) && l.iter().all(|c| *c < CELLS));
        }
        let other = crate::features::games::house::fair::floats("s", "c", 2, FLOATS);
        assert_ne!(layout(&floats, 5), layout(&other, 5));
        // All zeros keep the identity: the first cells are the mines.
        assert_eq!(layout(&[0.0; FLOATS], 3), vec![0, 1, 2]);
        // Over many rounds every cell is a mine about as often.
        let mut hits = [0_u32; CELLS];
        for nonce in 0..5_000 {
            for c in layout(&crate::features::games::house::fair::floats("s", "c", nonce, FLOATS), 1) {
                hits[c] += 1;
            }
        }
        assert!(hits.iter().all(|h| (120..=280).contains(h)), "{hits:?}");
    }
}
