//! Live odds (issue 20): `GET /live/sportsbook?events=1,2,3` — a server-sent event stream of
//! the prices, market states and scores of the events named, as the feed job writes them. A
//! guest may listen; nothing in it is personal.
//!
//! **Why push, not the `/live` pages' version polling.** The leaderboards and jackpots
//! ([`crate::features::live`]) poll a version in the database every 500 ms; that bounds their
//! delay at about a second, and odds must reach a page well within that (goal: p99 ≤ 500 ms for
//! 10,000 open pages, `make bench`). The feed already knows exactly what it changed, so it says
//! so once and every replica passes it on.
//!
//! **How a change travels.**
//! 1. [`super::store`] writes an event's changes in one transaction and, after the commit,
//!    [`publish`]es one [`Change`] — the event's status, clock and score, every market whose state
//!    moved and every selection whose price or availability moved — on the coordination channel
//!    [`CHANNEL`]. The feed job runs on one replica (its lease, `jobs.rs`); the coordination
//!    store is Redis pub/sub when `REDIS_URL` is set (the scaled deployment, README "Deploy"),
//!    so every replica hears it, and an in-process broadcast in the embedded, single-process mode.
//! 2. Each replica's relay ([`spawn_relay`]) turns the message into one SSE frame
//!    (`id:`/`event: odds`/`data:`), serialized once into [`Bytes`], keeps it in a ring of the
//!    last [`RING`] frames and hands the same `Arc` to every connection through a tokio
//!    broadcast channel. A connection copies nothing: it compares the frame's event with its own
//!    list and writes the shared bytes.
//! 3. A connection that falls [`BUFFER`] frames behind (a slow or stalled client) is dropped —
//!    the broadcast never waits for it, so it cannot hold the others up; its browser reconnects
//!    and resumes.
//!
//! **Resuming.** Each frame's `id` is the publisher's (microseconds of the wall clock, made
//! unique per publisher), the same on every replica. A reconnecting `EventSource` sends
//! `Last-Event-ID` (a page that reconnects by itself passes `last_id`); when the ring still holds
//! that frame, the stream starts with the frames after it, otherwise with an `event: reset` —
//! the page reads the event again. Ids are matched by position in the ring, not compared, so a
//! lease moving to a replica whose clock is a little behind loses nothing.
//!
//! **Limits.** At most [`MAX_EVENTS`] events per stream; at most
//! `CROUPIER_SPORTSBOOK_STREAMS_PER_ADDRESS` open streams per client address per replica (429
//! beyond). A comment every [`KEEP_ALIVE`] keeps proxies from closing an idle stream. The answer
//! carries `Cache-Control: no-cache` and `X-Accel-Buffering: no`, and its `text/event-stream`
//! type keeps the compression layer off it (tower-http's default predicate), so nothing in
//! between buffers it.

use super::odds::{Odds, OddsFormat};
use crate::AppState;
use crate::api::ApiError;
use crate::coord::Coord;
use crate::features::live::Live;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use croupier_shared::{FieldCode, Locale};
use futures::StreamExt as _;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// The coordination channel the feed publishes on.
pub const CHANNEL: &str = "sportsbook.odds";
/// Frames each replica keeps for resuming streams.
pub const RING: usize = 2048;
/// Frames a connection may fall behind before it is dropped.
pub const BUFFER: usize = 512;
/// Events one stream may follow.
pub const MAX_EVENTS: usize = 100;
/// A comment this often on every stream.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What changed in one event, as published and as sent (`event: odds`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// The frame's id (set by [`publish`]).
    #[serde(default)]
    pub id: u64,
    /// When it was written, unix milliseconds.
    #[serde(default)]
    pub at: i64,
    pub event_id: i64,
    /// scheduled, live, finished or cancelled.
    pub status: String,
    pub clock: Option<i64>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    /// Markets whose state changed (or that are new).
    pub markets: Vec<MarketChange>,
    /// Selections whose price changed, or whose market or event changed state.
    pub selections: Vec<SelectionChange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketChange {
    pub id: i64,
    /// active, suspended, settled or cancelled.
    pub state: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionChange {
    pub id: i64,
    pub market_id: i64,
    /// The price as exact decimal text ("2.35"); null: no price.
    pub odds: Option<String>,
    /// The price in each format the player may choose (`odds_format`), so no connection formats.
    pub display: Option<Displays>,
    /// Bets are taken on it now: a price, an active market, an event not over.
    pub offered: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Displays {
    pub decimal: String,
    pub fractional: String,
    pub american: String,
}

/// A stored selection as the diff sees it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Stored {
    pub market_id: i64,
    pub state: String,
    pub selection_id: i64,
    pub odds: Option<i64>,
}

/// An event's stored status, clock and score.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredEvent {
    pub status: String,
    pub clock: Option<i64>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
}

