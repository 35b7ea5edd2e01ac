//! A pass threshold in thousandths of a reward: its one conversion to reward units, and how a
//! link writes and reads it (`pass=0.5`, `pass=0.75`, `pass=1`).

/// Allowed pass thresholds in thousandths (0.001 to 1).
pub const PASS_THOUSANDTHS_RANGE: std::ops::RangeInclusive<u16> = 1..=1000;

/// Thousandths in reward units (500 → 0.5): the one conversion of the link and the CLI's
/// `--pass-threshold`, so both give the same bits.
pub fn pass_threshold_of_thousandths(thousandths: u16) -> f64 {
    f64::from(thousandths) / 1000.0
}

/// Thousandths written as a decimal without trailing zeros: 500 → "0.5", 1000 → "1",
/// 75 → "0.075".
pub fn thousandths_text(thousandths: u16) -> String {
    let whole = thousandths / 1000;
    let part = thousandths % 1000;
    if part == 0 {
        return whole.to_string();
    }
    let digits = format!("{part:03}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// "0.5", ".5", "0.75", "1" or "1.0" as thousandths; more than three decimals, a sign or
/// anything else is none.
pub fn parse_thousandths(text: &str) -> Option<u16> {
    let (whole, part) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(part) || part.len() > 3 || (whole.is_empty() && part.is_empty()) {
        return None;
    }
    let whole: u16 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let part: u16 = if part.is_empty() {
        0
    } else {
        format!("{part:0<3}").parse().ok()?
    };
    whole.checked_mul(1000)?.checked_add(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousandths_read_and_write_both_ways() {
        for (text, value) in [
            ("0.5", 500),
            (".5", 500),
            ("0.75", 750),
            ("1", 1000),
            ("0.075", 75),
        ] {
            assert_eq!(parse_thousandths(text), Some(value), "{text}");
        }
        for bad in ["", ".", "-0.5", "0.0005", "a", "1e-3", "0,5"] {
            assert_eq!(parse_thousandths(bad), None, "{bad}");
        }
        for value in PASS_THOUSANDTHS_RANGE {
            assert_eq!(parse_thousandths(&thousandths_text(value)), Some(value));
        }
        assert_eq!(thousandths_text(500), "0.5");
        assert_eq!(thousandths_text(1000), "1");
        assert_eq!(pass_threshold_of_thousandths(700), 0.7);
    }
}
