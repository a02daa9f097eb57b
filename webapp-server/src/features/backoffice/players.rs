//! Players and what hangs off them: search and detail, ban / unban (the protection feature's own
//! functions, so the ban reaches every session at once), sessions, notes, ledger movements,
//! deposits, game rounds, bonuses, and the refusals trail.

use super::lists::{Arg, ListQuery, Listing, Where, by_user};
use super::{Staff, bad, body, created, json, missing, reason, seconds, trail};
use crate::api::ApiError;
use crate::db::now_ms;
use crate::features::protection;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery};
use axum::response::Response;
use croupier_shared::FieldCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Serialize, Clone, Copy)]
pub struct Money {
    pub amount: i64,
    pub currency: &'static str,
}

fn money(amount: i64, currency: &str) -> Money {
    let currency = croupier_shared::Currency::parse(currency).map_or("", |c| c.code());
    Money { amount, currency }
}

#[derive(sqlx::FromRow)]
struct PlayerRow {
    id: i64,
    fakename: Option<String>,
    currency: Option<String>,
    country_code: Option<String>,
    status: String,
    ban_reason: Option<String>,
    kyc_status: String,
    reg_time: i64,
    two_factor_auth: i64,
    email: Option<String>,
    phone: Option<String>,
    telegram_id: Option<String>,
    main: i64,
    bonus: i64,
    betting_bonus: i64,
}

const PLAYER_SELECT: &str = "SELECT u.id, u.fakename, u.currency, u.country_code, u.status, u.ban_reason, u.kyc_status, \
     u.reg_time, u.two_factor_auth, \
     (SELECT c.contact FROM contacts c WHERE c.user_id = u.id AND c.kind = 'email') AS email, \
     (SELECT c.contact FROM contacts c WHERE c.user_id = u.id AND c.kind = 'phone') AS phone, \
     (SELECT MIN(s.subject) FROM social_identities s WHERE s.user_id = u.id AND s.provider = 'telegram') AS telegram_id, \
     COALESCE((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'main' AND a.currency = u.currency), 0) AS main, \
     COALESCE((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'bonus' AND a.currency = u.currency), 0) AS bonus, \
     COALESCE((SELECT a.balance FROM ledger_accounts a WHERE a.user_id = u.id AND a.kind = 'betting_bonus' AND a.currency = u.currency), 0) AS betting_bonus \
     FROM users u";

#[derive(Serialize)]
struct Balances {
    main: Money,
    bonus: Money,
    betting_bonus: Money,
}

#[derive(Serialize)]
struct PlayerItem {
    id: i64,
    login: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    telegram_id: Option<String>,
    fakename: Option<String>,
    country_code: Option<String>,
    currency: Option<String>,
    created_at: i64,
    banned: bool,
    ban_reason: Option<String>,
    verification: &'static str,
    balances: Balances,
}

impl From<&PlayerRow> for PlayerItem {
    fn from(r: &PlayerRow) -> PlayerItem {
        let currency = r.currency.as_deref().unwrap_or("");
        PlayerItem {
            id: r.id,
            login: r.email.clone().or_else(|| r.phone.clone()),
            email: r.email.clone(),
            phone: r.phone.clone(),
            telegram_id: r.telegram_id.clone(),
            fakename: r.fakename.clone(),
            country_code: r.country_code.clone(),
            currency: r.currency.clone(),
            created_at: seconds(r.reg_time),
            banned: r.status == "banned",
            ban_reason: r.ban_reason.clone(),
            // The verification states of `protection::kyc`, as the console groups them.
            verification: match r.kyc_status.as_str() {
                "verified" => "verified",
                "pending" | "retry" => "pending",
                "rejected" => "rejected",
                _ => "none",
            },
            balances: Balances {
                main: money(r.main, currency),
                bonus: money(r.bonus, currency),
                betting_bonus: money(r.betting_bonus, currency),
            },
        }
    }
}

const PLAYER_SORTS: &[(&str, &str)] = &[("id", "u.id"), ("created_at", "u.reg_time"), ("fakename", "u.fakename")];

