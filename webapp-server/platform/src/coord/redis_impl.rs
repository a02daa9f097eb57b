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

/// Puts a participant on a board: KEYS[1] the sorted set, KEYS[2] the hash user → "member|seq";
/// ARGV: user, member, score, seq. An older `seq` than the one stored changes nothing, so copies
/// written out of order never take a score back in time.
const BOARD_PUT: &str = r"
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  local sep = string.find(old, '|', 1, true)
  if tonumber(string.sub(old, sep + 1)) >= tonumber(ARGV[4]) then return 0 end
  redis.call('ZREM', KEYS[1], string.sub(old, 1, sep - 1))
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. '|' .. ARGV[4])
return 1
";

/// A leaderboard as a page shows it, in one round trip: KEYS[1] the sorted set, KEYS[2] the
/// member hash; ARGV[1] how many of the top (0: none), ARGV[2] the player ('' for a guest), then
/// the last ranks of the prize tiers (1-based). Answers {top (member, score, ...), size (read with
/// a top only, else 0), the player's 0-based rank, their score, the score at the best rank of the
/// next better prize tier}; a missing part is nil.
const BOARD_VIEW: &str = r"
local count = tonumber(ARGV[1])
local top, size = {}, 0
if count > 0 then
  top = redis.call('ZRANGE', KEYS[1], 0, count - 1, 'REV', 'WITHSCORES')
  size = redis.call('ZCARD', KEYS[1])
end
local rank, score, next_score = false, false, false
if ARGV[2] ~= '' then
  local stored = redis.call('HGET', KEYS[2], ARGV[2])
  if stored then
    local member = string.sub(stored, 1, string.find(stored, '|', 1, true) - 1)
    rank = redis.call('ZREVRANK', KEYS[1], member)
    score = redis.call('ZSCORE', KEYS[1], member)
    if rank and score then
      local target = false
      for i = 3, #ARGV do
        local last = tonumber(ARGV[i])
        if last <= rank and (not target or last > target) then target = last end
      end
      if target then
        local at = redis.call('ZRANGE', KEYS[1], target - 1, target - 1, 'REV', 'WITHSCORES')
        if at[2] then next_score = at[2] end
      end
    end
  end
end
return {top, size, rank, score, next_score}
";

/// What [`RedisCoord::board_view`] reads: the top `(user, score)`, the board's size, the
/// player's 0-based rank and score, and the score at the best rank of the next better prize tier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    pub top: Vec<(i64, i64)>,
    pub size: i64,
    pub mine: Option<(i64, i64)>,
    pub next_prize_score: Option<i64>,
}

#[derive(Clone)]
pub struct RedisCoord {
    client: redis::Client,
    conn: ConnectionManager,
    prefix: Arc<str>,
    scripts: Arc<[redis::Script; 5]>,
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
            scripts: Arc::new([
                redis::Script::new(HIT),
                redis::Script::new(ACQUIRE),
                redis::Script::new(RELEASE),
                redis::Script::new(BOARD_PUT),
                redis::Script::new(BOARD_VIEW),
            ]),
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

    /// The sorted set and the member hash of board `board`.
    fn board_keys(&self, board: &str) -> (String, String) {
        (self.key("board", board), self.key("board-members", board))
    }

    /// Writes participants' scores to `board` (one pipeline): `(user, score, reached_at, seq)`.
    /// Ranks order by score (higher first), then `reached_at` (earlier first), then user id
    /// (lower first) — the database's order (`features::tournaments::board`).
    pub async fn board_put(&self, board: &str, rows: &[(i64, i64, i64, i64)]) -> Result<(), CoordError> {
        if rows.is_empty() {
            return Ok(());
        }
        let (set, members) = self.board_keys(board);
        let mut conn = self.conn.clone();
        let mut pipe = redis::pipe();
        for &(user, score, reached_at, seq) in rows {
            let mut invocation = self.scripts[3].key(&set);
            invocation.key(&members).arg(user).arg(board_member(user, reached_at)).arg(score).arg(seq);
            pipe.invoke_script(&invocation).ignore();
        }
        // A pipeline calls the script by its hash: Redis must know it (first use, or after a
        // restart or SCRIPT FLUSH), so on NOSCRIPT it is loaded and the pipeline sent again.
        match pipe.query_async::<()>(&mut conn).await {
            Err(e) if e.to_string().to_ascii_lowercase().contains("noscript") => {
                let _: String = redis::cmd("SCRIPT").arg("LOAD").arg(BOARD_PUT).query_async(&mut conn).await?;
                let _: () = pipe.query_async(&mut conn).await?;
            }
            other => other?,
        }
        Ok(())
    }

