//! Live odds over real HTTP (`GET /live/sportsbook`): a price the feed writes reaches every open
//! stream of its event with the new exact price, a suspension arrives as one, a stalled client is
//! dropped while the others get every frame, a reconnect resumes after `Last-Event-ID`, bad
//! parameters and too many streams per address are refused; with Redis, a change written on
//! one replica reaches a stream open on another (a second server process on the same database).

use crate::db_test;
use crate::helpers::{Backend, TestApp, expect_error, free_port, start_server, wait_ready};
use croupier_server::features::sportsbook::feed::{EventStatus, FeedEvent, Sport, sandbox::Sandbox};
use croupier_server::features::sportsbook::live::CHANNEL;
use croupier_server::features::sportsbook::markets::{MarketKind, MarketState};
use croupier_server::features::sportsbook::odds::Odds;
use croupier_server::features::sportsbook::store;
use futures::StreamExt as _;
use reqwest::StatusCode;
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

const NOON: i64 = 1_767_614_400_000;
const SEED: u64 = 20;
const HOUR: i64 = 3_600_000;
const WAIT: Duration = Duration::from_secs(10);

/// An upcoming football match with every market active.
fn a_match() -> FeedEvent {
    Sandbox::new(SEED)
        .snapshot(NOON)
        .into_iter()
        .find(|e| {
            e.status == EventStatus::Scheduled
                && e.starts_at < NOON + 6 * HOUR
                && e.sport == Sport::Football
                && e.markets.iter().all(|m| m.state == MarketState::Active)
        })
        .expect("an upcoming football match")
}

/// The match with its home win priced at `odds`.
fn priced(event: &FeedEvent, odds: &str) -> FeedEvent {
    let mut event = event.clone();
    let market = event.markets.iter_mut().find(|m| m.kind == MarketKind::MatchResult).expect("1x2");
    let home = market.prices.iter_mut().find(|(k, _)| k == "home").expect("home price");
    home.1 = Odds::decimal(odds).expect("odds");
    event
}

async fn stored_ids(app: &TestApp, external: &str) -> (i64, i64) {
    let event: i64 = sqlx::query_scalar("SELECT id FROM sb_events WHERE feed = 'sandbox' AND external_id = $1")
        .bind(external)
        .fetch_one(app.state.db().pool())
        .await
        .unwrap();
    let selection: i64 = sqlx::query_scalar(
        "SELECT s.id FROM sb_selections s JOIN sb_markets m ON m.id = s.market_id \
         WHERE m.event_id = $1 AND m.market_key = '1x2' AND s.selection_key = 'home'",
    )
    .bind(event)
    .fetch_one(app.state.db().pool())
    .await
    .unwrap();
    (event, selection)
}

/// One server-sent frame: its id, event name and data.
#[derive(Debug, Clone, Default)]
struct Frame {
    id: Option<String>,
    event: Option<String>,
    data: String,
}

/// An open stream read over HTTP, frame by frame.
struct Stream {
    body: futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    buffer: String,
}

impl Stream {
    async fn open(base: &str, query: &str, last_id: Option<&str>) -> Stream {
        // Asked for gzip: the stream must come uncompressed all the same.
        let mut request =
            reqwest::Client::new().get(format!("{base}/live/sportsbook?{query}")).header("accept-encoding", "gzip");
        if let Some(last) = last_id {
            request = request.header("last-event-id", last);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers();
        assert_eq!(headers["content-type"], "text/event-stream");
        assert_eq!(headers["cache-control"], "no-cache");
        assert_eq!(headers["x-accel-buffering"], "no");
        assert!(headers.get("content-encoding").is_none(), "the stream is not compressed");
        let mut stream = Stream { body: response.bytes_stream().boxed(), buffer: String::new() };
        // The opening comment: the stream is open and fed.
        let first = stream.next_raw().await.expect("the opening");
        assert!(first.starts_with("retry:"), "{first}");
        stream
    }

    /// The next frame's raw text (comments included); None when the stream ended.
    async fn next_raw(&mut self) -> Option<String> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame = self.buffer[..end].to_owned();
                self.buffer.drain(..end + 2);
                return Some(frame);
            }
            match tokio::time::timeout(WAIT, self.body.next()).await.expect("a frame in time") {
                Some(Ok(chunk)) => self.buffer.push_str(std::str::from_utf8(&chunk).unwrap()),
                _ => return None,
            }
        }
    }

    /// The next event frame (comments skipped).
    async fn next(&mut self) -> Option<Frame> {
        loop {
            let raw = self.next_raw().await?;
            let mut frame = Frame::default();
            for line in raw.lines() {
                if let Some(v) = line.strip_prefix("id: ") {
                    frame.id = Some(v.to_owned());
                } else if let Some(v) = line.strip_prefix("event: ") {
                    frame.event = Some(v.to_owned());
                } else if let Some(v) = line.strip_prefix("data: ") {
                    frame.data.push_str(v);
                }
            }
            if frame.event.is_some() {
                return Some(frame);
            }
        }
    }

    /// The next `odds` frame's data.
    async fn odds(&mut self) -> (String, Value) {
        let frame = self.next().await.expect("an odds frame");
        assert_eq!(frame.event.as_deref(), Some("odds"), "{frame:?}");
        (frame.id.expect("an id"), serde_json::from_str(&frame.data).unwrap())
    }
}

