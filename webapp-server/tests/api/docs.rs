//! The README and the example environment file document every setting the server reads.

use croupier_server::config::VARIABLES;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// README's configuration table is `VARIABLES`, row for row, in its order (the one source of
/// truth; `tools/readme-vars.py` writes the table from it).
#[test]
fn the_readme_documents_every_variable_as_the_server_does() {
    let readme = read("README.md");
    let mut expected = Vec::new();
    for v in VARIABLES {
        let default = match v.default {
            None => "unset".to_owned(),
            Some("") => "empty".to_owned(),
            Some(d) => format!("`{d}`"),
        };
        let secret = if v.secret { " **Secret.**" } else { "" };
        expected.push(format!("| `{}` | {default} | {}{secret} |", v.env, v.doc.replace('|', "\\|")));
    }
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| *l != "| variable | default | what |")
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(table.len(), expected.len(), "README.md's configuration table has another number of rows");
    for (line, want) in table.iter().zip(&expected) {
        assert_eq!(
            *line,
            want.as_str(),
            "README.md's row differs from config.rs VARIABLES (python3 tools/readme-vars.py)"
        );
    }
}

#[test]
fn the_example_environment_lists_every_variable() {
    let example = read("deploy/croupier.env.example");
    for v in VARIABLES {
        let listed = example.lines().any(|l| {
            let l = l.trim_start_matches('#').trim_start();
            l.starts_with(&format!("{}=", v.env))
        });
        assert!(listed, "deploy/croupier.env.example does not list {}", v.env);
    }
}

/// One value of one field: whether the server's rule accepts it, and whether the document's
/// constraint for it is exact (refuses what the rule refuses) or only a superset.
struct Bound {
    method: &'static str,
    field: &'static str,
    value: String,
    valid: bool,
    exact: bool,
}

fn bound(method: &'static str, field: &'static str, value: impl Into<String>, valid: bool) -> Bound {
    Bound { method, field, value: value.into(), valid, exact: true }
}

/// Whether `value`, sent as the form field of `schema`, meets the schema's constraints (the
/// keywords the document uses for form fields; JSON Schema counts lengths in characters and
/// matches patterns anywhere unless anchored).
fn schema_accepts(schema: &serde_json::Value, value: &str) -> bool {
    if let Some(allowed) = schema.get("enum").and_then(|e| e.as_array()) {
        let matches =
            |v: &serde_json::Value| v.as_str() == Some(value) || v.as_i64().is_some_and(|n| n.to_string() == value);
        if !allowed.iter().any(matches) {
            return false;
        }
    }
    match schema["type"].as_str() {
        Some("integer") => {
            let Ok(n) = value.parse::<i64>() else { return false };
            schema.get("minimum").and_then(|m| m.as_i64()).is_none_or(|min| n >= min)
                && schema.get("maximum").and_then(|m| m.as_i64()).is_none_or(|max| n <= max)
        }
        Some("string") => {
            let chars = value.chars().count() as u64;
            schema.get("minLength").and_then(|m| m.as_u64()).is_none_or(|min| chars >= min)
                && schema.get("maxLength").and_then(|m| m.as_u64()).is_none_or(|max| chars <= max)
                && schema
                    .get("pattern")
                    .and_then(|p| p.as_str())
                    .is_none_or(|p| regex::Regex::new(p).unwrap_or_else(|e| panic!("pattern {p}: {e}")).is_match(value))
        }
        other => panic!("no form field has type {other:?}: {schema}"),
    }
}

