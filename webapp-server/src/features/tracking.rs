//! Visit tracking (SPEC §2 tracking parameters, §7 "GET /hit image beacon with referer, track_id,
//! seon_session"): the client sends the beacon 3 s after start; each one becomes a row of
//! `visit_hits` an operator can report on (visits per affiliate `track_id`, referers, sign-ups by
//! joining `users.track_id`).
//!
//! Decisions (SPEC is silent): the answer is always a 1×1 transparent GIF that is never cached, so
//! the `<img>` beacon never shows a broken image; bad parameters get the error envelope (422, the
//! field and the reason) and record nothing; per address at most [`HITS_PER_MINUTE`] are recorded
//! (the rest are answered but not written, so a script cannot flood the table); the address itself
//! is never stored, only a keyed hash of it (`visitor`) to count unique visitors; rows older than
//! [`RETENTION_DAYS`] are deleted by a job.

use crate::AppState;
use crate::api::{ApiError, MaybeUser};
use crate::db::now_ms;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use croupier_shared::FieldCode;
use std::time::Duration;

pub const HITS_PER_MINUTE: u64 = 30;
pub const RETENTION_DAYS: i64 = 90;

/// The smallest transparent GIF (1×1, 43 bytes).
const PIXEL: [u8; 43] = [
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
    0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02,
    0x02, 0x44, 0x01, 0x00, 0x3b,
];

/// (parameter, longest accepted value in characters)
const PARAMS: [(&str, usize); 3] = [("referer", 2048), ("track_id", 128), ("seon_session", 512)];

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Hit {
    pub referer: Option<String>,
    pub track_id: Option<String>,
    pub seon_session: Option<String>,
}

/// Reads the beacon's query: each known parameter at most once, within its length, without
/// control characters; empty values count as absent and other parameters (cache busters) are
/// ignored.
pub fn parse(query: &str) -> Result<Hit, ApiError> {
    let mut hit = Hit::default();
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        let Some(&(field, max)) = PARAMS.iter().find(|(p, _)| *p == name) else { continue };
        let slot = match field {
            "referer" => &mut hit.referer,
            "track_id" => &mut hit.track_id,
            _ => &mut hit.seon_session,
        };
        if slot.is_some() {
            return Err(ApiError::field(field, FieldCode::Duplicate));
        }
        let value = value.trim();
        if value.chars().count() > max {
            return Err(ApiError::field_with(field, FieldCode::MaxLength, vec![("max", max.to_string())]));
        }
        if value.chars().any(char::is_control) || value.contains('\u{fffd}') {
            return Err(ApiError::field(field, FieldCode::Invalid));
        }
        if !value.is_empty() {
            *slot = Some(value.to_owned());
        }
    }
    Ok(hit)
}

