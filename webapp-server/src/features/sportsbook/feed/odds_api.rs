//! The Odds API v4 adapter (the format of the-odds-api.com, which several aggregators copy).
//!
//! Prices: `GET {url}/v4/sports/{sport}/odds?regions={regions}&markets=h2h,spreads,totals&oddsFormat=decimal&apiKey={key}`
//! answers `[{id, sport_key, sport_title, commence_time, home_team, away_team,
//! bookmakers: [{key, markets: [{key, outcomes: [{name, price, point?}]}]}]}]`.
//! Results: `GET {url}/v4/sports/{sport}/scores?daysFrom=3&apiKey={key}` answers
//! `[{id, completed, home_team, away_team, scores: [{name, score}] | null}]`.
//!
//! Mapping: the first bookmaker that prices a market is taken (a feed set up for one book,
//! through `regions` or a proxy, has exactly one). `h2h` with a `Draw` outcome is the match result,
//! without it the moneyline; `spreads` is the handicap at the home side's point; `totals` is
//! over/under at its point. Points that are not quarters are skipped, and so is a price that is
//! not a valid decimal: the feed's JSON numbers are read from their text (never through a float).
//! The sport comes from the key's prefix (`soccer_`, `tennis_`, `basketball_`, `icehockey_`),
//! the league is `sport_title`. An event past its start is live until `scores` says `completed`,
//! then every market is settled from the final score.

use super::{EventStatus, Feed, FeedError, FeedEvent, FeedMarket, Sport};
use crate::features::sportsbook::markets::{Line, MarketKind, MarketState};
use crate::features::sportsbook::odds::Odds;
use futures::future::BoxFuture;
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Debug, Deserialize)]
struct ApiEvent {
    id: String,
    sport_key: String,
    #[serde(default)]
    sport_title: String,
    commence_time: String,
    home_team: String,
    away_team: String,
    #[serde(default)]
    bookmakers: Vec<ApiBookmaker>,
}

#[derive(Debug, Deserialize)]
struct ApiBookmaker {
    #[serde(default)]
    markets: Vec<ApiMarket>,
}

#[derive(Debug, Deserialize)]
struct ApiMarket {
    key: String,
    #[serde(default)]
    outcomes: Vec<ApiOutcome>,
}

#[derive(Debug, Deserialize)]
struct ApiOutcome {
    name: String,
    price: serde_json::Number,
    #[serde(default)]
    point: Option<serde_json::Number>,
}

#[derive(Debug, Deserialize)]
struct ApiScore {
    id: String,
    #[serde(default)]
    completed: bool,
    home_team: String,
    away_team: String,
    #[serde(default)]
    scores: Option<Vec<ApiTeamScore>>,
}

#[derive(Debug, Deserialize)]
struct ApiTeamScore {
    name: String,
    score: String,
}

/// The Odds API client: base URL, key and the sport keys to follow.
pub struct OddsApi {
    http: reqwest::Client,
    url: String,
    key: String,
    sports: Vec<String>,
    regions: String,
}

impl OddsApi {
    pub fn new(url: &str, key: &str, sports: Vec<String>, regions: &str) -> Result<OddsApi, FeedError> {
        // One HTTP client per process (its connection pool and TLS set-up kept between the feed
        // job's runs), not one per run: a `reqwest::Client` is a handle to shared state.
        static HTTP: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
        let http = match HTTP.get() {
            Some(http) => http.clone(),
            None => {
                let built = reqwest::Client::builder()
                    .timeout(std::time::Duration::from_secs(15))
                    .build()
                    .map_err(|e| FeedError::Unreachable(e.to_string()))?;
                HTTP.get_or_init(|| built).clone()
            }
        };
        Ok(OddsApi {
            http,
            url: url.trim_end_matches('/').to_owned(),
            key: key.to_owned(),
            sports,
            regions: regions.to_owned(),
        })
    }

