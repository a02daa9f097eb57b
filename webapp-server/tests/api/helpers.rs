//! Starting the real server for a test: a fresh, migrated database (SQLite always, PostgreSQL
//! when `TEST_DATABASE_URL` is set), Redis when `TEST_REDIS_URL` is set (with a key prefix of its
//! own), a small built client in a temporary folder, and the app listening on `127.0.0.1:0`.

use croupier_server::api::Registry;
use croupier_server::coord::Coord;
use croupier_server::db::Db;
use croupier_server::{App, Config};
use reqwest::StatusCode;
use serde_json::Value;
use std::collections::HashMap;
use std::net::SocketAddr;
use tempfile::TempDir;
use tokio::sync::oneshot;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs a test body against each backend: `db_test!(async fn name(app) { … });` makes
/// `name::sqlite` and `name::postgres` (the latter skips, loudly, without `TEST_DATABASE_URL`).
#[macro_export]
macro_rules! db_test {
    ($(#[$meta:meta])* async fn $name:ident($app:ident) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($app: &$crate::helpers::TestApp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let app = $crate::helpers::TestApp::spawn($crate::helpers::Backend::Sqlite).await;
                run(&app).await;
                app.finish().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if !$crate::helpers::postgres_configured() {
                    eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
                    return;
                }
                let app = $crate::helpers::TestApp::spawn($crate::helpers::Backend::Postgres).await;
                run(&app).await;
                app.finish().await;
            }
        }
    };
}

pub fn postgres_configured() -> bool {
    std::env::var("TEST_DATABASE_URL").is_ok_and(|u| !u.is_empty())
}

/// The backends a test that spawns its own apps runs on: SQLite, and PostgreSQL when
/// `TEST_DATABASE_URL` is set (said when it is not).
pub fn backends() -> Vec<Backend> {
    let mut out = vec![Backend::Sqlite];
    if postgres_configured() {
        out.push(Backend::Postgres);
    } else {
        eprintln!("SKIPPED on PostgreSQL: TEST_DATABASE_URL is not set");
    }
    out
}

/// The index.html of the test client, with the app shell's main: the server must fill in its
/// language, title and the shell's lead image.
pub const INDEX_HTML: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Vite App</title>\
<script type=\"module\" src=\"/assets/app-3f9a1c.js\"></script></head><body><div id=\"root\"><main class=\"boot-main\"></main></div></body></html>";

/// A fresh database of one backend, dropped again by [`TestDb::drop_database`].
pub struct TestDb {
    pub url: String,
    admin: Option<(String, String)>,
    _dir: Option<TempDir>,
}

impl TestDb {
    pub async fn create(backend: Backend) -> TestDb {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}/test.db", dir.path().display());
                TestDb { url, admin: None, _dir: Some(dir) }
            }
            Backend::Postgres => {
                let admin_url = std::env::var("TEST_DATABASE_URL").expect("TEST_DATABASE_URL");
                let name = format!("croupier_t_{}", uuid::Uuid::new_v4().simple());
                let admin = Db::connect(&admin_url, 1).await.expect("connect to TEST_DATABASE_URL");
                // `name` is generated here from a UUID, never from input.
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(admin.pool())
                    .await
                    .expect("create database");
                admin.close().await;
                let url = replace_database(&admin_url, &name);
                TestDb { url, admin: Some((admin_url, name)), _dir: None }
            }
        }
    }

    pub async fn drop_database(&self) {
        if let Some((admin_url, name)) = &self.admin
            && let Ok(admin) = Db::connect(admin_url, 1).await
        {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")))
                .execute(admin.pool())
                .await;
            admin.close().await;
        }
    }
}

