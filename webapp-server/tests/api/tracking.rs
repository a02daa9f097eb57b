//! The `/hit` visit beacon (SPEC §7): recorded per visit, strict about its parameters, answered
//! with a pixel, limited per address, and never storing the address itself.

use crate::db_test;
use crate::helpers::{TestApp, expect_error};
use croupier_server::features::tracking::HITS_PER_MINUTE;
use reqwest::StatusCode;

async fn hits(app: &TestApp) -> Vec<(Option<String>, Option<String>, Option<String>, Option<i64>, Option<String>)> {
    sqlx::query_as("SELECT track_id, referer, seon_session, user_id, visitor FROM visit_hits ORDER BY id")
        .fetch_all(app.state.db().pool())
        .await
        .unwrap()
}

db_test!(async fn the_hit_beacon_records_the_visit_and_answers_a_pixel(app) {
    let guest = app.browser();
    let url = reqwest::Url::parse_with_params(
        &app.url("/hit"),
        &[("referer", "https://news.example/article"), ("track_id", "aff-42"), ("seon_session", "s-1"), ("_", "9")],
    )
    .unwrap();
    let response = guest.get(url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "image/gif");
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body = response.bytes().await.unwrap();
    assert!(body.starts_with(b"GIF89a") && body.len() == 43, "a 1x1 GIF");
    let rows = hits(app).await;
    assert_eq!(rows.len(), 1);
    let (track, referer, seon, user, visitor) = rows[0].clone();
    assert_eq!(
        (track.as_deref(), referer.as_deref(), seon.as_deref(), user),
        (Some("aff-42"), Some("https://news.example/article"), Some("s-1"), None)
    );
    let visitor = visitor.expect("a visitor hash");
    assert_eq!(visitor.len(), 32);
    assert!(!visitor.contains("127.0.0.1"), "the address is never stored");

    // A signed-in player's hit names the player; a bare hit is recorded with nothing else.
    let player = app.browser();
    let info = app.register(&player, "hit@example.com").await;
    let response = player.get(app.url("/hit")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let rows = hits(app).await;
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[1].0.as_deref(), rows[1].3), (None, info["uid"].as_i64()));
    assert_eq!(rows[1].4.as_deref(), Some(visitor.as_str()), "the same address, the same visitor");

    // Bad parameters get the envelope with the field and record nothing.
    for (query, field, code) in [
        (format!("track_id={}", "x".repeat(129)), "track_id", "MAX_LENGTH"),
        ("track_id=a&track_id=b".to_owned(), "track_id", "DUPLICATE"),
        ("referer=a%0Ab".to_owned(), "referer", "INVALID"),
    ] {
        let response = guest.get(app.url(&format!("/hit?{query}"))).send().await.unwrap();
        let status = response.status();
        let body: serde_json::Value = response.json().await.unwrap();
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"][field][0], code, "{body}");
    }
    assert_eq!(hits(app).await.len(), 2);

    // One address cannot flood the table: past the limit, hits are answered but not written.
    for _ in 0..HITS_PER_MINUTE + 5 {
        assert_eq!(guest.get(app.url("/hit?track_id=flood")).send().await.unwrap().status(), StatusCode::OK);
    }
    assert_eq!(u64::try_from(hits(app).await.len()).unwrap(), HITS_PER_MINUTE);
});

db_test!(async fn analytics_events_are_recorded_from_the_fixed_list_and_bad_ones_are_refused(app) {
    use croupier_server::features::tracking::EVENTS_PER_MINUTE;
    let guest = app.browser();
    let (status, body) = app.get_as(&guest, "events.handle", &[("event", "sign_up"), ("data", r#"{"uid":7}"#)]).await;
    assert_eq!((status, &body["data"]), (StatusCode::OK, &serde_json::Value::from(1)), "{body}");
    let player = app.browser();
    let info = app.register(&player, "events@example.com").await;
    let (status, _) = app.get_as(&player, "events.handle", &[("event", "make_deposit")]).await;
    assert_eq!(status, StatusCode::OK);
    let rows: Vec<(String, Option<i64>, String, Option<String>)> =
        sqlx::query_as("SELECT event, user_id, visitor, data FROM analytics_events ORDER BY id")
            .fetch_all(app.state.db().pool())
            .await
            .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].0.as_str(), rows[0].1, rows[0].3.as_deref()), ("sign_up", None, Some(r#"{"uid":7}"#)));
    assert_eq!(rows[0].2.len(), 32, "a guest is a keyed hash of the address");
    assert!(!rows[0].2.contains("127.0.0.1"));
    assert_eq!((rows[1].0.as_str(), rows[1].1), ("make_deposit", info["uid"].as_i64()));

    let long = format!(r#"{{"x":"{}"}}"#, "a".repeat(2_000));
    for (query, field, code) in [
        (vec![("event", "")], "event", "REQUIRED"),
        (vec![("event", "drop_tables")], "event", "UNSUPPORTED"),
        (vec![("event", "login"), ("data", "[1,2]")], "data", "INVALID"),
        (vec![("event", "login"), ("data", "{not json")], "data", "INVALID"),
        (vec![("event", "login"), ("data", long.as_str())], "data", "MAX_LENGTH"),
    ] {
        let (status, body) = app.get_as(&guest, "events.handle", &query).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"][field][0], code, "{body}");
    }
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM analytics_events").fetch_one(app.state.db().pool()).await.unwrap()
    };
    assert_eq!(count().await, 2, "refused events write nothing");
    // A flood from one player stops at the limit.
    let mut refused = 0;
    for _ in 0..EVENTS_PER_MINUTE {
        let (status, _) = app.get_as(&player, "events.handle", &[("event", "game_start")]).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        }
    }
    assert_eq!(refused, 1, "the player's first event counted towards the limit");
    assert_eq!(count().await, 1 + EVENTS_PER_MINUTE as i64);
});
