//! The `/api/{method}` dispatcher and its envelope (DESIGN.md "API envelope").

use crate::db_test;
use crate::fixtures;
use crate::helpers::{Backend, TestApp, expect_error, read_json};
use reqwest::StatusCode;

async fn app_with_test_methods(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, &[], fixtures::register).await
}

db_test!(async fn a_successful_call_answers_ok_with_data(app) {
    let (status, body) = app.api_get("metadata.getgeneralinfo", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok");
    assert!(body["data"].is_object(), "{body}");
    assert!(body.get("error").is_none());
});

db_test!(async fn method_names_match_case_insensitively(app) {
    for name in ["Metadata.GetGeneralInfo", "METADATA.GETGENERALINFO", "metadata.getGeneralInfo"] {
        let (status, body) = app.api_get(name, &[]).await;
        assert_eq!(status, StatusCode::OK, "{name}: {body}");
        assert_eq!(body["data"]["default_currency"], "USD");
    }
});

db_test!(async fn an_unknown_method_is_method_not_found_in_the_callers_language(app) {
    let (status, body) = app.api_get("games.nosuchthing", &[]).await;
    let error = expect_error(status, &body, 404, "MethodNotFoundException");
    assert_eq!(error["message"], "This method does not exist.");
    let response = app.client.get(app.api_url("games.nosuchthing", "fr", &[])).send().await.unwrap();
    let (status, body) = read_json(response).await;
    let error = expect_error(status, &body, 404, "MethodNotFoundException");
    assert_eq!(error["message"], "Cette méthode n'existe pas.");
});

db_test!(async fn an_unknown_locale_falls_back_to_english(app) {
    for locale in ["de", "", "english", "fr-FR"] {
        let response = app.client.get(app.api_url("nope.nope", locale, &[])).send().await.unwrap();
        let (status, body) = read_json(response).await;
        let error = expect_error(status, &body, 404, "MethodNotFoundException");
        assert_eq!(error["message"], "This method does not exist.", "locale {locale:?}");
    }
});

db_test!(async fn another_api_version_is_an_invalid_request(app) {
    let url = app.url("/api/metadata.getgeneralinfo?locale=en&v=2.33");
    let (status, body) = read_json(app.client.get(url).send().await.unwrap()).await;
    let error = expect_error(status, &body, 400, "InvalidRequestException");
    assert_eq!(error["error_data"]["v"][0], "UNSUPPORTED");

    let url = app.url("/api/metadata.getgeneralinfo?locale=fr");
    let (status, body) = read_json(app.client.get(url).send().await.unwrap()).await;
    let error = expect_error(status, &body, 400, "InvalidRequestException");
    assert_eq!(error["error_data"]["v"][0], "REQUIRED");
    assert_eq!(error["message"], "Champ obligatoire");
});

#[tokio::test]
async fn read_methods_answer_get_and_post_with_either_form_encoding() {
    let app = app_with_test_methods(Backend::Sqlite).await;
    let (status, body) = app.api_get("test.read", &[("name", "Ann"), ("count", "3")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["name"], "Ann");
    assert_eq!(body["data"]["count"], 3);

    let (status, body) = app.api_post("test.read", &[("name", "Bob"), ("note", "x y&z")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["note"], "x y&z");

    let form = reqwest::multipart::Form::new().text("name", "Zoé").text("count", "7");
    let response = app.client.post(app.api_url("test.read", "fr", &[])).multipart(form).send().await.unwrap();
    let (status, body) = read_json(response).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["name"], "Zoé");
    assert_eq!(body["data"]["count"], 7);
    assert_eq!(body["data"]["locale"], "fr");
    app.finish().await;
}

#[tokio::test]
async fn empty_fields_count_as_absent_and_text_fields_default_to_empty() {
    let app = app_with_test_methods(Backend::Sqlite).await;
    let (status, body) = app.api_post("test.echo", &[("name", "Ann"), ("count", ""), ("note", "")]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["count"], serde_json::Value::Null);
    assert_eq!(body["data"]["note"], "");
    app.finish().await;
}

#[tokio::test]
async fn every_invalid_field_is_named_with_its_reason() {
    let app = app_with_test_methods(Backend::Sqlite).await;
    let (status, body) = app.api_post("test.echo", &[("note", "x")]).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["name"][0], "REQUIRED");
    assert_eq!(error["message"], "Field is required");

    let (status, body) = app.api_post("test.echo", &[("name", "Ann"), ("count", "three")]).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["count"][0], "INVALID");

    let long = "x".repeat(21);
    let (status, body) = app.api_post("test.echo", &[("name", long.as_str()), ("count", "-1")]).await;
    let error = expect_error(status, &body, 422, "InvalidParameterException");
    assert_eq!(error["error_data"]["name"][0], "MAX_LENGTH");
    assert_eq!(error["error_data"]["count"][0], "MIN_VALUE");
    assert_eq!(error["message"], "Max length is 20");
    app.finish().await;
}

