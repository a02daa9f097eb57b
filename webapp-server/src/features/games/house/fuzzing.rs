//! The fuzz entry point of a house round's request (`croupier_server::fuzzing::house_round`): the
//! body as the round route reads it, then the bet and the game's parameters as a paid round
//! checks them (`round::paid_bet`), in every currency.

use super::round::{Play, RoundRequest, paid_bet};
use super::{GAMES, MAX_WIN_MAJOR, dice, limits, mines, plinko, roulette};
use arbitrary::{Result, Unstructured};
use croupier_shared::{Currency, Money};
use serde_json::{Value, json};

/// A round's request: the first byte picks the game, the second the currency, the rest is the
/// JSON body. Whatever is accepted is within the game's declared limits (the bet between the
/// table's smallest and largest, each parameter in its range, roulette's chips adding up to the
/// bet), and a request built within those limits is accepted.
pub fn round(data: &[u8]) {
    if let [game, currency, body @ ..] = data {
        let sysname = GAMES[usize::from(*game) % GAMES.len()];
        let currency = Currency::all()[usize::from(*currency) % Currency::all().len()];
        check(sysname, currency, body);
    }
    let _ = built_round(&mut Unstructured::new(data));
}

/// Reads `body` as the round route does; answers whether it was accepted.
fn check(sysname: &str, currency: Currency, body: &[u8]) -> bool {
    let Ok(request) = serde_json::from_slice::<RoundRequest>(body) else { return false };
    let Ok((bet, play)) = paid_bet(sysname, &request, currency) else { return false };
    let text = String::from_utf8_lossy(body);
    let limits = limits(sysname).unwrap_or_else(|| panic!("{sysname} was accepted without limits"));
    let (min, max) = limits.bets(currency);
    assert_eq!(bet.currency(), currency);
    assert!(
        (min..=max).contains(&bet.minor()),
        "{sysname} {currency}: bet {} outside {min}..={max}: {text}",
        bet.minor()
    );
    match play {
        Play::Dice(p) => {
            assert_eq!(sysname, "dice");
            assert!((dice::TARGET_MIN..=dice::TARGET_MAX).contains(&p.target), "dice target {}: {text}", p.target);
            assert!(p.multiplier_e4() <= limits.max_multiplier * 10_000, "dice pays over its limit: {text}");
        }
        Play::Mines(count) => {
            assert_eq!(sysname, "mines");
            assert!((1..mines::CELLS).contains(&count), "{count} mines: {text}");
        }
        Play::Plinko(p) => {
            assert_eq!(sysname, "plinko");
            assert!(plinko::ROWS.contains(&p.rows) && plinko::RISKS.contains(&p.risk), "{p:?}: {text}");
            let top = plinko::table(p.rows, p.risk).into_iter().max().unwrap_or_default();
            assert!(top <= limits.max_multiplier * 100, "plinko pays over its limit: {text}");
        }
        Play::Roulette(chips) => {
            assert_eq!(sysname, "roulette");
            assert!((1..=roulette::MAX_CHIPS).contains(&chips.len()), "{} chips: {text}", chips.len());
            assert!(chips.iter().all(|c| c.amount >= min), "a chip under the table minimum: {text}");
            let total: i128 = chips.iter().map(|c| i128::from(c.amount)).sum();
            assert_eq!(total, i128::from(bet.minor()), "the chips add up to the bet: {text}");
            for chip in &chips {
                let (kind, number) = chip.kind.name();
                let again = roulette::Kind::parse(kind, number.map(i64::from));
                assert_eq!(again, Some(chip.kind), "a chip on a bet the table does not have: {text}");
            }
        }
        Play::Classic | Play::Video => assert!(matches!(sysname, "lucky-sevens" | "gem-rush"), "{sysname}"),
    }
    // Whatever the draw, the win paid is capped by the game and by the round's ceiling.
    let win = limits.cap(bet.minor(), i128::from(bet.minor()) * 1_000_000, currency);
    assert!(win >= 0 && win <= bet.minor().saturating_mul(limits.max_multiplier));
    assert!(i128::from(win) <= i128::from(MAX_WIN_MAJOR) * i128::from(currency.scale()));
    true
}

