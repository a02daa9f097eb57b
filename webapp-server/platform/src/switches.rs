//! Site-wide switches operators flip at run time: today the **maintenance** switch.
//!
//! The switch lives in the `site_switches` table, so every replica sees it; each replica keeps
//! the value it last read and reads again at most every [`REFRESH`], so the check on every
//! `/api` call costs no query. The replica where an operator flips it knows at once; the others
//! within [`REFRESH`]. `CROUPIER_MAINTENANCE=true` holds it on from start-up whatever the table
//! says (a deploy that must not take traffic).

use crate::db::{Db, now_ms};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a replica trusts the value it read.
pub const REFRESH: Duration = Duration::from_secs(2);

pub struct Switches {
    forced: bool,
    cached: Mutex<Option<(Instant, bool)>>,
}

impl Switches {
    pub fn new(forced: bool) -> Switches {
        Switches { forced, cached: Mutex::new(None) }
    }

    /// Whether the site is under maintenance now.
    pub async fn maintenance(&self, db: &Db) -> bool {
        if self.forced {
            return true;
        }
        if let Some((at, on)) = *self.cached.lock().unwrap_or_else(|p| p.into_inner())
            && at.elapsed() < REFRESH
        {
            return on;
        }
        let value: Option<String> =
            match sqlx::query_scalar("SELECT value FROM site_switches WHERE name = 'maintenance'")
                .fetch_optional(db.pool())
                .await
            {
                Ok(v) => v,
                Err(e) => {
                    // The last known value stands (off if none): an unreachable database is not
                    // a maintenance decision.
                    tracing::warn!(error = %e, "cannot read the maintenance switch");
                    return self.cached.lock().unwrap_or_else(|p| p.into_inner()).is_some_and(|(_, on)| on);
                }
            };
        let on = value.as_deref() == Some("1");
        *self.cached.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), on));
        on
    }

    /// Writes the maintenance switch in `conn`'s transaction: every replica reads it within
    /// [`REFRESH`]; call [`Switches::remember`] once it is committed so this one knows at once.
    pub async fn write_maintenance(conn: &mut sqlx::AnyConnection, on: bool, reason: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO site_switches (name, value, reason, updated_at) VALUES ('maintenance', $1, $2, $3) \
             ON CONFLICT (name) DO UPDATE SET value = excluded.value, reason = excluded.reason, updated_at = excluded.updated_at",
        )
        .bind(if on { "1" } else { "0" })
        .bind(reason)
        .bind(now_ms())
        .execute(conn)
        .await?;
        Ok(())
    }

    /// This replica's value of the switch, once a write of it has committed.
    pub fn remember(&self, on: bool) {
        *self.cached.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), on));
    }

    /// Whether the configuration holds maintenance on whatever operators switch.
    pub fn forced(&self) -> bool {
        self.forced
    }
}