#[tokio::test]
async fn a_state_changing_method_refuses_get() {
    let app = app_with_test_methods(Backend::Sqlite).await;
    let (status, body) = app.api_get("test.echo", &[("name", "Ann")]).await;
    let error = expect_error(status, &body, 405, "InvalidRequestException");
    assert_eq!(error["error_data"]["method"][0], "UNSUPPORTED");
    let response = app.client.delete(app.api_url("metadata.getgeneralinfo", "en", &[])).send().await.unwrap();
    let (status, body) = read_json(response).await;
    expect_error(status, &body, 405, "InvalidRequestException");
    app.finish().await;
}

#[tokio::test]
async fn a_state_changing_post_from_another_site_is_refused() {
    let app = app_with_test_methods(Backend::Sqlite).await;
    let url = app.api_url("test.echo", "en", &[]);
    let cross = [("origin", "https://evil.example"), ("sec-fetch-site", "cross-site")];
    for (header, value) in cross {
        let response = app.client.post(&url).header(header, value).form(&[("name", "Ann")]).send().await.unwrap();
        let (status, body) = read_json(response).await;
        let error = expect_error(status, &body, 403, "AccessDeniedException");
        assert_eq!(error["error_data"]["reason"], "cross_origin");
    }
    let response = app.client.post(&url).header("origin", "null").form(&[("name", "Ann")]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    let own_origin = format!("http://{}", app.addr);
    let same =
        [("origin", own_origin.as_str()), ("origin", "http://localhost:8080"), ("sec-fetch-site", "same-origin")];
    for (header, value) in same {
        let response = app.client.post(&url).header(header, value).form(&[("name", "Ann")]).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{header}: {value}");
    }
    app.finish().await;
}

#[tokio::test]
async fn an_internal_failure_answers_500_and_leaks_nothing() {
    let app = app_with_test_methods(Backend::Sqlite).await;
    for method in ["test.fail", "test.panic"] {
        let response = app.client.get(app.api_url(method, "en", &[])).send().await.unwrap();
        let text_status = response.status();
        let text = response.text().await.unwrap();
        assert!(!text.contains("secret"), "{method} leaked: {text}");
        let body: serde_json::Value = serde_json::from_str(&text).unwrap();
        expect_error(text_status, &body, 500, "InternalServerErrorException");
    }
    let (status, _) = app.api_get("metadata.getgeneralinfo", &[]).await;
    assert_eq!(status, StatusCode::OK, "the server keeps serving after a panic");
    app.finish().await;
}

#[tokio::test]
async fn the_openapi_document_lists_every_method_with_its_verbs_and_parameters() {
    let app = app_with_test_methods(Backend::Sqlite).await;
    let response = app.client.get(app.url("/api/openapi.json")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let doc: serde_json::Value = response.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    for method in app.state.api().methods() {
        let item = &paths[&format!("/api/{}", method.name)];
        assert!(item["post"].is_object(), "{} has POST", method.name);
        let has_get = item.get("get").is_some();
        assert_eq!(has_get, method.access == croupier_server::api::Access::Read, "{}", method.name);
    }
    let read = &paths["/api/test.read"]["get"]["parameters"];
    let names: Vec<&str> = read.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["locale", "v", "count", "name", "note"]);
    let name = read.as_array().unwrap().iter().find(|p| p["name"] == "name").unwrap();
    assert_eq!(name["required"], true);
    let info =
        &paths["/api/metadata.getgeneralinfo"]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(info["properties"]["status"]["const"], "ok");
    let schema_ref = info["properties"]["data"]["$ref"].as_str().unwrap();
    let schema_name = schema_ref.rsplit('/').next().unwrap();
    let general = &doc["components"]["schemas"][schema_name];
    assert!(general["properties"]["time_to_force_logout"].is_object(), "{general}");
    let types = doc["components"]["schemas"]["ErrorEnvelope"]["properties"]["error"]["properties"]["type"]["enum"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(types, croupier_shared::ErrorType::ALL.len());
    app.finish().await;
}