fn selection(change: &Value, id: i64) -> Value {
    change["selections"].as_array().unwrap().iter().find(|s| s["id"] == id).cloned().unwrap_or(Value::Null)
}

db_test!(async fn a_price_the_feed_writes_reaches_every_open_stream_of_its_event(app) {
    let base = app.url("");
    let event = a_match();
    store::store(&app.state, "sandbox", &Sandbox::new(SEED).snapshot(NOON), NOON).await.unwrap();
    let (event_id, home) = stored_ids(app, &event.id).await;
    let other = event_id + 1;
    let mut first = Stream::open(&base, &format!("events={event_id}"), None).await;
    let mut second = Stream::open(&base, &format!("events={other},{event_id}"), None).await;
    let mut elsewhere = Stream::open(&base, &format!("events={other}"), None).await;
    // A client that goes away at once breaks nothing.
    drop(Stream::open(&base, &format!("events={event_id}"), None).await);

    let moved = priced(&event, "7.35");
    assert_eq!(store::store(&app.state, "sandbox", std::slice::from_ref(&moved), NOON + 1000).await.unwrap(), 1);
    let (id, change) = first.odds().await;
    assert_eq!(change["event_id"], event_id);
    assert_eq!(change["status"], "scheduled");
    let s = selection(&change, home);
    assert_eq!(s["odds"], "7.35", "{change}");
    assert_eq!(s["display"]["decimal"], "7.35");
    assert_eq!(s["display"]["fractional"], "127/20");
    assert_eq!(s["display"]["american"], "+635");
    assert_eq!(s["offered"], true);
    assert_eq!(change["selections"].as_array().unwrap().len(), 1, "only what moved: {change}");
    let (same_id, same) = second.odds().await;
    assert_eq!((same_id, &same), (id.clone(), &change), "one message for everyone");
    // The catalogue says the same.
    let (status, body) = app.api_get("sportsbook.getEvent", &[("event_id", &event_id.to_string())]).await;
    assert_eq!(status, StatusCode::OK);
    let listed = body["data"]["markets"][0]["selections"].as_array().unwrap().iter().find(|s| s["id"] == home).cloned();
    assert_eq!(listed.unwrap()["odds"], "7.35");

    // Storing the same snapshot again sends nothing; a suspension sends the market and its prices.
    assert_eq!(store::store(&app.state, "sandbox", std::slice::from_ref(&moved), NOON + 2000).await.unwrap(), 0);
    let mut suspended = moved.clone();
    for m in &mut suspended.markets {
        if m.kind == MarketKind::MatchResult {
            m.state = MarketState::Suspended;
        }
    }
    store::store(&app.state, "sandbox", &[suspended], NOON + 3000).await.unwrap();
    let (next_id, change) = first.odds().await;
    assert_ne!(next_id, id);
    assert_eq!(change["markets"][0]["state"], "suspended", "{change}");
    assert_eq!(selection(&change, home)["offered"], false);
    assert_eq!(selection(&change, home)["odds"], "7.35");
    assert_eq!(second.odds().await.0, next_id);

    // A stream of another event heard nothing but keep-alives: its next frame is a later change
    // of its own event, published straight on the channel.
    let message = serde_json::json!({"id": 1, "at": 0, "event_id": other, "status": "live", "clock": 3, "home_score": 0, "away_score": 0, "markets": [], "selections": []});
    app.state.coord().publish(CHANNEL, &message.to_string()).await.unwrap();
    let (id_other, change) = elsewhere.odds().await;
    assert_eq!((id_other.as_str(), change["event_id"].as_i64()), ("1", Some(other)));
    assert_eq!(second.odds().await.1["event_id"], other);

    // A reconnect resumes after the last frame it saw; an id the replica no longer has resets.
    let mut resumed = Stream::open(&base, &format!("events={event_id}"), Some(&id)).await;
    assert_eq!(resumed.odds().await.0, next_id);
    let mut lost = Stream::open(&base, &format!("events={event_id}"), Some("12345")).await;
    assert_eq!(lost.next().await.unwrap().event.as_deref(), Some("reset"));
});