    async fn get<T: serde::de::DeserializeOwned>(&self, path: &str, query: &[(&str, &str)]) -> Result<T, FeedError> {
        let mut query: Vec<(&str, &str)> = query.to_vec();
        query.push(("apiKey", &self.key));
        let response = self
            .http
            .get(format!("{}{path}", self.url))
            .query(&query)
            .send()
            .await
            .map_err(|e| FeedError::Unreachable(e.without_url().to_string()))?;
        if !response.status().is_success() {
            return Err(FeedError::Status(response.status().as_u16()));
        }
        let bytes = response.bytes().await.map_err(|e| FeedError::Unreachable(e.without_url().to_string()))?;
        serde_json::from_slice(&bytes).map_err(|e| FeedError::Format(e.to_string()))
    }

    async fn sport_events(&self, sport_key: &str, now: i64) -> Result<Vec<FeedEvent>, FeedError> {
        let Some(sport) = sport_of(sport_key) else {
            return Err(FeedError::Format(format!(
                "{sport_key} is not a football, tennis, basketball or ice hockey key"
            )));
        };
        let odds: Vec<ApiEvent> = self
            .get(
                &format!("/v4/sports/{sport_key}/odds"),
                &[("regions", &self.regions), ("markets", "h2h,spreads,totals"), ("oddsFormat", "decimal")],
            )
            .await?;
        let scores: Vec<ApiScore> = self.get(&format!("/v4/sports/{sport_key}/scores"), &[("daysFrom", "3")]).await?;
        let finals: HashMap<&str, (u32, u32)> =
            scores.iter().filter(|s| s.completed).filter_map(|s| Some((s.id.as_str(), final_score(s)?))).collect();
        let mut events = Vec::new();
        for event in odds {
            let Some(starts_at) = parse_time(&event.commence_time) else { continue };
            let final_score = finals.get(event.id.as_str()).copied();
            let status = match final_score {
                Some(_) => EventStatus::Finished,
                None if starts_at <= now => EventStatus::Live,
                None => EventStatus::Scheduled,
            };
            events.push(FeedEvent {
                id: event.id.clone(),
                sport,
                league: if event.sport_title.is_empty() { event.sport_key.clone() } else { event.sport_title.clone() },
                home: event.home_team.clone(),
                away: event.away_team.clone(),
                starts_at,
                status,
                clock: None,
                score: final_score,
                markets: markets(&event, final_score),
            });
        }
        // Completed events drop out of `odds`: their results still have to arrive.
        let known: Vec<String> = events.iter().map(|e| e.id.clone()).collect();
        for s in scores.iter().filter(|s| s.completed && !known.contains(&s.id)) {
            let Some((h, a)) = final_score(s) else { continue };
            events.push(FeedEvent {
                id: s.id.clone(),
                sport,
                league: sport_key.to_owned(),
                home: s.home_team.clone(),
                away: s.away_team.clone(),
                starts_at: 0,
                status: EventStatus::Finished,
                clock: None,
                score: Some((h, a)),
                markets: Vec::new(),
            });
        }
        Ok(events)
    }
}

impl Feed for OddsApi {
    fn name(&self) -> &str {
        "oddsapi"
    }

    fn events(&self, now: i64) -> BoxFuture<'_, Result<Vec<FeedEvent>, FeedError>> {
        Box::pin(async move {
            let mut all = Vec::new();
            for sport in &self.sports {
                all.extend(self.sport_events(sport, now).await?);
            }
            Ok(all)
        })
    }
}

fn sport_of(key: &str) -> Option<Sport> {
    let prefix = key.split('_').next()?;
    Some(match prefix {
        "soccer" => Sport::Football,
        "tennis" => Sport::Tennis,
        "basketball" => Sport::Basketball,
        "icehockey" => Sport::IceHockey,
        _ => return None,
    })
}

fn final_score(s: &ApiScore) -> Option<(u32, u32)> {
    let scores = s.scores.as_ref()?;
    let of = |team: &str| scores.iter().find(|t| t.name == team).and_then(|t| t.score.trim().parse::<u32>().ok());
    Some((of(&s.home_team)?, of(&s.away_team)?))
}

