//! Tournaments (`/tournaments…`, `tournaments.get`, `tournaments.participate`, `leaderboard.get`,
//! live at `/live/tournaments/{id}`), and the wallet hooks of every competition
//! ([`competition`]).
//!
//! # A tournament
//! A window (`starts_at`..`ends_at`, shown with its `time_zone`), the games it covers
//! ([`games::GameSelector`]), the currencies whose bets count (the first one is the one scores
//! and prizes are counted in; bets in the others are converted at `CROUPIER_CURRENCY_RATES` as
//! they were when the tournament was saved), an optional minimum bet, `opt_in` or `automatic`
//! participation, a scoring rule and a prize table by rank.
//!
//! Scoring rules, over real-money play in the covered games during the window (the whole stake,
//! bonus money included; demo play never counts):
//! - `stake`: the total staked (minor units of the first currency);
//! - `win`: the total won;
//! - `multiplier`: the best round's win ÷ bet, in hundredths (×12.34 is 1234);
//! - `points`: each bet's stake × the game's contribution percent (the bonus contribution table:
//!   slots 100 %, table and live games 10 % in the demo setup), 1 point per minor unit.
//!
//! A bet below the minimum bet does not count (nor does a win of such a round). Scores are
//! written in the bet's or win's own transaction ([`board`]); a rollback takes back what its bet
//! scored. Statuses: `upcoming`, `running`, `finished` (from the window; stored `scheduled`,
//! then `closing` and `closed`), `cancelled`.
//!
//! # Closing and prizes
//! See [`close`]: the board is frozen into `tournament_prizes` in one transaction, then each prize
//! is paid in a transaction of its own that also marks it paid — a crash at any point and a
//! restart pays nobody twice and nobody zero times. Prizes: `money` (from the house's promotions
//! account to the main balance), `bonus` (a wagering bonus through the bonus engine), `freespins`
//! (a pack of a house game), `points` (loyalty points). Amounts are in the first currency and
//! paid in the winner's currency at the tournament's rates. Only a participant with a score above
//! zero wins a prize. The bot tells each winner, and every participant who asked for it
//! (`tournaments.participate` with `notify=1`) their final rank.

pub mod admin;
pub mod board;
pub mod close;
pub mod competition;
pub mod games;

use crate::AppState;
use crate::api::{ApiError, AuthUser, Ctx, FieldErrors, Input, MaybeUser, Registry};
use crate::db::now_ms;
use crate::features::live::{self, Live};
use crate::features::winners::{self, MoneyView};
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use board::{Source, Standing};
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub fn register(api: &mut Registry) {
    api.read(
        "tournaments.get",
        "Tournaments: one (id), or a list (status: upcoming, running or finished; offset; count 1 to 100).",
        get,
    );
    api.write(
        "tournaments.participate",
        "Joins a tournament (tournament_id; notify=1: be told the final rank by the bot).",
        participate,
    );
    api.read(
        "leaderboard.get",
        "A tournament's leaderboard: the top (count 1 to 100), the player's own rank and score, the gap to the next prize.",
        leaderboard,
    );
}

pub fn routes() -> axum::Router<crate::App> {
    axum::Router::new().route("/live/tournaments/{id}", axum::routing::get(live_board))
}

/// A prize tier as stored and as operators write it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PrizeTier {
    pub rank_from: i64,
    pub rank_to: i64,
    /// money, bonus, freespins or points.
    pub kind: String,
    /// money and bonus: minor units of the tournament's first currency.
    #[serde(default)]
    pub amount: Option<i64>,
    /// bonus: the wagering multiplier (default 30) and the days to wager it (default 7).
    #[serde(default)]
    pub wager_multiplier: Option<i64>,
    #[serde(default)]
    pub wager_days: Option<i64>,
    /// points: loyalty points.
    #[serde(default)]
    pub points: Option<i64>,
    /// freespins: a pack of a one-step house game.
    #[serde(default)]
    pub freespins: Option<SpinsPrize>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SpinsPrize {
    pub game: String,
    pub count: i64,
    /// Minor units of the first currency.
    pub bet: i64,
}

