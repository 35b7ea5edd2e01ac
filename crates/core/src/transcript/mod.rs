//! What the agent did: a trajectory's transcript read from its steps, two attempts at one task
//! side by side with their first divergence, and the task's samples on each side (the flip
//! table) with the pair to show first. The reads are the client's methods, written here
//! (`read.rs`: [`TrajectoryClient::transcript`](crate::client::TrajectoryClient::transcript),
//! [`TrajectoryClient::step_summaries`](crate::client::TrajectoryClient::step_summaries)) on
//! its paginator and its one page guard; the client imports nothing from here.
//!
//! Everything here is untrusted text from the API, kept as text: nothing is markup, and
//! nothing is fetched (an image is its artifact id). Long content is cut for display with
//! [`excerpt`]; hidden characters can be made visible with [`crate::text::visible`].
//!
//! May import: `api`, `client` (its steps list, paginator, error and page guard), `model` (its
//! public API).

mod align;
mod excerpt;
mod flip;
mod lcs;
mod model;
mod read;
mod steps;
mod tool_calls;

pub use align::{
    align, divergence, units, AlignedRow, Divergence, DivergenceKind, MatchMethod, SideBySide,
    Unit, LCS_MAX_CELLS,
};
pub use excerpt::{
    default_excerpt, excerpt, Excerpt, DEFAULT_EXCERPT_CHARS, DEFAULT_EXCERPT_LINES,
};
pub use flip::{
    default_pair, flip_table, Direction, Flip, FlipSide, FlipTable, OutcomeCounts, PairReason,
    Sample, SampleOutcome, SamplePair,
};
pub use model::{
    turns_of, CallLink, ContentBlock, Role, TokenTotals, Transcript, TranscriptOrigin, Turn,
};
pub use steps::{StepSummaries, StepSummary, STEP_PAGE_LIMIT};
pub use tool_calls::{ToolArguments, ToolCall, ToolCalls, ToolResponse};
