//! The server's integration tests, one binary for all but two files (a binary per file linked the
//! whole store 36 times: 190 MB each, 7 GB of a clean `make test`, more than CI's disk held).
//! Each file is a module of its own, as it was a crate of its own; `support` is shared.
//! `ops.rs` and `outage.rs` stay binaries of their own: they read what is the process's, not a
//! store's (the request metrics, the database outage standing), which the tests here would move
//! beside them. Run one file's tests with `cargo test -p server --test it FILE::`.

#[macro_use]
mod support;

mod account_pages;
mod accounts;
mod accounts_attacks;
mod api;
mod api_shopfront;
mod api_snapshots;
mod cart;
mod cart_pages;
mod catalog_forms;
mod forms;
mod goto_cases;
mod housekeeping;
mod http_requests;
mod kill;
mod lists;
mod mail_queue;
mod member_data;
mod migrations;
mod money_path;
mod ops_process;
mod orders;
mod page_plan;
mod pages;
mod payments;
mod photos;
mod placed_pages;
mod safe_defaults;
mod search;
mod sessions;
mod shopfront_pages;
mod social;
mod staff;
mod staff_accounts;
mod staff_forms;
mod staff_pages;
mod staff_runs;
mod two_servers;