/// `q`: an exact id, e-mail, phone (digits) or Telegram id, or the start of a login or nickname.
fn player_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    if let Some(q) = query.text("q")? {
        let lower = q.to_lowercase();
        let digits: String = q.chars().filter(char::is_ascii_digit).collect();
        let prefix = format!("{}%", lower.replace(['%', '_'], ""));
        let id = q.parse::<i64>().unwrap_or(-1);
        w.push(
            "(u.id = {} OR EXISTS (SELECT 1 FROM contacts c WHERE c.user_id = u.id AND (c.contact = {} OR c.contact = {} OR c.contact LIKE {})) \
             OR EXISTS (SELECT 1 FROM social_identities s WHERE s.user_id = u.id AND s.provider = 'telegram' AND s.subject = {}) \
             OR u.fakename_key LIKE {})",
            vec![
                Arg::Int(id),
                Arg::Text(lower.clone()),
                Arg::Text(if digits.is_empty() { lower.clone() } else { digits }),
                Arg::Text(prefix.clone()),
                Arg::Text(q.clone()),
                Arg::Text(prefix),
            ],
        );
    }
    if let Some(status) = query.text("status")? {
        w.push("u.status = {}", vec![Arg::Text(status)]);
    }
    Ok(w)
}

const PLAYERS: Listing = Listing {
    resource: "players",
    permission: "players.read",
    sorts: PLAYER_SORTS,
    default_sort: "id",
    select: PLAYER_SELECT,
    filters: player_filters,
};

/// `GET /backoffice/api/players`.
pub async fn list(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    PLAYERS.page(staff, raw, |r: PlayerRow| PlayerItem::from(&r)).await
}

/// `GET /backoffice/api/players/export.csv`.
pub async fn export(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let header = [
        "id",
        "login",
        "email",
        "phone",
        "telegram_id",
        "fakename",
        "country_code",
        "currency",
        "created_at",
        "banned",
        "verification",
        "main",
        "bonus",
        "betting_bonus",
    ];
    PLAYERS
        .export(staff, raw, &header, |r: PlayerRow| {
            let p = PlayerItem::from(&r);
            vec![
                p.id.to_string(),
                p.login.unwrap_or_default(),
                p.email.unwrap_or_default(),
                p.phone.unwrap_or_default(),
                p.telegram_id.unwrap_or_default(),
                p.fakename.unwrap_or_default(),
                p.country_code.unwrap_or_default(),
                p.currency.unwrap_or_default(),
                p.created_at.to_string(),
                p.banned.to_string(),
                p.verification.to_owned(),
                p.balances.main.amount.to_string(),
                p.balances.bonus.amount.to_string(),
                p.balances.betting_bonus.amount.to_string(),
            ]
        })
        .await
}

async fn player(staff: &Staff, id: i64) -> Result<PlayerRow, ApiError> {
    let row: Option<PlayerRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{PLAYER_SELECT} WHERE u.id = $1")))
        .bind(id)
        .fetch_optional(staff.state().db().pool())
        .await?;
    row.ok_or_else(|| missing("id"))
}

#[derive(sqlx::FromRow, Serialize)]
struct ContactItem {
    kind: String,
    value: String,
    #[serde(serialize_with = "super::as_bool")]
    confirmed: i64,
}

#[derive(sqlx::FromRow, Serialize)]
struct LimitItem {
    kind: String,
    period: String,
    amount: Option<i64>,
    pending_amount: Option<i64>,
    pending_from: Option<i64>,
}

#[derive(sqlx::FromRow, Serialize)]
struct ExclusionItem {
    id: i64,
    kind: String,
    starts_at: i64,
    ends_at: i64,
}

