//! Responsible gaming beyond limits (limits are `account::limits`): **time-out** and
//! **self-exclusion**, and **reality checks** (UKGC RTS 12 and the time-out / self-exclusion rules
//! as the bar).
//!
//! - Time-out: 1 to 42 days (the site offers 24 hours, a week, a month, or a number of days up
//!   to six weeks). Self-exclusion: 6 months, 1 year or 5 years (183, 365 or 1,826 days), never
//!   less. Both start at once, need a positive confirmation (`confirm=1`, after the page has
//!   explained what it means), cannot be shortened or lifted by the player (a new one only ever
//!   extends: the later end wins), end every session of the player at once, and switch every
//!   contact's marketing subscription off. What they stop is listed in `protection`'s docs.
//! - Reality check: an interval the player chooses (15, 30, 45, 60, 90 or 120 minutes; 0 turns it
//!   off). The client counts from the session's start and asks `responsibleGaming.realityCheck`
//!   for the session's length and net result (real-money wins − stakes since it started), then
//!   shows the dialog, over a game too; "stop" signs the player out.

use super::Exclusion;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, NoInput, One, Registry};
use crate::db::now_ms;
use crate::features::account::{MoneyView, player_row, store};
use crate::session;
use croupier_shared::{FieldCode, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const TIME_OUT: &str = "time_out";
pub const SELF_EXCLUSION: &str = "self_exclusion";
const DAY_MS: i64 = 24 * 3600 * 1000;
/// Time-outs the site offers (days); any whole number up to [`TIME_OUT_MAX_DAYS`] is accepted.
pub const TIME_OUT_DAYS: [i64; 3] = [1, 7, 30];
pub const TIME_OUT_MAX_DAYS: i64 = 42;
/// Self-exclusion periods (days): 6 months, 1 year, 5 years.
pub const SELF_EXCLUSION_DAYS: [i64; 3] = [183, 365, 1826];
pub const REALITY_CHECK_MINUTES: [i64; 6] = [15, 30, 45, 60, 90, 120];

pub fn register(api: &mut Registry) {
    api.read(
        "responsibleGaming.get",
        "The player's time-out or self-exclusion, reality check and the choices offered.",
        get,
    );
    api.write(
        "responsibleGaming.exclude",
        "Starts a time-out (1–42 days) or a self-exclusion (183, 365 or 1826 days) at once; confirm=1 is required. Ends every session.",
        exclude,
    );
    api.write(
        "responsibleGaming.setRealityCheck",
        "Sets the reality-check interval in minutes (0: off).",
        set_reality_check,
    );
    api.read(
        "responsibleGaming.realityCheck",
        "The current session's length and net result, for the reality-check dialog.",
        reality_check,
    );
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RgState {
    pub exclusion: Option<Exclusion>,
    /// `null`: no reality check.
    pub reality_check_minutes: Option<i64>,
    pub reality_check_options: Vec<i64>,
    pub time_out_days: Vec<i64>,
    pub time_out_max_days: i64,
    pub self_exclusion_days: Vec<i64>,
}

async fn get(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<RgState, ApiError> {
    let row = store::load(ctx.state.db(), user.id).await?;
    Ok(RgState {
        exclusion: Exclusion::in_force(row.blocked_until, row.blocked_kind.as_deref(), now_ms()),
        reality_check_minutes: row.reality_check_minutes,
        reality_check_options: REALITY_CHECK_MINUTES.to_vec(),
        time_out_days: TIME_OUT_DAYS.to_vec(),
        time_out_max_days: TIME_OUT_MAX_DAYS,
        self_exclusion_days: SELF_EXCLUSION_DAYS.to_vec(),
    })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ExcludeInput {
    /// time_out or self_exclusion.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = [TIME_OUT, SELF_EXCLUSION]))]
    pub kind: String,
    /// Days: 1–42 for a time-out; 183, 365 or 1826 for a self-exclusion (the range is the
    /// union of both).
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1, max = 1826))]
    pub days: Option<i64>,
    /// 1: the player confirmed, having read what it means.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("const" = "1"))]
    pub confirm: String,
}

impl Input for ExcludeInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match (self.kind.as_str(), self.days) {
            ("", _) => errors.add("kind", FieldCode::Required),
            (TIME_OUT | SELF_EXCLUSION, None) => errors.add("days", FieldCode::Required),
            (TIME_OUT, Some(days)) if !(1..=TIME_OUT_MAX_DAYS).contains(&days) => {
                errors.add("days", if days < 1 { FieldCode::MinValue } else { FieldCode::MaxValue });
            }
            (SELF_EXCLUSION, Some(days)) if !SELF_EXCLUSION_DAYS.contains(&days) => {
                errors.add("days", FieldCode::Unsupported);
            }
            (TIME_OUT | SELF_EXCLUSION, Some(_)) => {}
            _ => errors.add("kind", FieldCode::Unsupported),
        }
        if self.confirm != "1" {
            errors.add("confirm", FieldCode::Unchecked);
        }
    }
}

