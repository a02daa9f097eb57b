//! The winners feed (`/winners`, `winners.get`, live at `/live/winners`) and how players appear
//! in public lists (the feed, leaderboards, jackpot winners).
//!
//! The feed lists big real-money wins of house and aggregator games (a round whose win reaches
//! `CROUPIER_BIG_WIN_MULTIPLIER` × its bet, written in the win's own transaction), jackpot drops
//! and tournament prizes. Each event is one row (`winners_feed`, unique per kind and reference).
//!
//! **Privacy.** A player chooses how they appear (`winners.setPrivacy`): `nickname` (their
//! fakename, when they have one), `masked` (the default: their login with most of it hidden,
//! e.g. `al***@***.com`, `+33*****78`) or `hidden` (left out of the feed and the jackpot winners,
//! and an anonymous name on leaderboards, where every rank must still be shown). The choice
//! applies at once, to past rows too, as names are read when a list is answered.

use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, MaybeUser, Registry};
use crate::db::now_ms;
pub use crate::features::account::MoneyView;
use crate::features::games::wallet::GameSession;
use crate::features::live::{self, Live};
use crate::features::tournaments::competition::Win;
use axum::extract::{Query, State};
use axum::response::Response;
use croupier_shared::{Currency, FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use std::sync::Arc;

pub fn register(api: &mut Registry) {
    api.read(
        "winners.get",
        "The winners feed, newest first (kind: all, game, jackpot or tournament; offset; count 1 to 50).",
        get,
    );
    api.read("winners.getPrivacy", "How the player appears in public lists (nickname, masked or hidden).", get_privacy);
    api.write(
        "winners.setPrivacy",
        "Chooses how the player appears in public lists (display: nickname, masked or hidden).",
        set_privacy,
    );
}

pub fn routes() -> axum::Router<crate::App> {
    axum::Router::new().route("/live/winners", axum::routing::get(live_winners))
}

/// The ways a player may appear.
pub const DISPLAYS: [&str; 3] = ["nickname", "masked", "hidden"];

/// What a public list needs of a player to name them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Named {
    pub id: i64,
    pub fakename: Option<String>,
    pub winners_display: String,
    pub login: Option<String>,
}

/// The player's login (their login contact, else their first one), for a query over `users u`.
macro_rules! login_column {
    () => {
        "(SELECT c.contact FROM contacts c WHERE c.user_id = u.id ORDER BY c.is_login DESC, c.id LIMIT 1) AS login"
    };
}
pub(crate) use login_column;

/// The columns of [`Named`] for a query over `users u`.
pub const NAMED: &str = concat!("u.id, u.fakename, u.winners_display, ", login_column!());

/// How `player` appears in a public list in `locale`.
pub fn name(player: &Named, locale: Locale) -> String {
    match player.winners_display.as_str() {
        "hidden" => if locale == Locale::Fr { "Joueur anonyme" } else { "Anonymous player" }.to_owned(),
        "nickname" if player.fakename.as_deref().is_some_and(|f| !f.is_empty()) => {
            player.fakename.clone().unwrap_or_default()
        }
        _ => match player.login.as_deref() {
            Some(login) => mask(login),
            None => format!(
                "{} ***{:03}",
                if locale == Locale::Fr { "Joueur" } else { "Player" },
                player.id.rem_euclid(1000)
            ),
        },
    }
}

/// A login with most of it hidden: `al***@***.com` for an e-mail, `+33*****78` for a phone.
pub fn mask(login: &str) -> String {
    if let Some((local, domain)) = login.split_once('@') {
        let head: String = local.chars().take(if local.chars().count() > 3 { 2 } else { 1 }).collect();
        let tld = domain.rsplit_once('.').map_or("", |(_, t)| t);
        return format!("{head}***@***.{tld}");
    }
    let digits: Vec<char> = login.chars().filter(char::is_ascii_digit).collect();
    if digits.len() < 6 {
        return "***".to_owned();
    }
    let head: String = digits[..2].iter().collect();
    let tail: String = digits[digits.len() - 2..].iter().collect();
    format!("+{head}*****{tail}")
}

