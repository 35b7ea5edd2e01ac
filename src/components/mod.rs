//! Small presentational components; each takes plain data (or signals of it) and renders it.

pub mod api_error;
pub mod audit_panel;
pub mod copy_link;
pub mod coverage_ledger;
pub mod disclosure;
pub mod drop_zone;
pub mod error_panel;
pub mod headline;
pub mod load_panel;
pub mod loading;
pub mod query_notice;
pub mod report_controls;
pub mod report_header;
pub mod run_chooser;
pub mod run_progress;
pub mod run_table;
pub mod source_panel;
pub mod stat_text;
pub mod status_badge;
