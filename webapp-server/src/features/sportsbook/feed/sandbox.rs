//! The sandbox feed: a calendar of football, tennis, basketball and ice hockey that is a pure
//! function of a seed and the clock, so tests are deterministic and every replica sees the same
//! sport.
//!
//! - **Calendar.** Every UTC day has 48 kick-off slots, one every 30 minutes round the clock (so
//!   something is always in play); slot `s` of day `d` draws its sport, league, teams and
//!   strengths from `SplitMix(hash(seed, d, s))`. Leagues have twelve teams (players, in
//!   tennis), each with a rating drawn from the seed. A snapshot shows the events from one day
//!   back to two days ahead.
//! - **What happens.** Each match's scoring chances are drawn up front from its own generator:
//!   football and ice hockey in 5- and 3-minute intervals where each side scores with a
//!   probability set by the ratings, basketball as 96 possessions a side worth two points each
//!   (a tie at the end goes to overtime: one more basket to a side drawn up front), tennis as
//!   best of three sets. The score at any moment is what happened before it.
//! - **Prices** come from [`pricing`] on the distribution of the final score given the score
//!   now and the chances left, with a 5% margin; before kick-off the ratings drift a little every
//!   15 minutes, so pre-match prices move too, and in play they move with the clock and the score.
//! - **Suspensions.** Every market of a match is suspended for a minute after a goal (two
//!   minutes after a tennis set), and a market whose outcome is (nearly) decided is suspended
//!   for good until the end.
//! - **Results.** At the final whistle every market is settled from the final score
//!   ([`MarketKind::settle`]). One event in 60 is called off before it starts: its markets are
//!   cancelled.

use super::pricing::{self, Dist, Joint, ONE};
use super::{EventStatus, Feed, FeedError, FeedEvent, FeedMarket, Sport};
use crate::features::sportsbook::markets::{Line, MarketKind, MarketState};
use crate::features::sportsbook::rng::SplitMix;
use futures::future::BoxFuture;

const MINUTE: i64 = 60_000;
const DAY: i64 = 24 * 60 * MINUTE;
const SLOT: i64 = 30 * MINUTE;
/// Margin on every sandbox price, in basis points.
pub const MARGIN_BP: u32 = 500;

const TOWNS: [&str; 24] = [
    "Ashford",
    "Belmont",
    "Carrow",
    "Dunmore",
    "Eastwick",
    "Fairhaven",
    "Glenrock",
    "Harlow",
    "Ironbridge",
    "Kingsport",
    "Lakeside",
    "Millbrook",
    "Northgate",
    "Oakridge",
    "Portree",
    "Queensbury",
    "Redcliff",
    "Stonebridge",
    "Thornbury",
    "Upton",
    "Valemont",
    "Westmarch",
    "Yarrow",
    "Zennor",
];
const SURNAMES: [&str; 24] = [
    "Almeida", "Berger", "Castro", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat", "Ivanova", "Jansen", "Kowalski",
    "Laurent", "Moreau", "Novak", "Okafor", "Petrov", "Quinn", "Rossi", "Sato", "Tanaka", "Urban", "Varga", "Weber",
    "Zhang",
];
const INITIALS: &[u8] = b"ABCDEFGHJKLMNPRST";

struct SportRules {
    sport: Sport,
    leagues: [&'static str; 3],
    nicknames: &'static [&'static str],
    /// Wall-clock length of a match, minutes.
    length: i64,
    /// Minutes of play shown on the clock at the end.
    play: u32,
    /// Scoring intervals per side.
    intervals: u32,
    /// Points a successful interval is worth.
    step: u32,
}

