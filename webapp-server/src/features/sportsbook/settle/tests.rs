//! Settlement against known values from public bet calculators and, for random slips, against an
//! independent calculation (bit-mask combinations and plain 128-bit fractions).

use super::*;
use crate::features::sportsbook::rng::SplitMix;

fn odds(text: &str) -> Odds {
    Odds::parse(text).expect("valid odds")
}

fn legs(prices: &[&str], outcomes: &[Outcome]) -> Vec<Leg> {
    prices.iter().zip(outcomes).map(|(p, o)| Leg { odds: odds(p), outcome: Some(*o) }).collect()
}

const NO_CAP: i64 = i64::MAX;

#[test]
fn a_one_pound_yankee_on_four_winners() {
    // Evens, 2/1, 3/1, 4/1 all winning: 6 doubles 71, 4 trebles 154, the fourfold 120.
    let slip = Slip::new(BetKind::System(System::Yankee), legs(&["1/1", "2/1", "3/1", "4/1"], &[Outcome::WON; 4]), 100)
        .expect("a yankee takes four");
    assert_eq!(slip.lines.len(), 11);
    assert_eq!(slip.total_stake(), Some(1100));
    assert_eq!(slip.settle(NO_CAP), Some(34_500));
}

#[test]
fn a_lucky_15_with_one_void_leg() {
    // 2.0, 3.0, 4.0 win and the fourth is void (odds 1): singles 10, doubles 35, trebles 50,
    // the fourfold 24.
    let outcomes = [Outcome::WON, Outcome::WON, Outcome::WON, Outcome::VOID];
    let slip = Slip::new(BetKind::System(System::Lucky15), legs(&["2.0", "3.0", "4.0", "9.5"], &outcomes), 100)
        .expect("a lucky 15 takes four");
    assert_eq!(slip.total_stake(), Some(1500));
    assert_eq!(slip.settle(NO_CAP), Some(11_900));
}

#[test]
fn a_trixie_with_one_loser_keeps_the_double_that_won() {
    let outcomes = [Outcome::WON, Outcome::WON, Outcome::LOST];
    let slip = Slip::new(BetKind::System(System::Trixie), legs(&["2.5", "1.8", "3.0"], &outcomes), 50).expect("trixie");
    // Only the double of the first two: 0.50 × 2.5 × 1.8 = 2.25.
    assert_eq!(slip.settle(NO_CAP), Some(225));
    assert!(!slip.lost());
}

#[test]
fn asian_quarter_lines_are_two_half_stakes() {
    // £10 on −0.25 at 1.90 and the match is drawn: the half on 0 is refunded, the half on −0.5
    // lost: £5 back.
    let line = |outcome| Slip::new(BetKind::Single, legs(&["1.90"], &[outcome]), 1000).expect("single");
    assert_eq!(line(Outcome::HALF_LOST).settle(NO_CAP), Some(500));
    // +0.25 on the drawn side: half wins at 1.90 (9.50), half refunded (5): 14.50.
    assert_eq!(line(Outcome::HALF_WON).settle(NO_CAP), Some(1450));
    assert_eq!(line(Outcome::WON).settle(NO_CAP), Some(1900));
    assert_eq!(line(Outcome::LOST).settle(NO_CAP), Some(0));
    assert_eq!(line(Outcome::VOID).settle(NO_CAP), Some(1000));
}

#[test]
fn dead_heats_pay_the_factor_of_the_stake_at_full_odds() {
    // £10 at 6.0, a two-way dead heat: £5 at 6.0 = £30.
    let two_way = Outcome::new(true, Ratio::ZERO, Ratio::HALF).expect("valid");
    let single = Slip::new(BetKind::Single, legs(&["6.0"], &[two_way]), 1000).expect("single");
    assert_eq!(single.settle(NO_CAP), Some(3000));
    // A three-way dead heat in a double with a 2.0 winner: 10 × 2 × 7/3 = 46.666… → 46.66.
    let three_way = Outcome::new(true, Ratio::ZERO, Ratio::new(1, 3).expect("1/3")).expect("valid");
    let double =
        Slip::new(BetKind::Accumulator, legs(&["7.0", "2.0"], &[three_way, Outcome::WON]), 1000).expect("double");
    assert_eq!(double.settle(NO_CAP), Some(4666));
}

