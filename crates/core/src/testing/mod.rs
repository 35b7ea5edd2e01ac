//! Helpers for tests of the core and of the crates built on it (CLI, viewer, e2e), behind the
//! `testing` feature so that no product build contains them. Each helper is written once here
//! and used by every crate's tests.
#![allow(clippy::unwrap_used)]

pub mod bodies;
pub mod feed;
pub mod json_close;
pub mod real_data;
pub mod scripted;

pub use scripted::{ScriptedTransport, NEVER, NOW_MS, SECRET};
