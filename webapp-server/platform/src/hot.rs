//! The signed-in hot path's caches (issue 23): a player's session and their account summary
//! served from this replica's memory on repeat requests, with no database round trip.
//!
//! # Correctness first
//!
//! Every change to what these caches hold **touches** the player ([`touch`]): a ledger posting
//! for them (any balance change, in [`crate::ledger::post_many`]), a session ended or opened
//! over another ([`crate::session`]), any write method of the `/api` they call, and the operator
//! and webhook paths that change a player's row (ban, unban, verification, contacts). A touch
//!
//! - makes every cached entry of the player stale at once (entries remember the touch counter
//!   they were read under; a later touch outdates them), on every app of this process;
//! - keeps the player out of the caches for [`SETTLE`] after it: a touch made inside a
//!   transaction (a ledger posting) comes before its commit, and a read in between would see the
//!   old row; nothing read in that window is kept;
//! - reaches the other replicas through the coordination store's pub/sub when `REDIS_URL` is set
//!   (the relay [`spawn_relay`] publishes; each replica's listener touches locally).
//!
//! Whatever a touch could miss (a message lost by Redis, an operator command run in another
//! process without Redis) is bounded by [`TTL`]: no entry is served older than that.
//!
//! The content caches (the content service's snapshot, the pages' shell, the content API's
//! answers) use the same relay: [`content_changed`] after a content write moves
//! [`content_epoch`] here and on the other replicas.
//!
//! Touches are process-wide (keyed by player id only): several apps in one process (the tests)
//! may invalidate each other's entries, never serve them — entries live in each app's [`Hot`].

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, RwLock};
use std::time::{Duration, Instant};

/// The longest an entry is served.
pub const TTL: Duration = Duration::from_secs(2);
/// After a touch, nothing about the player is cached for this long (see the module docs).
pub const SETTLE: Duration = Duration::from_secs(2);
/// Entries per cache before expired ones are swept (and, if all are live, all dropped).
const CAPACITY: usize = 100_000;
/// The pub/sub channel of touches (and content changes) between replicas.
pub const CHANNEL: &str = "hot.players";

#[derive(Clone, Copy)]
struct Touch {
    at: Instant,
    seq: u64,
}

static SEQ: AtomicU64 = AtomicU64::new(0);
static TOUCHED: LazyLock<RwLock<Touches>> = LazyLock::new(|| {
    RwLock::new(Touches { current: HashMap::new(), previous: HashMap::new(), since: Instant::now(), floor: 0 })
});

/// How long a touch is remembered at least. Past [`TTL`] and [`SETTLE`] a touch decides nothing
/// (every entry read before it has expired), so this is only a margin for slow reads.
const REMEMBER: Duration = Duration::from_secs(10);

/// The touches of the last [`REMEMBER`] or two, in two generations: a touch goes into `current`;
/// once `current` is [`REMEMBER`] old it becomes `previous` and the old `previous` — every touch
/// in it at least [`REMEMBER`] old — is forgotten at once. Constant work per touch however many
/// players a burst touches (a cashback period closed for 100,000 players, a campaign's grant);
/// the capped map this replaces scanned all of them on every touch for a minute after such a
/// burst, and the ledger's movements fell from about 10,000/s to 228/s (`make bench`'s ledger row
/// after its cashback row, 2026-11-27).
struct Touches {
    current: HashMap<i64, Touch>,
    previous: HashMap<i64, Touch>,
    /// When `current` began.
    since: Instant,
    /// The newest touch forgotten: a read whose stamp is older may have missed it.
    floor: u64,
}
static OUTGOING: LazyLock<tokio::sync::broadcast::Sender<Change>> =
    LazyLock::new(|| tokio::sync::broadcast::channel(4096).0);
static CONTENT_EPOCH: AtomicU64 = AtomicU64::new(0);

