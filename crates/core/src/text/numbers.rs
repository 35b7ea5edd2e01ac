//! Number formats: counts, reward differences in points, p-values and mean rewards, and the
//! minus sign the page writes negative numbers with.

use crate::stats::Interval;

/// Shown where a value is absent.
pub const MISSING: &str = "—";

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

/// A reward difference in points (reward × 100), one decimal, e.g. `4.1`; a negative one with
/// an ASCII hyphen (`-2.0`), never `-0.0`. For magnitudes and plain text; [`signed_points`]
/// writes the sign as the page does.
pub fn points(delta: f64) -> String {
    let points = delta * 100.0;
    let rounded = (points * 10.0).round() / 10.0;
    // Avoid "-0.0".
    if rounded == 0.0 {
        "0.0".to_owned()
    } else {
        format!("{rounded:.1}")
    }
}

/// A formatted number as the page writes it: a leading ASCII hyphen becomes the minus sign
/// (U+2212), e.g. `minus_sign("-0.075")` is `−0.075`; any other text is returned as it is.
pub fn minus_sign(text: String) -> String {
    match text.strip_prefix('-') {
        Some(magnitude) => format!("\u{2212}{magnitude}"),
        None => text,
    }
}

/// A reward difference in points with its sign: `+4.1`, `−1.0` (with the minus sign U+2212),
/// `0.0`.
pub fn signed_points(delta: f64) -> String {
    let text = points(delta);
    if text.starts_with('-') {
        minus_sign(text)
    } else if text == "0.0" {
        text
    } else {
        format!("+{text}")
    }
}

/// An interval of reward differences in signed points, e.g. `+2.0 to +6.2`.
pub fn interval_points(interval: &Interval) -> String {
    format!(
        "{} to {}",
        signed_points(interval.lower),
        signed_points(interval.upper)
    )
}

/// A p-value with four decimals, never "0": `< 0.0001` below that.
pub fn p_value(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".to_owned()
    } else {
        format!("{p:.4}")
    }
}

/// A mean reward (or a pass@k, a correlation) with three decimals, e.g. `0.483`; a negative one
/// with the minus sign (U+2212), `−0.075`, like every number a person reads; −0.0 (and what
/// rounds to it) as `0.000`; a huge one in scientific notation (`1e308`).
pub fn mean(value: f64) -> String {
    if let Some(huge) = huge(value) {
        return huge;
    }
    let text = format!("{value:.3}");
    // −0.0, or a value that rounds to zero from below, reads as zero.
    if text == "-0.000" {
        return "0.000".to_owned();
    }
    minus_sign(text)
}

/// Values at least this large (in magnitude) are written in scientific notation: printed in
/// full, 1e308 would be an integer of 309 digits.
const HUGE: f64 = 1e15;

/// A finite value of [`HUGE`] magnitude or more in scientific notation with up to four
/// decimals, trailing zeros dropped, e.g. `1e308`, `−1.2346e20`; `None` for a smaller one.
fn huge(value: f64) -> Option<String> {
    if !value.is_finite() || value.abs() < HUGE {
        return None;
    }
    let text = format!("{value:.4e}");
    let (mantissa, exponent) = text.split_once('e')?;
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    Some(minus_sign(format!("{mantissa}e{exponent}")))
}

/// A value in its own units (a scorer's score, a share such as a pass rate) with three
/// decimals, or [`MISSING`] when absent.
pub fn optional_value(value: Option<f64>) -> String {
    value.map_or_else(|| MISSING.to_owned(), mean)
}

/// A difference in a component's own units with its sign, three decimals: `+0.125`, `−0.050`,
/// `0.000`.
pub fn signed_value(value: f64) -> String {
    let text = format!("{value:+.3}");
    if text == "-0.000" || text == "+0.000" {
        "0.000".to_owned()
    } else {
        minus_sign(text)
    }
}

/// An interval of differences in a component's own units, e.g. `+0.020 to +0.062`.
pub fn interval_value(interval: &Interval) -> String {
    format!(
        "{} to {}",
        signed_value(interval.lower),
        signed_value(interval.upper)
    )
}

/// A logged number (a component's value, weight or bound) with up to four decimals, trailing
/// zeros dropped: `1`, `0.85`, `0.3333`, `−2.5`; from 1e15 up in scientific notation (`1e308`,
/// not 309 digits); a non-finite value as Rust writes it.
pub fn compact_value(value: f64) -> String {
    if !value.is_finite() {
        return format!("{value}");
    }
    if let Some(huge) = huge(value) {
        return huge;
    }
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".to_owned(),
        other => minus_sign(other.to_owned()),
    }
}

