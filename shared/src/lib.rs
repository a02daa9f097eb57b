//! `croupier-shared`: what the server, the bot and the client must agree on.
//!
//! Only pure types and functions live here — no I/O — so both binaries (and the generated
//! TypeScript twin in `miniapp/src/lib/api/errors.gen.ts`) speak exactly the same language.

pub mod errors;
#[doc(hidden)]
pub mod fuzzing;
pub mod locale;
pub mod money;
pub mod telegram;
pub mod typescript;

pub use errors::{ErrorType, FieldCode};
pub use locale::Locale;
pub use money::{Currency, Money, MoneyError};

/// The API version every client call carries as `v` (SPEC §9).
pub const API_VERSION: &str = "2.34";