const RULES: [SportRules; 4] = [
    SportRules {
        sport: Sport::Football,
        leagues: ["Premier Division", "Championship North", "Continental Cup"],
        nicknames: &["FC", "United", "Athletic", "Rovers", "City", "Wanderers"],
        length: 95,
        play: 90,
        intervals: 18,
        step: 1,
    },
    SportRules {
        sport: Sport::Tennis,
        leagues: ["Harbour Open", "Clay Masters", "Indoor Challenger"],
        nicknames: &[],
        length: 90,
        play: 90,
        intervals: 3,
        step: 1,
    },
    SportRules {
        sport: Sport::Basketball,
        leagues: ["National Basketball League", "Euro Hoops", "College Division"],
        nicknames: &["Hawks", "Giants", "Comets", "Bears", "Knights", "Storm"],
        length: 100,
        play: 48,
        intervals: 96,
        step: 2,
    },
    SportRules {
        sport: Sport::IceHockey,
        leagues: ["Northern Ice League", "Continental Hockey", "Junior Elite"],
        nicknames: &["Wolves", "Blades", "Flyers", "Lynx", "Rangers", "Frost"],
        length: 70,
        play: 60,
        intervals: 20,
        step: 1,
    },
];

fn rules(sport: Sport) -> &'static SportRules {
    RULES.iter().find(|r| r.sport == sport).unwrap_or(&RULES[0])
}

