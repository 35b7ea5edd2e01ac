//! Eval Compare core: pure Rust, no IO. API types, the Trajectory client (generic over a
//! transport), the comparison model, analysis and the report. Runs natively and in wasm32.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod api;
pub mod audit;
pub mod client;
pub mod coverage;
pub mod load;
mod math;
pub mod model;
pub mod report;
pub mod run_folder;
pub mod stats;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;
pub mod view_state;
