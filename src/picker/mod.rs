//! The run picker, the start page (`/`): an agent, one of its benchmark versions, and in that
//! version's run table one baseline and the candidates to compare with it.
//!
//! - [`page`]: the page itself; [`page_shell`]: the shell both pickers' pages share (source
//!   settings, tabs, heading, introduction);
//! - [`overview`]: what it loads (agents, benchmark versions, their runs);
//! - [`run_chooser`], [`run_table`], [`run_progress`]: choosing the runs, also used by the
//!   report pages to change a comparison ([`pick_cells`]: a row's baseline radio and compare
//!   checkbox, the run table's and the job table's);
//! - [`scorecard_links`]: the chosen agent's training runs, each opening its scorecard;
//! - [`backtests`]: the other source, Chronicle backtest jobs (`/backtests`);
//! - [`source_tabs`]: the switch between the two sources; [`source_config`]: the settings'
//!   address and key as a client configuration, or why not.
//!
//! May import: the core, `state`, `components`, `route`, `format`, `failure`, `transport`, and
//! from `pages` only the split point's prefetch; never `report`.

pub mod backtests;
pub mod overview;
pub mod page;
pub mod page_shell;
pub mod pick_cells;
pub mod run_chooser;
pub mod run_progress;
pub mod run_table;
pub mod scorecard_links;
pub mod source_config;
pub mod source_tabs;