/// `GET /backoffice/api/players/{id}`.
pub async fn show(staff: Staff, Path(id): Path<i64>) -> Response {
    let result = async {
        staff.require("players.read", "players.show", Some(("player", id.to_string()))).await?;
        let row = player(&staff, id).await?;
        let pool = staff.state().db().pool();
        let contacts: Vec<ContactItem> = sqlx::query_as(
            "SELECT kind, contact AS value, is_confirmed AS confirmed FROM contacts WHERE user_id = $1 ORDER BY id",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        let mut limits: Vec<LimitItem> = sqlx::query_as(
            "SELECT kind, period, amount, pending_amount, pending_from FROM rg_limits WHERE user_id = $1 ORDER BY kind, period",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        for l in &mut limits {
            l.pending_from = l.pending_from.map(seconds);
        }
        let mut exclusions: Vec<ExclusionItem> =
            sqlx::query_as("SELECT id, kind, starts_at, ends_at FROM exclusions WHERE user_id = $1 ORDER BY id DESC")
                .bind(id)
                .fetch_all(pool)
                .await?;
        for e in &mut exclusions {
            e.starts_at = seconds(e.starts_at);
            e.ends_at = seconds(e.ends_at);
        }
        let mut item = serde_json::to_value(PlayerItem::from(&row)).map_err(ApiError::internal)?;
        if let Value::Object(map) = &mut item {
            map.insert("contacts".into(), json!(contacts));
            map.insert("limits".into(), json!(limits));
            map.insert("exclusions".into(), json!(exclusions));
            map.insert("two_factor".into(), json!(row.two_factor_auth != 0));
        }
        Ok(json(&item))
    }
    .await;
    staff.answer(result)
}

#[derive(Deserialize, Default)]
struct ReasonBody {
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    ban_type: Option<String>,
}

/// `POST /backoffice/api/players/{id}/ban {reason}`.
pub async fn ban(staff: Staff, Path(id): Path<i64>, bytes: Bytes) -> Response {
    ban_or_unban(staff, id, bytes, true).await
}

/// `POST /backoffice/api/players/{id}/unban {reason}`.
pub async fn unban(staff: Staff, Path(id): Path<i64>, bytes: Bytes) -> Response {
    ban_or_unban(staff, id, bytes, false).await
}

async fn ban_or_unban(staff: Staff, id: i64, bytes: Bytes, banning: bool) -> Response {
    let action = if banning { "players.ban" } else { "players.unban" };
    let result = async {
        staff.require("players.ban", action, Some(("player", id.to_string()))).await?;
        let input: ReasonBody = body(&bytes)?;
        let why = reason(input.reason.as_deref())?;
        let before = player(&staff, id).await?;
        let state = staff.state();
        // The protection feature writes the change and its audit row in one transaction.
        let by = trail::Actor::from(&staff);
        if banning {
            protection::admin::ban(state, &by, id, input.ban_type.as_deref(), &why).await?;
        } else {
            if before.status != "banned" {
                return Err(super::conflict(&before.status));
            }
            protection::admin::unban(state, &by, id, &why).await?;
        }
        let after = player(&staff, id).await?;
        Ok(json(&PlayerItem::from(&after)))
    }
    .await;
    staff.answer(result)
}

#[derive(sqlx::FromRow, Serialize)]
struct SessionItem {
    id: String,
    user_id: i64,
    created_at: i64,
    last_seen_at: i64,
    ip: Option<String>,
    user_agent: Option<String>,
}

const SESSIONS: Listing = Listing {
    resource: "sessions",
    permission: "players.read",
    sorts: &[("created_at", "created_at"), ("last_seen_at", "last_seen_at")],
    default_sort: "last_seen_at",
    select: "SELECT id, user_id, created_at, last_seen_at, ip, user_agent FROM sessions",
    filters: by_user,
};

/// `GET /backoffice/api/sessions?filter={"user_id":N}`.
pub async fn sessions(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    SESSIONS
        .page(staff, raw, |r: SessionItem| SessionItem {
            created_at: seconds(r.created_at),
            last_seen_at: seconds(r.last_seen_at),
            ..r
        })
        .await
}

/// `DELETE /backoffice/api/sessions/{id}`: ends one player session (reason optional here, as
/// react-admin's delete sends no body).
pub async fn end_session(staff: Staff, Path(id): Path<String>, bytes: Bytes) -> Response {
    let result = async {
        staff.require("players.sessions", "sessions.end", Some(("session", id.clone()))).await?;
        let input: ReasonBody = body(&bytes)?;
        let state = staff.state();
        let mut tx = state.db().begin().await?;
        let row: Option<SessionItem> =
            sqlx::query_as("SELECT id, user_id, created_at, last_seen_at, ip, user_agent FROM sessions WHERE id = $1")
                .bind(&id)
                .fetch_optional(&mut *tx)
                .await?;
        let row = row.ok_or_else(|| missing("id"))?;
        sqlx::query("DELETE FROM sessions WHERE id = $1").bind(&id).execute(&mut *tx).await?;
        trail::write(
            &mut *tx,
            &trail::Row {
                action: "sessions.end",
                target_type: Some("session"),
                target_id: Some(&id),
                user_id: Some(row.user_id),
                reason: input.reason.as_deref(),
                before: Some(json!({ "ip": row.ip, "user_agent": row.user_agent })),
                ..trail::Row::of(&staff)
            },
        )
        .await?;
        tx.commit().await?;
        state.hot().forget_session(&id);
        state.player_changed(row.user_id).await;
        Ok(json(&json!({ "id": id, "user_id": row.user_id })))
    }
    .await;
    staff.answer(result)
}

/// `POST /backoffice/api/players/{id}/sessions/end {reason}`: ends every session of the player.
pub async fn end_sessions(staff: Staff, Path(id): Path<i64>, bytes: Bytes) -> Response {
    let result = async {
        staff.require("players.sessions", "players.sessions_end", Some(("player", id.to_string()))).await?;
        let input: ReasonBody = body(&bytes)?;
        let why = reason(input.reason.as_deref())?;
        player(&staff, id).await?;
        let state = staff.state();
        let mut tx = state.db().begin().await?;
        let ended = sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(id).execute(&mut *tx).await?;
        trail::write(
            &mut *tx,
            &trail::Row {
                action: "players.sessions_end",
                target_type: Some("player"),
                target_id: Some(&id.to_string()),
                user_id: Some(id),
                reason: Some(&why),
                after: Some(json!({ "ended": ended.rows_affected() })),
                ..trail::Row::of(&staff)
            },
        )
        .await?;
        tx.commit().await?;
        state.player_changed(id).await;
        Ok(json(&json!({ "id": id, "ended": ended.rows_affected() })))
    }
    .await;
    staff.answer(result)
}

#[derive(sqlx::FromRow, Serialize)]
struct NoteItem {
    id: i64,
    user_id: i64,
    text: String,
    operator_id: Option<i64>,
    operator_name: String,
    created_at: i64,
}

const NOTES: Listing = Listing {
    resource: "notes",
    permission: "players.read",
    sorts: &[("id", "id"), ("created_at", "created_at")],
    default_sort: "id",
    select: "SELECT id, user_id, text, operator_id, operator_name, created_at FROM player_notes",
    filters: by_user,
};

/// `GET /backoffice/api/notes?filter={"user_id":N}`.
pub async fn notes(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    NOTES.page(staff, raw, |r: NoteItem| NoteItem { created_at: seconds(r.created_at), ..r }).await
}

#[derive(Deserialize)]
struct NoteBody {
    #[serde(default)]
    user_id: Option<i64>,
    #[serde(default)]
    text: Option<String>,
}

/// `POST /backoffice/api/notes {user_id, text}`.
pub async fn add_note(staff: Staff, bytes: Bytes) -> Response {
    let result = async {
        staff.require("players.notes", "notes.create", None).await?;
        let input: NoteBody = body(&bytes)?;
        let user_id = input.user_id.ok_or_else(|| bad("user_id", FieldCode::Required))?;
        let text = input.text.as_deref().map(str::trim).unwrap_or("");
        if text.is_empty() {
            return Err(bad("text", FieldCode::Required));
        }
        if text.chars().count() > 5000 {
            return Err(ApiError::field_with("text", FieldCode::MaxLength, vec![("max", "5000".into())]));
        }
        player(&staff, user_id).await.map_err(|_| bad("user_id", FieldCode::NotFound))?;
        let now = now_ms();
        let mut tx = staff.state().db().begin().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO player_notes (user_id, text, operator_id, operator_name, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(user_id)
        .bind(text)
        .bind(staff.id)
        .bind(&staff.name)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        trail::write(
            &mut *tx,
            &trail::Row {
                action: "notes.create",
                target_type: Some("note"),
                target_id: Some(&id.to_string()),
                user_id: Some(user_id),
                after: Some(json!({ "text": text })),
                ..trail::Row::of(&staff)
            },
        )
        .await?;
        tx.commit().await?;
        Ok(created(&NoteItem {
            id,
            user_id,
            text: text.to_owned(),
            operator_id: staff.id,
            operator_name: staff.name.clone(),
            created_at: seconds(now),
        }))
    }
    .await;
    staff.answer(result)
}

#[derive(sqlx::FromRow, Serialize)]
struct MovementItem {
    id: i64,
    user_id: i64,
    created_at: i64,
    kind: String,
    amount: i64,
    currency: String,
    balance_kind: String,
    reference: Option<String>,
}

const LEDGER_SELECT: &str = "SELECT p.id, a.user_id, t.created_at, t.kind, p.amount, a.currency, a.kind AS balance_kind, t.reference \
     FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id JOIN ledger_transactions t ON t.id = p.transaction_id";
const LEDGER_SORTS: &[(&str, &str)] = &[("id", "p.id"), ("created_at", "t.created_at"), ("amount", "p.amount")];

fn ledger_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    w.push("a.is_player = 1", vec![]);
    w.eq_int(query, "user_id", "a.user_id")?;
    w.eq_text(query, "kind", "t.kind")?;
    w.eq_text(query, "balance_kind", "a.kind")?;
    w.time_range(query, "t.created_at")?;
    Ok(w)
}

const LEDGER: Listing = Listing {
    resource: "ledger",
    permission: "players.read",
    sorts: LEDGER_SORTS,
    default_sort: "id",
    select: LEDGER_SELECT,
    filters: ledger_filters,
};

/// `GET /backoffice/api/ledger?filter={"user_id":N,"kind"?,"from"?,"to"?}`.
pub async fn ledger(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    LEDGER.page(staff, raw, |r: MovementItem| MovementItem { created_at: seconds(r.created_at), ..r }).await
}

/// `GET /backoffice/api/ledger/export.csv`.
pub async fn ledger_export(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let header = ["id", "user_id", "created_at", "kind", "amount", "currency", "balance_kind", "reference"];
    LEDGER
        .export(staff, raw, &header, |r: MovementItem| {
            vec![
                r.id.to_string(),
                r.user_id.to_string(),
                seconds(r.created_at).to_string(),
                r.kind,
                r.amount.to_string(),
                r.currency,
                r.balance_kind,
                r.reference.unwrap_or_default(),
            ]
        })
        .await
}

#[derive(sqlx::FromRow, Serialize)]
struct DepositItem {
    id: String,
    user_id: i64,
    amount: i64,
    currency: String,
    method: String,
    provider: String,
    status: String,
    created_at: i64,
    updated_at: i64,
}

const DEPOSIT_SELECT: &str =
    "SELECT id, user_id, amount, currency, method, provider, status, created_at, updated_at FROM payments";
const PAYMENT_SORTS: &[(&str, &str)] =
    &[("id", "id"), ("created_at", "created_at"), ("updated_at", "updated_at"), ("amount", "amount")];

fn deposit_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    w.push("direction = 'deposit'", vec![]);
    w.eq_int(query, "user_id", "user_id")?;
    w.eq_text(query, "status", "status")?;
    w.eq_text(query, "method", "method")?;
    w.time_range(query, "created_at")?;
    Ok(w)
}

const DEPOSITS: Listing = Listing {
    resource: "deposits",
    permission: "deposits.read",
    sorts: PAYMENT_SORTS,
    default_sort: "created_at",
    select: DEPOSIT_SELECT,
    filters: deposit_filters,
};

impl DepositItem {
    fn view(self) -> DepositItem {
        DepositItem { created_at: seconds(self.created_at), updated_at: seconds(self.updated_at), ..self }
    }
}

/// `GET /backoffice/api/deposits`.
pub async fn deposits(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    DEPOSITS.page(staff, raw, DepositItem::view).await
}

/// `GET /backoffice/api/deposits/export.csv`.
pub async fn deposits_export(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let header = ["id", "user_id", "amount", "currency", "method", "provider", "status", "created_at", "updated_at"];
    DEPOSITS
        .export(staff, raw, &header, |r: DepositItem| {
            let r = r.view();
            vec![
                r.id,
                r.user_id.to_string(),
                r.amount.to_string(),
                r.currency,
                r.method,
                r.provider,
                r.status,
                r.created_at.to_string(),
                r.updated_at.to_string(),
            ]
        })
        .await
}

#[derive(sqlx::FromRow)]
struct RoundRow {
    id: i64,
    user_id: i64,
    game: String,
    provider: String,
    currency: String,
    bet: i64,
    win: i64,
    status: String,
    created_at: i64,
}

#[derive(Serialize)]
struct RoundItem {
    id: i64,
    user_id: i64,
    game: String,
    provider: String,
    bet: Money,
    win: Money,
    status: String,
    created_at: i64,
}

const ROUND_SELECT: &str = "SELECT r.id, r.user_id, COALESCE(g.sysname, '') AS game, r.provider, r.currency, r.bet, r.win, r.status, r.created_at \
     FROM game_rounds r LEFT JOIN games g ON g.id = r.game_id";

fn round_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    w.push("r.mode = 'real'", vec![]);
    w.eq_int(query, "user_id", "r.user_id")?;
    w.eq_text(query, "game", "g.sysname")?;
    w.eq_text(query, "provider", "r.provider")?;
    w.time_range(query, "r.created_at")?;
    Ok(w)
}

