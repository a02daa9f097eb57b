//! The odds-feed port: where events, prices, scores and results come from.
//!
//! A [`Feed`] answers the events it knows at a moment, each with its markets' state, prices and
//! (once known) results. Two adapters: [`sandbox::Sandbox`], a generated calendar reproducible
//! from a seed, and [`odds_api::OddsApi`], an HTTP client of The Odds API v4 format. The
//! persistence layer reads a snapshot and stores what changed; nothing here touches money.

pub mod odds_api;
pub mod pricing;
pub mod sandbox;

use super::markets::{MarketKind, MarketState};
use super::odds::Odds;
use super::settle::Outcome;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sport {
    Football,
    Tennis,
    Basketball,
    IceHockey,
}

impl Sport {
    pub const ALL: [Sport; 4] = [Sport::Football, Sport::Tennis, Sport::Basketball, Sport::IceHockey];

    pub fn key(self) -> &'static str {
        match self {
            Sport::Football => "football",
            Sport::Tennis => "tennis",
            Sport::Basketball => "basketball",
            Sport::IceHockey => "ice_hockey",
        }
    }

    pub fn parse(key: &str) -> Option<Sport> {
        Sport::ALL.into_iter().find(|s| s.key() == key)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EventStatus {
    Scheduled,
    Live,
    Finished,
    Cancelled,
}

impl EventStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            EventStatus::Scheduled => "scheduled",
            EventStatus::Live => "live",
            EventStatus::Finished => "finished",
            EventStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<EventStatus> {
        [EventStatus::Scheduled, EventStatus::Live, EventStatus::Finished, EventStatus::Cancelled]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedMarket {
    pub kind: MarketKind,
    pub state: MarketState,
    /// Each selection's price (selections without one cannot be bet on).
    pub prices: Vec<(String, Odds)>,
    /// Each selection's result once the market is settled.
    pub results: Vec<(String, Outcome)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedEvent {
    /// Unique within the feed.
    pub id: String,
    pub sport: Sport,
    pub league: String,
    pub home: String,
    pub away: String,
    /// Unix milliseconds.
    pub starts_at: i64,
    pub status: EventStatus,
    /// Minutes played, while live.
    pub clock: Option<u32>,
    pub score: Option<(u32, u32)>,
    pub markets: Vec<FeedMarket>,
}

#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("the feed is unreachable: {0}")]
    Unreachable(String),
    #[error("the feed answered {0}")]
    Status(u16),
    #[error("the feed's answer is not understood: {0}")]
    Format(String),
}

/// An odds feed.
pub trait Feed: Send + Sync {
    /// Its name, stored with every event it brings (events are unique per feed).
    fn name(&self) -> &str;
    /// The events it knows at `now` (unix ms): upcoming, live and recently finished.
    fn events(&self, now: i64) -> BoxFuture<'_, Result<Vec<FeedEvent>, FeedError>>;
}

/// Settles every selection of `kind` from a final score.
pub fn results_from_score(kind: MarketKind, home: u32, away: u32) -> Vec<(String, Outcome)> {
    kind.selections().into_iter().filter_map(|s| kind.settle(&s, home, away).map(|o| (s, o))).collect()
}
