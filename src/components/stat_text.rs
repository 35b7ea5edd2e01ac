//! Text of the report's statistics: every value comes from the core report; a value that could
//! not be computed shows the reason in words ([`why`]), never NaN.

use eval_compare_core::report::{format_points, why};
use eval_compare_core::stats::{Interval, NotComputable, Stat};

/// A reward difference in points (reward × 100), signed, e.g. `+4.1` or `−2.0`.
pub use eval_compare_core::report::format_signed_points as signed_points;

/// A value's text, or "—" with the reason it is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatText {
    /// The formatted value.
    Value(String),
    /// Why there is no value, in words.
    Missing(String),
}

impl StatText {
    /// Formats `stat` with `format`, or keeps the reason.
    pub fn of<T>(stat: &Stat<T>, format: impl FnOnce(&T) -> String) -> Self {
        match stat {
            Ok(value) => StatText::Value(format(value)),
            Err(reason) => StatText::missing(reason),
        }
    }

    /// The reason a value is missing.
    pub fn missing(reason: &NotComputable) -> Self {
        StatText::Missing(why(reason))
    }

    /// Formats `stat` with `format` when it has a value; otherwise the nested reason.
    pub fn and_then<T>(stat: &Stat<T>, format: impl FnOnce(&T) -> StatText) -> Self {
        match stat {
            Ok(value) => format(value),
            Err(reason) => StatText::missing(reason),
        }
    }

    /// The text, e.g. `4.1` or `— (not enough data (1 of the 2 needed))`.
    pub fn text(&self) -> String {
        match self {
            StatText::Value(text) => text.clone(),
            StatText::Missing(reason) => format!("— ({reason})"),
        }
    }
}

/// A non-negative amount in points, e.g. `3.2`.
pub fn points(value: f64) -> String {
    format_points(value)
}

/// An interval in points, e.g. `2.0 to 6.2`.
pub fn interval_points(interval: &Interval) -> String {
    format!(
        "{} to {}",
        signed_points(interval.lower),
        signed_points(interval.upper)
    )
}

/// An interval of mean rewards, e.g. `0.380 to 0.441`.
pub fn interval_mean(interval: &Interval) -> String {
    format!("{} to {}", mean(interval.lower), mean(interval.upper))
}

/// A p-value with enough digits to be useful, never "0" (as the CLI prints it).
pub fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".to_owned()
    } else {
        format!("{p:.4}")
    }
}

/// A mean reward with three decimals.
pub fn mean(value: f64) -> String {
    format!("{value:.3}")
}

/// An optional mean reward, or "—".
pub fn optional_mean(value: Option<f64>) -> String {
    value.map_or_else(|| "—".to_owned(), mean)
}

/// A count with thousands separators, e.g. `12,345`.
pub fn count(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `1 task` / `3 tasks`.
pub fn plural(value: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(value), if value == 1 { one } else { many })
}
