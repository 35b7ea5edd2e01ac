//! The text layer every renderer shares (the CLI's markdown, the viewer's page and its charts):
//! number formats, plurals, the words for a value that could not be computed, and the escaping
//! of untrusted text for the terminal, markdown and HTML. One home for each rule, so the report reads
//! the same wherever it is shown.

mod escape;
mod missing;
mod numbers;
mod plural;
mod setting;

pub use escape::{html_text, is_hidden, markdown_code, markdown_text, visible};
pub use missing::{why, StatText};
pub use numbers::{
    compact_value, count, interval_points, interval_value, mean, minus_sign, optional_value,
    p_value, points, signed_points, signed_value, MISSING,
};
pub use plural::{noun, plural};
pub use setting::{setting_shown, setting_source, setting_value};