async fn exclude(ctx: Ctx, user: AuthUser, input: ExcludeInput) -> Result<Exclusion, ApiError> {
    let days = input.days.unwrap_or(1);
    let now = now_ms();
    let ends = now + days * DAY_MS;
    let db = ctx.state.db();
    let mut tx = db.begin().await?;
    db.lock_user(&mut tx, user.id).await?;
    let (until, kind): (Option<i64>, Option<String>) =
        sqlx::query_as("SELECT blocked_until, blocked_kind FROM users WHERE id = $1")
            .bind(user.id)
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query("INSERT INTO exclusions (user_id, kind, starts_at, ends_at, created_at) VALUES ($1, $2, $3, $4, $3)")
        .bind(user.id)
        .bind(&input.kind)
        .bind(now)
        .bind(ends)
        .execute(&mut *tx)
        .await?;
    // Never shortened: the later end wins, and a self-exclusion is never downgraded to a time-out.
    let (until, kind) = match (until, kind) {
        (Some(until), Some(kind)) if until > now && until >= ends => (until, kind),
        (Some(until), Some(kind)) if until > now && kind == SELF_EXCLUSION => (ends.max(until), kind),
        _ => (ends, input.kind.clone()),
    };
    sqlx::query("UPDATE users SET blocked_until = $1, blocked_kind = $2, updated_at = $3 WHERE id = $4")
        .bind(until)
        .bind(&kind)
        .bind(now)
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE contacts SET is_subscribed = 0 WHERE user_id = $1").bind(user.id).execute(&mut *tx).await?;
    session::end_others(&mut tx, user.id, None).await?;
    tx.commit().await?;
    ctx.set_cookie(session::clear_cookie(ctx.state.config()));
    tracing::info!(user_id = user.id, kind = %kind, until, "exclusion started");
    Ok(Exclusion { kind, until: until / 1000 })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RealityCheckInput {
    /// 0 (off), 15, 30, 45, 60, 90 or 120.
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = [0, 15, 30, 45, 60, 90, 120]))]
    pub minutes: Option<i64>,
}

impl Input for RealityCheckInput {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.minutes {
            None => errors.add("minutes", FieldCode::Required),
            Some(0) => {}
            Some(m) if REALITY_CHECK_MINUTES.contains(&m) => {}
            Some(_) => errors.add("minutes", FieldCode::Unsupported),
        }
    }
}

async fn set_reality_check(ctx: Ctx, user: AuthUser, input: RealityCheckInput) -> Result<One, ApiError> {
    let minutes = input.minutes.filter(|m| *m > 0);
    sqlx::query("UPDATE users SET reality_check_minutes = $1, updated_at = $2 WHERE id = $3")
        .bind(minutes)
        .bind(now_ms())
        .bind(user.id)
        .execute(ctx.state.db().pool())
        .await?;
    Ok(One)
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RealityCheck {
    /// When this session started, unix seconds.
    pub session_started_at: i64,
    pub session_seconds: i64,
    pub interval_minutes: Option<i64>,
    /// Real-money stakes and wins of the session's rounds, and wins − stakes.
    pub stakes: MoneyView,
    pub wins: MoneyView,
    pub net_result: MoneyView,
}

async fn reality_check(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<RealityCheck, ApiError> {
    let (row, currency) = player_row(&ctx, &user).await?;
    let user_id = row.id;
    let pool = ctx.state.db().pool();
    let started: i64 = sqlx::query_scalar("SELECT created_at FROM sessions WHERE id = $1")
        .bind(&user.session.id)
        .fetch_one(pool)
        .await?;
    let (stakes, wins): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(bet), 0) AS BIGINT), CAST(COALESCE(SUM(win), 0) AS BIGINT) FROM game_rounds \
         WHERE user_id = $1 AND mode = 'real' AND currency = $2 AND created_at >= $3",
    )
    .bind(user_id)
    .bind(currency.code())
    .bind(started)
    .fetch_one(pool)
    .await?;
    let money = |minor: i64| MoneyView::from(Money::from_minor(minor, currency));
    Ok(RealityCheck {
        session_started_at: started / 1000,
        session_seconds: ((now_ms() - started) / 1000).max(0),
        interval_minutes: row.reality_check_minutes,
        stakes: money(stakes),
        wins: money(wins),
        net_result: money(wins - stakes),
    })
}
