//! In-process coordination for the embedded, single-process mode.

use super::RateDecision;
use futures::StreamExt;
use futures::stream::BoxStream;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

#[derive(Default)]
struct State {
    counters: HashMap<String, (u64, Instant)>,
    leases: HashMap<String, (String, Instant)>,
    cache: HashMap<String, (String, Instant)>,
    channels: HashMap<String, broadcast::Sender<String>>,
    ops: u64,
}

#[derive(Clone, Default)]
pub struct MemoryCoord {
    state: Arc<Mutex<State>>,
}

impl MemoryCoord {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means another thread panicked mid-update of plain maps; the data
        // is still usable, and refusing every later request would be worse.
        let mut state = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        state.ops += 1;
        if state.ops.is_multiple_of(4096) {
            let now = Instant::now();
            state.counters.retain(|_, (_, until)| *until > now);
            state.leases.retain(|_, (_, until)| *until > now);
            state.cache.retain(|_, (_, until)| *until > now);
            state.channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        state
    }

    pub fn hit(&self, key: &str, window: Duration, limit: u64) -> RateDecision {
        let now = Instant::now();
        let mut state = self.lock();
        let entry = state.counters.entry(key.to_owned()).or_insert((0, now + window));
        if entry.1 <= now {
            *entry = (0, now + window);
        }
        entry.0 += 1;
        RateDecision { allowed: entry.0 <= limit, count: entry.0, retry_after: entry.1.saturating_duration_since(now) }
    }

    pub fn acquire_lease(&self, name: &str, holder: &str, ttl: Duration) -> bool {
        let now = Instant::now();
        let mut state = self.lock();
        match state.leases.get(name) {
            Some((current, until)) if *until > now && current != holder => false,
            _ => {
                state.leases.insert(name.to_owned(), (holder.to_owned(), now + ttl));
                true
            }
        }
    }

    pub fn release_lease(&self, name: &str, holder: &str) {
        let mut state = self.lock();
        if state.leases.get(name).is_some_and(|(current, _)| current == holder) {
            state.leases.remove(name);
        }
    }

    pub fn cache_get(&self, key: &str) -> Option<String> {
        let now = Instant::now();
        self.lock().cache.get(key).filter(|(_, until)| *until > now).map(|(v, _)| v.clone())
    }

    pub fn cache_set(&self, key: &str, value: &str, ttl: Duration) {
        self.lock().cache.insert(key.to_owned(), (value.to_owned(), Instant::now() + ttl));
    }

    pub fn cache_delete(&self, key: &str) {
        self.lock().cache.remove(key);
    }

    pub fn publish(&self, channel: &str, message: &str) {
        if let Some(tx) = self.lock().channels.get(channel) {
            // No receiver is not an error: pub/sub delivers to whoever listens now.
            let _ = tx.send(message.to_owned());
        }
    }

    pub fn subscribe(&self, channel: &str) -> BoxStream<'static, String> {
        let rx =
            self.lock().channels.entry(channel.to_owned()).or_insert_with(|| broadcast::channel(1024).0).subscribe();
        futures::stream::unfold(rx, |mut rx| async move {
            loop {
                match rx.recv().await {
                    Ok(message) => return Some((message, rx)),
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        })
        .boxed()
    }
}