/// What the relay tells the other replicas.
#[derive(Clone, Copy, Debug)]
enum Change {
    Player(i64),
    Content,
}

/// The content changed (called after the write commits): this process's content caches check
/// the database's version on their next read, and so do the other replicas' through the relay.
pub fn content_changed() {
    CONTENT_EPOCH.fetch_add(1, Ordering::SeqCst);
    let _ = OUTGOING.send(Change::Content);
}

/// Moves on at every content change this process makes or hears of: a content cache that read
/// the version under one epoch must read it again under the next.
pub fn content_epoch() -> u64 {
    CONTENT_EPOCH.load(Ordering::SeqCst)
}

/// The touch counter now: take it **before** reading what will be cached, and hand it to the
/// cache's `put` (a touch after it outdates the read).
pub fn stamp() -> u64 {
    SEQ.load(Ordering::SeqCst)
}

/// Marks `user_id` changed here and, through the relay, on the other replicas.
pub fn touch(user_id: i64) {
    touch_local(user_id);
    let _ = OUTGOING.send(Change::Player(user_id));
}

/// Marks `user_id` changed in this process only (a touch received from another replica).
pub fn touch_local(user_id: i64) {
    let seq = SEQ.fetch_add(1, Ordering::SeqCst) + 1;
    TOUCHED.write().unwrap_or_else(|p| p.into_inner()).insert(user_id, seq, Instant::now(), REMEMBER);
}

impl Touches {
    /// Records touch `seq` of `user_id` at `now`, first moving on a generation when `current` is
    /// `remember` old.
    fn insert(&mut self, user_id: i64, seq: u64, now: Instant, remember: Duration) {
        if now.saturating_duration_since(self.since) >= remember {
            let forgotten = self.previous.values().map(|t| t.seq).max().unwrap_or(0);
            self.floor = self.floor.max(forgotten);
            self.previous = std::mem::take(&mut self.current);
            self.since = now;
        }
        self.current.insert(user_id, Touch { at: now, seq });
    }

    fn last(&self, user_id: i64) -> Option<Touch> {
        self.current.get(&user_id).or_else(|| self.previous.get(&user_id)).copied()
    }
}

/// The player's last touch remembered, and the newest touch forgotten.
fn last_touch(user_id: i64) -> (Option<Touch>, u64) {
    let touched = TOUCHED.read().unwrap_or_else(|p| p.into_inner());
    (touched.last(user_id), touched.floor)
}

/// Whether what was read under `stamp` may be kept: no touch since, none settling, and none
/// forgotten since (a read older than [`REMEMBER`] is not kept).
fn keepable(user_id: i64, stamp: u64) -> bool {
    let (touch, floor) = last_touch(user_id);
    stamp >= floor && touch.is_none_or(|t| t.seq <= stamp && t.at.elapsed() >= SETTLE)
}

/// Whether an entry read under `stamp` at `fetched` is still good.
fn current(user_id: i64, stamp: u64, fetched: Instant) -> bool {
    let (touch, floor) = last_touch(user_id);
    fetched.elapsed() < TTL && stamp >= floor && touch.is_none_or(|t| t.seq <= stamp)
}

/// A live session as last read from the database.
#[derive(Clone, Debug)]
pub struct CachedSession {
    pub user_id: i64,
    /// The row's `last_seen_at` (unix ms) as this replica knows it.
    pub last_seen_at: i64,
    stamp: u64,
    fetched: Instant,
}

struct Value {
    value: Arc<dyn Any + Send + Sync>,
    stamp: u64,
    fetched: Instant,
}

/// One app's caches of the hot path.
#[derive(Default)]
pub struct Hot {
    /// By the session id (the token's SHA-256).
    sessions: RwLock<HashMap<String, CachedSession>>,
    /// One value per player and type (the account summary).
    values: RwLock<HashMap<(i64, std::any::TypeId), Value>>,
    /// Game sessions' players by the launch token's SHA-256: which lane a wallet call or a house
    /// round goes to on PostgreSQL, without a read first. A session's player never changes and
    /// tokens are never reused, so an entry cannot go wrong: the lane's transaction reads the
    /// session itself (an ended or expired one is refused there).
    game_players: RwLock<HashMap<String, i64>>,
}

