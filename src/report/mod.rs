//! The report pages and everything only they use: what the wasm split point
//! ([`crate::pages::lazy`]) cuts into a chunk of its own in the release build.
//!
//! - [`compare_page`]: `/compare`, a report over runs read from the API;
//! - [`files_page`]: `/files` and `/files/compare`, run folders opened from disk and their report
//!   ([`files_jobs`]: the Chronicle job folders among them and the choice of jobs);
//! - [`panels`]: the report's sections (header, audit, settings, headline, coverage ledger,
//!   loading progress, share link, drop zone);
//! - [`charts`]: the charts, drawn as SVG strings from the core's `Report`;
//! - [`table`]: the per-task table (filters, sort, windowed rows);
//! - [`task_panel`]: one task's trajectories, on demand from the API;
//! - [`export`]: CSV, JSON and SVG downloads.
//!
//! May import: the core, `state`, `components`, `picker` (the run chooser), `route`, `format`,
//! `failure`, `transport`. Nothing outside this folder imports from it except
//! [`crate::pages::lazy`] (the split point) and the browser tests.

pub mod charts;
pub mod compare_page;
pub mod export;
pub mod files_jobs;
pub mod files_page;
pub mod panels;
pub mod scorecard;
pub mod table;
pub mod task_panel;