/// Reads what [`diff`] compares: the event and its selections (in the caller's transaction).
pub async fn snapshot(
    conn: &mut sqlx::AnyConnection,
    event_id: i64,
) -> Result<(Option<StoredEvent>, Vec<Stored>), sqlx::Error> {
    let event: Option<StoredEvent> =
        sqlx::query_as("SELECT status, clock, home_score, away_score FROM sb_events WHERE id = $1")
            .bind(event_id)
            .fetch_optional(&mut *conn)
            .await?;
    let rows: Vec<Stored> = sqlx::query_as(
        "SELECT m.id AS market_id, m.state, s.id AS selection_id, s.odds \
         FROM sb_markets m JOIN sb_selections s ON s.market_id = m.id WHERE m.event_id = $1 ORDER BY m.id, s.id",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    Ok((event, rows))
}

/// What changed between two snapshots of one event (`None`: nothing a page shows).
pub fn diff(
    event_id: i64,
    before: &(Option<StoredEvent>, Vec<Stored>),
    after: &(Option<StoredEvent>, Vec<Stored>),
) -> Option<Change> {
    let event = after.0.as_ref()?;
    let status_moved = before.0.as_ref().is_none_or(|b| b.status != event.status);
    let event_moved = before.0.as_ref() != Some(event);
    let open = event.status == "scheduled" || event.status == "live";
    let old: HashMap<i64, &Stored> = before.1.iter().map(|s| (s.selection_id, s)).collect();
    let old_states: HashMap<i64, &str> = before.1.iter().map(|s| (s.market_id, s.state.as_str())).collect();
    let mut markets: Vec<MarketChange> = Vec::new();
    let mut selections = Vec::new();
    for s in &after.1 {
        let market_moved = old_states.get(&s.market_id) != Some(&s.state.as_str());
        if market_moved && markets.last().is_none_or(|m| m.id != s.market_id) {
            markets.push(MarketChange { id: s.market_id, state: s.state.clone() });
        }
        let price_moved = old.get(&s.selection_id).is_none_or(|o| o.odds != s.odds);
        if price_moved || market_moved || status_moved {
            let odds = s.odds.and_then(|o| Odds::from_scaled(u64::try_from(o).ok()?).ok());
            selections.push(SelectionChange {
                id: s.selection_id,
                market_id: s.market_id,
                odds: odds.map(|o| o.to_string()),
                display: odds.map(|o| Displays {
                    decimal: o.display(OddsFormat::Decimal),
                    fractional: o.display(OddsFormat::Fractional),
                    american: o.display(OddsFormat::American),
                }),
                offered: open && s.state == "active" && odds.is_some(),
            });
        }
    }
    if !event_moved && markets.is_empty() && selections.is_empty() {
        return None;
    }
    Some(Change {
        id: 0,
        at: 0,
        event_id,
        status: event.status.clone(),
        clock: event.clock,
        home_score: event.home_score,
        away_score: event.away_score,
        markets,
        selections,
    })
}

/// The last id this process gave a frame.
static LAST_ID: AtomicU64 = AtomicU64::new(0);

/// A frame id: the wall clock in microseconds, above every id this process gave before.
fn next_id() -> u64 {
    let now =
        u64::try_from(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_micros()))
            .unwrap_or(u64::MAX / 2);
    let mut last = LAST_ID.load(Ordering::Relaxed);
    loop {
        let id = now.max(last + 1);
        match LAST_ID.compare_exchange_weak(last, id, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return id,
            Err(seen) => last = seen,
        }
    }
}