fn sweep<K, V>(map: &mut HashMap<K, V>, live: impl Fn(&V) -> bool) {
    if map.len() >= CAPACITY {
        map.retain(|_, v| live(v));
        if map.len() >= CAPACITY {
            map.clear();
        }
    }
}

impl Hot {
    /// The cached live session `id`, if still current.
    pub fn session(&self, id: &str) -> Option<CachedSession> {
        let sessions = self.sessions.read().unwrap_or_else(|p| p.into_inner());
        let cached = sessions.get(id)?;
        current(cached.user_id, cached.stamp, cached.fetched).then(|| cached.clone())
    }

    /// Keeps a live session read under `stamp` (unless the player was touched since).
    pub fn put_session(&self, id: &str, user_id: i64, last_seen_at: i64, stamp: u64) {
        if !keepable(user_id, stamp) {
            return;
        }
        let mut sessions = self.sessions.write().unwrap_or_else(|p| p.into_inner());
        sweep(&mut sessions, |s| s.fetched.elapsed() < TTL);
        sessions.insert(id.to_owned(), CachedSession { user_id, last_seen_at, stamp, fetched: Instant::now() });
    }

    /// Records that this replica wrote `last_seen_at` for the session.
    pub fn seen(&self, id: &str, last_seen_at: i64) {
        if let Some(s) = self.sessions.write().unwrap_or_else(|p| p.into_inner()).get_mut(id) {
            s.last_seen_at = last_seen_at;
        }
    }

    pub fn forget_session(&self, id: &str) {
        self.sessions.write().unwrap_or_else(|p| p.into_inner()).remove(id);
    }

    /// The player of the game session whose token hashes to `token_hash`, if known here.
    pub fn game_player(&self, token_hash: &str) -> Option<i64> {
        self.game_players.read().unwrap_or_else(|p| p.into_inner()).get(token_hash).copied()
    }

    /// Remembers the player of a game session (see [`Hot::game_player`]).
    pub fn put_game_player(&self, token_hash: &str, user_id: i64) {
        let mut players = self.game_players.write().unwrap_or_else(|p| p.into_inner());
        if players.len() >= CAPACITY {
            players.clear();
        }
        players.insert(token_hash.to_owned(), user_id);
    }

    /// The player's cached `T`, if still current.
    pub fn value<T: Any + Send + Sync>(&self, user_id: i64) -> Option<Arc<T>> {
        let values = self.values.read().unwrap_or_else(|p| p.into_inner());
        let v = values.get(&(user_id, std::any::TypeId::of::<T>()))?;
        if !current(user_id, v.stamp, v.fetched) {
            return None;
        }
        Arc::clone(&v.value).downcast::<T>().ok()
    }

    /// Keeps the player's `T` read under `stamp` (unless the player was touched since).
    pub fn put_value<T: Any + Send + Sync>(&self, user_id: i64, value: Arc<T>, stamp: u64) {
        if !keepable(user_id, stamp) {
            return;
        }
        let mut values = self.values.write().unwrap_or_else(|p| p.into_inner());
        sweep(&mut values, |v| v.fetched.elapsed() < TTL);
        values.insert((user_id, std::any::TypeId::of::<T>()), Value { value, stamp, fetched: Instant::now() });
    }
}

/// Answers derived from versioned data (the content, the game catalogue), kept for one version
/// at a time: a newer version empties it, and so does reaching `capacity` (keys may come from
/// requests). A version `K` is any ordered value that only grows: a counter, or a tuple of
/// counters for answers derived from several sources (ordered as a tuple).
pub struct Versioned<V, K = i64> {
    entries: RwLock<(Option<K>, HashMap<String, V>)>,
    capacity: usize,
}