/// Real-money rounds.
const ROUNDS: Listing = Listing {
    resource: "rounds",
    permission: "rounds.read",
    sorts: &[("id", "r.id"), ("created_at", "r.created_at"), ("bet", "r.bet"), ("win", "r.win")],
    default_sort: "id",
    select: ROUND_SELECT,
    filters: round_filters,
};

impl From<RoundRow> for RoundItem {
    fn from(r: RoundRow) -> RoundItem {
        RoundItem {
            id: r.id,
            user_id: r.user_id,
            game: r.game,
            provider: r.provider,
            bet: money(r.bet, &r.currency),
            win: money(r.win, &r.currency),
            status: r.status,
            created_at: seconds(r.created_at),
        }
    }
}

/// `GET /backoffice/api/rounds` (real-money rounds).
pub async fn rounds(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    ROUNDS.page(staff, raw, <RoundItem as From<RoundRow>>::from).await
}

/// `GET /backoffice/api/rounds/export.csv`.
pub async fn rounds_export(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    let header = ["id", "user_id", "game", "provider", "currency", "bet", "win", "status", "created_at"];
    ROUNDS
        .export(staff, raw, &header, |r: RoundRow| {
            let r = RoundItem::from(r);
            vec![
                r.id.to_string(),
                r.user_id.to_string(),
                r.game,
                r.provider,
                r.bet.currency.to_owned(),
                r.bet.amount.to_string(),
                r.win.amount.to_string(),
                r.status,
                r.created_at.to_string(),
            ]
        })
        .await
}

