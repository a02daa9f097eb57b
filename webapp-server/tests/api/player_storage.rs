//! The player's key–value storage: `storage.get`, `storage.set`, `storage.getKeys`.

use crate::db_test;
use crate::helpers::expect_error;
use reqwest::StatusCode;
use serde_json::{Value, json};

db_test!(async fn storage_keeps_a_value_per_key_and_replaces_it(app) {
    let client = app.browser();
    app.register(&client, "keeper@example.com").await;

    let (status, missing) = app.get_as(&client, "storage.get", &[("key", "already_seen_cashback_id")]).await;
    assert_eq!(status, StatusCode::OK, "{missing}");
    assert_eq!(missing["data"], Value::Null, "an unknown key answers null");
    let (_, keys) = app.get_as(&client, "storage.getKeys", &[]).await;
    assert_eq!(keys["data"], json!([]));

    let (status, set) = app.post_as(&client, "storage.set", &[("key", "already_seen_cashback_id"), ("value", "12")]).await;
    assert_eq!(status, StatusCode::OK, "{set}");
    assert_eq!(set["data"], 1);
    let (_, got) = app.get_as(&client, "storage.get", &[("key", "already_seen_cashback_id")]).await;
    assert_eq!(got["data"], "12");

    let (_, _) = app.post_as(&client, "storage.set", &[("key", "already_seen_cashback_id"), ("value", "15")]).await;
    let (_, got) = app.get_as(&client, "storage.get", &[("key", "already_seen_cashback_id")]).await;
    assert_eq!(got["data"], "15", "a second set replaces the value");
    let (status, _) = app.post_as(&client, "storage.set", &[("key", "Theme.v-2"), ("value", "dark é")]).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.post_as(&client, "storage.set", &[("key", "empty"), ("value", "")]).await;
    assert_eq!(status, StatusCode::OK, "an empty value is a value");
    let (_, got) = app.get_as(&client, "storage.get", &[("key", "empty")]).await;
    assert_eq!(got["data"], "");

    let (_, keys) = app.get_as(&client, "storage.getKeys", &[]).await;
    assert_eq!(keys["data"], json!(["Theme.v-2", "already_seen_cashback_id", "empty"]));
    let (_, got) = app.get_as(&client, "storage.get", &[("key", "Theme.v-2")]).await;
    assert_eq!(got["data"], "dark é");
});

db_test!(async fn bad_keys_and_values_are_refused_by_field(app) {
    let client = app.browser();
    app.register(&client, "strict@example.com").await;
    let long_key = "k".repeat(65);
    let long_value = "v".repeat(4097);
    let just_fits = "v".repeat(4096);
    for (form, field, code) in [
        (vec![("value", "1")], "key", "REQUIRED"),
        (vec![("key", ""), ("value", "1")], "key", "REQUIRED"),
        (vec![("key", long_key.as_str()), ("value", "1")], "key", "MAX_LENGTH"),
        (vec![("key", "has space"), ("value", "1")], "key", "INVALID"),
        (vec![("key", "slash/key"), ("value", "1")], "key", "INVALID"),
        (vec![("key", "clé"), ("value", "1")], "key", "INVALID"),
        (vec![("key", "ok"), ("value", long_value.as_str())], "value", "MAX_LENGTH"),
    ] {
        let (status, body) = app.post_as(&client, "storage.set", &form).await;
        let error = expect_error(status, &body, 422, "InvalidParameterException");
        assert_eq!(error["error_data"][field], json!([code]), "{form:?} → {body}");
    }
    let (status, body) = app.get_as(&client, "storage.get", &[("key", "bad key")]).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["key"], json!(["INVALID"]));
    let (_, keys) = app.get_as(&client, "storage.getKeys", &[]).await;
    assert_eq!(keys["data"], json!([]), "refused writes store nothing");

    let key64 = "k".repeat(64);
    let (status, body) = app.post_as(&client, "storage.set", &[("key", key64.as_str()), ("value", just_fits.as_str())]).await;
    assert_eq!(status, StatusCode::OK, "64 characters of key and 4096 of value fit: {body}");
    let (_, got) = app.get_as(&client, "storage.get", &[("key", key64.as_str())]).await;
    assert_eq!(got["data"].as_str().map(str::len), Some(4096));
});

db_test!(async fn storage_holds_at_most_a_hundred_keys_per_player(app) {
    let client = app.browser();
    app.register(&client, "hoarder@example.com").await;
    for i in 0..100 {
        let key = format!("key-{i:03}");
        let (status, body) = app.post_as(&client, "storage.set", &[("key", key.as_str()), ("value", "x")]).await;
        assert_eq!(status, StatusCode::OK, "{key}: {body}");
    }
    let (status, body) = app.post_as(&client, "storage.set", &[("key", "one-too-many"), ("value", "x")]).await;
    let error = expect_error(status, &body, 409, "StorageQuotaExceededException");
    assert_eq!(error["error_data"]["max_keys"], 100);
    let (_, got) = app.get_as(&client, "storage.get", &[("key", "one-too-many")]).await;
    assert_eq!(got["data"], Value::Null);

    let (status, body) = app.post_as(&client, "storage.set", &[("key", "key-042"), ("value", "changed")]).await;
    assert_eq!(status, StatusCode::OK, "a full store still updates its keys: {body}");
    let (_, got) = app.get_as(&client, "storage.get", &[("key", "key-042")]).await;
    assert_eq!(got["data"], "changed");
    let (_, keys) = app.get_as(&client, "storage.getKeys", &[]).await;
    assert_eq!(keys["data"].as_array().map(Vec::len), Some(100));

    let other = app.browser();
    app.register(&other, "roomy@example.com").await;
    let (status, _) = app.post_as(&other, "storage.set", &[("key", "one-too-many"), ("value", "x")]).await;
    assert_eq!(status, StatusCode::OK, "the quota is per player");
});

db_test!(async fn each_player_sees_only_their_own_storage(app) {
    let alice = app.browser();
    app.register(&alice, "alice@example.com").await;
    let bob = app.browser();
    app.register(&bob, "bob@example.com").await;

    app.post_as(&alice, "storage.set", &[("key", "already_seen_cashback_id"), ("value", "3")]).await;
    app.post_as(&bob, "storage.set", &[("key", "already_seen_cashback_id"), ("value", "9")]).await;
    app.post_as(&bob, "storage.set", &[("key", "bob-only"), ("value", "b")]).await;

    let (_, a) = app.get_as(&alice, "storage.get", &[("key", "already_seen_cashback_id")]).await;
    let (_, b) = app.get_as(&bob, "storage.get", &[("key", "already_seen_cashback_id")]).await;
    assert_eq!((a["data"].as_str(), b["data"].as_str()), (Some("3"), Some("9")));
    let (_, none) = app.get_as(&alice, "storage.get", &[("key", "bob-only")]).await;
    assert_eq!(none["data"], Value::Null);
    let (_, keys) = app.get_as(&alice, "storage.getKeys", &[]).await;
    assert_eq!(keys["data"], json!(["already_seen_cashback_id"]));
});

db_test!(async fn guests_have_no_storage(app) {
    let (status, body) = app.api_get("storage.get", &[("key", "already_seen_cashback_id")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.api_post("storage.set", &[("key", "already_seen_cashback_id"), ("value", "1")]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.api_get("storage.getKeys", &[]).await;
    expect_error(status, &body, 401, "AuthorizationException");
    let (status, body) = app.api_get("storage.set", &[("key", "k"), ("value", "1")]).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "storage.set changes state: POST only: {body}");
});
