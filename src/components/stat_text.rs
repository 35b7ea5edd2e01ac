//! Text of the report's statistics: every value comes from the core report and every format
//! from the core's text layer ([`eval_compare_core::text`]); a value that could not be computed
//! shows the reason in words, never NaN. Here only what the viewer alone writes.

use eval_compare_core::stats::Interval;
pub use eval_compare_core::text::{
    count, interval_points, mean, p_value, plural, points, signed_points, StatText,
};

/// An interval of mean rewards, e.g. `0.380 to 0.441`.
pub fn interval_mean(interval: &Interval) -> String {
    format!("{} to {}", mean(interval.lower), mean(interval.upper))
}

/// An optional mean reward, or "—".
pub fn optional_mean(value: Option<f64>) -> String {
    value.map_or_else(|| eval_compare_core::text::MISSING.to_owned(), mean)
}