db_test!(async fn a_stalled_client_is_dropped_and_the_others_get_every_frame(app) {
    let base = app.url("");
    // A client that asks and never reads.
    let mut stalled = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stalled
        .write_all(b"GET /live/sportsbook?events=5 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut reader = Stream::open(&base, "events=5", None).await;
    // Far more than the socket buffers and the connection's allowance (`live::BUFFER` frames)
    // hold; the publisher stays within a few hundred frames of the reader, which keeps up.
    let pad = "x".repeat(16 * 1024);
    let count: i64 = 2500;
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0));
    let publisher = {
        let coord = app.state.coord().clone();
        let seen = std::sync::Arc::clone(&seen);
        tokio::spawn(async move {
            for n in 1..=count {
                while seen.load(std::sync::atomic::Ordering::Relaxed) < n - 200 {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                let message = serde_json::json!({"id": n, "event_id": 5, "status": "live", "clock": n, "home_score": 0, "away_score": 0, "markets": [], "selections": [], "pad": pad});
                coord.publish(CHANNEL, &message.to_string()).await.unwrap();
            }
        })
    };
    for n in 1..=count {
        let (id, change) = reader.odds().await;
        assert_eq!((id, change["clock"].as_i64()), (n.to_string(), Some(n)), "every frame, in order");
        seen.store(n, std::sync::atomic::Ordering::Relaxed);
    }
    publisher.await.unwrap();
    // The server ended the stalled client's stream: reading it now reaches its end.
    let mut sink = vec![0_u8; 1 << 20];
    let ended = tokio::time::timeout(WAIT, async {
        loop {
            match stalled.read(&mut sink).await {
                Ok(0) | Err(_) => return true,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert_eq!(ended.ok(), Some(true), "the stalled client was dropped");
});

db_test!(async fn bad_parameters_are_refused_with_the_field(app) {
    for query in ["", "events=", "events=0", "events=1,x", "events=1&events=2", "events=1&last_id=abc"] {
        let response = reqwest::get(app.url(&format!("/live/sportsbook?{query}"))).await.unwrap();
        let status = response.status();
        let body: Value = response.json().await.unwrap();
        let data = expect_error(status, &body, 422, "InvalidParameterException")["error_data"].clone();
        assert!(data.get("events").is_some() || data.get("last_id").is_some(), "{query}: {body}");
    }
    let many = (1..=101).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    let response = reqwest::get(app.url(&format!("/live/sportsbook?events={many}"))).await.unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(expect_error(status, &body, 422, "InvalidParameterException")["error_data"]["events"][0], "MAX_LENGTH");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_holds_a_limited_number_of_streams() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_SPORTSBOOK_STREAMS_PER_ADDRESS", "2")], |_| {}).await;
    let base = app.url("");
    let one = Stream::open(&base, "events=1", None).await;
    let _two = Stream::open(&base, "events=2", None).await;
    let response = reqwest::get(app.url("/live/sportsbook?events=3")).await.unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    expect_error(status, &body, 429, "TooManyRequestsException");
    // A stream closed frees its place.
    drop(one);
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let response = reqwest::get(app.url("/live/sportsbook?events=3")).await.unwrap();
        if response.status() == StatusCode::OK {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the closed stream's place came back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    app.finish().await;
}

/// A second replica (the real binary, its feed off) on the same database and Redis, and the
/// folder it runs in (removed after it).
struct Replica {
    child: std::process::Child,
    _dir: tempfile::TempDir,
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_redis_a_change_written_on_one_replica_reaches_streams_on_another() {
    if !crate::helpers::postgres_configured() {
        eprintln!("SKIPPED: needs TEST_DATABASE_URL and TEST_REDIS_URL");
        return;
    }
    let app = TestApp::spawn(Backend::Postgres).await;
    let Some((url, prefix)) = app.redis.clone() else {
        eprintln!("SKIPPED: TEST_REDIS_URL is not set");
        app.finish().await;
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let child = start_server(
        dir.path(),
        app.database_url(),
        port,
        &[
            ("REDIS_URL", &url),
            ("CROUPIER_REDIS_PREFIX", &prefix),
            ("CROUPIER_SPORTSBOOK_FEED", "off"),
            ("CROUPIER_WEB_DIR", "/nonexistent"),
            ("CROUPIER_PUBLIC_URL", "http://localhost:8080"),
        ],
    );
    let replica = Replica { child, _dir: dir };
    let other = format!("http://127.0.0.1:{port}");
    wait_ready(&other).await;
    let event = a_match();
    store::store(&app.state, "sandbox", &Sandbox::new(SEED).snapshot(NOON), NOON).await.unwrap();
    let (event_id, home) = stored_ids(&app, &event.id).await;
    let mut there = Stream::open(&other, &format!("events={event_id}"), None).await;
    let mut here = Stream::open(&app.url(""), &format!("events={event_id}"), None).await;
    store::store(&app.state, "sandbox", &[priced(&event, "4.2")], NOON + 1000).await.unwrap();
    let (id_there, change) = there.odds().await;
    assert_eq!(selection(&change, home)["odds"], "4.20");
    assert_eq!(here.odds().await.0, id_there, "the same frame id on every replica");
    drop(replica);
    app.finish().await;
}
