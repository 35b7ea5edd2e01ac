//! A statistic's text, or why it has none: a value that could not be computed reads as "—"
//! with its reason in words, never NaN.

use crate::stats::{NotComputable, Stat};

/// Plain words for why a number is missing.
pub fn why(reason: &NotComputable) -> String {
    match reason {
        NotComputable::NotEnoughData { needed, got } => {
            format!("not enough data ({got} of the {needed} needed)")
        }
        NotComputable::ZeroVariance => "every task has the same delta".to_owned(),
        NotComputable::NonFinite { .. } => {
            "invalid input (a value is not a finite number)".to_owned()
        }
        other => other.to_string(),
    }
}

/// A value's text, or the reason it is missing.
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
            StatText::Missing(reason) => format!("{} ({reason})", super::MISSING),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_value_shows_its_reason() {
        let missing: Stat<f64> = Err(NotComputable::NotEnoughData { needed: 2, got: 1 });
        assert_eq!(
            StatText::of(&missing, |v| format!("{v}")).text(),
            "— (not enough data (1 of the 2 needed))"
        );
        let nested: Stat<Stat<f64>> = Ok(Err(NotComputable::ZeroVariance));
        assert_eq!(
            StatText::and_then(&nested, |inner| StatText::of(inner, |v| format!("{v}"))).text(),
            "— (every task has the same delta)"
        );
        let value: Stat<f64> = Ok(0.5);
        assert_eq!(StatText::of(&value, |v| format!("{v}")).text(), "0.5");
    }
}