/// `postgres://u@h:5432/test?x=y` with the database `test` replaced by `name`.
fn replace_database(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let base = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    pub state: App,
    pub backend: Backend,
    /// The Redis URL and key prefix this app's coordination store uses, when it uses Redis.
    pub redis: Option<(String, String)>,
    db: TestDb,
    _web: TempDir,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> TestApp {
        TestApp::spawn_with(backend, &[], |_| {}).await
    }

    /// Starts the app with extra environment settings and extra API methods.
    pub async fn spawn_with(backend: Backend, env: &[(&str, &str)], methods: impl FnOnce(&mut Registry)) -> TestApp {
        let web = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(web.path().join("assets")).expect("assets dir");
        std::fs::write(web.path().join("index.html"), INDEX_HTML).expect("index.html");
        let script = format!("console.log({:?});\n", "croupier ".repeat(400));
        std::fs::write(web.path().join("assets/app-3f9a1c.js"), script).expect("asset");
        std::fs::write(web.path().join("favicon.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>").expect("favicon");

        let db = TestDb::create(backend).await;
        let web_dir = web.path().display().to_string();
        let mut vars: HashMap<String, String> = HashMap::from([
            ("CROUPIER_ADDR".into(), "127.0.0.1:0".into()),
            ("DATABASE_URL".into(), db.url.clone()),
            ("CROUPIER_DB_MAX_CONNECTIONS".into(), "5".into()),
            ("CROUPIER_WEB_DIR".into(), web_dir),
            ("CROUPIER_PUBLIC_URL".into(), "http://localhost:8080".into()),
            // Tests make the tournaments they need (`competition.rs` checks the demo one).
            ("CROUPIER_DEMO_TOURNAMENT".into(), "false".into()),
            // Tests that need sport feed it at the moment they choose (`sportsbook.rs`).
            ("CROUPIER_SPORTSBOOK_FEED".into(), "off".into()),
        ]);
        for (k, v) in env {
            vars.insert((*k).to_owned(), (*v).to_owned());
        }
        let config = Config::from_sources(|k| vars.get(k).cloned(), |_| None).expect("test configuration");

        let store = Db::connect(&db.url, config.db_max_connections).await.expect("open test database");
        store.migrate().await.expect("migrate test database");
        let (coord, redis) = match (backend, std::env::var("TEST_REDIS_URL")) {
            (Backend::Postgres, Ok(url)) if !url.is_empty() => {
                let prefix = format!("croupier-test:{}:", uuid::Uuid::new_v4().simple());
                (Coord::redis(&url, &prefix).await.expect("connect to TEST_REDIS_URL"), Some((url, prefix)))
            }
            _ => (Coord::in_process(), None),
        };
        let state = App::from_parts_with(config, store, coord, methods).await.expect("app state");

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let (tx, rx) = oneshot::channel::<()>();
        let server = tokio::spawn(croupier_server::serve(listener, state.clone(), async move {
            let _ = rx.await;
        }));
        let client = reqwest::Client::builder().cookie_store(true).build().expect("http client");
        TestApp { addr, client, state, backend, redis, db, _web: web, shutdown: Some(tx), server: Some(server) }
    }

    /// The test database's URL (for running the real binary's commands against it).
    pub fn database_url(&self) -> &str {
        &self.db.url
    }

    /// Runs `croupier-server ARGS…` (an operator command) against this app's database.
    pub fn cli(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_croupier-server"))
            .args(args)
            .env("DATABASE_URL", self.database_url())
            .env("CROUPIER_WEB_DIR", "/nonexistent")
            .env_remove("CROUPIER_CONFIG")
            .output()
            .expect("croupier-server runs")
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `/api/{method}?locale=…&v=2.34` plus the given query parameters.
    pub fn api_url(&self, method: &str, locale: &str, query: &[(&str, &str)]) -> String {
        let mut url = reqwest::Url::parse(&self.url(&format!("/api/{method}"))).expect("url");
        url.query_pairs_mut().append_pair("locale", locale).append_pair("v", "2.34");
        for (k, v) in query {
            url.query_pairs_mut().append_pair(k, v);
        }
        url.to_string()
    }

    pub async fn api_get(&self, method: &str, query: &[(&str, &str)]) -> (StatusCode, Value) {
        let response = self.client.get(self.api_url(method, "en", query)).send().await.expect("request");
        read_json(response).await
    }

    pub async fn api_post(&self, method: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
        self.post_as(&self.client, method, form).await
    }

    /// A browser of its own: a separate cookie jar, so a separate player.
    pub fn browser(&self) -> reqwest::Client {
        reqwest::Client::builder().cookie_store(true).build().expect("http client")
    }

    pub async fn post_as(&self, client: &reqwest::Client, method: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
        let response = client.post(self.api_url(method, "en", &[])).form(form).send().await.expect("request");
        read_json(response).await
    }

    pub async fn get_as(&self, client: &reqwest::Client, method: &str, query: &[(&str, &str)]) -> (StatusCode, Value) {
        let response = client.get(self.api_url(method, "en", query)).send().await.expect("request");
        read_json(response).await
    }

    /// The newest one-time code the dev mailbox holds for `to`.
    pub async fn last_code(&self, to: &str) -> String {
        let url = reqwest::Url::parse_with_params(&self.url("/dev/mailbox"), &[("to", to)]).expect("url");
        let messages: Value = self.client.get(url).send().await.expect("mailbox").json().await.expect("mailbox JSON");
        messages[0]["code"].as_str().unwrap_or_else(|| panic!("no code for {to}: {messages}")).to_owned()
    }

    /// How many messages the dev mailbox holds for `to`.
    pub async fn mailbox_count(&self, to: &str) -> usize {
        let url = reqwest::Url::parse_with_params(&self.url("/dev/mailbox"), &[("to", to)]).expect("url");
        let messages: Value = self.client.get(url).send().await.expect("mailbox").json().await.expect("mailbox JSON");
        messages.as_array().map_or(0, Vec::len)
    }

    /// Registers `email` with password `secret123` in USD from `client`; answers account info.
    pub async fn register(&self, client: &reqwest::Client, email: &str) -> Value {
        let form = [("email", email), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
        let (status, body) = self.post_as(client, "auth.register", &form).await;
        assert_eq!(status, StatusCode::OK, "register {email}: {body}");
        body["data"].clone()
    }

    /// Runs a statement on the test database (to set up states no API call makes, like a ban), and
    /// announces the row `id` changed as an operator's tool would (`AppState::player_changed`), or
    /// the hot path's caches would serve the old state for up to `hot::TTL`.
    pub async fn sql(&self, statement: &'static str, value: &str, id: i64) {
        sqlx::query(statement).bind(value).bind(id).execute(self.state.db().pool()).await.expect("test SQL");
        self.state.platform().player_changed(id).await;
    }

    /// Stops the server gracefully and drops its PostgreSQL database.
    pub async fn finish(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(server) = self.server.take() {
            let _ = server.await;
        }
        self.state.db().close().await;
        self.db.drop_database().await;
    }
}

pub async fn read_json(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    let text = response.text().await.expect("body");
    let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, json)
}

/// Asserts the error envelope of DESIGN.md and returns its `error` object.
pub fn expect_error(status: StatusCode, body: &Value, want_status: u16, want_type: &str) -> Value {
    assert_eq!(status.as_u16(), want_status, "{body}");
    assert_eq!(body["status"], "error", "{body}");
    assert_eq!(body["error"]["type"], want_type, "{body}");
    assert!(body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
    assert!(body["error"]["error_data"].is_object(), "{body}");
    body["error"].clone()
}

#[test]
fn postgres_urls_get_their_database_replaced() {
    assert_eq!(
        replace_database("postgres://postgres@127.0.0.1:5432/test", "x"),
        "postgres://postgres@127.0.0.1:5432/x"
    );
    assert_eq!(replace_database("postgres://u:p@h/test?sslmode=disable", "x"), "postgres://u:p@h/x?sslmode=disable");
    assert_eq!(replace_database("postgres://u@h:5432", "x"), "postgres://u@h:5432/x");
}

/// A small deterministic generator for the model tests, so a failing sequence can be replayed
/// from its seed.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A number from `lo` to `hi`, both included.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::try_from(self.below(u64::try_from(hi - lo + 1).unwrap())).unwrap()
    }
}

/// A port nobody listens on now, for a real `croupier-server` process.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts the real `croupier-server` binary in `dir` on `port` over `db_url` with nothing of
/// this process's environment but `env` (its output dropped, its log at warnings).
pub fn start_server(dir: &std::path::Path, db_url: &str, port: u16, env: &[(&str, &str)]) -> std::process::Child {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_croupier-server"));
    command
        .current_dir(dir)
        .env_clear()
        .env("CROUPIER_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", db_url)
        .env("CROUPIER_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    command.spawn().unwrap()
}

/// Waits (up to 30 s) until the server at `base` answers `/readyz`.
pub async fn wait_ready(base: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !reqwest::get(format!("{base}/readyz")).await.is_ok_and(|r| r.status() == 200) {
        assert!(std::time::Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The clock in Unix seconds (signed provider calls' timestamps, launch answers' `expires_at`).
pub fn now_seconds() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}