pub async fn hit(State(state): State<AppState>, request: Request) -> Response {
    let locale = croupier_platform::http::cookie_locale(request.headers()).unwrap_or_default();
    let hit = match parse(request.uri().query().unwrap_or("")) {
        Ok(hit) => hit,
        Err(e) => return e.render(locale),
    };
    let ip = crate::api::request_ip(&state, &request);
    let visitor = ip.map(|ip| visitor(&state, ip));
    let allowed = match &visitor {
        Some(v) => match state.coord().hit(&format!("hit:{v}"), Duration::from_secs(60), HITS_PER_MINUTE).await {
            Ok(decision) => decision.allowed,
            Err(e) => {
                tracing::warn!(error = %e, "cannot count visit hits; recording anyway");
                true
            }
        },
        None => true,
    };
    if allowed {
        // Read only for a hit that is recorded: a refused one costs no session lookup.
        let user_id = MaybeUser::of(&state, request.headers()).await.id();
        let written = sqlx::query(
            "INSERT INTO visit_hits (at, track_id, referer, seon_session, user_id, visitor) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(now_ms())
        .bind(&hit.track_id)
        .bind(&hit.referer)
        .bind(&hit.seon_session)
        .bind(user_id)
        .bind(&visitor)
        .execute(state.db().pool())
        .await;
        if let Err(e) = written {
            return ApiError::from(e).render(locale);
        }
    }
    let mut response = PIXEL.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/gif"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A visitor as hits and events keep them: a keyed hash of the address (32 hex digits), never
/// the address itself.
fn visitor(state: &AppState, ip: std::net::IpAddr) -> String {
    state.keys().sign("visit-hit", &[&ip.to_string()])[..32].to_owned()
}

/// Deletes hits and analytics events older than [`RETENTION_DAYS`] (a background job).
pub async fn prune(state: AppState) -> anyhow::Result<()> {
    let before = now_ms() - RETENTION_DAYS * 24 * 3_600 * 1_000;
    sqlx::query("DELETE FROM visit_hits WHERE at < $1").bind(before).execute(state.db().pool()).await?;
    sqlx::query("DELETE FROM analytics_events WHERE at < $1").bind(before).execute(state.db().pool()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_beacon_query_is_read_strictly() {
        assert_eq!(
            parse("referer=https%3A%2F%2Fexample.com%2F&track_id=aff-1&seon_session=abc&_=123").unwrap(),
            Hit {
                referer: Some("https://example.com/".into()),
                track_id: Some("aff-1".into()),
                seon_session: Some("abc".into())
            }
        );
        assert_eq!(parse("").unwrap(), Hit::default());
        assert_eq!(parse("track_id=&referer=%20").unwrap(), Hit::default());
        let field = |q: &str| parse(q).unwrap_err().fields().first().map(|f| (f.field.clone(), f.code));
        assert_eq!(field("track_id=a&track_id=b"), Some(("track_id".into(), FieldCode::Duplicate)));
        assert_eq!(field(&format!("track_id={}", "x".repeat(129))), Some(("track_id".into(), FieldCode::MaxLength)));
        assert_eq!(field("referer=a%0Ab"), Some(("referer".into(), FieldCode::Invalid)));
        assert_eq!(field("seon_session=%FF"), Some(("seon_session".into(), FieldCode::Invalid)));
    }
}

// ---- Analytics events (`events.handle`) ---------------------------------------------------------

/// The events the client reports (SPEC §4 analytics: a fixed list; the client pushes the same
/// names to the tag manager's `dataLayer`). Anything else is refused.
pub const EVENTS: [&str; 12] = [
    "login",
    "sign_up",
    "logout",
    "make_deposit",
    "make_withdrawal",
    "error-login",
    "error-logout",
    "error-sign_up",
    "promo_code_not_found",
    "tracking",
    "game_start",
    "bonus_activated",
];
/// The longest `data` accepted, in characters.
pub const EVENT_DATA_MAX: usize = 2000;
/// Events recorded per address (or player) and minute; more are refused with 429.
pub const EVENTS_PER_MINUTE: u64 = 120;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct EventInput {
    /// One of [`EVENTS`].
    #[serde(default)]
    #[schemars(extend("x-required" = true), extend("enum" = EVENTS))]
    pub event: String,
    /// A JSON object with the event's details (at most 2000 characters).
    #[serde(default)]
    #[schemars(length(max = EVENT_DATA_MAX), pattern(r"^\s*\{"), example = &"{}")]
    pub data: Option<String>,
}

impl crate::api::Input for EventInput {
    fn validate(&self, errors: &mut crate::api::FieldErrors) {
        if self.event.is_empty() {
            errors.add("event", FieldCode::Required);
        } else if !EVENTS.contains(&self.event.as_str()) {
            errors.add("event", FieldCode::Unsupported);
        }
        if let Some(data) = self.data.as_deref().filter(|d| !d.is_empty()) {
            if data.chars().count() > EVENT_DATA_MAX {
                errors.add_with("data", FieldCode::MaxLength, vec![("max", EVENT_DATA_MAX.to_string())]);
            } else if !serde_json::from_str::<serde_json::Value>(data).is_ok_and(|v| v.is_object()) {
                errors.add("data", FieldCode::Invalid);
            }
        }
    }
}

pub fn register(api: &mut crate::api::Registry) {
    api.read(
        "events.handle",
        "Records one analytics event of the fixed list (for the operators' reports).",
        handle_event,
    );
}

/// `events.handle`: one row of `analytics_events` (the player when signed in, the keyed hash of
/// the address otherwise, never the address itself); kept [`RETENTION_DAYS`] like the hits.
async fn handle_event(ctx: crate::api::Ctx, user: MaybeUser, input: EventInput) -> Result<crate::api::One, ApiError> {
    let who = match (user.id(), ctx.ip) {
        (Some(id), _) => format!("u{id}"),
        (None, Some(ip)) => visitor(&ctx.state, ip),
        (None, None) => "unknown".to_owned(),
    };
    ctx.limit("events", &who, Duration::from_secs(60), EVENTS_PER_MINUTE).await?;
    sqlx::query("INSERT INTO analytics_events (at, event, user_id, visitor, data) VALUES ($1, $2, $3, $4, $5)")
        .bind(now_ms())
        .bind(&input.event)
        .bind(user.id())
        .bind(&who)
        .bind(input.data.as_deref().filter(|d| !d.is_empty()))
        .execute(ctx.state.db().pool())
        .await?;
    Ok(crate::api::One)
}