/// `2026-01-05T19:30:00Z` (RFC 3339, UTC as the API sends it) in unix ms.
pub fn parse_time(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || !text.ends_with('Z')
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + hh) * 60 + mm) * 60_000 + ss * 1000)
}

fn markets(event: &ApiEvent, final_score: Option<(u32, u32)>) -> Vec<FeedMarket> {
    let mut out: Vec<FeedMarket> = Vec::new();
    for bookmaker in &event.bookmakers {
        for market in &bookmaker.markets {
            let Some((kind, prices)) = read_market(event, market) else { continue };
            if out.iter().any(|m| m.kind == kind) {
                continue;
            }
            let feed_market = match final_score {
                Some((h, a)) => FeedMarket {
                    kind,
                    state: MarketState::Settled,
                    prices: Vec::new(),
                    results: super::results_from_score(kind, h, a),
                },
                None => FeedMarket { kind, state: MarketState::Active, prices, results: Vec::new() },
            };
            out.push(feed_market);
        }
    }
    out
}

fn read_market(event: &ApiEvent, market: &ApiMarket) -> Option<(MarketKind, Vec<(String, Odds)>)> {
    let selection = |name: &str| -> Option<&'static str> {
        if name == event.home_team {
            Some("home")
        } else if name == event.away_team {
            Some("away")
        } else if name.eq_ignore_ascii_case("draw") {
            Some("draw")
        } else if name.eq_ignore_ascii_case("over") {
            Some("over")
        } else if name.eq_ignore_ascii_case("under") {
            Some("under")
        } else {
            None
        }
    };
    let mut prices = Vec::new();
    let mut home_point = None;
    let mut total_point = None;
    for outcome in &market.outcomes {
        let key = selection(&outcome.name)?;
        let odds = Odds::decimal(&outcome.price.to_string()).ok()?;
        let point = outcome.point.as_ref().and_then(|p| Line::parse(&p.to_string()));
        match key {
            "home" => home_point = point,
            "over" | "under" => total_point = point,
            _ => {}
        }
        prices.push((key.to_owned(), odds));
    }
    let kind = match market.key.as_str() {
        "h2h" if prices.iter().any(|(k, _)| k == "draw") => MarketKind::MatchResult,
        "h2h" => MarketKind::Moneyline,
        "spreads" => MarketKind::Handicap(home_point?),
        "totals" => MarketKind::Totals(total_point.filter(|l| l.0 > 0)?),
        _ => return None,
    };
    let expected = kind.selections();
    let complete = prices.len() == expected.len() && prices.iter().all(|(k, _)| expected.contains(k));
    complete.then_some((kind, prices))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::sportsbook::settle::Outcome;
    use axum::extract::{Path, Query};
    use axum::routing::get;

    const ODDS: &str = r#"[
      {"id":"e1","sport_key":"soccer_epl","sport_title":"EPL","commence_time":"2026-01-05T15:00:00Z",
       "home_team":"Arsenal","away_team":"Chelsea","bookmakers":[
        {"key":"book","title":"Book","last_update":"2026-01-05T10:00:00Z","markets":[
          {"key":"h2h","outcomes":[{"name":"Arsenal","price":2.1},{"name":"Chelsea","price":3.4},{"name":"Draw","price":3.25}]},
          {"key":"spreads","outcomes":[{"name":"Arsenal","price":1.95,"point":-0.25},{"name":"Chelsea","price":1.9,"point":0.25}]},
          {"key":"totals","outcomes":[{"name":"Over","price":1.8,"point":2.5},{"name":"Under","price":2.02,"point":2.5}]},
          {"key":"totals","outcomes":[{"name":"Over","price":1.8,"point":2.4},{"name":"Under","price":2.02,"point":2.4}]}
        ]}]},
      {"id":"e2","sport_key":"soccer_epl","sport_title":"EPL","commence_time":"2026-01-04T15:00:00Z",
       "home_team":"Everton","away_team":"Fulham","bookmakers":[
        {"key":"book","markets":[{"key":"h2h","outcomes":[{"name":"Everton","price":2.5},{"name":"Fulham","price":2.9},{"name":"Draw","price":3.1}]}]}]}
    ]"#;
    const SCORES: &str = r#"[
      {"id":"e1","sport_key":"soccer_epl","completed":false,"home_team":"Arsenal","away_team":"Chelsea","scores":null},
      {"id":"e2","sport_key":"soccer_epl","completed":true,"home_team":"Everton","away_team":"Fulham",
       "scores":[{"name":"Everton","score":"1"},{"name":"Fulham","score":"1"}]}
    ]"#;

    async fn fake_server() -> String {
        let app = axum::Router::new().route(
            "/v4/sports/{sport}/{what}",
            get(|Path((sport, what)): Path<(String, String)>, Query(q): Query<HashMap<String, String>>| async move {
                if q.get("apiKey").map(String::as_str) != Some("k3y") {
                    return (axum::http::StatusCode::UNAUTHORIZED, String::new());
                }
                match (sport.as_str(), what.as_str()) {
                    ("soccer_epl", "odds") if q.get("markets").map(String::as_str) == Some("h2h,spreads,totals") => {
                        (axum::http::StatusCode::OK, ODDS.to_owned())
                    }
                    ("soccer_epl", "scores") => (axum::http::StatusCode::OK, SCORES.to_owned()),
                    _ => (axum::http::StatusCode::NOT_FOUND, String::new()),
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("an address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        format!("http://{addr}")
    }

    #[tokio::test]
    async fn the_adapter_reads_prices_and_results_from_an_odds_api_server() {
        let url = fake_server().await;
        let feed = OddsApi::new(&url, "k3y", vec!["soccer_epl".into()], "uk").expect("a client");
        let now = parse_time("2026-01-05T12:00:00Z").expect("a time");
        let events = feed.events(now).await.expect("events");
        assert_eq!(events.len(), 2);
        let e1 = &events[0];
        assert_eq!((e1.sport, e1.league.as_str(), e1.status), (Sport::Football, "EPL", EventStatus::Scheduled));
        assert_eq!(e1.starts_at, now + 3 * 3_600_000);
        let kinds: Vec<String> = e1.markets.iter().map(|m| m.kind.key()).collect();
        // The 2.4 totals line is not a quarter line: skipped.
        assert_eq!(kinds, ["1x2", "handicap:-0.25", "totals:2.5"]);
        assert_eq!(e1.markets[0].prices[0], ("home".to_owned(), Odds::parse("2.1").expect("odds")));
        assert_eq!(e1.markets[0].prices[2], ("draw".to_owned(), Odds::parse("3.25").expect("odds")));
        let e2 = &events[1];
        assert_eq!((e2.status, e2.score), (EventStatus::Finished, Some((1, 1))));
        assert_eq!(e2.markets[0].state, MarketState::Settled);
        assert!(e2.markets[0].results.contains(&("draw".to_owned(), Outcome::WON)));
        let wrong_key = OddsApi::new(&url, "nope", vec!["soccer_epl".into()], "uk").expect("a client");
        assert!(matches!(wrong_key.events(now).await, Err(FeedError::Status(401))));
        let closed = OddsApi::new("http://127.0.0.1:9", "k3y", vec!["soccer_epl".into()], "uk").expect("a client");
        assert!(matches!(closed.events(now).await, Err(FeedError::Unreachable(_))));
    }

    #[test]
    fn times_read_as_utc() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("2026-01-05T12:00:00Z"), Some(1_767_614_400_000));
        assert_eq!(parse_time("2024-02-29T23:59:59Z"), Some(1_709_251_199_000));
        assert_eq!(parse_time("2026-13-05T12:00:00Z"), None);
        assert_eq!(parse_time("yesterday"), None);
    }
}
