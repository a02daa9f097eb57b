//! The coordination seam: rate-limit counters, job leases, a small cache and pub/sub.
//!
//! In embedded mode these live in this process ([`memory`]); with `REDIS_URL` they live in Redis
//! ([`redis_impl`]) so that every replica sees the same counters, leases and messages. Both
//! implementations honour the same contract, which `tests/api/coord.rs` runs against each.

pub mod memory;
pub mod redis_impl;

use futures::stream::BoxStream;
use std::time::Duration;

/// The outcome of counting one hit against a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateDecision {
    pub allowed: bool,
    /// Hits counted in the current window, this one included.
    pub count: u64,
    /// Time until the window resets.
    pub retry_after: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum CoordError {
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
}

#[derive(Clone)]
pub enum Coord {
    Memory(memory::MemoryCoord),
    Redis(redis_impl::RedisCoord),
}

impl Coord {
    pub fn in_process() -> Coord {
        Coord::Memory(memory::MemoryCoord::default())
    }

    pub async fn redis(url: &str, prefix: &str) -> Result<Coord, CoordError> {
        Ok(Coord::Redis(redis_impl::RedisCoord::connect(url, prefix).await?))
    }

    /// The Redis store, when coordination lives in Redis (leaderboards keep sorted sets there).
    pub fn as_redis(&self) -> Option<&redis_impl::RedisCoord> {
        match self {
            Coord::Memory(_) => None,
            Coord::Redis(r) => Some(r),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Coord::Memory(_) => "memory",
            Coord::Redis(_) => "redis",
        }
    }

    /// Counts a hit on `key` in a fixed window; `allowed` is false once `limit` is passed.
    pub async fn hit(&self, key: &str, window: Duration, limit: u64) -> Result<RateDecision, CoordError> {
        match self {
            Coord::Memory(m) => Ok(m.hit(key, window, limit)),
            Coord::Redis(r) => r.hit(key, window, limit).await,
        }
    }

    /// Takes or renews the lease `name` for `holder`; false while another holder has it.
    pub async fn acquire_lease(&self, name: &str, holder: &str, ttl: Duration) -> Result<bool, CoordError> {
        match self {
            Coord::Memory(m) => Ok(m.acquire_lease(name, holder, ttl)),
            Coord::Redis(r) => r.acquire_lease(name, holder, ttl).await,
        }
    }

    /// Gives the lease up if `holder` still has it.
    pub async fn release_lease(&self, name: &str, holder: &str) -> Result<(), CoordError> {
        match self {
            Coord::Memory(m) => {
                m.release_lease(name, holder);
                Ok(())
            }
            Coord::Redis(r) => r.release_lease(name, holder).await,
        }
    }

    pub async fn cache_get(&self, key: &str) -> Result<Option<String>, CoordError> {
        match self {
            Coord::Memory(m) => Ok(m.cache_get(key)),
            Coord::Redis(r) => r.cache_get(key).await,
        }
    }

    pub async fn cache_set(&self, key: &str, value: &str, ttl: Duration) -> Result<(), CoordError> {
        match self {
            Coord::Memory(m) => {
                m.cache_set(key, value, ttl);
                Ok(())
            }
            Coord::Redis(r) => r.cache_set(key, value, ttl).await,
        }
    }

    pub async fn cache_delete(&self, key: &str) -> Result<(), CoordError> {
        match self {
            Coord::Memory(m) => {
                m.cache_delete(key);
                Ok(())
            }
            Coord::Redis(r) => r.cache_delete(key).await,
        }
    }

    /// Sends `message` to every current subscriber of `channel` on any replica.
    pub async fn publish(&self, channel: &str, message: &str) -> Result<(), CoordError> {
        match self {
            Coord::Memory(m) => {
                m.publish(channel, message);
                Ok(())
            }
            Coord::Redis(r) => r.publish(channel, message).await,
        }
    }

    /// Messages published on `channel` from now on.
    pub async fn subscribe(&self, channel: &str) -> Result<BoxStream<'static, String>, CoordError> {
        match self {
            Coord::Memory(m) => Ok(m.subscribe(channel)),
            Coord::Redis(r) => r.subscribe(channel).await,
        }
    }

    /// Whether the backing store answers (readiness).
    pub async fn ping(&self) -> Result<(), CoordError> {
        match self {
            Coord::Memory(_) => Ok(()),
            Coord::Redis(r) => r.ping().await,
        }
    }
}