/// Answers kept per version by default.
const VERSIONED_CAPACITY: usize = 4096;

impl<V: Clone, K: Ord + Copy> Default for Versioned<V, K> {
    fn default() -> Versioned<V, K> {
        Versioned::new(VERSIONED_CAPACITY)
    }
}

impl<V: Clone, K: Ord + Copy> Versioned<V, K> {
    pub fn new(capacity: usize) -> Versioned<V, K> {
        Versioned { entries: RwLock::new((None, HashMap::new())), capacity }
    }

    /// The answer kept for `key` at `version`.
    pub fn get(&self, version: K, key: &str) -> Option<V> {
        let entries = self.entries.read().unwrap_or_else(|p| p.into_inner());
        if entries.0 != Some(version) {
            return None;
        }
        entries.1.get(key).cloned()
    }

    /// Keeps `value` for `key` at `version` (not if a newer version is already kept).
    pub fn put(&self, version: K, key: String, value: V) {
        let mut entries = self.entries.write().unwrap_or_else(|p| p.into_inner());
        if entries.0.is_none_or(|kept| kept < version) || entries.1.len() >= self.capacity {
            entries.1.clear();
            entries.0 = Some(entries.0.map_or(version, |kept| kept.max(version)));
        }
        if entries.0 == Some(version) {
            entries.1.insert(key, value);
        }
    }
}