#[test]
fn payouts_round_down_once_per_line_and_respect_the_cap() {
    // 0.01 × 1.5 × 1.5 = 0.0225 → 0.02 (per-leg rounding would give 0.01 × 1.5 → 0.01 → 0.01).
    let slip = Slip::new(BetKind::Accumulator, legs(&["1.5", "1.5"], &[Outcome::WON; 2]), 1).expect("double");
    assert_eq!(slip.settle(NO_CAP), Some(2));
    let big = Slip::new(BetKind::Accumulator, legs(&["50", "50", "50"], &[Outcome::WON; 3]), 10_000).expect("treble");
    assert_eq!(big.settle(NO_CAP), Some(1_250_000_000));
    assert_eq!(big.settle(5_000_000), Some(5_000_000));
    assert_eq!(big.potential(5_000_000), 5_000_000);
}

#[test]
fn huge_accumulators_neither_overflow_nor_lose_precision() {
    // Twenty legs at 10000.0: the product is 10⁸⁰; the cap is what pays.
    let slip = Slip::new(BetKind::Accumulator, legs(&["10000"; 20], &[Outcome::WON; 20]), 100).expect("20 legs");
    assert_eq!(slip.settle(1_000_000_000), Some(1_000_000_000));
    // Twenty legs at 1.0001 on 1,000,000.00: 100000000 × 1.0001²⁰ = 100200190.11… → floor.
    let slip =
        Slip::new(BetKind::Accumulator, legs(&["1.0001"; 20], &[Outcome::WON; 20]), 100_000_000).expect("20 legs");
    assert_eq!(slip.settle(NO_CAP), Some(100_200_190));
}

#[test]
fn system_kinds_have_their_line_counts() {
    let counts = [
        (System::Trixie, 3, 4),
        (System::Patent, 3, 7),
        (System::Yankee, 4, 11),
        (System::Lucky15, 4, 15),
        (System::SuperYankee, 5, 26),
        (System::Lucky31, 5, 31),
        (System::Heinz, 6, 57),
        (System::Lucky63, 6, 63),
        (System::SuperHeinz, 7, 120),
        (System::Goliath, 8, 247),
        (System::From(2), 4, 6),
        (System::From(3), 6, 20),
        (System::From(1), 5, 5),
    ];
    for (system, m, lines) in counts {
        assert_eq!(system.lines(m).map(|l| l.len()), Some(lines), "{system:?}");
        assert_eq!(System::parse(&system.name()), Some(system));
    }
    assert_eq!(System::Yankee.lines(5), None);
    assert_eq!(System::From(4).lines(3), None);
    assert_eq!(System::parse("lucky 15"), Some(System::Lucky15));
    assert_eq!(System::parse("from_0"), None);
    assert_eq!(BetKind::Accumulator.lines(1), None);
    assert_eq!(BetKind::Single.lines(2), None);
}

