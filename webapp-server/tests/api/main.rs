//! The one integration-test binary of croupier-server: every test starts the real app and talks
//! HTTP to it (or runs the real binary).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

mod accounts;
mod bad_input;
mod cashier;
mod coord;
mod crash;
mod deploy_files;
mod docs;
mod envelope;
mod fixtures;
mod ledger;
mod mail;
mod metadata;
mod ops;
mod process;
mod profile;
mod social;
mod storage;
mod web;