/// The document states the rules: a value at each side of a bound is accepted or refused by the
/// server (the truth), the document never refuses what the server accepts (a client generated from
/// it can make every valid call), and where its constraint is exact it refuses what the server
/// refuses.
#[tokio::test]
async fn the_openapi_document_states_the_servers_rules_at_their_bounds() {
    let app = crate::helpers::TestApp::spawn(crate::helpers::Backend::Sqlite).await;
    let doc: serde_json::Value =
        app.client.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
    let player = app.browser();
    app.register(&player, "bounds@example.com").await;
    let cases = [
        bound("auth.register", "password", "abcdef", true),
        bound("auth.register", "password", "a".repeat(20), true),
        bound("auth.register", "password", "!~Az09", true),
        bound("auth.register", "password", "abcde", false),
        bound("auth.register", "password", "a".repeat(21), false),
        bound("auth.register", "password", "abc def", false),
        bound("auth.register", "password", "abcdeé", false),
        bound("auth.register", "terms", " TRUE ", true),
        bound("auth.register", "terms", "on", true),
        bound("auth.register", "terms", "yes", false),
        bound("auth.register", "fakename", "Жора", true),
        bound("auth.register", "fakename", "z".repeat(32), true),
        bound("auth.register", "fakename", "abc", false),
        bound("auth.register", "fakename", "ab_cd", false),
        bound("auth.register", "fakename", "z".repeat(33), false),
        Bound { exact: false, ..bound("auth.register", "fakename", "ab·cd", false) },
        bound("auth.register", "email", "ü@mail.co.uk", true),
        bound("auth.register", "email", " x.y+z@examplé.com ", true),
        bound("auth.register", "email", "a@b", false),
        bound("auth.register", "email", "a@b.c.d.e", false),
        bound("auth.register", "email", "a b@b.com", false),
        bound("auth.register", "email", "a@b.c", false),
        Bound { exact: false, ..bound("auth.register", "email", "a..b@b.com", false) },
        bound("storage.set", "key", "A-Z_.9", true),
        bound("storage.set", "key", "k".repeat(64), true),
        bound("storage.set", "key", "k".repeat(65), false),
        bound("storage.set", "key", "a b", false),
        bound("storage.set", "value", "v".repeat(4096), true),
        bound("storage.set", "value", "v".repeat(4097), false),
        bound("account.changelocale", "locale", " FR ", true),
        bound("account.changelocale", "locale", "de", false),
        bound("account.changefakename", "fakename", "Lucky7", true),
        bound("account.changefakename", "fakename", "Lucky 7", false),
        bound("responsibleGaming.setLimit", "period", "week", true),
        bound("responsibleGaming.setLimit", "period", "year", false),
        bound("responsibleGaming.setLimit", "kind", "loss", true),
        bound("responsibleGaming.setLimit", "kind", "win", false),
        bound("responsibleGaming.setRealityCheck", "minutes", "0", true),
        bound("responsibleGaming.setRealityCheck", "minutes", "120", true),
        bound("responsibleGaming.setRealityCheck", "minutes", "20", false),
        bound("tournaments.get", "count", "1", true),
        bound("tournaments.get", "count", "100", true),
        bound("tournaments.get", "count", "0", false),
        bound("tournaments.get", "count", "101", false),
        bound("tournaments.get", "offset", "0", true),
        bound("tournaments.get", "offset", "-1", false),
        bound("tournaments.get", "count", "9223372036854775808", false),
        bound("winners.get", "count", "50", true),
        bound("winners.get", "count", "51", false),
        bound("metadata.get", "path", "/gamehall", true),
        bound("metadata.get", "path", "/", true),
        bound("metadata.get", "path", "//evil.example", false),
        bound("metadata.get", "path", "/a?b", false),
        bound("metadata.get", "path", "gamehall", false),
        bound("account.saveProfileInfo", "first_name", "Anne-Marie", true),
        bound("account.saveProfileInfo", "first_name", "n".repeat(64), true),
        bound("account.saveProfileInfo", "first_name", "n".repeat(65), false),
        bound("account.saveProfileInfo", "first_name", "R2D2", false),
        bound("account.saveProfileInfo", "address", "12/3 Main St", true),
        bound("account.saveProfileInfo", "address", "Main St #3", false),
        bound("account.saveProfileInfo", "postcode", " 75001 ", true),
        bound("account.saveProfileInfo", "postcode", "123456789", false),
        bound("account.saveProfileInfo", "sex", "2", true),
        bound("account.saveProfileInfo", "sex", "3", false),
        bound("account.saveProfileInfo", "document_type", "passport", true),
        bound("account.saveProfileInfo", "document_type", "visa", false),
        bound("cashier.makedeposit", "amount", " 100 ", true),
        bound("cashier.makedeposit", "amount", "0100", false),
        bound("cashier.makedeposit", "amount", "1.5", false),
    ];
    for (i, case) in cases.iter().enumerate() {
        let path = format!("/api/{}", case.method);
        let body =
            &doc["paths"][&path]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"];
        let schema = &body["properties"][case.field];
        assert!(schema.is_object(), "{path} documents no field {}: {body}", case.field);
        let accepted_by_document = schema_accepts(schema, &case.value);
        // The other fields a valid call needs, so only the field under test can be refused.
        let email = format!("bounds{i}@example.com");
        let mut form: Vec<(&str, &str)> = match case.method {
            "auth.register" => vec![("email", &email), ("password", "secret123"), ("currency", "USD"), ("terms", "1")],
            "storage.set" => vec![("key", "k"), ("value", "v")],
            "responsibleGaming.setLimit" => vec![("kind", "loss"), ("period", "day")],
            "cashier.makedeposit" => vec![("method", "sandbox_card")],
            _ => Vec::new(),
        };
        form.retain(|(k, _)| *k != case.field);
        form.push((case.field, &case.value));
        let client = if case.method == "auth.register" { app.browser() } else { player.clone() };
        let (_, answer) = app.post_as(&client, case.method, &form).await;
        let refused = answer["error"]["error_data"].get(case.field).is_some();
        let what = format!("{} {}={:?}: {answer}", case.method, case.field, case.value);
        assert_eq!(!refused, case.valid, "the server's rule is not what this test says: {what}");
        if case.valid {
            assert!(accepted_by_document, "the document refuses a value the server accepts: {what}, schema {schema}");
        } else if case.exact {
            assert!(
                !accepted_by_document,
                "the document accepts a value its exact rule refuses: {what}, schema {schema}"
            );
        }
    }
    app.finish().await;
}