/// The players `ids`, to be named.
pub async fn named(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<Named>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    // The ids are integers, never text from a request.
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {NAMED} FROM users u WHERE u.id IN ({list})")))
        .fetch_all(conn)
        .await
}

/// A feed event.
pub struct Record<'a> {
    pub kind: &'a str,
    pub reference: &'a str,
    pub user_id: i64,
    pub game_id: Option<i64>,
    pub amount: i64,
    pub currency: &'a str,
    pub multiplier_x100: Option<i64>,
    pub tournament_id: Option<i64>,
    pub pool_id: Option<i64>,
}

/// Lists an event, in the caller's transaction; the same kind and reference again updates the
/// amount (a round's later win), never lists it twice.
pub async fn record(conn: &mut AnyConnection, r: &Record<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO winners_feed (kind, reference, user_id, game_id, amount, currency, multiplier_x100, tournament_id, pool_id, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (kind, reference) DO UPDATE \
         SET amount = excluded.amount, multiplier_x100 = excluded.multiplier_x100",
    )
    .bind(r.kind)
    .bind(r.reference)
    .bind(r.user_id)
    .bind(r.game_id)
    .bind(r.amount)
    .bind(r.currency)
    .bind(r.multiplier_x100)
    .bind(r.tournament_id)
    .bind(r.pool_id)
    .bind(now_ms())
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether a round that staked `round_bet` and won `round_win` is a big win: its win at least
/// `big` times its bet.
pub fn is_big(round_bet: i64, round_win: i64, big: i64) -> bool {
    round_bet > 0 && i128::from(round_win) >= i128::from(round_bet) * i128::from(big)
}

/// A real-money win: listed when its round's win reaches `big` × the round's bet.
pub async fn on_win(
    conn: &mut AnyConnection,
    session: &GameSession,
    currency: Currency,
    win: &Win<'_>,
    big: i64,
) -> Result<(), sqlx::Error> {
    if !is_big(win.round_bet, win.round_win, big) {
        return Ok(());
    }
    let multiplier = i64::try_from(i128::from(win.round_win) * 100 / i128::from(win.round_bet)).unwrap_or(i64::MAX);
    let reference = win.round_id.to_string();
    record(
        conn,
        &Record {
            kind: "game",
            reference: &reference,
            user_id: session.user_id,
            game_id: Some(session.game_id),
            amount: win.round_win,
            currency: currency.code(),
            multiplier_x100: Some(multiplier),
            tournament_id: None,
            pool_id: None,
        },
    )
    .await
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct WinnersQuery {
    /// all (default), game, jackpot or tournament.
    #[serde(default)]
    #[schemars(extend("enum" = ["all", "game", "jackpot", "tournament"]))]
    pub kind: Option<String>,
    /// 0 or more (default 0).
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 50 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 50))]
    pub count: Option<i64>,
}

impl Input for WinnersQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if !matches!(self.kind.as_deref(), None | Some("all" | "game" | "jackpot" | "tournament")) {
            errors.add("kind", FieldCode::Unsupported);
        }
        page_checks(self.offset, self.count, 50, errors);
    }
}

