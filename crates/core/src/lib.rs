//! Eval Compare core: pure Rust, no IO. API types, the Trajectory client (generic over a
//! transport), the load engine, the comparison model, analysis and the report. Runs natively and
//! in wasm32; the viewer, the server and the CLI are built on it.
//!
//! From the wire to the page: [`api`] (response types; [`large_list`] decodes the two large
//! lists fast) → [`client`] (requests over a
//! [`client::Transport`]) → [`load`] (a comparison's runs, page by page) → [`model`] (the
//! source-neutral run set; [`run_folder`] for runs on disk) → [`coverage`], [`audit`], [`stats`]
//! → [`report`] (one value for page, markdown, JSON and HTML), written with [`text`];
//! [`view_state`] is the URL query and [`share_link`] a view's absolute link. [`testing`]
//! (feature `testing`) holds the test helpers of every crate.
//!
//! May import: serde, serde_json, thiserror, libm and futures (no IO, no clock, no DOM, no async
//! runtime); never another crate of the workspace.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod api;
pub mod audit;
mod calendar;
pub mod client;
pub mod coverage;
pub mod large_list;
pub mod ledger;
pub mod load;
mod math;
pub mod model;
pub mod parallel;
pub mod radix;
pub mod report;
pub mod run_folder;
pub mod scorecard;
pub mod share_link;
pub mod stats;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;
pub mod transcript;
pub mod view_state;