/// Tells every replica's open pages about `change` (after its transaction committed). A failure
/// to publish is logged: the prices are stored, pages see them on their next read.
pub async fn publish(state: &AppState, mut change: Change) {
    change.id = next_id();
    change.at = crate::db::now_ms();
    let message = match serde_json::to_string(&change) {
        Ok(message) => message,
        Err(e) => {
            tracing::warn!(error = %e, "odds change not serialized");
            return;
        }
    };
    if let Err(e) = state.coord().publish(CHANNEL, &message).await {
        tracing::warn!(error = %e, event = change.event_id, "odds change not published");
    }
}

/// One frame, serialized once, shared by every connection.
#[derive(Debug)]
pub struct Frame {
    id: u64,
    event_id: i64,
    bytes: Bytes,
}

/// The part of a message the relay reads.
#[derive(Deserialize)]
struct Head {
    id: u64,
    event_id: i64,
}

/// This replica's live odds: the ring of recent frames, the broadcast to its connections, and
/// the count of open streams per address.
pub struct Hub {
    ring: Mutex<VecDeque<Arc<Frame>>>,
    sender: broadcast::Sender<Arc<Frame>>,
    listening: watch::Sender<bool>,
    per_address: Mutex<HashMap<IpAddr, u32>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            ring: Mutex::new(VecDeque::with_capacity(RING)),
            sender: broadcast::channel(BUFFER).0,
            listening: watch::channel(false).0,
            per_address: Mutex::default(),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Hub {
    /// Takes one published message: kept in the ring and sent to every connection. A message
    /// that is not a change (or would break the SSE framing) is skipped.
    pub fn accept(&self, message: &str) {
        let Ok(head) = serde_json::from_str::<Head>(message) else { return };
        if message.contains(['\n', '\r']) {
            return;
        }
        let text = format!("id: {}\nevent: odds\ndata: {message}\n\n", head.id);
        let frame = Arc::new(Frame { id: head.id, event_id: head.event_id, bytes: Bytes::from(text) });
        let mut ring = lock(&self.ring);
        if ring.len() == RING {
            ring.pop_front();
        }
        ring.push_back(Arc::clone(&frame));
        // Sent under the ring's lock, so a stream that subscribes and reads the ring under the
        // same lock gets every frame exactly once. No connection: not an error.
        let _ = self.sender.send(frame);
    }

    /// Open streams on this replica.
    pub fn connections(&self) -> usize {
        self.sender.receiver_count()
    }

    /// Resolves once the relay listens (at most `within`), so a stream opened is a stream fed.
    async fn listening(&self, within: Duration) {
        let mut rx = self.listening.subscribe();
        let _ = tokio::time::timeout(within, rx.wait_for(|l| *l)).await;
    }

    /// Subscribes, and answers what to send first: the frames after `last` when the ring still
    /// holds it, `None` (send a reset) when it does not.
    fn subscribe(&self, last: Option<u64>) -> (broadcast::Receiver<Arc<Frame>>, Option<Vec<Arc<Frame>>>) {
        let ring = lock(&self.ring);
        let receiver = self.sender.subscribe();
        let replay = match last {
            None => Some(Vec::new()),
            Some(last) => ring.iter().position(|f| f.id == last).map(|at| ring.iter().skip(at + 1).cloned().collect()),
        };
        (receiver, replay)
    }

    /// Counts a stream of `ip` in, unless it has `max` open already.
    fn admit(self: &Arc<Hub>, ip: Option<IpAddr>, max: u32) -> Option<Admitted> {
        let Some(ip) = ip else { return Some(Admitted { hub: Arc::clone(self), ip: None }) };
        let mut counts = lock(&self.per_address);
        let count = counts.entry(ip).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Admitted { hub: Arc::clone(self), ip: Some(ip) })
    }
}

