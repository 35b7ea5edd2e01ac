//! The Chronicle job picker (`/backtests`), the start page's other source: the backtest jobs,
//! newest first and page by page, with a status filter; one click opens a compare-mode job
//! (its first agent the baseline, the others candidates), or several jobs on one task suite are
//! chosen with one as the baseline.
//!
//! - [`choice`]: which runs a choice of jobs compares, and which jobs cannot join it (pure);
//! - [`job_list`]: the jobs read page by page from the API;
//! - [`job_table`]: the table with the selection controls and the Compare bar;
//! - [`page`]: the page itself.

pub mod choice;
pub mod job_list;
pub mod job_table;
pub mod page;
