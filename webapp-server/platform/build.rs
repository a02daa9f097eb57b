// `sqlx::migrate!` embeds the migration files at compile time; on stable Rust it cannot tell
// Cargo to watch them, so a new migration would not reach an incremental build without this.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