#[test]
fn cash_out_at_unchanged_prices_is_the_stake_less_the_margin() {
    let open: Vec<Leg> = ["2.0", "3.0", "1.5"].iter().map(|p| Leg { odds: odds(p), outcome: None }).collect();
    let slip = Slip::new(BetKind::System(System::Trixie), open.clone(), 1000).expect("trixie");
    let now: Vec<Option<Odds>> = open.iter().map(|l| Some(l.odds)).collect();
    assert_eq!(slip.cash_out(&now, 0, NO_CAP), Some(4000));
    assert_eq!(slip.cash_out(&now, 500, NO_CAP), Some(3800));
    // The first leg won and the others are unchanged: the double of legs 1 and 2 is worth 20.00.
    let mut half = open.clone();
    half[0].outcome = Some(Outcome::WON);
    let acca = Slip::new(BetKind::Accumulator, half.clone(), 1000).expect("acca");
    assert_eq!(acca.cash_out(&now, 0, NO_CAP), Some(2000));
    // The second leg shortened from 3.0 to 1.5: its chance doubled, and so did the value.
    let shorter = [Some(odds("2.0")), Some(odds("1.5")), Some(odds("1.5"))];
    assert_eq!(acca.cash_out(&shorter, 0, NO_CAP), Some(4000));
    // A suspended market has no price: no offer. A lost leg: nothing to offer.
    assert_eq!(acca.cash_out(&[Some(odds("2.0")), None, Some(odds("1.5"))], 0, NO_CAP), None);
    half[1].outcome = Some(Outcome::LOST);
    let lost = Slip::new(BetKind::Accumulator, half, 1000).expect("acca");
    assert!(lost.lost());
    assert_eq!(lost.cash_out(&now, 0, NO_CAP), None);
}

/// A random outcome among the kinds a feed sends.
fn random_outcome(rng: &mut SplitMix) -> Outcome {
    let dead_heats =
        [Ratio::ONE, Ratio::HALF, Ratio { num: 1, den: 3 }, Ratio { num: 2, den: 3 }, Ratio { num: 1, den: 4 }];
    match rng.below(7) {
        0 | 1 => Outcome::WON,
        2 | 3 => Outcome::LOST,
        4 => Outcome::VOID,
        5 => {
            if rng.below(2) == 0 {
                Outcome::HALF_WON
            } else {
                Outcome::HALF_LOST
            }
        }
        _ => Outcome::new(true, Ratio::ZERO, *rng.pick(&dead_heats).unwrap_or(&Ratio::ONE)).unwrap_or(Outcome::WON),
    }
}

/// The independent calculation: a leg's return per unit as a 128-bit fraction, written from the
/// definition (stake split into the refunded, won and lost parts), not from `Outcome::factor`.
fn reference_leg(odds: u64, o: &Outcome) -> (u128, u128) {
    let (vn, vd) = (u128::from(o.void_factor.num), u128::from(o.void_factor.den));
    let (dn, dd) = (u128::from(o.dead_heat.num), u128::from(o.dead_heat.den));
    let refunded = (vn * dd * 10_000, vd * dd * 10_000);
    if !o.won {
        return refunded;
    }
    let won = ((vd - vn) * dn * u128::from(odds), vd * dd * 10_000);
    (refunded.0 + won.0, refunded.1)
}

fn reduce(n: u128, d: u128) -> (u128, u128) {
    let (mut a, mut b) = (n, d);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1);
    (n / g, d / g)
}

fn reference_settle(stake: i64, prices: &[u64], outcomes: &[Outcome], sizes: &[usize]) -> i64 {
    let m = prices.len();
    let mut total = 0_i64;
    for mask in 1_u32..(1 << m) {
        if !sizes.contains(&(mask.count_ones() as usize)) {
            continue;
        }
        let (mut num, mut den) = (stake as u128, 1_u128);
        for i in 0..m {
            if mask & (1 << i) != 0 {
                let (n, d) = reference_leg(prices[i], &outcomes[i]);
                (num, den) = reduce(num * n, den * d);
            }
        }
        total += i64::try_from(num / den).expect("fits");
    }
    total
}

