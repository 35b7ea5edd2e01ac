//! A target Δ in tenths of a point: its one conversion to reward units, and how a link writes
//! and reads it (`target=2.5`).

/// A target Δ given in tenths of a point, in reward units (20 → 0.02): the one conversion of
/// the link and the CLI's `--target-delta`, so both give the same bits.
pub fn target_delta_of_tenths(tenths: u16) -> f64 {
    f64::from(tenths) / 1000.0
}

/// Tenths written as a decimal: 20 → "2", 25 → "2.5".
pub fn tenths_text(tenths: u16) -> String {
    if tenths.is_multiple_of(10) {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// "2", "2.5", "0.5" or ".5" as tenths; more than one decimal, a sign or anything else is none.
pub fn parse_tenths(text: &str) -> Option<u16> {
    let (whole, tenth) = match text.split_once('.') {
        Some((whole, tenth)) => (whole, tenth),
        None => (text, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(tenth) || tenth.len() > 1 || (whole.is_empty() && tenth.is_empty())
    {
        return None;
    }
    let whole: u16 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let tenth: u16 = if tenth.is_empty() {
        0
    } else {
        tenth.parse().ok()?
    };
    whole.checked_mul(10)?.checked_add(tenth)
}
