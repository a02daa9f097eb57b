//! Redis coordination for the scaled mode: every replica shares counters, leases, cache and
//! messages. Multi-step updates are Lua scripts so they stay atomic.

use super::{CoordError, RateDecision};
use futures::StreamExt;
use futures::stream::BoxStream;
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use std::sync::Arc;
use std::time::Duration;

const HIT: &str = r"
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
";

const ACQUIRE: &str = r"
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
";

const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
";

#[derive(Clone)]
pub struct RedisCoord {
    client: redis::Client,
    conn: ConnectionManager,
    prefix: Arc<str>,
    scripts: Arc<[redis::Script; 3]>,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl RedisCoord {
    pub async fn connect(url: &str, prefix: &str) -> Result<RedisCoord, CoordError> {
        let client = redis::Client::open(url)?;
        let conn = client.get_connection_manager().await?;
        Ok(RedisCoord {
            client,
            conn,
            prefix: prefix.into(),
            scripts: Arc::new([redis::Script::new(HIT), redis::Script::new(ACQUIRE), redis::Script::new(RELEASE)]),
        })
    }

    fn key(&self, kind: &str, key: &str) -> String {
        format!("{}{kind}:{key}", self.prefix)
    }

    pub async fn hit(&self, key: &str, window: Duration, limit: u64) -> Result<RateDecision, CoordError> {
        let mut conn = self.conn.clone();
        let (count, ttl): (u64, i64) =
            self.scripts[0].key(self.key("rate", key)).arg(millis(window)).invoke_async(&mut conn).await?;
        Ok(RateDecision {
            allowed: count <= limit,
            count,
            retry_after: Duration::from_millis(u64::try_from(ttl).unwrap_or(0)),
        })
    }

    pub async fn acquire_lease(&self, name: &str, holder: &str, ttl: Duration) -> Result<bool, CoordError> {
        let mut conn = self.conn.clone();
        let taken: i64 =
            self.scripts[1].key(self.key("lease", name)).arg(holder).arg(millis(ttl)).invoke_async(&mut conn).await?;
        Ok(taken == 1)
    }

    pub async fn release_lease(&self, name: &str, holder: &str) -> Result<(), CoordError> {
        let mut conn = self.conn.clone();
        let _: i64 = self.scripts[2].key(self.key("lease", name)).arg(holder).invoke_async(&mut conn).await?;
        Ok(())
    }

    pub async fn cache_get(&self, key: &str) -> Result<Option<String>, CoordError> {
        let mut conn = self.conn.clone();
        Ok(conn.get(self.key("cache", key)).await?)
    }

    pub async fn cache_set(&self, key: &str, value: &str, ttl: Duration) -> Result<(), CoordError> {
        let mut conn = self.conn.clone();
        let _: () = conn.pset_ex(self.key("cache", key), value, millis(ttl)).await?;
        Ok(())
    }

    pub async fn cache_delete(&self, key: &str) -> Result<(), CoordError> {
        let mut conn = self.conn.clone();
        let _: i64 = conn.del(self.key("cache", key)).await?;
        Ok(())
    }

    pub async fn publish(&self, channel: &str, message: &str) -> Result<(), CoordError> {
        let mut conn = self.conn.clone();
        let _: i64 = conn.publish(self.key("channel", channel), message).await?;
        Ok(())
    }

    pub async fn subscribe(&self, channel: &str) -> Result<BoxStream<'static, String>, CoordError> {
        let mut pubsub = self.client.get_async_pubsub().await?;
        pubsub.subscribe(self.key("channel", channel)).await?;
        Ok(pubsub.into_on_message().filter_map(|msg| async move { msg.get_payload::<String>().ok() }).boxed())
    }

    pub async fn ping(&self) -> Result<(), CoordError> {
        let mut conn = self.conn.clone();
        let _: String = redis::cmd("PING").query_async(&mut conn).await?;
        Ok(())
    }
}
