//! E-mail goes out over SMTP when `CROUPIER_SMTP_URL` is set (here to a minimal SMTP server in
//! the test), in the player's language, and in dev also to the dev mailbox.

use crate::helpers::{Backend, TestApp};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Accepts SMTP sessions and keeps each message's envelope and data.
async fn smtp_server() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let received = Arc::new(Mutex::new(Vec::new()));
    let store = Arc::clone(&received);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 test ESMTP\r\n").await.unwrap();
                let mut transcript = String::new();
                let mut in_data = false;
                while let Ok(Some(line)) = lines.next_line().await {
                    transcript.push_str(&line);
                    transcript.push('\n');
                    let reply: &[u8] = if in_data {
                        if line == "." {
                            in_data = false;
                            b"250 queued\r\n"
                        } else {
                            continue;
                        }
                    } else {
                        match line.get(..4).map(str::to_ascii_uppercase).as_deref() {
                            Some("EHLO") => b"250-test\r\n250 8BITMIME\r\n",
                            Some("DATA") => {
                                in_data = true;
                                b"354 go ahead\r\n"
                            }
                            Some("QUIT") => {
                                write.write_all(b"221 bye\r\n").await.unwrap();
                                break;
                            }
                            _ => b"250 ok\r\n",
                        }
                    };
                    write.write_all(reply).await.unwrap();
                }
                store.lock().unwrap().push(transcript);
            });
        }
    });
    (port, received)
}

#[tokio::test]
async fn a_confirmation_code_goes_out_over_smtp_in_the_players_language() {
    let (port, received) = smtp_server().await;
    let url = format!("smtp://127.0.0.1:{port}");
    let env = [("CROUPIER_SMTP_URL", url.as_str()), ("CROUPIER_MAIL_FROM", "Croupier <no-reply@croupier.test>")];
    let app = TestApp::spawn_with(Backend::Sqlite, &env, |_| {}).await;
    let form = [("email", "mail@example.com"), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
    let response = app.client.post(app.api_url("auth.register", "fr", &[])).form(&form).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let code = app.last_code("mail@example.com").await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let transcript = loop {
        if let Some(t) = received.lock().unwrap().first().cloned() {
            break t;
        }
        assert!(std::time::Instant::now() < deadline, "no message reached the SMTP server");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert!(transcript.contains("MAIL FROM:<no-reply@croupier.test>"), "{transcript}");
    assert!(transcript.contains("RCPT TO:<mail@example.com>"), "{transcript}");
    assert!(transcript.contains(&code), "the message carries the code: {transcript}");
    assert!(transcript.contains("Votre code de confirmation"), "in French, the language of the call: {transcript}");
    app.finish().await;
}

#[tokio::test]
async fn outside_dev_nothing_reaches_a_mailbox_page_and_a_missing_mail_server_does_not_block_sign_up() {
    let app = TestApp::spawn_with(Backend::Sqlite, &[("CROUPIER_ENV", "prod")], |_| {}).await;
    let response = app.client.get(app.url("/dev/mailbox")).send().await.unwrap();
    let html = response.text().await.unwrap();
    assert!(!html.contains("Dev mailbox"), "no dev mailbox in prod");
    let form = [("email", "prod@example.com"), ("password", "secret123"), ("currency", "USD"), ("terms", "1")];
    let response = app.client.post(app.api_url("auth.register", "en", &[])).form(&form).send().await.unwrap();
    assert_eq!(response.status(), 200, "registration succeeds; the player can ask for another code later");
    let stored: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM dev_mailbox").fetch_one(app.state.db().pool()).await.unwrap();
    assert_eq!(stored, 0, "prod keeps no copy of messages");
    app.finish().await;
}
