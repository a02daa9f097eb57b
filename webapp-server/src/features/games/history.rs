//! The player's game history (SPEC §7 `games.getHistory`) and its export
//! (`games.createhistoryexportrequest` / `games.gethistoryexportrequest`): a request is written
//! down, a job turns the player's rounds into CSV, and the answer then carries a download link
//! that works for its owner only, for [`DOWNLOAD_TTL_MS`].

use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, MaybeUser, NoInput, Registry};
use crate::db::now_ms;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use croupier_platform::http::csv_field;
use croupier_shared::{Currency, FieldCode, Locale, Money};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How long a finished export can be downloaded.
pub const DOWNLOAD_TTL_MS: i64 = 24 * 3600 * 1000;
/// The most rounds one export holds (the newest).
pub const EXPORT_MAX_ROWS: i64 = 100_000;

pub fn register(api: &mut Registry) {
    api.read("games.getHistory", "The player's game rounds, newest first (offset, count, sysname).", get_history);
    api.write(
        "games.createhistoryexportrequest",
        "Asks for the player's game rounds as a CSV file; a job writes it.",
        create_export,
    );
    api.read(
        "games.gethistoryexportrequest",
        "The player's latest history export: its state and, when ready, its link.",
        get_export,
    );
}

pub fn routes() -> axum::Router<AppState> {
    axum::Router::new().route("/games/history/export/{id}/{file}", axum::routing::get(download))
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct HistoryQuery {
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// Page size: 4 by default (SPEC §9), at most 100.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    /// Only this game's rounds.
    #[serde(default)]
    pub sysname: Option<String>,
}

impl Input for HistoryQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.offset.is_some_and(|o| o < 0) {
            errors.add_with("offset", FieldCode::MinValue, vec![("min", "0".into())]);
        }
        if self.count.is_some_and(|c| !(1..=100).contains(&c)) {
            errors.add_with("count", FieldCode::MaxValue, vec![("max", "100".into())]);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RoundGame {
    pub sysname: String,
    pub name: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RoundItem {
    pub round: String,
    pub game: RoundGame,
    pub provider: String,
    /// real or demo.
    pub mode: String,
    pub currency: String,
    pub bet: String,
    pub win: String,
    /// open or closed.
    pub status: String,
    /// Unix seconds.
    pub created_at: i64,
    /// The balance the game was told after the round's last call (a bet-only round: after the bet).
    pub balance_after: Option<String>,
    /// House games: what it takes to check the round (provably fair), None for other providers.
    pub fairness: Option<RoundFairness>,
}

/// A house round's seeds, nonce and recorded outcome: with the server seed (revealed once the
/// player rotated their seeds) anyone can re-derive the round through `/games/house/verify`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RoundFairness {
    pub server_seed_hash: String,
    /// None until the seed pair has been rotated.
    pub server_seed: Option<String>,
    pub client_seed: String,
    pub nonce: i64,
    /// The player's choices for the round (target, mines, rows…).
    pub params: serde_json::Value,
    pub outcome: serde_json::Value,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct History {
    pub total: i64,
    pub items: Vec<RoundItem>,
}

#[derive(sqlx::FromRow)]
struct RoundRow {
    round: String,
    sysname: String,
    name_en: String,
    name_fr: String,
    provider: String,
    mode: String,
    currency: String,
    bet: i64,
    win: i64,
    status: String,
    created_at: i64,
    /// The round's last wallet answer (JSON), whose balance is the balance after the round.
    last_answer: Option<String>,
    // House rounds' fairness, read by `games.getHistory` only ([`FAIRNESS_COLUMNS`]); the CSV
    // export leaves them out.
    #[sqlx(default)]
    hash: Option<String>,
    #[sqlx(default)]
    seed: Option<String>,
    #[sqlx(default)]
    client: Option<String>,
    #[sqlx(default)]
    nonce: Option<i64>,
    #[sqlx(default)]
    params: Option<String>,
    #[sqlx(default)]
    outcome: Option<String>,
}

/// The columns of [`RoundRow`] over `game_rounds r JOIN games g`.
const ROUND_COLUMNS: &str = "r.round, g.sysname, g.name_en, g.name_fr, r.provider, r.mode, r.currency, r.bet, r.win, r.status, \
     r.created_at, (SELECT w.response FROM wallet_transactions w WHERE w.round_id = r.id \
     ORDER BY w.created_at DESC, CASE WHEN w.kind = 'bet' THEN 1 ELSE 0 END LIMIT 1) AS last_answer";
/// A house round's seeds, nonce, choices and outcome, over [`HOUSE_JOIN`].
const FAIRNESS_COLUMNS: &str = "s.server_seed_hash AS hash, CASE WHEN s.revealed_at IS NULL THEN NULL ELSE s.server_seed END AS seed, \
     s.client_seed AS client, h.nonce, h.params, h.outcome";
const HOUSE_JOIN: &str = "LEFT JOIN house_rounds h ON h.round_id = r.id LEFT JOIN fairness_seeds s ON s.id = h.seed_id";

/// Players may export their history only while the operator allows it
/// (`CROUPIER_GAME_HISTORY_EXPORT`, `is_game_history_export_enabled`).
fn export_allowed(state: &AppState) -> Result<(), ApiError> {
    if state.config().game_history_export {
        Ok(())
    } else {
        Err(ApiError::new(croupier_shared::ErrorType::AccessDeniedException))
    }
}

fn money(minor: i64, currency: &str) -> String {
    Currency::parse(currency).map_or_else(|| minor.to_string(), |c| Money::from_minor(minor, c).to_decimal_string())
}

const FILTER: &str = "r.user_id = $1 AND ($2 = '' OR g.sysname = $2)";

async fn get_history(ctx: Ctx, user: AuthUser, query: HistoryQuery) -> Result<History, ApiError> {
    let user_id = user.id;
    let sysname = query.sysname.clone().unwrap_or_default();
    let db = ctx.state.db();
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM game_rounds r JOIN games g ON g.id = r.game_id WHERE {FILTER}"
    )))
    .bind(user_id)
    .bind(&sysname)
    .fetch_one(db.pool())
    .await?;
    let rows: Vec<RoundRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ROUND_COLUMNS}, {FAIRNESS_COLUMNS} FROM game_rounds r JOIN games g ON g.id = r.game_id {HOUSE_JOIN} \
         WHERE {FILTER} ORDER BY r.id DESC LIMIT $3 OFFSET $4"
    )))
    .bind(user_id)
    .bind(&sysname)
    .bind(query.count.unwrap_or(4))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(db.pool())
    .await?;
    let fr = ctx.locale == Locale::Fr;
    Ok(History {
        total,
        items: rows
            .into_iter()
            .map(|r| RoundItem {
                bet: money(r.bet, &r.currency),
                win: money(r.win, &r.currency),
                balance_after: balance_after(r.last_answer.as_deref()).map(|b| money(b, &r.currency)),
                fairness: match (r.hash, r.client, r.nonce) {
                    (Some(server_seed_hash), Some(client_seed), Some(nonce)) => Some(RoundFairness {
                        server_seed_hash,
                        server_seed: r.seed,
                        client_seed,
                        nonce,
                        params: json_or_null(r.params.as_deref()),
                        outcome: json_or_null(r.outcome.as_deref()),
                    }),
                    _ => None,
                },
                game: RoundGame { name: if fr { r.name_fr } else { r.name_en }, sysname: r.sysname },
                round: r.round,
                provider: r.provider,
                mode: r.mode,
                currency: r.currency,
                status: r.status,
                created_at: r.created_at / 1000,
            })
            .collect(),
    })
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportRequest {
    pub id: i64,
    /// pending, ready or failed.
    pub status: String,
    /// Rounds in the file (once ready).
    pub rows: i64,
    /// The download link, once ready and until it expires; only its owner can use it.
    pub url: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds: when the link stops working.
    pub expires_at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct ExportRow {
    id: i64,
    status: String,
    download_key: Option<String>,
    row_count: i64,
    created_at: i64,
    expires_at: Option<i64>,
}

impl ExportRow {
    fn answer(self, state: &AppState) -> ExportRequest {
        let live = self.status == "ready" && self.expires_at.is_some_and(|e| e > now_ms());
        ExportRequest {
            url: self
                .download_key
                .filter(|_| live)
                .map(|k| format!("{}/games/history/export/{}/{k}.csv", state.config().public_url, self.id)),
            status: if self.status == "ready" && !live { "expired".to_owned() } else { self.status },
            id: self.id,
            rows: self.row_count,
            created_at: self.created_at / 1000,
            expires_at: self.expires_at.map(|e| e / 1000),
        }
    }
}

const EXPORT_COLUMNS: &str = "id, status, download_key, row_count, created_at, expires_at";

async fn latest_export(state: &AppState, user_id: i64) -> Result<Option<ExportRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {EXPORT_COLUMNS} FROM game_history_exports WHERE user_id = $1 ORDER BY id DESC LIMIT 1"
    )))
    .bind(user_id)
    .fetch_optional(state.db().pool())
    .await
}

