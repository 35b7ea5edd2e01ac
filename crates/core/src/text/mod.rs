//! The text layer every renderer shares (the CLI's markdown, the viewer's page and its charts):
//! number formats, plurals and the words for a value that could not be computed. One home for
//! each rule, so the report reads the same wherever it is shown.

mod missing;
mod numbers;
mod plural;

pub use missing::{why, StatText};
pub use numbers::{
    count, interval_points, mean, minus_sign, p_value, points, signed_points, MISSING,
};
pub use plural::{noun, plural};
