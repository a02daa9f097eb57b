//! The client's copy of the error catalogue must match the Rust one.
//! Set `CROUPIER_BLESS=1` (what `make gen` does) to rewrite it instead of failing.

use croupier_shared::typescript::{TWIN_PATH, errors_twin};
use std::path::PathBuf;

#[test]
fn the_typescript_error_catalogue_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(TWIN_PATH);
    let expected = errors_twin();
    if std::env::var_os("CROUPIER_BLESS").is_some() {
        std::fs::write(&path, &expected).expect("write the TypeScript twin");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(actual == expected, "{TWIN_PATH} is stale: run `make gen` and commit the result");
}
