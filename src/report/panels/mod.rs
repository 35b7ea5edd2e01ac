//! The sections of a report page, each rendering part of the core's `Report` (or the load that
//! leads to it): the header with the runs, the comparability audit, the settings, the headline
//! per candidate, where its Δ comes from (categories, flaky tasks, pass^k), each component's Δ, the platform's results beside the trials (Chronicle), the platform's own
//! progression of a training run beside ours, the
//! coverage ledger, the loading progress, the share link, notices about the
//! query, and the drop zone of the files page.

pub mod audit_panel;
pub mod checkpoint_steps;
pub mod component_deltas;
pub mod copy_link;
pub mod cost_panel;
pub mod coverage_ledger;
pub mod drop_zone;
pub mod effort_panel;
pub mod headline;
pub mod ledger_panel;
pub mod load_panel;
pub mod platform_panel;
pub mod platform_progression;
pub mod platform_words;
pub mod query_notice;
pub mod read_control;
pub mod read_status;
pub mod report_controls;
pub mod report_header;
pub mod where_delta;