/// FNV-1a over the parts: a stable seed per calendar slot, league or match.
fn hash(parts: &[u64]) -> u64 {
    parts
        .iter()
        .flat_map(|p| p.to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// One match, fixed by the seed: who plays and what will happen.
#[derive(Debug, Clone)]
struct Match {
    id: String,
    sport: Sport,
    league: String,
    home: String,
    away: String,
    starts_at: i64,
    /// Ratings 0–100.
    ratings: (u64, u64),
    cancelled: bool,
    /// Each score change: when (unix ms) and which side (true: home), worth `step`.
    scores: Vec<(i64, bool)>,
    seed: u64,
}

impl Match {
    fn generate(seed: u64, day: i64, slot: i64) -> Match {
        let mut rng = SplitMix::new(hash(&[seed, day as u64, slot as u64]));
        let sport = match rng.below(20) {
            0..=9 => Sport::Football,
            10..=13 => Sport::Tennis,
            14..=16 => Sport::Basketball,
            _ => Sport::IceHockey,
        };
        let r = rules(sport);
        let league_index = rng.below(3) as usize;
        let league = r.leagues[league_index];
        let teams = league_teams(seed, sport, league_index);
        let home = rng.below(teams.len() as u64) as usize;
        let away = (home + 1 + rng.below(teams.len() as u64 - 1) as usize) % teams.len();
        let starts_at = day * DAY + slot * SLOT;
        let ratings = (teams[home].1, teams[away].1);
        let cancelled = rng.below(60) == 0;
        let match_seed = hash(&[seed, day as u64, slot as u64, 1]);
        let mut m = Match {
            id: format!("sbx-{day}-{slot}"),
            sport,
            league: league.to_owned(),
            home: teams[home].0.clone(),
            away: teams[away].0.clone(),
            starts_at,
            ratings,
            cancelled,
            scores: Vec::new(),
            seed: match_seed,
        };
        m.scores = m.play_out();
        m
    }

    fn rules(&self) -> &'static SportRules {
        rules(self.sport)
    }

    fn interval_ms(&self) -> i64 {
        i64::from(self.rules().play) * MINUTE / i64::from(self.rules().intervals)
    }

    fn ends_at(&self) -> i64 {
        self.starts_at + self.rules().length * MINUTE
    }

    /// The chance (in [`ONE`] units) that a side takes one interval, from the ratings
    /// (`shift`: a pre-match drift in rating points).
    fn chances(&self, shift: i64) -> (u128, u128) {
        let diff = (self.ratings.0 as i64 - self.ratings.1 as i64 + shift).clamp(-100, 100);
        // Per-sport base rates (per mille) and how much a rating point moves them.
        let (home_base, away_base, per_point) = match self.sport {
            Sport::Football => (82, 64, 5),     // about 1.5 and 1.15 goals over 18 intervals
            Sport::IceHockey => (150, 130, 6),  // about 3.0 and 2.6 goals over 20
            Sport::Basketball => (525, 505, 2), // about 101 and 97 points
            Sport::Tennis => (520, 480, 4),     // a set
        };
        let scale = |base: i64, d: i64| -> u128 {
            let per_mille = (base * 10 + d * per_point).clamp(50, 9_950);
            ONE * per_mille as u128 / 10_000
        };
        if self.sport == Sport::Tennis {
            let home = scale(500, diff * 2);
            return (home, ONE - home);
        }
        (scale(home_base, diff), scale(away_base, -diff))
    }

    /// What happens in the match, drawn once from its seed.
    fn play_out(&self) -> Vec<(i64, bool)> {
        let mut rng = SplitMix::new(self.seed);
        let (ph, pa) = self.chances(0);
        let to_ppm = |p: u128| (p * 1_000_000 / ONE) as u64;
        let interval = self.interval_ms();
        let mut scores = Vec::new();
        if self.sport == Sport::Tennis {
            let (mut h, mut a) = (0, 0);
            for set in 0..3_i64 {
                if h == 2 || a == 2 {
                    break;
                }
                let home = rng.chance(to_ppm(ph));
                scores.push((self.starts_at + (set + 1) * interval - MINUTE, home));
                if home { h += 1 } else { a += 1 }
            }
            return scores;
        }
        for i in 0..i64::from(self.rules().intervals) {
            for home in [true, false] {
                if rng.chance(to_ppm(if home { ph } else { pa })) {
                    let at = self.starts_at + i * interval + rng.below(interval as u64) as i64;
                    scores.push((at, home));
                }
            }
        }
        scores.sort_by_key(|(at, home)| (*at, !*home));
        if self.sport == Sport::Basketball {
            let (h, a) = tally(&scores, i64::MAX);
            if h == a {
                scores.push((self.starts_at + i64::from(self.rules().play) * MINUTE + MINUTE, rng.below(2) == 0));
            }
        }
        scores
    }

    fn score_at(&self, now: i64) -> (u32, u32) {
        let (h, a) = tally(&self.scores, now);
        (h * self.rules().step, a * self.rules().step)
    }

    /// The distribution of the final score given the score at `now`.
    fn final_joint(&self, now: i64) -> Joint {
        let (h, a) = self.score_at(now);
        let shift = if now < self.starts_at { drift(self.seed, now) } else { 0 };
        let (ph, pa) = self.chances(shift);
        let r = self.rules();
        let elapsed = ((now - self.starts_at).max(0) / self.interval_ms()).min(i64::from(r.intervals)) as u32;
        if self.sport == Sport::Tennis {
            return tennis_joint(h, a, ph);
        }
        let left = r.intervals - elapsed.min(r.intervals);
        let home: Dist = pricing::binomial(left, ph, r.step, h);
        let away: Dist = pricing::binomial(left, pa, r.step, a);
        pricing::joint(&home, &away)
    }

    /// The markets offered: their kinds are fixed by the pre-match ratings, so keys are stable.
    fn kinds(&self) -> Vec<MarketKind> {
        let diff = self.ratings.0 as i64 - self.ratings.1 as i64;
        match self.sport {
            Sport::Football => {
                // The handicap nearest the expected goal difference, in quarters (≈ diff / 60 goals).
                let quarters = (-(diff * 4 + 30 * diff.signum()) / 60).clamp(-8, 8) as i32;
                vec![
                    MarketKind::MatchResult,
                    MarketKind::DoubleChance,
                    MarketKind::Totals(Line(10)),
                    MarketKind::Totals(Line(9)),
                    MarketKind::Handicap(Line(if quarters == 0 { -1 } else { quarters })),
                    MarketKind::BothTeamsToScore,
                    MarketKind::CorrectScore,
                ]
            }
            Sport::IceHockey => vec![
                MarketKind::MatchResult,
                MarketKind::Totals(Line(22)),
                MarketKind::Handicap(Line(if diff >= 0 { -6 } else { 6 })),
            ],
            Sport::Basketball => {
                // 0.4 points a rating point; the half line next to it, away from zero.
                let points = (diff * 2 / 5) as i32;
                let half_line = -points * 4 + if points >= 0 { -2 } else { 2 };
                vec![
                    MarketKind::Moneyline,
                    MarketKind::Totals(Line(4 * 198 + 2)),
                    MarketKind::Handicap(Line(half_line)),
                ]
            }
            Sport::Tennis => vec![
                MarketKind::Moneyline,
                MarketKind::Totals(Line(10)),
                MarketKind::Handicap(Line(if diff >= 0 { -6 } else { 6 })),
                MarketKind::CorrectScore,
            ],
        }
    }

    fn snapshot(&self, now: i64) -> FeedEvent {
        let status = if self.cancelled && now >= self.starts_at - 10 * MINUTE {
            EventStatus::Cancelled
        } else if now < self.starts_at {
            EventStatus::Scheduled
        } else if now < self.ends_at() {
            EventStatus::Live
        } else {
            EventStatus::Finished
        };
        let score = (status != EventStatus::Scheduled && status != EventStatus::Cancelled).then(|| self.score_at(now));
        let clock = (status == EventStatus::Live)
            .then(|| u32::try_from((now - self.starts_at) / MINUTE).unwrap_or(0).min(self.rules().play));
        let quiet = match self.sport {
            Sport::Tennis => 2 * MINUTE,
            Sport::Basketball => 0,
            _ => MINUTE,
        };
        let suspended = status == EventStatus::Live && self.scores.iter().any(|(at, _)| *at <= now && now < at + quiet);
        let joint = (status == EventStatus::Scheduled || status == EventStatus::Live).then(|| self.final_joint(now));
        let markets = self
            .kinds()
            .into_iter()
            .map(|kind| match (status, &joint, score) {
                (EventStatus::Cancelled, _, _) => {
                    FeedMarket { kind, state: MarketState::Cancelled, prices: Vec::new(), results: Vec::new() }
                }
                (EventStatus::Finished, _, Some((h, a))) => FeedMarket {
                    kind,
                    state: MarketState::Settled,
                    prices: Vec::new(),
                    results: super::results_from_score(kind, h, a),
                },
                (_, Some(joint), _) => match pricing::price(kind, joint, MARGIN_BP) {
                    Some(prices) => FeedMarket {
                        kind,
                        state: if suspended { MarketState::Suspended } else { MarketState::Active },
                        prices,
                        results: Vec::new(),
                    },
                    None => FeedMarket { kind, state: MarketState::Suspended, prices: Vec::new(), results: Vec::new() },
                },
                _ => FeedMarket { kind, state: MarketState::Suspended, prices: Vec::new(), results: Vec::new() },
            })
            .collect();
        FeedEvent {
            id: self.id.clone(),
            sport: self.sport,
            league: self.league.clone(),
            home: self.home.clone(),
            away: self.away.clone(),
            starts_at: self.starts_at,
            status,
            clock,
            score,
            markets,
        }
    }
}

fn tally(scores: &[(i64, bool)], until: i64) -> (u32, u32) {
    scores
        .iter()
        .filter(|(at, _)| *at <= until)
        .fold((0, 0), |(h, a), (_, home)| if *home { (h + 1, a) } else { (h, a + 1) })
}

/// A pre-match drift of the ratings, -3 to +3 points, new every 15 minutes.
fn drift(seed: u64, now: i64) -> i64 {
    SplitMix::new(hash(&[seed, (now / (15 * MINUTE)) as u64, 2])).below(7) as i64 - 3
}

/// Best of three sets from `h`–`a` with `p` the home side's chance of a set.
fn tennis_joint(h: u32, a: u32, p: u128) -> Joint {
    if h == 2 || a == 2 {
        return vec![((h, a), ONE)];
    }
    let q = ONE - p;
    let mut out: Joint = Vec::new();
    for ((fh, fa), w) in tennis_joint(h + 1, a, p) {
        out.push(((fh, fa), (w * p) >> 48));
    }
    for ((fh, fa), w) in tennis_joint(h, a + 1, p) {
        match out.iter_mut().find(|(s, _)| *s == (fh, fa)) {
            Some((_, existing)) => *existing += (w * q) >> 48,
            None => out.push(((fh, fa), (w * q) >> 48)),
        }
    }
    out
}

/// The teams (or players) of a league with their ratings.
fn league_teams(seed: u64, sport: Sport, league: usize) -> Vec<(String, u64)> {
    let mut rng = SplitMix::new(hash(&[seed, sport as u64, league as u64, 3]));
    let r = rules(sport);
    let mut names: Vec<String> = Vec::new();
    while names.len() < 12 {
        let name = if sport == Sport::Tennis {
            let initial = char::from(*rng.pick(INITIALS).unwrap_or(&b'A'));
            format!("{initial}. {}", rng.pick(&SURNAMES).unwrap_or(&"Novak"))
        } else {
            format!("{} {}", rng.pick(&TOWNS).unwrap_or(&"Upton"), rng.pick(r.nicknames).unwrap_or(&"FC"))
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.into_iter().map(|n| (n, rng.range(10, 90))).collect()
}

/// The sandbox feed of `seed`.
#[derive(Debug, Clone)]
pub struct Sandbox {
    seed: u64,
}

impl Sandbox {
    pub fn new(seed: u64) -> Sandbox {
        Sandbox { seed }
    }

    /// Every event from one day before `now` to two days after, in kick-off order.
    pub fn snapshot(&self, now: i64) -> Vec<FeedEvent> {
        let today = now.div_euclid(DAY);
        let mut events = Vec::new();
        for day in today - 1..=today + 2 {
            for slot in 0..DAY / SLOT {
                let m = Match::generate(self.seed, day, slot);
                if m.starts_at >= now - DAY && m.starts_at <= now + 2 * DAY {
                    events.push(m.snapshot(now));
                }
            }
        }
        events
    }

    /// One event of the calendar by id, at `now` (whatever its distance from now).
    pub fn event(&self, id: &str, now: i64) -> Option<FeedEvent> {
        let (day, slot) = id.strip_prefix("sbx-")?.split_once('-')?;
        let (day, slot): (i64, i64) = (day.parse().ok()?, slot.parse().ok()?);
        (0..DAY / SLOT).contains(&slot).then(|| Match::generate(self.seed, day, slot).snapshot(now))
    }
}

impl Feed for Sandbox {
    fn name(&self) -> &str {
        "sandbox"
    }

    fn events(&self, now: i64) -> BoxFuture<'_, Result<Vec<FeedEvent>, FeedError>> {
        Box::pin(async move { Ok(self.snapshot(now)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::sportsbook::settle::Outcome;

    /// 2026-01-05 12:00 UTC.
    const NOON: i64 = 1_767_614_400_000;

    #[test]
    fn a_seed_gives_the_same_calendar_and_another_seed_another() {
        let a = Sandbox::new(7).snapshot(NOON);
        assert_eq!(a, Sandbox::new(7).snapshot(NOON));
        assert_ne!(a, Sandbox::new(8).snapshot(NOON));
        assert_eq!(a.len(), 48 * 3 + 1);
        for sport in Sport::ALL {
            assert!(a.iter().any(|e| e.sport == sport), "no {sport:?}");
        }
        assert!(a.iter().all(|e| e.home != e.away));
    }

    #[test]
    fn something_is_always_in_play_and_its_prices_move() {
        let feed = Sandbox::new(11);
        for minute in (0..24 * 60).step_by(7) {
            let now = NOON + minute * MINUTE;
            let live = feed.snapshot(now).into_iter().filter(|e| e.status == EventStatus::Live).count();
            assert!(live >= 2, "{live} live at minute {minute}");
        }
        let event =
            feed.snapshot(NOON).into_iter().find(|e| e.status == EventStatus::Live && e.sport == Sport::Football);
        let event = event.expect("a live football match");
        let later = feed.event(&event.id, NOON + 10 * MINUTE).expect("the same match");
        assert_ne!(event.markets, later.markets, "prices did not move in ten minutes");
        let upcoming = feed.snapshot(NOON).into_iter().find(|e| e.status == EventStatus::Scheduled).expect("upcoming");
        let moved = (1..12).any(|q| {
            feed.event(&upcoming.id, NOON + q * 15 * MINUTE).map(|e| e.markets) != Some(upcoming.markets.clone())
        });
        assert!(moved, "pre-match prices never moved");
    }

    #[test]
    fn finished_matches_are_settled_from_their_final_score() {
        let feed = Sandbox::new(3);
        let finished: Vec<FeedEvent> =
            feed.snapshot(NOON).into_iter().filter(|e| e.status == EventStatus::Finished).collect();
        assert!(finished.len() > 10);
        for event in finished {
            let (h, a) = event.score.expect("a final score");
            if event.sport == Sport::Basketball || event.sport == Sport::Tennis {
                assert_ne!(h, a, "{event:?}");
            }
            if event.sport == Sport::Tennis {
                assert!(h == 2 || a == 2);
            }
            for market in &event.markets {
                assert_eq!(market.state, MarketState::Settled);
                assert!(market.prices.is_empty());
                // Something won, or (a whole handicap or total line) the stakes come back.
                let paid = market.results.iter().any(|(_, o)| o.won || *o == Outcome::VOID);
                assert!(paid, "{:?} {h}:{a}", market.kind);
                if market.kind == MarketKind::MatchResult {
                    let draw = market.results.iter().find(|(s, _)| s == "draw").map(|(_, o)| *o);
                    assert_eq!(draw, Some(if h == a { Outcome::WON } else { Outcome::LOST }));
                }
            }
        }
    }

    #[test]
    fn markets_suspend_after_a_goal_and_the_favourite_is_shorter() {
        let feed = Sandbox::new(5);
        let mut suspended = 0;
        for e in feed.snapshot(NOON) {
            if e.status != EventStatus::Scheduled || e.sport != Sport::Football {
                continue;
            }
            let kinds: Vec<MarketKind> = e.markets.iter().map(|m| m.kind).collect();
            assert!(kinds.contains(&MarketKind::CorrectScore));
            let one_x_two = &e.markets[0];
            assert_eq!(one_x_two.state, MarketState::Active);
            assert_eq!(one_x_two.prices.len(), 3);
            // The book's margin: the implied probabilities add up to more than one.
            let implied: u64 = one_x_two.prices.iter().map(|(_, o)| 10_000 * 10_000 / o.scaled()).sum();
            assert!(implied > 10_000 && implied < 11_000, "{implied}");
        }
        for minute in 0..24 * 60 {
            let now = NOON + minute * MINUTE;
            suspended += feed
                .snapshot(now)
                .iter()
                .filter(|e| e.status == EventStatus::Live && e.sport == Sport::Football)
                .filter(|e| e.markets.iter().all(|m| m.state == MarketState::Suspended))
                .count();
            if suspended > 3 {
                break;
            }
        }
        assert!(suspended > 3, "no goal ever suspended a market");
    }

    #[test]
    fn tennis_set_scores_add_up() {
        let j = tennis_joint(0, 0, ONE / 2);
        let total: u128 = j.iter().map(|(_, p)| p).sum();
        assert!(ONE - total < 16, "{total}");
        assert_eq!(j.len(), 4);
        assert_eq!(tennis_joint(1, 1, ONE / 2).len(), 2);
    }
}
