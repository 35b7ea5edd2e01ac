//! The viewer's state, split from its components:
//!
//! - [`source`]: where the API is (the page's own origin by default), the user's API key (kept in
//!   sessionStorage, or localStorage when remembered; never in a URL) and the optional org key;
//! - [`url`]: the URL query as the single source of truth of the view ([`ViewState`]), with push
//!   for a new comparison and replace for view tweaks;
//! - [`loader`]: the reactive wrapper of the core's load engine (runs, their trajectory rewards
//!   and trajectories and their benchmark's tasks, page by page with progress, cancellation,
//!   partial results and resumable retries; running runs refreshed);
//! - [`files`]: run folders opened from disk: read from the browser, grouped and parsed by the
//!   core in its pure half ([`files::grouping`]);
//! - [`run_set_build`]: the run set of the comparison on screen, built from the loader's store
//!   a slice at a time, with progress;
//! - [`report`]: the report as a function of the run set and the view, first without and then
//!   with the bootstrap;
//! - [`scorecard`]: a training run's scorecard: its sources read, its runs loaded once by the
//!   loader, its cells' reports computed a slice at a time;
//! - [`ledger`]: the reviewer's ledger of the view (in the link's `ledger`), its edits and Undo;
//! - [`history`]: the app's own history router (pushState, popstate, clicked links);
//! - [`async_load`]: a component's one-off load as a signal, with Retry and cancellation;
//! - [`retry_load`]: the page's Retry of a stopped load, as context for panels far from it;
//! - [`shared`]: values compared by identity, so memos over big values stay cheap.
//!
//! May import: the core, `route`, `transport`; never a component or a page.
//!
//! [`ViewState`]: eval_compare_core::view_state::ViewState

pub mod async_load;
pub mod files;
pub mod history;
pub mod ledger;
pub mod loader;
pub mod report;
pub mod retry_load;
pub mod run_set_build;
pub mod scorecard;
pub mod shared;
pub mod source;
pub mod url;