/// A size in bytes: `512 B`, `1.5 KiB`, `12.3 MiB`, `420 GiB` (powers of 1,024; one decimal
/// below 100 of the unit).
pub fn byte_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes < 1_024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1_024.0;
    let mut unit = 0;
    // Promoted once the number would read 1024 or more of a unit.
    while value >= 1_023.5 && unit + 1 < UNITS.len() {
        value /= 1_024.0;
        unit += 1;
    }
    if value < 99.95 {
        format!("{value:.1} {}", UNITS[unit])
    } else {
        format!("{value:.0} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn compact_values_have_up_to_four_decimals_without_trailing_zeros() {
        assert_eq!(compact_value(1.0), "1");
        assert_eq!(compact_value(0.85), "0.85");
        assert_eq!(compact_value(1.0 / 3.0), "0.3333");
        assert_eq!(compact_value(-0.00001), "0");
        assert_eq!(compact_value(0.0), "0");
        assert_eq!(compact_value(-2.5), "\u{2212}2.5");
        assert_eq!(compact_value(f64::INFINITY), "inf");
    }

    use super::*;

    #[test]
    fn values_in_their_own_units_have_a_sign_and_three_decimals() {
        assert_eq!(signed_value(0.125), "+0.125");
        assert_eq!(signed_value(-0.05), "\u{2212}0.050");
        assert_eq!(signed_value(-0.0001), "0.000");
        assert_eq!(optional_value(None), MISSING);
        assert_eq!(optional_value(Some(0.5)), "0.500");
    }

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(403), "403");
        assert_eq!(count(1401), "1,401");
        assert_eq!(count(100_000), "100,000");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(count(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn points_round_to_one_decimal_without_negative_zero() {
        assert_eq!(points(0.041), "4.1");
        assert_eq!(points(-0.0103), "-1.0");
        assert_eq!(points(-0.0004), "0.0");
        assert_eq!(points(1.0), "100.0");
    }

    #[test]
    fn signed_points_use_the_minus_sign() {
        assert_eq!(signed_points(0.0158), "+1.6");
        assert_eq!(signed_points(-0.0103), "\u{2212}1.0");
        assert_eq!(signed_points(-0.0004), "0.0");
        assert_eq!(signed_points(0.0), "0.0");
        let interval = Interval {
            lower: -0.02,
            upper: 0.062,
            level: 0.95,
        };
        assert_eq!(interval_points(&interval), "\u{2212}2.0 to +6.2");
    }

    #[test]
    fn p_values_are_never_zero() {
        assert_eq!(p_value(0.234_714), "0.2347");
        assert_eq!(p_value(1.0), "1.0000");
        assert_eq!(p_value(1e-4), "0.0001");
        assert_eq!(p_value(9.9e-5), "< 0.0001");
        assert_eq!(p_value(0.0), "< 0.0001");
    }

    #[test]
    fn means_have_three_decimals() {
        assert_eq!(mean(0.483_218), "0.483");
        assert_eq!(mean(1.0), "1.000");
        assert_eq!(mean(-0.075), "\u{2212}0.075");
    }

    #[test]
    fn negative_zero_reads_as_zero() {
        assert_eq!(mean(-0.0), "0.000");
        assert_eq!(mean(-0.0004), "0.000");
        assert_eq!(optional_value(Some(-0.0)), "0.000");
        assert_eq!(mean(-0.0005), "\u{2212}0.001");
        assert_eq!(compact_value(-0.0), "0");
    }

    #[test]
    fn huge_values_read_in_scientific_notation() {
        assert_eq!(compact_value(1e308), "1e308");
        assert_eq!(compact_value(f64::MAX), "1.7977e308");
        assert_eq!(compact_value(-1.234_56e20), "\u{2212}1.2346e20");
        assert_eq!(compact_value(1e15), "1e15");
        assert_eq!(compact_value(999_999_999_999_999.0), "999999999999999");
        assert_eq!(mean(1e308), "1e308");
        assert_eq!(mean(-2.5e17), "\u{2212}2.5e17");
    }

    #[test]
    fn the_minus_sign_replaces_a_leading_hyphen_only() {
        assert_eq!(minus_sign("-0.075".to_owned()), "\u{2212}0.075");
        assert_eq!(minus_sign("1.075".to_owned()), "1.075");
        assert_eq!(minus_sign(points(-0.02)), "\u{2212}2.0");
        assert_eq!(minus_sign("0.0".to_owned()), "0.0");
        assert_eq!(minus_sign("a-b".to_owned()), "a-b");
    }
}
