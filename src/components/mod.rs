//! Small presentational components; each takes plain data and renders it.

pub mod benchmark_section;
pub mod error_panel;
pub mod loading;
pub mod run_progress;
pub mod run_table;
pub mod status_badge;
