//! Small presentational components; each takes plain data (or signals of it) and renders it.

pub mod api_error;
pub mod copy_link;
pub mod error_panel;
pub mod loading;
pub mod query_notice;
pub mod run_chooser;
pub mod run_progress;
pub mod run_table;
pub mod source_panel;
pub mod status_badge;