impl PrizeTier {
    pub fn covers(&self, rank: i64) -> bool {
        (self.rank_from..=self.rank_to).contains(&rank)
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SpinsView {
    pub count: i64,
    pub game: String,
    pub bet: MoneyView,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Prize {
    pub rank_from: i64,
    pub rank_to: i64,
    /// money, bonus, freespins or points.
    pub kind: String,
    pub amount: Option<MoneyView>,
    pub points: Option<i64>,
    pub freespins: Option<SpinsView>,
}

fn prize_view(tier: &PrizeTier, currency: &str) -> Prize {
    Prize {
        rank_from: tier.rank_from,
        rank_to: tier.rank_to,
        kind: tier.kind.clone(),
        amount: tier.amount.map(|a| MoneyView::of(a, currency)),
        points: tier.points,
        freespins: tier.freespins.as_ref().map(|s| SpinsView {
            count: s.count,
            game: s.game.clone(),
            bet: MoneyView::of(s.bet, currency),
        }),
    }
}

/// A tournament row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Row {
    pub id: i64,
    pub title_en: String,
    pub title_fr: String,
    pub description_en: String,
    pub description_fr: String,
    pub image: Option<String>,
    pub starts_at: i64,
    pub ends_at: i64,
    pub time_zone: String,
    pub currencies: String,
    pub rates: String,
    pub scoring: String,
    pub participation: String,
    pub min_bet: Option<i64>,
    pub games: String,
    pub prizes: String,
    pub status: String,
    pub board_version: i64,
    pub repeat_days: i64,
}

pub const COLUMNS: &str = "id, title_en, title_fr, description_en, description_fr, image, starts_at, ends_at, time_zone, \
     currencies, rates, scoring, participation, min_bet, games, prizes, status, board_version, repeat_days";

impl Row {
    pub fn first_currency(&self) -> &str {
        self.currencies.split(',').next().unwrap_or("USD")
    }

    pub fn tiers(&self) -> Vec<PrizeTier> {
        serde_json::from_str(&self.prizes).unwrap_or_default()
    }

    /// upcoming, running, finished or cancelled, at `now`.
    pub fn shown_status(&self, now: i64) -> &'static str {
        match self.status.as_str() {
            "cancelled" => "cancelled",
            "closing" | "closed" => "finished",
            _ if now < self.starts_at => "upcoming",
            _ if now < self.ends_at => "running",
            _ => "finished",
        }
    }

    pub fn title(&self, locale: Locale) -> &str {
        if locale == Locale::Fr { &self.title_fr } else { &self.title_en }
    }

    /// Where its board is read: finished boards from the database (the final word), running
    /// ones from Redis when there is one.
    pub fn source<'a>(&self, state: &'a AppState) -> Source<'a> {
        if self.status == "scheduled" { Source::of(state) } else { Source::Database(state.db()) }
    }
}

