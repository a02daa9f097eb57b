//! The one integration-test binary of croupier-server: every test starts the real app and talks
//! HTTP to it (or runs the real binary).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

mod accounts;
mod backoffice;
mod backoffice_content;
mod backup;
mod bad_input;
mod betting_bonuses;
mod bonus_model;
mod bonuses;
mod cashbacks;
mod cashier;
mod competition;
mod content;
mod coord;
mod crash;
mod crash_wallet;
mod deploy_files;
mod docs;
mod envelope;
mod fixtures;
mod fuzz;
mod games;
mod games_freespins;
mod games_house;
mod guessing;
mod hot;
mod isolation;
mod ledger;
mod loyalty;
mod mail;
mod metadata;
mod notify;
mod ops;
mod player_storage;
mod process;
mod profile;
mod protection;
mod seo;
mod shutdown;
mod soak;
mod social;
mod sportsbook;
mod sportsbook_clock;
mod sportsbook_live;
mod sportsbook_ops;
mod sportsbook_providers;
mod sportsbook_wallet;
mod storage;
mod telegram;
mod tracking;
mod web;