#[test]
fn random_system_bets_match_the_independent_calculation() {
    let mut rng = SplitMix::new(20);
    let kinds: [(System, usize, &[usize]); 8] = [
        (System::Trixie, 3, &[2, 3]),
        (System::Patent, 3, &[1, 2, 3]),
        (System::Yankee, 4, &[2, 3, 4]),
        (System::Lucky15, 4, &[1, 2, 3, 4]),
        (System::SuperYankee, 5, &[2, 3, 4, 5]),
        (System::Lucky31, 5, &[1, 2, 3, 4, 5]),
        (System::From(2), 5, &[2]),
        (System::From(3), 4, &[3]),
    ];
    for round in 0..4000 {
        let (system, m, sizes) = kinds[round % kinds.len()];
        let prices: Vec<u64> = (0..m).map(|_| rng.range(10_001, 200_000)).collect();
        let outcomes: Vec<Outcome> = (0..m).map(|_| random_outcome(&mut rng)).collect();
        let stake = rng.range(1, 1_000_000) as i64;
        let legs: Vec<Leg> = prices
            .iter()
            .zip(&outcomes)
            .map(|(&p, &o)| Leg { odds: Odds::from_scaled(p).expect("in range"), outcome: Some(o) })
            .collect();
        let slip = Slip::new(BetKind::System(system), legs.clone(), stake).expect("fits");
        let expected = reference_settle(stake, &prices, &outcomes, sizes);
        assert_eq!(slip.settle(NO_CAP), Some(expected), "round {round}: {system:?} {prices:?} {outcomes:?} {stake}");
        // The order of the selections changes nothing.
        let mut shuffled = legs;
        shuffled.reverse();
        shuffled.rotate_left(round % m);
        let again = Slip::new(BetKind::System(system), shuffled, stake).expect("fits");
        assert_eq!(again.settle(NO_CAP), Some(expected), "round {round}: order mattered");
        // The cap caps and nothing else.
        assert_eq!(slip.settle(expected / 2), Some(expected / 2));
    }
}

#[test]
fn random_accumulators_match_the_independent_calculation_and_potential_bounds_them() {
    let mut rng = SplitMix::new(21);
    for round in 0..4000 {
        let m = rng.range(2, 5) as usize;
        let prices: Vec<u64> = (0..m).map(|_| rng.range(10_001, 300_000)).collect();
        let outcomes: Vec<Outcome> = (0..m).map(|_| random_outcome(&mut rng)).collect();
        let stake = rng.range(1, 10_000_000) as i64;
        let mut legs: Vec<Leg> = prices
            .iter()
            .zip(&outcomes)
            .map(|(&p, &o)| Leg { odds: Odds::from_scaled(p).expect("in range"), outcome: Some(o) })
            .collect();
        let slip = Slip::new(BetKind::Accumulator, legs.clone(), stake).expect("fits");
        let settled = slip.settle(NO_CAP).expect("all settled");
        assert_eq!(settled, reference_settle(stake, &prices, &outcomes, &[m]), "round {round}");
        let lost_leg = outcomes.iter().any(|o| !o.won && o.void_factor == Ratio::ZERO);
        assert_eq!(slip.lost(), lost_leg);
        if lost_leg {
            assert_eq!(settled, 0);
        }
        // Before any result the potential is at least what it settles for.
        for leg in &mut legs {
            leg.outcome = None;
        }
        let open = Slip::new(BetKind::Accumulator, legs, stake).expect("fits");
        assert_eq!(open.settle(NO_CAP), None);
        assert!(open.potential(NO_CAP) >= settled, "round {round}");
    }
}

#[test]
fn the_wide_product_agrees_with_128_bit_arithmetic_where_that_fits() {
    let mut rng = SplitMix::new(22);
    for _ in 0..20_000 {
        let stake = rng.range(0, 1 << 40) as i64;
        let mut factors: Vec<(u64, u64)> = Vec::new();
        for _ in 0..rng.range(0, 2) {
            let shift = rng.range(0, 40);
            factors.push((rng.range(0, 1 << 40), rng.range(1, u64::MAX >> shift)));
        }
        let mut num = stake as u128;
        for (n, _) in &factors {
            num *= u128::from(*n);
        }
        let mut expected = num;
        for (_, d) in &factors {
            expected /= u128::from(*d);
        }
        assert_eq!(product_floor(stake, &factors), i64::try_from(expected).unwrap_or(i64::MAX), "{stake} {factors:?}");
    }
}
