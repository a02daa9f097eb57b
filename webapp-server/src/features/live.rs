//! Live pages: server-sent events for the leaderboards (`/live/tournaments/{id}`), the jackpots
//! (`/live/jackpots`) and the winners feed (`/live/winners`).
//!
//! **Why server-sent events, not WebSockets.** Every update flows one way, server to page; SSE is
//! plain HTTP (cookies, the same origin and CSP `connect-src 'self'`, proxies and HTTP/2 as they
//! are), the browser's `EventSource` reconnects by itself, and it works unchanged inside the
//! Telegram webview, which is an ordinary browser view. A page that needs to say something
//! back calls the `/api` methods as always.
//!
//! **How updates reach pages.** Nothing is pushed between replicas: each replica watches small
//! *versions* in the database (a tournament's `board_version`, bumped by the board syncer; the
//! pools' amounts; the feed's last id). [`Live`] shares each version between all the connections
//! of a replica — one query per topic at most every [`FRESH`], however many pages are open — and
//! each connection sends its event only when the version moved. A change made on any replica
//! reaches every page within about a second.

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use std::any::Any;
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a version read is shared before the next read.
pub const FRESH: Duration = Duration::from_millis(500);
/// How often each connection looks at its version.
pub const TICK: Duration = Duration::from_millis(500);

/// A value computed for a version, of the type its topic keeps.
type Shared = Arc<dyn Any + Send + Sync>;

/// Versions (and what was computed for them) shared by a replica's connections, and the
/// replica's closing: a stream never ends by itself, so a graceful shutdown ends them all.
pub struct Live {
    versions: Mutex<HashMap<String, (Instant, i64)>>,
    values: Mutex<HashMap<String, (i64, Shared)>>,
    closing: tokio::sync::watch::Sender<bool>,
}

impl Default for Live {
    fn default() -> Live {
        Live { versions: Mutex::default(), values: Mutex::default(), closing: tokio::sync::watch::channel(false).0 }
    }
}

impl Live {
    /// Ends every stream (the server is shutting down); new ones end at once.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Resolves when [`Live::close`] was called.
    pub fn closed(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut closing = self.closing.subscribe();
        async move {
            let _ = closing.wait_for(|closed| *closed).await;
        }
    }

    /// The version of `topic`, read with `read` at most once per [`FRESH`].
    pub async fn version<F>(&self, topic: &str, read: F) -> Result<i64, sqlx::Error>
    where
        F: Future<Output = Result<i64, sqlx::Error>>,
    {
        if let Some(&(at, version)) = self.lock_versions().get(topic)
            && at.elapsed() < FRESH
        {
            return Ok(version);
        }
        let version = read.await?;
        self.lock_versions().insert(topic.to_owned(), (Instant::now(), version));
        Ok(version)
    }

    /// What `compute` gives for `topic` at `version`, computed once per version for every
    /// connection of the replica.
    pub async fn value<T, F>(&self, topic: &str, version: i64, compute: F) -> Result<Arc<T>, crate::api::ApiError>
    where
        T: Any + Send + Sync,
        F: Future<Output = Result<T, crate::api::ApiError>>,
    {
        let kept = self.values.lock().unwrap_or_else(|p| p.into_inner()).get(topic).cloned();
        if let Some((v, value)) = kept
            && v == version
            && let Ok(value) = value.downcast::<T>()
        {
            return Ok(value);
        }
        let value = Arc::new(compute.await?);
        let mut values = self.values.lock().unwrap_or_else(|p| p.into_inner());
        if values.len() > 10_000 {
            values.clear();
        }
        values.insert(topic.to_owned(), (version, Arc::clone(&value) as Shared));
        Ok(value)
    }

    fn lock_versions(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, i64)>> {
        let mut versions = self.versions.lock().unwrap_or_else(|p| p.into_inner());
        if versions.len() > 10_000 {
            versions.clear();
        }
        versions
    }
}

/// An event of `name` carrying `data` as JSON.
pub fn event(name: &str, data: &serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// A server-sent event stream: `step` runs at once and then every [`TICK`], taking its state and
/// answering it with the events to send (often none). A failing step sends nothing; the page
/// keeps what it has and the next tick tries again. It ends when `live` closes.
pub fn stream<S, F, Fut>(live: &Live, state: S, step: F) -> Response
where
    S: Send + 'static,
    F: FnMut(S) -> Fut + Send + 'static,
    Fut: Future<Output = (S, Vec<Event>)> + Send + 'static,
{
    let mut interval = tokio::time::interval(TICK);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let events = futures::stream::unfold((state, step, interval), |(state, mut step, mut interval)| async move {
        interval.tick().await;
        let (state, events) = step(state).await;
        Some((futures::stream::iter(events.into_iter().map(Ok::<Event, Infallible>)), (state, step, interval)))
    })
    .flatten()
    .take_until(live.closed());
    let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response();
    // Proxies must pass each event on as it comes (nginx buffers otherwise).
    response.headers_mut().insert("x-accel-buffering", axum::http::HeaderValue::from_static("no"));
    response.headers_mut().insert(axum::http::header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
    response
}
