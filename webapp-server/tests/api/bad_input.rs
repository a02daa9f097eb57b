//! Bad input never gets a 500 or a panic: each case answers the envelope naming the culprit.

use crate::fixtures;
use crate::helpers::{Backend, TestApp, expect_error, read_json};
use reqwest::StatusCode;

async fn app() -> TestApp {
    TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_BODY_LIMIT", "4096")], fixtures::register).await
}

async fn post_raw(app: &TestApp, content_type: &str, body: Vec<u8>) -> (StatusCode, serde_json::Value) {
    let response = app
        .client
        .post(app.api_url("test.echo", "en", &[]))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    read_json(response).await
}

#[tokio::test]
async fn malformed_multipart_is_an_invalid_request() {
    let app = app().await;
    let body = b"--XYZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn\r\n--XY".to_vec();
    let (status, body) = post_raw(&app, "multipart/form-data; boundary=XYZ", body).await;
    let error = expect_error(status, &body, 400, "InvalidRequestException");
    assert_eq!(error["error_data"]["body"][0], "INVALID");

    let (status, body) = post_raw(&app, "multipart/form-data", b"name=Ann".to_vec()).await;
    let error = expect_error(status, &body, 400, "InvalidRequestException");
    assert_eq!(error["error_data"]["body"][0], "INVALID", "a multipart body without a boundary");
    app.finish().await;
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let app = app().await;
    let big = format!("name={}", "a".repeat(5000));
    let (status, body) = post_raw(&app, "application/x-www-form-urlencoded", big.into_bytes()).await;
    let error = expect_error(status, &body, 413, "InvalidRequestException");
    assert_eq!(error["error_data"]["body"][0], "MAX_LENGTH");
    assert_eq!(error["error_data"]["max_bytes"], 4096);

    let form = reqwest::multipart::Form::new().text("name", "x".repeat(8000));
    let response = app.client.post(app.api_url("test.echo", "en", &[])).multipart(form).send().await.unwrap();
    let (status, body) = read_json(response).await;
    expect_error(status, &body, 413, "InvalidRequestException");
    app.finish().await;
}

#[tokio::test]
async fn invalid_utf8_is_refused_naming_the_field() {
    let app = app().await;
    let (status, body) = post_raw(&app, "application/x-www-form-urlencoded", b"name=%C3%28".to_vec()).await;
    let error = expect_error(status, &body, 400, "InvalidRequestException");
    assert_eq!(error["error_data"]["name"][0], "INVALID_ENCODING");

    let mut part = b"--B\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n".to_vec();
    part.extend_from_slice(&[0xff, 0xfe, 0xfd]);
    part.extend_from_slice(b"\r\n--B--\r\n");
    let (status, body) = post_raw(&app, "multipart/form-data; boundary=B", part).await;
    let error = expect_error(status, &body, 400, "InvalidRequestException");
    assert_eq!(error["error_data"]["note"][0], "INVALID_ENCODING");

    let url = app.url("/api/test.read?locale=en&v=2.34&name=%FF");
    let (status, body) = read_json(app.client.get(url).send().await.unwrap()).await;
    let error = expect_error(status, &body, 400, "InvalidRequestException");
    assert_eq!(error["error_data"]["name"][0], "INVALID_ENCODING");
    app.finish().await;
}

#[tokio::test]
async fn a_wrong_content_type_is_415() {
    let app = app().await;
    for content_type in ["application/json", "text/plain", "not a mime type"] {
        let (status, body) = post_raw(&app, content_type, br#"{"name":"Ann"}"#.to_vec()).await;
        let error = expect_error(status, &body, 415, "InvalidRequestException");
        assert_eq!(error["error_data"]["content-type"][0], "UNSUPPORTED", "{content_type}");
    }
    let response = app.client.post(app.api_url("test.echo", "en", &[])).body("name=Ann").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "a body without a content type");
    app.finish().await;
}

#[tokio::test]
async fn a_missing_required_field_is_named() {
    let app = app().await;
    let (status, body) = post_raw(&app, "application/x-www-form-urlencoded", b"note=hello".to_vec()).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["name"], serde_json::json!(["REQUIRED"]));
    let response = app.client.post(app.api_url("test.echo", "en", &[])).send().await.unwrap();
    let (status, body) = read_json(response).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["name"][0], "REQUIRED", "an empty POST");
    app.finish().await;
}

#[tokio::test]
async fn a_field_given_twice_is_refused() {
    let app = app().await;
    let (status, body) = post_raw(&app, "application/x-www-form-urlencoded", b"name=a&name=b".to_vec()).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["name"][0], "DUPLICATE");
    app.finish().await;
}