async fn create_export(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<ExportRequest, ApiError> {
    export_allowed(&ctx.state)?;
    let user_id = user.id;
    // A request still being written is answered as it is: one at a time per player.
    if let Some(pending) = latest_export(&ctx.state, user_id).await?.filter(|r| r.status == "pending") {
        return Ok(pending.answer(&ctx.state));
    }
    ctx.limit("games-history-export", &user_id.to_string(), std::time::Duration::from_secs(3600), 20).await?;
    sqlx::query(
        "INSERT INTO game_history_exports (user_id, status, row_count, created_at) VALUES ($1, 'pending', 0, $2)",
    )
    .bind(user_id)
    .bind(now_ms())
    .execute(ctx.state.db().pool())
    .await?;
    let state = ctx.state.clone();
    tokio::spawn(async move {
        if let Err(e) = run_exports(state).await {
            tracing::warn!(error = format!("{e:#}"), "history export failed");
        }
    });
    let row = latest_export(&ctx.state, user_id)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("export vanished")))?;
    Ok(row.answer(&ctx.state))
}

async fn get_export(ctx: Ctx, user: AuthUser, _: NoInput) -> Result<Option<ExportRequest>, ApiError> {
    export_allowed(&ctx.state)?;
    let user_id = user.id;
    Ok(latest_export(&ctx.state, user_id).await?.map(|r| r.answer(&ctx.state)))
}