/// With Redis: publishes this process's touches to the other replicas and applies theirs. The
/// tasks run until aborted (the server aborts them when it stops). Nothing to do in process.
pub fn spawn_relay(coord: &crate::coord::Coord) -> Vec<tokio::task::JoinHandle<()>> {
    if !matches!(coord, crate::coord::Coord::Redis(_)) {
        return Vec::new();
    }
    let origin = uuid::Uuid::new_v4().simple().to_string();
    let mut outgoing = OUTGOING.subscribe();
    let publisher = {
        let (coord, origin) = (coord.clone(), origin.clone());
        tokio::spawn(async move {
            loop {
                match outgoing.recv().await {
                    Ok(change) => {
                        if let Err(e) = coord.publish(CHANNEL, &message(&origin, change)).await {
                            tracing::warn!(error = %e, "cannot tell the other replicas of a changed player");
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!(
                            missed = n,
                            "player changes not relayed; other replicas catch up within the cache TTL"
                        );
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        })
    };
    let listener = {
        let coord = coord.clone();
        tokio::spawn(async move {
            use futures::StreamExt as _;
            loop {
                match coord.subscribe(CHANNEL).await {
                    Ok(mut messages) => {
                        while let Some(message) = messages.next().await {
                            apply_remote(&origin, &message);
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot listen for changed players"),
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        })
    };
    vec![publisher, listener]
}

/// What the relay publishes for `change` made by the process `origin`.
fn message(origin: &str, change: Change) -> String {
    match change {
        Change::Player(user_id) => format!("{origin} {user_id}"),
        Change::Content => format!("{origin} content"),
    }
}

/// Origin of the changes announced right away by [`announce_player`] and [`announce_content`]:
/// no relay's, so every replica applies them (the announcing process too, harmlessly).
const DIRECT: &str = "-";

/// Tells the other replicas now, through `coord`, that `user_id` changed — for a process whose
/// relay may not run before it exits (an operator command). Nothing to do without Redis.
pub async fn announce_player(coord: &crate::coord::Coord, user_id: i64) -> Result<(), crate::coord::CoordError> {
    announce(coord, Change::Player(user_id)).await
}

/// [`announce_player`] for a content change.
pub async fn announce_content(coord: &crate::coord::Coord) -> Result<(), crate::coord::CoordError> {
    announce(coord, Change::Content).await
}

async fn announce(coord: &crate::coord::Coord, change: Change) -> Result<(), crate::coord::CoordError> {
    if matches!(coord, crate::coord::Coord::Redis(_)) {
        coord.publish(CHANNEL, &message(DIRECT, change)).await?;
    }
    Ok(())
}

/// A change published by a replica ([`message`]); this replica's own are skipped.
fn apply_remote(origin: &str, message: &str) {
    let Some((from, what)) = message.split_once(' ') else { return };
    if from == origin {
        return;
    }
    if what == "content" {
        CONTENT_EPOCH.fetch_add(1, Ordering::SeqCst);
    } else if let Ok(user_id) = what.parse::<i64>() {
        touch_local(user_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Player ids far from any other test's, as touches are process-wide.
    #[test]
    fn a_touch_outdates_entries_and_keeps_reads_out_while_settling() {
        let hot = Hot::default();
        let user = 9_000_000_001;
        let stamp = super::stamp();
        hot.put_session("s1", user, 5, stamp);
        hot.put_value(user, Arc::new(41_u32), stamp);
        assert_eq!(hot.session("s1").map(|s| s.user_id), Some(user));
        assert_eq!(hot.value::<u32>(user).as_deref(), Some(&41));
        assert!(hot.value::<u64>(user).is_none(), "values are kept per type");
        touch(user);
        assert!(hot.session("s1").is_none(), "a touch outdates the session");
        assert!(hot.value::<u32>(user).is_none(), "and the value");
        hot.put_value(user, Arc::new(42_u32), super::stamp());
        assert!(hot.value::<u32>(user).is_none(), "nothing read while the change settles is kept");
    }

    #[test]
    fn a_read_started_before_a_touch_is_not_kept() {
        let hot = Hot::default();
        let user = 9_000_000_002;
        let before = super::stamp();
        touch_local(user);
        hot.put_session("s2", user, 5, before);
        assert!(hot.session("s2").is_none());
    }

    #[test]
    fn touches_are_forgotten_a_generation_at_a_time_and_raise_the_floor() {
        let start = Instant::now();
        let remember = Duration::from_secs(10);
        let mut touches = Touches { current: HashMap::new(), previous: HashMap::new(), since: start, floor: 0 };
        for user in 0..1_000 {
            touches.insert(user, 100 + user.unsigned_abs(), start, remember);
        }
        assert_eq!(touches.last(7).map(|t| t.seq), Some(107));
        // One generation later the burst is still remembered, beside the new touch.
        touches.insert(5_000, 2_000, start + remember, remember);
        assert_eq!((touches.current.len(), touches.previous.len()), (1, 1_000));
        assert_eq!(touches.last(7).map(|t| t.seq), Some(107));
        assert_eq!(touches.floor, 0);
        // A touch again moves to the current generation and wins over the old one.
        touches.insert(7, 2_001, start + remember, remember);
        assert_eq!(touches.last(7).map(|t| t.seq), Some(2_001));
        // Two generations later the burst is forgotten whole, and the floor is its newest touch:
        // a read stamped before it is kept by nobody.
        touches.insert(5_001, 3_000, start + 2 * remember, remember);
        assert!(touches.last(8).is_none());
        assert_eq!(touches.floor, 1_099);
        assert_eq!(touches.last(7).map(|t| t.seq), Some(2_001));
    }

    #[test]
    fn remote_touches_apply_and_own_ones_are_skipped() {
        let user = 9_000_000_003;
        let stamp = super::stamp();
        apply_remote("me", &format!("me {user}"));
        assert!(last_touch(user).0.is_none(), "a replica's own message is not applied twice");
        apply_remote("me", "other not-a-number");
        apply_remote("me", &format!("other {user}"));
        assert!(last_touch(user).0.is_some_and(|t| t.seq > stamp));
        let epoch = content_epoch();
        apply_remote("me", "other content");
        assert!(content_epoch() > epoch, "another replica's content change moves the epoch");
    }
}
