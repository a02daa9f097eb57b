//! The bot binary refuses to start without its token and names it.

#[test]
fn the_bot_needs_a_token_and_says_which_variable() {
    let output =
        std::process::Command::new(env!("CARGO_BIN_EXE_croupier-bot")).env_clear().output().expect("run croupier-bot");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("configuration error: TELEGRAM_BOT_TOKEN"), "{stderr}");
}
