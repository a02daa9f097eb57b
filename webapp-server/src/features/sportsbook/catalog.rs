//! `sportsbook.getSports`, `sportsbook.getEvents`, `sportsbook.getEvent`: what `/betting` lists.
//! Sport and market names come in the request's language; prices as decimal text plus the form
//! the player asked for (`odds_format`).

use super::feed::Sport;
use super::markets::MarketKind;
use super::odds::{Odds, OddsFormat};
use crate::api::{ApiError, Ctx, FieldErrors, Input, Registry};
use croupier_shared::{FieldCode, Locale};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

pub fn register(api: &mut Registry) {
    api.read(
        "sportsbook.getSports",
        "Sports with their leagues and how many events are upcoming and live, and the names of the external sportsbook providers.",
        get_sports,
    );
    api.read(
        "sportsbook.getEvents",
        "Events of a sport (sport, league, status live or upcoming, offset, count, odds_format) with their main market.",
        get_events,
    );
    api.read("sportsbook.getEvent", "One event with every market and selection (event_id, odds_format).", get_event);
}

/// A sport's name in `locale`.
pub fn sport_name(sport: Sport, locale: Locale) -> &'static str {
    match (sport, locale) {
        (Sport::Football, Locale::Fr) => "Football",
        (Sport::Football, _) => "Football",
        (Sport::Tennis, _) => "Tennis",
        (Sport::Basketball, Locale::Fr) => "Basket-ball",
        (Sport::Basketball, _) => "Basketball",
        (Sport::IceHockey, Locale::Fr) => "Hockey sur glace",
        (Sport::IceHockey, _) => "Ice hockey",
    }
}

/// A market's name in `locale` (with its line).
pub fn market_name(kind: MarketKind, locale: Locale) -> String {
    let fr = locale == Locale::Fr;
    match kind {
        MarketKind::MatchResult => if fr { "Résultat du match" } else { "Match result" }.into(),
        MarketKind::Moneyline => if fr { "Vainqueur" } else { "Winner" }.into(),
        // The same word in both languages.
        MarketKind::DoubleChance => "Double chance".into(),
        MarketKind::Totals(line) => format!("{} {line}", if fr { "Plus/moins de" } else { "Over/under" }),
        MarketKind::Handicap(line) => format!("Handicap {line}"),
        MarketKind::BothTeamsToScore => if fr { "Les deux équipes marquent" } else { "Both teams to score" }.into(),
        MarketKind::CorrectScore => if fr { "Score exact" } else { "Correct score" }.into(),
    }
}