/// An open stream counted against its address; counted out when the stream ends.
struct Admitted {
    hub: Arc<Hub>,
    ip: Option<IpAddr>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Some(ip) = self.ip {
            let mut counts = lock(&self.hub.per_address);
            if let Some(count) = counts.get_mut(&ip) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    counts.remove(&ip);
                }
            }
        }
    }
}

/// Listens on [`CHANNEL`] and hands every message to `hub`, subscribing again (after a second)
/// when the coordination store drops it. Runs until aborted.
pub fn spawn_relay(hub: Arc<Hub>, coord: Coord) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match coord.subscribe(CHANNEL).await {
                Ok(mut messages) => {
                    hub.listening.send_replace(true);
                    while let Some(message) = messages.next().await {
                        hub.accept(&message);
                    }
                    hub.listening.send_replace(false);
                    tracing::warn!("the odds channel closed; listening again");
                }
                Err(e) => tracing::warn!(error = %e, "cannot listen for odds changes"),
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })
}

pub fn routes() -> axum::Router<crate::App> {
    axum::Router::new().route("/live/sportsbook", axum::routing::get(stream))
}

/// The stream's parameters: `events` (1 to [`MAX_EVENTS`] event ids, comma-separated, required)
/// and `last_id` (the last frame seen; the `Last-Event-ID` header wins). `locale` chooses the
/// errors' language.
fn parse(query: &str, header: Option<&str>) -> Result<(Vec<i64>, Option<u64>), ApiError> {
    let mut events: Option<String> = None;
    let mut last: Option<String> = None;
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        let slot = match k.as_ref() {
            "events" => &mut events,
            "last_id" => &mut last,
            // `locale` (the errors' language) and anything else: not this parser's.
            _ => continue,
        };
        if slot.is_some() {
            return Err(ApiError::field(&k, FieldCode::Duplicate));
        }
        *slot = Some(v.into_owned());
    }
    let Some(events) = events.filter(|e| !e.trim().is_empty()) else {
        return Err(ApiError::field("events", FieldCode::Required));
    };
    let mut ids = Vec::new();
    for part in events.split(',') {
        match part.trim().parse::<i64>() {
            Ok(id) if id > 0 => ids.push(id),
            _ => return Err(ApiError::field("events", FieldCode::Invalid)),
        }
    }
    ids.sort_unstable();
    ids.dedup();
    if ids.len() > MAX_EVENTS {
        return Err(ApiError::field_with("events", FieldCode::MaxLength, vec![("max", MAX_EVENTS.to_string())]));
    }
    let last = match header.map(str::to_owned).or(last).filter(|l| !l.trim().is_empty()) {
        None => None,
        Some(l) => Some(l.trim().parse::<u64>().map_err(|_| ApiError::field("last_id", FieldCode::Invalid))?),
    };
    Ok((ids, last))
}

const OPENING: &[u8] = b"retry: 3000\n: odds\n\n";
const RESET: &[u8] = b"event: reset\ndata: {}\n\n";
const COMMENT: &[u8] = b": keep-alive\n\n";