/// `minor` units of `currency` as the decimal text a client sends.
fn decimal(minor: i128, currency: Currency) -> String {
    let scale = i128::from(currency.scale());
    let exponent = usize::from(currency.exponent());
    let sign = if minor < 0 { "-" } else { "" };
    let (whole, fraction) = (minor.abs() / scale, minor.abs() % scale);
    if exponent == 0 { format!("{sign}{whole}") } else { format!("{sign}{whole}.{fraction:0exponent$}") }
}

/// An amount near the table's limits, or anywhere at all.
fn amount(u: &mut Unstructured, min: i64, max: i64) -> Result<i128> {
    Ok(match u.int_in_range(0..=3)? {
        0 => i128::from(u.arbitrary::<i64>()?),
        1 => i128::from(min) + i128::from(u.int_in_range(-2..=2)?),
        2 => i128::from(max) + i128::from(u.int_in_range(-2..=2)?),
        _ => i128::from(u.int_in_range(min..=max)?),
    })
}

fn built_round(u: &mut Unstructured) -> Result<()> {
    let sysname = *u.choose(&GAMES)?;
    let currency = *u.choose(Currency::all())?;
    let Some(limits) = limits(sysname) else { return Ok(()) };
    let (min, max) = limits.bets(currency);
    let mut bet = amount(u, min, max)?;
    let mut body = json!({ "token": "t" });
    // Whether the parameters are in the game's range (the bet is judged below).
    let in_range = match sysname {
        "dice" => {
            let target: i64 = if u.arbitrary()? { u.int_in_range(0..=10_001)? } else { u.arbitrary()? };
            body["target"] = if u.arbitrary()? {
                json!(format!("{}.{:02}", target / 100, (target % 100).abs()))
            } else {
                json!(target as f64 / 100.0)
            };
            let condition = *u.choose(&["over", "under", "sideways"])?;
            body["condition"] = json!(condition);
            (dice::TARGET_MIN..=dice::TARGET_MAX).contains(&target) && condition != "sideways"
        }
        "mines" => {
            let count: i64 = u.int_in_range(-1..=26)?;
            body["mines"] = if u.arbitrary()? { json!(count) } else { json!(count.to_string()) };
            (1..25).contains(&count)
        }
        "plinko" => {
            let rows: u64 = *u.choose(&[0, 8, 9, 12, 16, 17, u64::MAX])?;
            let risk = *u.choose(&["low", "medium", "high", "wild", ""])?;
            body["rows"] = if u.arbitrary()? { json!(rows) } else { json!(rows.to_string()) };
            body["risk"] = json!(risk);
            plinko::ROWS.iter().any(|r| *r as u64 == rows) && plinko::RISKS.contains(&risk)
        }
        "roulette" => {
            let mut chips = Vec::new();
            let mut valid = true;
            let mut total: i128 = 0;
            for _ in 0..u.int_in_range(0..=roulette::MAX_CHIPS + 2)? {
                let kind =
                    *u.choose(&["straight", "red", "black", "odd", "even", "low", "high", "dozen", "column", "split"])?;
                let number: i64 = u.int_in_range(-1..=38)?;
                let chip = amount(u, min, max)?;
                valid &= roulette::Kind::parse(kind, Some(number)).is_some() && chip >= i128::from(min);
                total += chip;
                chips.push(json!({ "type": kind, "number": number, "amount": decimal(chip, currency) }));
            }
            valid &= (1..=roulette::MAX_CHIPS).contains(&chips.len());
            if u.ratio(3, 4)? {
                bet = total;
            }
            valid &= total == bet;
            body["bets"] = json!(chips);
            valid
        }
        _ => true,
    };
    body["bet"] = Value::String(decimal(bet, currency));
    let text = body.to_string();
    let accepted = check(sysname, currency, text.as_bytes());
    let bet_ok = (i128::from(min)..=i128::from(max)).contains(&bet);
    assert_eq!(accepted, bet_ok && in_range, "{sysname} {currency}: {text}");
    // The amount the body names is the bet taken.
    if accepted {
        let request = serde_json::from_str::<RoundRequest>(&text).unwrap_or_else(|e| panic!("{e}"));
        let taken = paid_bet(sysname, &request, currency).map(|(bet, _)| bet);
        assert_eq!(taken.ok(), i64::try_from(bet).ok().map(|b| Money::from_minor(b, currency)));
    }
    Ok(())
}
