//! The real `croupier-server` binary: start-up, configuration errors, secrets and SIGTERM.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::helpers::free_port;

const BIN: &str = env!("CARGO_BIN_EXE_croupier-server");

#[test]
fn a_bad_setting_stops_start_up_naming_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    for (var, value) in
        [("CROUPIER_ADDR", "not-an-address"), ("CROUPIER_ENV", "staging"), ("CROUPIER_CURRENCIES", "USD,XYZ")]
    {
        let output = Command::new(BIN).current_dir(dir.path()).env_clear().env(var, value).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{var}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(&format!("configuration error: {var}")), "{var}: {stderr}");
    }
}

#[test]
fn an_unknown_command_prints_usage() {
    let output = Command::new(BIN).arg("frobnicate").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("usage: croupier-server"));
}

#[test]
fn the_server_starts_keeps_secrets_out_of_its_logs_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(BIN)
        .current_dir(dir.path())
        .env_clear()
        .env("CROUPIER_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", "sqlite://data/croupier.db")
        .env("CROUPIER_LOG", "debug")
        .env("CROUPIER_LOG_FORMAT", "json")
        .env("TELEGRAM_BOT_TOKEN", "123456:TOPSECRETTOKEN")
        .env("CROUPIER_INTERNAL_SECRET", "TOPSECRETINTERNAL")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let ready = loop {
        if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::Write;
            let _ = stream.write_all(b"GET /readyz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            let mut answer = String::new();
            let _ = stream.read_to_string(&mut answer);
            if answer.starts_with("HTTP/1.1 200") {
                break true;
            }
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            break false;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(ready, "the server became ready");
    assert!(dir.path().join("data/croupier.db").exists(), "the SQLite file is created under data/");

    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(15);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(Instant::now() < deadline, "the server stops within 15 s of SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "a graceful stop exits 0: {exit:?}");
    let mut logs = String::new();
    child.stderr.take().unwrap().read_to_string(&mut logs).unwrap();
    assert!(logs.contains("\"message\":\"listening\""), "JSON logs: {logs}");
    assert!(logs.contains("shutdown requested"), "{logs}");
    assert!(!logs.contains("TOPSECRET"), "a secret reached the logs: {logs}");
}