/// `GET /live/sportsbook?events=1,2,3`: `event: odds` frames ([`Change`]) of those events.
async fn stream(
    State(state): State<AppState>,
    State(hub): State<Arc<Hub>>,
    State(live): State<Arc<Live>>,
    request: Request,
) -> Response {
    let query = request.uri().query().unwrap_or("");
    let locale = form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "locale")
        .and_then(|(_, v)| Locale::parse(&v))
        .unwrap_or(Locale::En);
    let header = request.headers().get("last-event-id").and_then(|v| v.to_str().ok());
    let (events, last) = match parse(query, header) {
        Ok(parsed) => parsed,
        Err(e) => return e.render(locale),
    };
    let ip = crate::api::request_ip(&state, &request);
    let Some(admitted) = hub.admit(ip, state.config().sportsbook.streams_per_address) else {
        return ApiError::too_many_requests(Duration::from_secs(10)).render(locale);
    };
    hub.listening(Duration::from_secs(2)).await;
    let (receiver, replay) = hub.subscribe(last);
    let wanted = move |frame: &Frame| events.binary_search(&frame.event_id).is_ok();
    let first: Vec<Bytes> = match replay {
        Some(frames) => frames.iter().filter(|f| wanted(f)).map(|f| f.bytes.clone()).collect(),
        None => vec![Bytes::from_static(RESET)],
    };
    let mut keep_alive = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    keep_alive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let frames = futures::stream::unfold(
        (receiver, keep_alive, wanted, admitted),
        |(mut receiver, mut keep_alive, wanted, admitted)| async move {
            loop {
                tokio::select! {
                    received = receiver.recv() => match received {
                        Ok(frame) if wanted(&frame) => {
                            return Some((frame.bytes.clone(), (receiver, keep_alive, wanted, admitted)));
                        }
                        Ok(_) => {}
                        // Too slow: dropped; its browser reconnects and resumes from the ring.
                        Err(broadcast::error::RecvError::Lagged(_) | broadcast::error::RecvError::Closed) => return None,
                    },
                    _ = keep_alive.tick() => {
                        return Some((Bytes::from_static(COMMENT), (receiver, keep_alive, wanted, admitted)));
                    }
                }
            }
        },
    );
    let body = futures::stream::iter(std::iter::once(Bytes::from_static(OPENING)).chain(first))
        .chain(frames)
        .take_until(live.closed())
        .map(Ok::<Bytes, Infallible>);
    let mut response = Body::from_stream(body).into_response();
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// `make bench` only (the `bench` feature, never in a release build): moves a price through the
/// feed's own store, as the feed job does, so the bench can time its way to open streams.
#[cfg(feature = "bench")]
pub mod bench {
    use super::super::feed::{EventStatus, sandbox::Sandbox};
    use super::super::markets::MarketState;
    use super::super::odds::Odds;
    use crate::AppState;
    use axum::extract::{Query, State};
    use std::collections::HashMap;

    /// The sandbox's moment the bench stores.
    const AT: i64 = 1_767_614_400_000;