#[derive(sqlx::FromRow, Serialize)]
struct BonusItem {
    id: i64,
    user_id: i64,
    campaign_id: Option<i64>,
    currency: String,
    status: String,
    reward: String,
    wager_multiplier: i64,
    max_bet: i64,
    freespin_game: Option<String>,
    freespin_count: i64,
}

fn bonus_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = by_user(query)?;
    w.eq_text(query, "status", "status")?;
    Ok(w)
}

/// The bonus engine's rows of the player.
const BONUSES: Listing = Listing {
    resource: "bonuses",
    permission: "players.read",
    sorts: &[("id", "id")],
    default_sort: "id",
    select: "SELECT id, user_id, campaign_id, currency, status, reward, wager_multiplier, max_bet, freespin_game, freespin_count FROM player_bonuses",
    filters: bonus_filters,
};

/// `GET /backoffice/api/bonuses?filter={"user_id":N}`.
pub async fn bonuses(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    BONUSES.page(staff, raw, |r: BonusItem| r).await
}

#[derive(sqlx::FromRow, Serialize)]
struct RefusalItem {
    id: i64,
    action: String,
    reason: String,
    subject: Option<String>,
    user_id: Option<i64>,
    ip: Option<String>,
    created_at: i64,
}

fn refusal_filters(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = by_user(query)?;
    w.eq_text(query, "action", "action")?;
    w.eq_text(query, "ip", "ip")?;
    w.time_range(query, "created_at")?;
    Ok(w)
}

/// The players' refusals trail (`security_refusals`).
const REFUSALS: Listing = Listing {
    resource: "refusals",
    permission: "audit.read",
    sorts: &[("id", "id"), ("created_at", "created_at")],
    default_sort: "id",
    select: "SELECT id, action, reason, subject, user_id, ip, created_at FROM security_refusals",
    filters: refusal_filters,
};

/// `GET /backoffice/api/refusals`.
pub async fn refusals(staff: Staff, RawQuery(raw): RawQuery) -> Response {
    REFUSALS.page(staff, raw, |r: RefusalItem| RefusalItem { created_at: seconds(r.created_at), ..r }).await
}