/// A selection's name in `locale` (`home`/`away` become the teams).
pub fn selection_name(key: &str, home: &str, away: &str, locale: Locale) -> String {
    let fr = locale == Locale::Fr;
    match key {
        "home" => home.into(),
        "away" => away.into(),
        "draw" => if fr { "Match nul" } else { "Draw" }.into(),
        "home_draw" => format!("{home} {}", if fr { "ou nul" } else { "or draw" }),
        "home_away" => format!("{home} {} {away}", if fr { "ou" } else { "or" }),
        "draw_away" => format!("{} {away}", if fr { "Nul ou" } else { "Draw or" }),
        "over" => if fr { "Plus" } else { "Over" }.into(),
        "under" => if fr { "Moins" } else { "Under" }.into(),
        "yes" => if fr { "Oui" } else { "Yes" }.into(),
        "no" => if fr { "Non" } else { "No" }.into(),
        "other" => if fr { "Autre" } else { "Any other" }.into(),
        score => score.replace(':', "-"),
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct League {
    pub name: String,
    pub upcoming: i64,
    pub live: i64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SportItem {
    /// football, tennis, basketball or ice_hockey.
    pub sport: String,
    pub name: String,
    pub upcoming: i64,
    pub live: i64,
    pub leagues: Vec<League>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Sports {
    pub total: i64,
    pub items: Vec<SportItem>,
    /// The external sportsbook providers a signed-in player can open beside the house book
    /// (`sportsbook.launch`), by name, in the configured order; empty when there are none.
    pub providers: Vec<String>,
    /// Each provider's display name by name (the configured one, else the name): what players
    /// are shown.
    pub provider_titles: std::collections::BTreeMap<String, String>,
}

#[derive(sqlx::FromRow)]
struct LeagueCount {
    sport: String,
    league: String,
    status: String,
    n: i64,
}

async fn get_sports(ctx: Ctx, _: crate::api::NoInput) -> Result<Sports, ApiError> {
    let rows: Vec<LeagueCount> = sqlx::query_as(
        "SELECT sport, league, status, CAST(COUNT(*) AS BIGINT) AS n FROM sb_events WHERE status IN ('scheduled', 'live') \
         GROUP BY sport, league, status ORDER BY sport, league",
    )
    .fetch_all(ctx.state.db().pool())
    .await?;
    let mut items = Vec::new();
    for sport in Sport::ALL {
        let mut leagues: Vec<League> = Vec::new();
        for r in rows.iter().filter(|r| r.sport == sport.key()) {
            let entry = match leagues.iter_mut().find(|l| l.name == r.league) {
                Some(l) => l,
                None => {
                    leagues.push(League { name: r.league.clone(), upcoming: 0, live: 0 });
                    leagues.last_mut().expect("just pushed")
                }
            };
            if r.status == "live" { entry.live += r.n } else { entry.upcoming += r.n }
        }
        if leagues.is_empty() {
            continue;
        }
        items.push(SportItem {
            sport: sport.key().into(),
            name: sport_name(sport, ctx.locale).into(),
            upcoming: leagues.iter().map(|l| l.upcoming).sum(),
            live: leagues.iter().map(|l| l.live).sum(),
            leagues,
        });
    }
    let configured = &ctx.state.config().sportsbook_providers;
    let providers = configured.iter().map(|p| p.name.clone()).collect();
    let provider_titles = configured.iter().map(|p| (p.name.clone(), p.title.clone())).collect();
    Ok(Sports { total: items.len() as i64, items, providers, provider_titles })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EventsQuery {
    /// football, tennis, basketball or ice_hockey; every sport when absent.
    #[serde(default)]
    pub sport: Option<String>,
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub league: Option<String>,
    /// live or upcoming; both when absent.
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub offset: Option<i64>,
    /// 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub count: Option<i64>,
    /// decimal (default), fractional or american.
    #[serde(default)]
    pub odds_format: Option<String>,
}

impl Input for EventsQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        if self.sport.as_deref().is_some_and(|s| Sport::parse(s).is_none()) {
            errors.add("sport", FieldCode::Unsupported);
        }
        if !matches!(self.status.as_deref(), None | Some("live" | "upcoming")) {
            errors.add("status", FieldCode::Unsupported);
        }
        crate::features::winners::page_checks(self.offset, self.count, 100, errors);
        if self.odds_format.as_deref().is_some_and(|f| OddsFormat::parse(f).is_none()) {
            errors.add("odds_format", FieldCode::Unsupported);
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Selection {
    pub id: i64,
    pub key: String,
    pub name: String,
    /// Decimal ("2.50"); null: not offered now.
    pub odds: Option<String>,
    /// In the asked format.
    pub odds_display: Option<String>,
    /// Once settled: won, lost, void, half_won, half_lost or dead_heat.
    pub result: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Market {
    pub id: i64,
    /// 1x2, moneyline, double_chance, totals:2.5, handicap:-0.25, btts, correct_score.
    pub key: String,
    pub name: String,
    /// active, suspended, settled or cancelled.
    pub state: String,
    pub selections: Vec<Selection>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Event {
    pub id: i64,
    pub sport: String,
    pub league: String,
    pub home: String,
    pub away: String,
    /// Unix seconds.
    pub starts_at: i64,
    /// scheduled, live, finished or cancelled.
    pub status: String,
    /// Minutes played, while live.
    pub clock: Option<i64>,
    pub home_score: Option<i64>,
    pub away_score: Option<i64>,
    /// getEvents: the main market only (match result or winner); getEvent: every market.
    pub markets: Vec<Market>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Events {
    pub total: i64,
    pub items: Vec<Event>,
}

#[derive(sqlx::FromRow)]
struct EventRow {
    id: i64,
    sport: String,
    league: String,
    home: String,
    away: String,
    starts_at: i64,
    status: String,
    clock: Option<i64>,
    home_score: Option<i64>,
    away_score: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct SelectionRow {
    event_id: i64,
    market_id: i64,
    market_key: String,
    state: String,
    selection_id: i64,
    selection_key: String,
    odds: Option<i64>,
    result: Option<String>,
}

const EVENT_COLUMNS: &str = "id, sport, league, home, away, starts_at, status, clock, home_score, away_score";

/// The selections of the `events` (a page: at most 100 ids) in one statement, by event, each in
/// market then selection order; with `only_main`, just the match-result / moneyline market's.
async fn selections_of(
    conn: &mut sqlx::AnyConnection,
    events: &[i64],
    only_main: bool,
) -> Result<HashMap<i64, Vec<SelectionRow>>, sqlx::Error> {
    let mut by_event: HashMap<i64, Vec<SelectionRow>> = HashMap::new();
    if events.is_empty() {
        return Ok(by_event);
    }
    let marks: Vec<String> = (1..=events.len()).map(|i| format!("${i}")).collect();
    let main = if only_main { "AND m.market_key IN ('1x2', 'moneyline')" } else { "" };
    let sql = format!(
        "SELECT m.event_id, m.id AS market_id, m.market_key, m.state, s.id AS selection_id, s.selection_key, s.odds, s.result \
         FROM sb_markets m JOIN sb_selections s ON s.market_id = m.id WHERE m.event_id IN ({}) {main} ORDER BY m.event_id, m.id, s.id",
        marks.join(", ")
    );
    let mut query = sqlx::query_as::<_, SelectionRow>(sqlx::AssertSqlSafe(sql));
    for id in events {
        query = query.bind(id);
    }
    for row in query.fetch_all(conn).await? {
        by_event.entry(row.event_id).or_default().push(row);
    }
    Ok(by_event)
}

/// The event's markets as the player sees them, from its selection rows (market then selection order).
fn markets_of(
    event: &EventRow,
    rows: Vec<SelectionRow>,
    only_main: bool,
    locale: Locale,
    format: OddsFormat,
) -> Vec<Market> {
    let mut markets: Vec<Market> = Vec::new();
    for r in rows {
        let Some(kind) = MarketKind::parse(&r.market_key) else { continue };
        if only_main && !matches!(kind, MarketKind::MatchResult | MarketKind::Moneyline) {
            continue;
        }
        if markets.last().is_none_or(|m| m.id != r.market_id) {
            markets.push(Market {
                id: r.market_id,
                key: r.market_key.clone(),
                name: market_name(kind, locale),
                state: r.state.clone(),
                selections: Vec::new(),
            });
        }
        let odds = r.odds.and_then(|o| Odds::from_scaled(u64::try_from(o).ok()?).ok());
        let result = r.result.as_deref().and_then(super::store::parse_result);
        if let Some(m) = markets.last_mut() {
            m.selections.push(Selection {
                id: r.selection_id,
                name: selection_name(&r.selection_key, &event.home, &event.away, locale),
                key: r.selection_key,
                odds: odds.map(|o| o.to_string()),
                odds_display: odds.map(|o| o.display(format)),
                result: result.map(|o| super::bets::result_name(Some(o)).to_owned()),
            });
        }
    }
    markets
}

fn to_event(
    row: EventRow,
    selections: Vec<SelectionRow>,
    only_main: bool,
    locale: Locale,
    format: OddsFormat,
) -> Event {
    let markets = markets_of(&row, selections, only_main, locale, format);
    Event {
        id: row.id,
        sport: row.sport,
        league: row.league,
        home: row.home,
        away: row.away,
        starts_at: row.starts_at / 1000,
        status: row.status,
        clock: row.clock,
        home_score: row.home_score,
        away_score: row.away_score,
        markets,
    }
}

async fn get_events(ctx: Ctx, query: EventsQuery) -> Result<Events, ApiError> {
    let statuses = match query.status.as_deref() {
        Some("live") => "'live'",
        Some("upcoming") => "'scheduled'",
        _ => "'live', 'scheduled'",
    };
    // Only whitelisted text reaches the SQL; the sport and league are bound.
    let filter = format!("status IN ({statuses}) AND ($1 = '' OR sport = $1) AND ($2 = '' OR league = $2)");
    let sport = query.sport.clone().unwrap_or_default();
    let league = query.league.clone().unwrap_or_default();
    let format = query.odds_format.as_deref().and_then(OddsFormat::parse).unwrap_or_default();
    let mut conn = ctx.state.db().pool().acquire().await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM sb_events WHERE {filter}")))
        .bind(&sport)
        .bind(&league)
        .fetch_one(&mut *conn)
        .await?;
    let rows: Vec<EventRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {EVENT_COLUMNS} FROM sb_events WHERE {filter} ORDER BY CASE WHEN status = 'live' THEN 0 ELSE 1 END, starts_at, id LIMIT $3 OFFSET $4"
    )))
    .bind(&sport)
    .bind(&league)
    .bind(query.count.unwrap_or(20))
    .bind(query.offset.unwrap_or(0))
    .fetch_all(&mut *conn)
    .await?;
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let mut selections = selections_of(&mut conn, &ids, true).await?;
    let items = rows
        .into_iter()
        .map(|row| {
            let of_event = selections.remove(&row.id).unwrap_or_default();
            to_event(row, of_event, true, ctx.locale, format)
        })
        .collect();
    Ok(Events { total, items })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EventQuery {
    #[serde(default)]
    #[schemars(extend("x-required" = true), range(min = 1))]
    pub event_id: Option<i64>,
    /// decimal (default), fractional or american.
    #[serde(default)]
    pub odds_format: Option<String>,
}

impl Input for EventQuery {
    fn validate(&self, errors: &mut FieldErrors) {
        match self.event_id {
            None => errors.add("event_id", FieldCode::Required),
            Some(id) if id < 1 => errors.add("event_id", FieldCode::Invalid),
            Some(_) => {}
        }
        if self.odds_format.as_deref().is_some_and(|f| OddsFormat::parse(f).is_none()) {
            errors.add("odds_format", FieldCode::Unsupported);
        }
    }
}

async fn get_event(ctx: Ctx, query: EventQuery) -> Result<Event, ApiError> {
    let format = query.odds_format.as_deref().and_then(OddsFormat::parse).unwrap_or_default();
    let mut conn = ctx.state.db().pool().acquire().await?;
    let row: Option<EventRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {EVENT_COLUMNS} FROM sb_events WHERE id = $1")))
            .bind(query.event_id.unwrap_or(0))
            .fetch_optional(&mut *conn)
            .await?;
    let row = row.ok_or_else(|| ApiError::field("event_id", FieldCode::NotFound))?;
    let selections = selections_of(&mut conn, &[row.id], false).await?.remove(&row.id).unwrap_or_default();
    Ok(to_event(row, selections, false, ctx.locale, format))
}
