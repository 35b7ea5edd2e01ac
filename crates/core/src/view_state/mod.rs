//! The whole view state of a comparison, as it lives in the URL query.
//!
//! The URL is the single source of truth for what the viewer shows: which runs, which one is the
//! baseline, filters, sort, the selected task, the bootstrap seed and the statistical settings.
//! [`ViewState::to_query`] writes only what differs from the defaults, in a fixed order, so links
//! stay short and readable; [`ViewState::from_query`] never fails: a malformed or hostile value is
//! dropped, the default is kept, and a [`QueryIssue`] says what was ignored and why.
//!
//! Secrets never live here: a query that carries something that looks like an API key is
//! ignored (and reported) so a pasted link can never smuggle a key into the app's state.
//!
//! By topic: `limits` (what a link may hold, its defaults), `table` (filter and sort), `state`
//! (the [`ViewState`] itself), `snapshot` (a running comparison's link), `tenths` (the target Δ), `thousandths` (the pass threshold),
//! `checks` (the id rule and safe messages), `encoding` (percent-encoding), `write` and `read`
//! (the query string both ways); `scorecard_link` (the scorecard page's query, its settings read
//! and written by [`ViewState`]). Imports run one way: `limits`, `encoding`, `checks`, `tenths`
//! ← `table`, `snapshot` ← `state` ← `write`, `read`.

mod checks;
mod encoding;
mod limits;
mod read;
mod scorecard_link;
mod snapshot;
mod state;
mod table;
mod tenths;
mod thousandths;
mod write;

pub use checks::check_id;
pub use encoding::{decode_component, encode_component};
pub use limits::{
    DEFAULT_CONFIDENCE_PERCENT, DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TARGET_TENTHS,
    MAX_ATTEMPTS, MAX_CANDIDATES, MAX_ID_LEN, MAX_QUERY_LEN, PROJECT_SAMPLES_RANGE,
    RESAMPLES_RANGE, SAFE_SHARED_QUERY_LEN, TARGET_TENTHS_RANGE,
};
pub use read::{ParsedViewState, QueryIssue};
pub use scorecard_link::{
    ParsedScorecardLink, ScorecardLink, MAX_MARGIN_TENTHS, MAX_SCORECARD_BENCHMARKS,
    SCORECARD_SETTINGS,
};
pub use snapshot::{HeadlineThen, LinkSnapshot, MAX_LINK_TIME};
pub use state::{AnalysisMode, ViewState};
pub use table::{RowFilter, Sort, SortKey};
pub use tenths::{parse_tenths, target_delta_of_tenths, tenths_text};
pub use thousandths::{
    parse_thousandths, pass_threshold_of_thousandths, thousandths_text, PASS_THOUSANDTHS_RANGE,
};