/// The tournament `id`.
pub async fn load(state: &AppState, id: i64) -> Result<Option<Row>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1")))
        .bind(id)
        .fetch_optional(state.db().pool())
        .await
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Mine {
    pub rank: i64,
    pub score: i64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Tournament {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    /// upcoming, running, finished or cancelled.
    pub status: String,
    /// Unix seconds.
    pub starts_at: i64,
    pub ends_at: i64,
    /// IANA time zone the window is announced in.
    pub time_zone: String,
    /// stake, win, multiplier or points.
    pub scoring: String,
    /// opt_in or automatic.
    pub participation: String,
    pub min_bet: Option<MoneyView>,
    pub currencies: Vec<String>,
    /// The games it covers (empty: every game).
    pub game_sysnames: Vec<String>,
    pub prizes: Vec<Prize>,
    /// What the money and bonus prizes add up to.
    pub prize_pool: Option<MoneyView>,
    pub participants: i64,
    pub joined: bool,
    pub my: Option<Mine>,
}

async fn view(
    state: &AppState,
    row: &Row,
    locale: Locale,
    user: Option<i64>,
    now: i64,
) -> Result<Tournament, ApiError> {
    let currency = row.first_currency().to_owned();
    let tiers = row.tiers();
    let pool: i64 = tiers
        .iter()
        .filter(|t| matches!(t.kind.as_str(), "money" | "bonus"))
        .map(|t| t.amount.unwrap_or(0).saturating_mul(t.rank_to - t.rank_from + 1))
        .sum();
    let mut conn = state.db().pool().acquire().await?;
    let game_sysnames = games::sysnames(&mut conn, "tournament", row.id).await?;
    drop(conn);
    let source = row.source(state);
    let participants = source.len(row.id).await?;
    let my = match user {
        Some(user) => source.standing(row.id, user).await?,
        None => None,
    };
    Ok(Tournament {
        id: row.id,
        title: row.title(locale).to_owned(),
        description: if locale == Locale::Fr { row.description_fr.clone() } else { row.description_en.clone() },
        image: row.image.clone(),
        status: row.shown_status(now).to_owned(),
        starts_at: row.starts_at / 1000,
        ends_at: row.ends_at / 1000,
        time_zone: row.time_zone.clone(),
        scoring: row.scoring.clone(),
        participation: row.participation.clone(),
        min_bet: row.min_bet.map(|m| MoneyView::of(m, &currency)),
        currencies: row.currencies.split(',').map(str::to_owned).collect(),
        game_sysnames,
        prizes: tiers.iter().map(|t| prize_view(t, &currency)).collect(),
        prize_pool: (pool > 0).then(|| MoneyView::of(pool, &currency)),
        participants,
        joined: my.is_some(),
        my: my.map(|s| Mine { rank: s.rank, score: s.score }),
    })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TournamentsQuery {
    /// One tournament's id.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub id: Option<i64>,
    /// upcoming, running or finished (default: all but cancelled ones).
    #[serde(default)]
    #[schemars(extend("enum" = ["upcoming", "running", "finished"]))]
    pub status: Option<String>,
    /// 0 or more (default 0).
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
}

impl Input for TournamentsQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.id.is_some_and(|id| id < 1) {
            errors.add_with("id", FieldCode::MinValue, vec![("min", "1".into())]);
        }
        if !matches!(self.status.as_deref(), None | Some("upcoming" | "running" | "finished")) {
            errors.add("status", FieldCode::Unsupported);
        }
        winners::page_checks(self.offset, self.count, 100, errors);
    }
}

/// `tournaments.get`: one tournament (`id`) or a page of them.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Tournaments {
    One(Box<Tournament>),
    Page { items: Vec<Tournament>, total: i64 },
}

async fn get(ctx: Ctx, user: MaybeUser, input: TournamentsQuery) -> Result<Tournaments, ApiError> {
    let now = now_ms();
    let state = &ctx.state;
    if let Some(id) = input.id {
        let row = load(state, id).await?.ok_or_else(|| ApiError::field("id", FieldCode::NotFound))?;
        return Ok(Tournaments::One(Box::new(view(state, &row, ctx.locale, user.id(), now).await?)));
    }
    let (filter, order) = match input.status.as_deref() {
        Some("upcoming") => ("status = 'scheduled' AND starts_at > $1", "starts_at ASC, id ASC"),
        Some("running") => ("status = 'scheduled' AND starts_at <= $1 AND ends_at > $1", "ends_at ASC, id ASC"),
        Some("finished") => {
            ("(status IN ('closing', 'closed') OR (status = 'scheduled' AND ends_at <= $1))", "ends_at DESC, id DESC")
        }
        _ => ("status <> 'cancelled' AND $1 = $1", "ends_at DESC, id DESC"),
    };
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM tournaments WHERE {filter} ORDER BY {order} LIMIT $2 OFFSET $3"
    )))
    .bind(now)
    .bind(input.count.unwrap_or(20))
    .bind(input.offset.unwrap_or(0))
    .fetch_all(state.db().pool())
    .await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM tournaments WHERE {filter}"
    )))
    .bind(now)
    .fetch_one(state.db().pool())
    .await?;
    let mut items = Vec::with_capacity(rows.len());
    for row in &rows {
        items.push(view(state, row, ctx.locale, user.id(), now).await?);
    }
    Ok(Tournaments::Page { items, total })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ParticipateInput {
    #[schemars(range(min = 1))]
    pub tournament_id: i64,
    /// 1: the bot tells the final rank (default 0).
    #[serde(default)]
    #[schemars(extend("enum" = [0, 1]))]
    pub notify: Option<i64>,
}

