//! The text layer every renderer shares (the CLI's markdown, the viewer's page and its charts):
//! number formats, plurals, the size limits of shown names and labels, the words for a value
//! that could not be computed, and the escaping of untrusted text for the terminal, markdown and
//! HTML. One home for each rule, so the report reads the same wherever it is shown.

mod escape;
mod missing;
mod numbers;
mod plural;
mod quoted;
mod setting;
mod shorten;

pub use escape::{html_text, is_hidden, is_web_link, markdown_code, markdown_text, visible};
pub use missing::{why, StatText};
pub use numbers::{
    byte_size, compact_value, count, interval_points, interval_value, mean, minus_sign,
    optional_value, p_value, points, signed_points, signed_value, MISSING,
};
pub use plural::{noun, plural};
pub use quoted::{quoted_parts, QuotedPart};
pub use setting::{setting_shown, setting_source, setting_value};
pub use shorten::{
    cut_copy, cut_to_bytes, shorten, ELLIPSIS, MAX_SHOWN_FIELD_BYTES, SHOWN_NAME_CHARS,
};