/// The usual paging checks: offset ≥ 0, count 1 to `max`.
pub fn page_checks(offset: Option<i64>, count: Option<i64>, max: i64, errors: &mut FieldErrors) {
    if offset.is_some_and(|o| o < 0) {
        errors.add_with("offset", FieldCode::MinValue, vec![("min", "0".into())]);
    }
    match count {
        Some(c) if c < 1 => errors.add_with("count", FieldCode::MinValue, vec![("min", "1".into())]),
        Some(c) if c > max => errors.add_with("count", FieldCode::MaxValue, vec![("max", max.to_string())]),
        _ => {}
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GameRef {
    pub sysname: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Winner {
    pub id: i64,
    /// game, jackpot or tournament.
    pub kind: String,
    pub name: String,
    pub game: Option<GameRef>,
    pub amount: MoneyView,
    /// The round's win ÷ its bet, e.g. "125.00" (game wins).
    pub multiplier: Option<String>,
    /// Unix seconds.
    pub at: i64,
    pub tournament_id: Option<i64>,
    pub pool_id: Option<i64>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Winners {
    pub items: Vec<Winner>,
    pub total: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct FeedRow {
    id: i64,
    kind: String,
    user_id: i64,
    amount: i64,
    currency: String,
    multiplier_x100: Option<i64>,
    tournament_id: Option<i64>,
    pool_id: Option<i64>,
    created_at: i64,
    sysname: Option<String>,
    name_en: Option<String>,
    name_fr: Option<String>,
    fakename: Option<String>,
    winners_display: String,
    login: Option<String>,
}

const FEED: &str = concat!(
    "SELECT w.id, w.kind, w.user_id, w.amount, w.currency, w.multiplier_x100, w.tournament_id, w.pool_id, w.created_at, \
     g.sysname, g.name_en, g.name_fr, u.fakename, u.winners_display, ",
    login_column!(),
    " FROM winners_feed w JOIN users u ON u.id = w.user_id LEFT JOIN games g ON g.id = w.game_id \
     WHERE u.winners_display <> 'hidden'"
);

fn winner(row: FeedRow, locale: Locale) -> Winner {
    let named =
        Named { id: row.user_id, fakename: row.fakename, winners_display: row.winners_display, login: row.login };
    Winner {
        id: row.id,
        kind: row.kind,
        name: name(&named, locale),
        game: row.sysname.map(|sysname| GameRef {
            sysname,
            title: if locale == Locale::Fr { row.name_fr } else { row.name_en }.unwrap_or_default(),
        }),
        amount: MoneyView::of(row.amount, &row.currency),
        multiplier: row.multiplier_x100.map(|m| format!("{}.{:02}", m / 100, m % 100)),
        at: row.created_at / 1000,
        tournament_id: row.tournament_id,
        pool_id: row.pool_id,
    }
}

/// A page of the feed.
pub async fn page(
    state: &AppState,
    locale: Locale,
    kind: Option<&str>,
    offset: i64,
    count: i64,
) -> Result<Winners, ApiError> {
    let kind = kind.filter(|k| *k != "all");
    let filter = if kind.is_some() { " AND w.kind = $3" } else { "" };
    let mut query = sqlx::query_as::<_, FeedRow>(sqlx::AssertSqlSafe(format!(
        "{FEED}{filter} ORDER BY w.id DESC LIMIT $1 OFFSET $2"
    )))
    .bind(count)
    .bind(offset);
    if let Some(kind) = kind {
        query = query.bind(kind.to_owned());
    }
    let rows = query.fetch_all(state.db().pool()).await?;
    let mut total = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM winners_feed w JOIN users u ON u.id = w.user_id WHERE u.winners_display <> 'hidden'{}",
        if kind.is_some() { " AND w.kind = $1" } else { "" }
    )));
    if let Some(kind) = kind {
        total = total.bind(kind.to_owned());
    }
    let total = total.fetch_one(state.db().pool()).await?;
    Ok(Winners { items: rows.into_iter().map(|r| winner(r, locale)).collect(), total })
}

async fn get(ctx: Ctx, input: WinnersQuery) -> Result<Winners, ApiError> {
    page(&ctx.state, ctx.locale, input.kind.as_deref(), input.offset.unwrap_or(0), input.count.unwrap_or(20)).await
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Privacy {
    /// nickname, masked or hidden.
    pub display: String,
}

async fn get_privacy(ctx: Ctx, user: AuthUser, _: crate::api::NoInput) -> Result<Privacy, ApiError> {
    let display: Option<String> = sqlx::query_scalar("SELECT winners_display FROM users WHERE id = $1")
        .bind(user.id)
        .fetch_optional(ctx.state.db().pool())
        .await?;
    Ok(Privacy { display: display.unwrap_or_else(|| "masked".into()) })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PrivacyInput {
    /// nickname, masked or hidden.
    #[schemars(extend("enum" = DISPLAYS))]
    pub display: String,
}

impl Input for PrivacyInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if !DISPLAYS.contains(&self.display.as_str()) {
            errors.add("display", FieldCode::Unsupported);
        }
    }
}

async fn set_privacy(ctx: Ctx, user: AuthUser, input: PrivacyInput) -> Result<Privacy, ApiError> {
    sqlx::query("UPDATE users SET winners_display = $1, updated_at = $2 WHERE id = $3")
        .bind(&input.display)
        .bind(now_ms())
        .bind(user.id)
        .execute(ctx.state.db().pool())
        .await?;
    Ok(Privacy { display: input.display })
}

#[derive(Debug, Deserialize)]
pub struct LiveQuery {
    #[serde(default)]
    pub locale: Option<String>,
}

/// `GET /live/winners`: a `winner` event for each new row of the feed.
async fn live_winners(
    State(state): State<AppState>,
    State(live): State<Arc<Live>>,
    _: MaybeUser,
    Query(query): Query<LiveQuery>,
) -> Response {
    let locale = query.locale.as_deref().and_then(Locale::parse).unwrap_or(Locale::En);
    let start: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM winners_feed")
        .fetch_one(state.db().pool())
        .await
        .unwrap_or(0);
    live::stream(&Arc::clone(&live), (state, live, start), move |(state, live, seen)| async move {
        let pool = state.db().pool().clone();
        let newest = live
            .version("winners", async move {
                sqlx::query_scalar("SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM winners_feed")
                    .fetch_one(&pool)
                    .await
            })
            .await
            .unwrap_or(seen);
        if newest <= seen {
            return ((state, live, seen), Vec::new());
        }
        let rows: Vec<FeedRow> =
            sqlx::query_as(sqlx::AssertSqlSafe(format!("{FEED} AND w.id > $1 ORDER BY w.id LIMIT 50")))
                .bind(seen)
                .fetch_all(state.db().pool())
                .await
                .unwrap_or_default();
        let last = rows.last().map_or(newest, |r| r.id.max(seen));
        let events =
            rows.into_iter().map(|r| live::event("winner", &serde_json::json!(winner(r, locale)))).collect::<Vec<_>>();
        ((state, live, last), events)
    })
}

#[cfg(test)]
mod tests {
    use super::{Named, mask, name};
    use croupier_shared::Locale;

    #[test]
    fn logins_are_masked_and_the_choice_is_respected() {
        assert_eq!(mask("alice@example.com"), "al***@***.com");
        assert_eq!(mask("bo@x.fr"), "b***@***.fr");
        assert_eq!(mask("33612345678"), "+33*****78");
        assert_eq!(mask("123"), "***");
        let mut p = Named {
            id: 1234,
            fakename: Some("LuckyAce".into()),
            winners_display: "nickname".into(),
            login: Some("alice@example.com".into()),
        };
        assert_eq!(name(&p, Locale::En), "LuckyAce");
        p.winners_display = "masked".into();
        assert_eq!(name(&p, Locale::En), "al***@***.com");
        p.winners_display = "hidden".into();
        assert_eq!(name(&p, Locale::Fr), "Joueur anonyme");
        p.winners_display = "nickname".into();
        p.fakename = None;
        assert_eq!(name(&p, Locale::En), "al***@***.com", "no nickname: masked");
        p.login = None;
        assert_eq!(name(&p, Locale::En), "Player ***234");
    }
}