impl Input for ParticipateInput {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.tournament_id < 1 {
            errors.add_with("tournament_id", FieldCode::MinValue, vec![("min", "1".into())]);
        }
        if !matches!(self.notify, None | Some(0 | 1)) {
            errors.add("notify", FieldCode::Unsupported);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Joined {
    pub joined: bool,
    pub rank: Option<i64>,
    pub score: i64,
}

async fn participate(ctx: Ctx, user: AuthUser, input: ParticipateInput) -> Result<Joined, ApiError> {
    let state = &ctx.state;
    let row =
        load(state, input.tournament_id).await?.ok_or_else(|| ApiError::field("tournament_id", FieldCode::NotFound))?;
    if !matches!(row.shown_status(now_ms()), "upcoming" | "running") {
        return Err(ApiError::field("tournament_id", FieldCode::Invalid));
    }
    let currency: Option<String> = sqlx::query_scalar("SELECT currency FROM users WHERE id = $1")
        .bind(user.id)
        .fetch_optional(state.db().pool())
        .await?
        .flatten();
    if !currency.is_some_and(|c| row.currencies.split(',').any(|t| t == c)) {
        return Err(ApiError::field("tournament_id", FieldCode::Unsupported));
    }
    let mut tx = state.db().begin().await?;
    // A self-excluded player takes part in nothing.
    crate::features::protection::guard(&mut tx, user.id).await?;
    board::join(&mut tx, row.id, user.id, input.notify == Some(1)).await?;
    tx.commit().await?;
    let standing = row.source(state).standing(row.id, user.id).await?;
    Ok(Joined { joined: true, rank: standing.map(|s| s.rank), score: standing.map_or(0, |s| s.score) })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LeaderboardQuery {
    #[schemars(range(min = 1))]
    pub tournament_id: i64,
    /// 1 to 100 (default 10).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
}

impl Input for LeaderboardQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.tournament_id < 1 {
            errors.add_with("tournament_id", FieldCode::MinValue, vec![("min", "1".into())]);
        }
        winners::page_checks(None, self.count, 100, errors);
    }
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BoardItem {
    pub rank: i64,
    pub name: String,
    pub score: i64,
    pub is_me: bool,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MyStanding {
    pub rank: Option<i64>,
    pub score: i64,
    /// The score still needed to reach the next better prize (none: already first, or no prize
    /// above).
    pub gap_to_prize: Option<i64>,
    /// The prize of the current rank, if it has one.
    pub prize: Option<Prize>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Leaderboard {
    pub tournament_id: i64,
    pub total: i64,
    pub items: Vec<BoardItem>,
    pub me: Option<MyStanding>,
    pub version: i64,
}

/// The top of a board named for `locale`.
async fn named_top(state: &AppState, top: &[Standing], locale: Locale) -> Result<Vec<BoardItem>, ApiError> {
    let ids: Vec<i64> = top.iter().map(|s| s.user).collect();
    let named = if ids.is_empty() {
        Vec::new()
    } else {
        let mut conn = state.db().pool().acquire().await?;
        winners::named(&mut conn, &ids).await?
    };
    Ok(top
        .iter()
        .map(|s| BoardItem {
            rank: s.rank,
            name: named.iter().find(|n| n.id == s.user).map(|n| winners::name(n, locale)).unwrap_or_default(),
            score: s.score,
            is_me: false,
        })
        .collect())
}

/// The player's standing with the gap to the next better prize, from a board's view.
fn standing_of(row: &Row, tiers: &[PrizeTier], view: &board::View) -> Option<MyStanding> {
    let Standing { rank, score, .. } = view.mine?;
    Some(MyStanding {
        rank: Some(rank),
        score,
        gap_to_prize: view.next_prize_score.map(|next| (next - score + 1).max(1)),
        prize: tiers.iter().find(|t| t.covers(rank)).map(|t| prize_view(t, row.first_currency())),
    })
}

/// `row`'s view for `user` with a top of `count`, and the player's standing on it (the prize
/// tiers parsed once).
async fn read_view(
    state: &AppState,
    row: &Row,
    count: i64,
    user: Option<i64>,
) -> Result<(board::View, Option<MyStanding>), ApiError> {
    let tiers = row.tiers();
    let ends: Vec<i64> = tiers.iter().map(|t| t.rank_to).collect();
    let view = row.source(state).view(row.id, count, user, &ends).await?;
    let me = standing_of(row, &tiers, &view);
    Ok((view, me))
}

/// The player's standing with the gap to the next better prize.
pub async fn mine(state: &AppState, row: &Row, user: i64) -> Result<Option<MyStanding>, ApiError> {
    Ok(read_view(state, row, 0, Some(user)).await?.1)
}

/// `leaderboard.get` for `user` (none: a guest): the board's reads in one round trip on Redis.
pub async fn board_of(
    state: &AppState,
    row: &Row,
    count: i64,
    locale: Locale,
    user: Option<i64>,
) -> Result<Leaderboard, ApiError> {
    let (view, me) = read_view(state, row, count, user).await?;
    let items = named_top(state, &view.top, locale).await?;
    let mut board =
        Leaderboard { tournament_id: row.id, total: view.size, items, me: None, version: row.board_version };
    with_me(&mut board, me);
    Ok(board)
}

/// Puts the player's standing on a board (the top is the same for everyone).
fn with_me(board: &mut Leaderboard, me: Option<MyStanding>) {
    if let Some(my) = &me {
        for item in &mut board.items {
            item.is_me = Some(item.rank) == my.rank;
        }
    }
    board.me = me;
}

async fn leaderboard(ctx: Ctx, user: MaybeUser, input: LeaderboardQuery) -> Result<Leaderboard, ApiError> {
    let row = load(&ctx.state, input.tournament_id)
        .await?
        .ok_or_else(|| ApiError::field("tournament_id", FieldCode::NotFound))?;
    board_of(&ctx.state, &row, input.count.unwrap_or(10), ctx.locale, user.id()).await
}

/// `GET /live/tournaments/{id}`: a `leaderboard` event (as `leaderboard.get` answers it for the
/// viewer) at once and whenever the board moves.
async fn live_board(
    State(state): State<AppState>,
    State(live): State<Arc<Live>>,
    user: MaybeUser,
    Path(id): Path<i64>,
    Query(query): Query<winners::LiveQuery>,
) -> Response {
    let locale = query.locale.as_deref().and_then(Locale::parse).unwrap_or(Locale::En);
    match load(&state, id).await {
        Ok(Some(_)) => {}
        Ok(None) => {
            return ApiError::field("id", FieldCode::NotFound)
                .with_status(axum::http::StatusCode::NOT_FOUND)
                .into_response();
        }
        Err(e) => return ApiError::from(e).into_response(),
    }
    let viewer = user.id();
    live::stream(&Arc::clone(&live), (state, live, -1_i64), move |(state, live, seen)| async move {
        let pool = state.db().pool().clone();
        let version = live
            .version(&format!("t:{id}"), async move {
                // The board's version, and the status (a close freezes the board).
                sqlx::query_scalar(
                    "SELECT CAST(board_version * 4 + CASE status WHEN 'scheduled' THEN 0 WHEN 'closing' THEN 1 WHEN 'closed' THEN 2 ELSE 3 END AS BIGINT) \
                     FROM tournaments WHERE id = $1",
                )
                .bind(id)
                .fetch_one(&pool)
                .await
            })
            .await;
        let Ok(version) = version else { return ((state, live, seen), Vec::new()) };
        if version == seen {
            return ((state, live, seen), Vec::new());
        }
        // The top is computed once per version for every page open on this replica; only a
        // signed-in viewer's own standing is read per connection.
        let shared = {
            let state = state.clone();
            live.value(&format!("t:{id}:{}", locale.code()), version, async move {
                let row = load(&state, id).await?.ok_or_else(|| ApiError::field("id", FieldCode::NotFound))?;
                Ok((board_of(&state, &row, 10, locale, None).await?, row))
            })
            .await
        };
        let board = match (shared, viewer) {
            (Ok(shared), None) => Some(shared.0.clone()),
            (Ok(shared), Some(user)) => match mine(&state, &shared.1, user).await {
                Ok(me) => {
                    let mut board = shared.0.clone();
                    with_me(&mut board, me);
                    Some(board)
                }
                Err(_) => None,
            },
            (Err(_), _) => None,
        };
        match board {
            Some(board) => ((state, live, version), vec![live::event("leaderboard", &serde_json::json!(board))]),
            None => ((state, live, seen), Vec::new()),
        }
    })
}
