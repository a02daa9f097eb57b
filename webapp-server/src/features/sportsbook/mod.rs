//! The house sportsbook (issue 20): exact odds, markets, settlement arithmetic, an odds-feed port
//! with a seeded sandbox feed and a The Odds API v4 adapter, the stored calendar, bet placement,
//! settlement and cash-out.
//!
//! Layers, bottom up:
//! - [`odds`], [`markets`], [`settle`]: the domain, pure (no I/O). Odds are integers (decimal
//!   odds × 10,000); a selection's result is won/lost with a void factor (0, ½, 1) and a
//!   dead-heat factor; a bet is lines of legs (singles, accumulators, system bets expanded into
//!   their combinations) whose return is computed exactly and rounded down once per line.
//! - [`feed`]: the port and its adapters ([`feed::sandbox`], [`feed::odds_api`]).
//! - [`store`]: the job that writes the feed's snapshot (migration 0025) and marks the bets whose
//!   markets' results changed; [`settlement`] recomputes them through the ledger.
//! - [`catalog`] and [`bets`]: the `/api` methods.
//! - [`live`]: `GET /live/sportsbook?events=…`, the changes the feed writes pushed to open pages.
//! - [`sandbox_clock`]: `POST /admin/sportsbook/sandbox/advance`, the sandbox feed's time moved forward.
//! - [`wallet`]: the money of a sports bet (stake, settlement versions, cancel, rollback), one
//!   ledger transaction each; house bets and external providers' bets both move money through it.
//! - [`provider`]: the signed sportsbook wallet protocol external sportsbook providers call
//!   (`POST /provider/sportsbook/{provider}/{action}`), with `sportsbook.launch` and
//!   `sportsbook.getProviderBets`.
//! - [`operations`], [`limits`], [`admin`]: the operators' tools — holds, settling and voiding by
//!   hand, resettling, liability per market, limits per sport and per player — over
//!   `/admin/sportsbook/…` (and the back office) and the CLI's `admin sportsbook …`.
//!
//! `/api` methods:
//! - `sportsbook.getSports` — sports with their leagues and counts of upcoming and live events, and
//!   the external sportsbook providers' names (`providers`).
//! - `sportsbook.getEvents` — `sport`, `league`, `status` (live | upcoming), `offset`, `count`,
//!   `odds_format`: events with their main market.
//! - `sportsbook.getEvent` — `event_id`, `odds_format`: every market and selection.
//! - `bets.place` — the bet slip (see [`bets`]).
//! - `bets.get` — the player's bets for `/profile/bets` (`status` open | settled | all).
//! - `bets.cashOut` — `bet_id`, `amount`.
//! - `sportsbook.launch` — `provider`: an external provider's frame and its launch token.
//! - `sportsbook.getProviderBets` — the player's bets at external providers.
//!
//! Money: a stake moves from the player's main (or betting-bonus) balance to the house's
//! `sportsbook_settlement` account; payouts, resettlement differences and cash-outs move between
//! that account and the player's main balance, each one ledger transaction keyed by the bet.

pub mod admin;
pub mod bench;
pub mod bets;
pub mod catalog;
pub mod feed;
pub mod limits;
pub mod live;
pub mod markets;
pub mod odds;
pub mod operations;
pub mod provider;
pub mod rng;
pub mod sandbox_clock;
pub mod settle;
pub mod settlement;
pub mod store;
pub mod wallet;

use crate::api::Registry;

pub fn register(api: &mut Registry) {
    catalog::register(api);
    bets::register(api);
    provider::register(api);
}
