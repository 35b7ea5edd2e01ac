//! The limits and defaults of a link's values: what a query may hold, and what it omits.

/// Longest query string accepted (characters); longer ones are ignored as a whole.
pub const MAX_QUERY_LEN: usize = 16 * 1024;
/// Longest query string a link is shared with safely (characters): some mail clients, chat
/// tools and proxies cut longer links; the page says so and offers a file instead (the
/// reviewer's ledger).
pub const SAFE_SHARED_QUERY_LEN: usize = 2_000;
/// Longest single identifier (run id, agent id, task id, bench id) accepted.
pub const MAX_ID_LEN: usize = 256;
/// Most candidate runs one comparison may hold.
pub const MAX_CANDIDATES: usize = 16;
/// Default bootstrap seed: fixed, so a link without a seed still reproduces its intervals.
pub const DEFAULT_SEED: u64 = 20_261_014;
/// Default number of bootstrap resamples (statistics.md §3).
pub const DEFAULT_RESAMPLES: u32 = 9_999;
/// Allowed range of bootstrap resamples.
pub const RESAMPLES_RANGE: std::ops::RangeInclusive<u32> = 100..=100_000;
/// Default confidence level, in percent.
pub const DEFAULT_CONFIDENCE_PERCENT: u8 = 95;

/// Default target Δ in tenths of a point (2.0 points; statistics.md's MDE section).
pub const DEFAULT_TARGET_TENTHS: u16 = 20;
/// Allowed target Δ in tenths of a point (0.1 to 100 points).
pub const TARGET_TENTHS_RANGE: std::ops::RangeInclusive<u16> = 1..=1000;
/// Allowed K′ (samples per task of the MDE projection).
pub const PROJECT_SAMPLES_RANGE: std::ops::RangeInclusive<u32> = 1..=10_000;

/// Most trajectory ids in `attempts`: the baseline's and the candidate's.
pub const MAX_ATTEMPTS: usize = 2;
