//! Ports of external parties. Each sits behind a trait with a real adapter and a working sandbox
//! adapter, and takes only what it needs (never the whole application state):
//! - [`payments`]: payment providers (the built-in sandbox provider with its own page and signed
//!   webhooks); which ones run is configuration (`CROUPIER_PAYMENT_PROVIDERS`).
//! - [`kyc`]: identity verification (a Sumsub-compatible adapter, and the sandbox with its own
//!   verification page and signed webhooks).
//! - [`messaging`]: e-mail (SMTP, or the sandbox dev mailbox) and SMS (an HTTP provider, or the
//!   sandbox dev mailbox).
//!
//! Telegram's port lives in `croupier-bot`; social sign-in (OpenID Connect) is configured per
//! provider and lives with the sign-in feature, which needs no adapter beyond the protocol.

pub mod kyc;
pub mod messaging;
pub mod payments;