/// The balance a wallet answer (`wallet_transactions.response`) told the game.
fn balance_after(answer: Option<&str>) -> Option<i64> {
    serde_json::from_str::<serde_json::Value>(answer?).ok()?.get("balance")?.as_i64()
}

fn json_or_null(text: Option<&str>) -> serde_json::Value {
    text.and_then(|t| serde_json::from_str(t).ok()).unwrap_or(serde_json::Value::Null)
}

/// The job: writes every pending export (also run from the background jobs' tick).
pub async fn run_exports(state: AppState) -> anyhow::Result<()> {
    let pending: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, user_id FROM game_history_exports WHERE status = 'pending' ORDER BY id LIMIT 20")
            .fetch_all(state.db().pool())
            .await?;
    for (id, user_id) in pending {
        let rows: Vec<RoundRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {ROUND_COLUMNS} FROM game_rounds r JOIN games g ON g.id = r.game_id \
             WHERE r.user_id = $1 ORDER BY r.id DESC LIMIT $2"
        )))
        .bind(user_id)
        .bind(EXPORT_MAX_ROWS)
        .fetch_all(state.db().pool())
        .await?;
        let mut csv = String::from("round,game,provider,mode,currency,bet,win,balance_after,status,created_at\n");
        for r in &rows {
            let line = [
                csv_field(&r.round),
                csv_field(&r.sysname),
                csv_field(&r.provider),
                csv_field(&r.mode),
                csv_field(&r.currency),
                money(r.bet, &r.currency),
                money(r.win, &r.currency),
                balance_after(r.last_answer.as_deref()).map(|b| money(b, &r.currency)).unwrap_or_default(),
                csv_field(&r.status),
                (r.created_at / 1000).to_string(),
            ];
            csv.push_str(&line.join(","));
            csv.push('\n');
        }
        let key = hex::encode(rand::random::<[u8; 24]>());
        let now = now_ms();
        sqlx::query(
            "UPDATE game_history_exports SET status = 'ready', csv = $1, row_count = $2, download_key = $3, ready_at = $4, expires_at = $5 \
             WHERE id = $6 AND status = 'pending'",
        )
        .bind(&csv)
        .bind(i64::try_from(rows.len()).unwrap_or(i64::MAX))
        .bind(&key)
        .bind(now)
        .bind(now + DOWNLOAD_TTL_MS)
        .bind(id)
        .execute(state.db().pool())
        .await?;
    }
    Ok(())
}

/// `GET /games/history/export/{id}/{key}.csv`: the file, for its signed-in owner, until it expires.
pub async fn download(
    State(state): State<AppState>,
    Path((id, file)): Path<(i64, String)>,
    user: MaybeUser,
) -> Response {
    let not_found = || (StatusCode::NOT_FOUND, "not found").into_response();
    if export_allowed(&state).is_err() {
        return not_found();
    }
    let Some(user_id) = user.id() else {
        return (StatusCode::UNAUTHORIZED, "sign in first").into_response();
    };
    let Some(key) = file.strip_suffix(".csv") else { return not_found() };
    type Ready = (i64, Option<String>, Option<String>, Option<i64>);
    let row: Option<Ready> = sqlx::query_as(
        "SELECT user_id, download_key, csv, expires_at FROM game_history_exports WHERE id = $1 AND status = 'ready'",
    )
    .bind(id)
    .fetch_optional(state.db().pool())
    .await
    .ok()
    .flatten();
    match row {
        Some((owner, Some(k), Some(csv), Some(expires)))
            if owner == user_id && state.keys().sign("export", &[&k]) == state.keys().sign("export", &[key]) =>
        {
            if expires <= now_ms() {
                return (StatusCode::GONE, "this link has expired").into_response();
            }
            (
                [
                    (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
                    (header::CONTENT_DISPOSITION, format!("attachment; filename=\"game-history-{id}.csv\"")),
                    (header::CACHE_CONTROL, "private, no-store".to_owned()),
                ],
                csv,
            )
                .into_response()
        }
        _ => not_found(),
    }
}