    /// `POST /bench/odds?round=N`: round 0 stores the sandbox's calendar; every later round
    /// moves the first upcoming match's first price (to a value no earlier round had). Answers
    /// the match's stored id.
    pub async fn move_price(
        State(state): State<AppState>,
        Query(query): Query<HashMap<String, String>>,
    ) -> Result<axum::Json<serde_json::Value>, crate::api::ApiError> {
        let round: u64 = query.get("round").and_then(|r| r.parse().ok()).unwrap_or(0);
        let snapshot = Sandbox::new(state.config().sportsbook.seed).snapshot(AT);
        let Some(mut event) = snapshot
            .iter()
            .find(|e| {
                e.status == EventStatus::Scheduled
                    && e.markets.first().is_some_and(|m| m.state == MarketState::Active && !m.prices.is_empty())
            })
            .cloned()
        else {
            return Err(crate::api::ApiError::internal(anyhow::anyhow!("no upcoming match in the sandbox")));
        };
        let at = AT + i64::try_from(round).unwrap_or(0);
        if round == 0 {
            super::super::store::store(&state, "sandbox", &snapshot, at)
                .await
                .map_err(crate::api::ApiError::internal)?;
        } else {
            if let Some(price) = event.markets.first_mut().and_then(|m| m.prices.first_mut()) {
                price.1 = Odds::from_scaled(20_003 + round * 7).map_err(crate::api::ApiError::internal)?;
            }
            super::super::store::store(&state, "sandbox", &[event.clone()], at)
                .await
                .map_err(crate::api::ApiError::internal)?;
        }
        let id: i64 = sqlx::query_scalar("SELECT id FROM sb_events WHERE feed = 'sandbox' AND external_id = $1")
            .bind(&event.id)
            .fetch_one(state.db().pool())
            .await
            .map_err(crate::api::ApiError::internal)?;
        Ok(axum::Json(serde_json::json!({ "event_id": id })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(market_id: i64, state: &str, selection_id: i64, odds: Option<i64>) -> Stored {
        Stored { market_id, state: state.into(), selection_id, odds }
    }

    fn event(status: &str) -> Option<StoredEvent> {
        Some(StoredEvent { status: status.into(), clock: None, home_score: None, away_score: None })
    }

    #[test]
    fn only_what_moved_is_sent() {
        let before = (event("scheduled"), vec![row(1, "active", 10, Some(25_000)), row(1, "active", 11, Some(30_000))]);
        assert_eq!(diff(7, &before, &before), None);
        let after = (event("scheduled"), vec![row(1, "active", 10, Some(23_500)), row(1, "active", 11, Some(30_000))]);
        let change = diff(7, &before, &after).expect("a change");
        assert!(change.markets.is_empty());
        assert_eq!(change.selections.len(), 1);
        let s = &change.selections[0];
        assert_eq!((s.id, s.odds.as_deref(), s.offered), (10, Some("2.35"), true));
        assert_eq!(s.display.as_ref().map(|d| d.fractional.as_str()), Some("27/20"));
        // A suspension sends the market and all its selections, not offered.
        let suspended =
            (event("scheduled"), vec![row(1, "suspended", 10, Some(25_000)), row(1, "suspended", 11, Some(30_000))]);
        let change = diff(7, &before, &suspended).expect("a change");
        assert_eq!(change.markets, vec![MarketChange { id: 1, state: "suspended".into() }]);
        assert!(change.selections.iter().all(|s| !s.offered) && change.selections.len() == 2);
        // A finished event: nothing offered any more.
        let finished = (event("finished"), before.1.clone());
        assert!(diff(7, &before, &finished).expect("a change").selections.iter().all(|s| !s.offered));
    }

    #[test]
    fn ids_are_unique_and_rising_in_a_process() {
        let a = next_id();
        let b = next_id();
        assert!(b > a);
    }

    #[test]
    fn the_ring_resumes_after_a_known_frame_and_resets_otherwise() {
        let hub = Hub::default();
        for id in 1..=3 {
            hub.accept(&format!("{{\"id\":{id},\"event_id\":5}}"));
        }
        hub.accept("not json");
        hub.accept("{\"id\":9,\"event_id\":5,\"x\":\"a\nb\"}");
        let (_, replay) = hub.subscribe(Some(1));
        assert_eq!(replay.expect("known").iter().map(|f| f.id).collect::<Vec<_>>(), vec![2, 3]);
        assert!(hub.subscribe(Some(42)).1.is_none());
        assert!(hub.subscribe(None).1.expect("fresh").is_empty());
        assert!(parse("events=3,1,3", None).is_ok_and(|(e, l)| e == vec![1, 3] && l.is_none()));
        assert!(parse("events=1&last_id=7", Some("8")).is_ok_and(|(_, l)| l == Some(8)));
        assert!(parse("", None).is_err() && parse("events=0", None).is_err() && parse("events=a", None).is_err());
        let many = (1..=101).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
        assert!(parse(&format!("events={many}"), None).is_err());
    }
}