/// Every operation documents its refusals with the error envelope, and the methods a guest may
/// not call say so (the session security requirement and the `signed-in` tag).
#[tokio::test]
async fn every_operation_documents_its_refusals_and_who_may_call_it() {
    let app = crate::helpers::TestApp::spawn(crate::helpers::Backend::Sqlite).await;
    let doc: serde_json::Value =
        app.client.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
    for method in app.state.api().methods() {
        let post = &doc["paths"][&format!("/api/{}", method.name)]["post"];
        for status in ["400", "401", "402", "403", "404", "409", "413", "415", "429", "500", "502", "503"] {
            let response = &post["responses"][status]["$ref"];
            assert_eq!(response, &format!("#/components/responses/Error{status}"), "{} {status}", method.name);
        }
        // No catch-all: Schemathesis's status_code_conformance fails on any status not listed.
        assert!(post["responses"].get("default").is_none(), "{}: {}", method.name, post["responses"]);
        let signed_in = post["tags"].as_array().unwrap().iter().any(|t| t == "signed-in");
        assert_eq!(signed_in, method.signed_in, "{}", method.name);
        assert_eq!(post["security"] == serde_json::json!([{ "session": [] }]), method.signed_in, "{}", method.name);
        let properties = post["requestBody"]["content"]["multipart/form-data"]["schema"]["properties"].as_object();
        for (name, property) in properties.into_iter().flatten() {
            let types = &property["type"];
            assert!(
                types == "string" || types == "integer",
                "{} {name}: a form field is text or a number: {property}",
                method.name
            );
        }
    }
    for status in ["400", "401", "402", "403", "404", "409", "413", "415", "422", "429", "500", "502", "503"] {
        let schema = &doc["components"]["responses"][format!("Error{status}")]["content"]["application/json"]["schema"];
        assert_eq!(schema["$ref"], "#/components/schemas/ErrorEnvelope", "{status}");
    }
    // A guest's call of a signed-in method is the documented 401.
    let (status, answer) = app.api_get("account.getBalance", &[]).await;
    assert_eq!((status.as_u16(), answer["error"]["type"].as_str()), (401, Some("AuthorizationException")));
    app.finish().await;
}

/// A field the server requires is one the document requires, and the other way round: a signed-in
/// player calls every method with an empty body, and the fields of the form the answer refuses
/// (`REQUIRED`, or a rule's own code for an empty value, such as `CODE_LENGTH`) are the operation's
/// `required` list (the request body is then required too). Two fields are required
/// only when their alternative is absent as well, which the document cannot say in its `required`
/// list: `account.unsubscribe`'s `token` (or a signed-in player's `contact`) and
/// `auth.register`'s `email` (or `phone`); one is checked only once another field is valid
/// (`responsibleGaming.exclude`'s `days`, after its `kind`).
#[tokio::test]
async fn the_document_requires_what_the_server_requires() {
    const EITHER_OR: [(&str, &str); 2] = [("account.unsubscribe", "token"), ("auth.register", "email")];
    // Required fields the server checks only once another is valid (an empty call does not show them).
    const DEPENDENT: [(&str, &str); 1] = [("responsibleGaming.exclude", "days")];
    for backend in [crate::helpers::Backend::Sqlite, crate::helpers::Backend::Postgres] {
        if backend == crate::helpers::Backend::Postgres && !crate::helpers::postgres_configured() {
            continue;
        }
        let app = crate::helpers::TestApp::spawn(backend).await;
        let doc: serde_json::Value =
            app.client.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
        let player = app.browser();
        app.register(&player, "required@example.com").await;
        let mut methods: Vec<&str> = app.state.api().methods().map(|m| m.name).collect();
        // Signing out ends the session the other calls use: last.
        methods.sort_by_key(|name| *name == "auth.logout");
        let mut stated = 0;
        for name in methods {
            let post = &doc["paths"][&format!("/api/{name}")]["post"];
            let schema = &post["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"];
            let mut documented: Vec<&str> =
                schema["required"].as_array().into_iter().flatten().filter_map(|r| r.as_str()).collect();
            documented.sort_unstable();
            assert_eq!(post["requestBody"]["required"], !documented.is_empty(), "{name}: {post}");
            let (_, answer) = app.post_as(&player, name, &[]).await;
            let mut refused: Vec<&str> = answer["error"]["error_data"]
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(field, codes)| {
                    codes.is_array()
                        && schema["properties"].get(field.as_str()).is_some()
                        && !EITHER_OR.contains(&(name, field.as_str()))
                })
                .map(|(field, _)| field.as_str())
                .collect();
            refused.extend(DEPENDENT.iter().filter(|(method, _)| *method == name).map(|(_, field)| *field));
            refused.sort_unstable();
            assert_eq!(documented, refused, "{name}: the document's required fields, then the server's: {answer}");
            stated += documented.len();
        }
        assert!(stated >= 40, "only {stated} required fields in the document");
        app.finish().await;
    }
}