    /// Participants `start..=stop` (0 is first) of `board`: `(user, score)`.
    pub async fn board_range(&self, board: &str, start: i64, stop: i64) -> Result<Vec<(i64, i64)>, CoordError> {
        let (set, _) = self.board_keys(board);
        let mut conn = self.conn.clone();
        let rows: Vec<(String, f64)> = redis::cmd("ZRANGE")
            .arg(&set)
            .arg(start)
            .arg(stop)
            .arg("REV")
            .arg("WITHSCORES")
            .query_async(&mut conn)
            .await?;
        Ok(rows.into_iter().filter_map(|(member, score)| Some((board_user(&member)?, score_of(score)))).collect())
    }

    /// A participant's 0-based rank and score on `board` ([`BOARD_VIEW`] without a top).
    pub async fn board_rank(&self, board: &str, user: i64) -> Result<Option<(i64, i64)>, CoordError> {
        Ok(self.board_view(board, 0, Some(user), &[]).await?.mine)
    }

    /// The top `count` of `board`, its size (with a top only, else 0) and, for `user`, their
    /// rank and score and the score at the best rank of the next better prize tier
    /// (`prize_ends`: the tiers' last ranks, 1-based) — one script, one round trip
    /// ([`BOARD_VIEW`]).
    pub async fn board_view(
        &self,
        board: &str,
        count: i64,
        user: Option<i64>,
        prize_ends: &[i64],
    ) -> Result<BoardView, CoordError> {
        let (set, members) = self.board_keys(board);
        let mut conn = self.conn.clone();
        let mut invocation = self.scripts[4].key(&set);
        invocation.key(&members).arg(count.max(0)).arg(user.map(|u| u.to_string()).unwrap_or_default());
        for end in prize_ends {
            invocation.arg(*end);
        }
        type Reply = (Vec<(String, f64)>, i64, Option<i64>, Option<f64>, Option<f64>);
        let (top, size, rank, score, next): Reply = invocation.invoke_async(&mut conn).await?;
        Ok(BoardView {
            top: top.into_iter().filter_map(|(member, score)| Some((board_user(&member)?, score_of(score)))).collect(),
            size,
            mine: rank.zip(score).map(|(r, s)| (r, score_of(s))),
            next_prize_score: next.map(score_of),
        })
    }

    /// How many participants `board` has.
    pub async fn board_len(&self, board: &str) -> Result<i64, CoordError> {
        let (set, _) = self.board_keys(board);
        let mut conn = self.conn.clone();
        Ok(conn.zcard(&set).await?)
    }

    /// Forgets `board` entirely.
    pub async fn board_drop(&self, board: &str) -> Result<(), CoordError> {
        let (set, members) = self.board_keys(board);
        let mut conn = self.conn.clone();
        let _: i64 = conn.del(&[set, members]).await?;
        Ok(())
    }
}

/// A board's member for `user`: equal scores come out of `ZRANGE … REV` in reverse lexical
/// order, so the member is the complement of `reached_at` then of the user id, in fixed-width hex:
/// the earlier, then the lower id, sorts last lexically and so comes first.
pub fn board_member(user: i64, reached_at: i64) -> String {
    let complement = |v: i64| u64::MAX - u64::try_from(v.max(0)).unwrap_or(0);
    format!("{:016x}{:016x}", complement(reached_at), complement(user))
}

/// The user id of a board member (see [`board_member`]).
pub fn board_user(member: &str) -> Option<i64> {
    let tail = member.get(16..32)?;
    let complement = u64::from_str_radix(tail, 16).ok()?;
    i64::try_from(u64::MAX - complement).ok()
}

/// Scores are integers well below 2^53, which a double holds exactly.
#[allow(clippy::cast_possible_truncation)]
fn score_of(score: f64) -> i64 {
    score.round() as i64
}

#[cfg(test)]
mod tests {
    use super::{board_member, board_user};

    #[test]
    fn board_members_sort_earlier_then_lower_ids_last_and_give_back_their_user() {
        let a = board_member(7, 1_000);
        let later = board_member(3, 2_000);
        let higher_id = board_member(9, 1_000);
        assert!(a > later, "reached earlier: sorts after (first under REV)");
        assert!(a > higher_id, "same time, lower id first");
        assert_eq!(board_user(&a), Some(7));
        assert_eq!(board_user(&later), Some(3));
        assert_eq!(board_user("nonsense"), None);
    }
}
