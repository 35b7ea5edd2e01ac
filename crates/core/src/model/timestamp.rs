//! Trajectory times: an RFC 3339 timestamp (`created_at`) as seconds since the Unix epoch, and
//! back as text. Pure arithmetic: the core has no clock.

use crate::calendar::{civil_from_days, days_from_civil, days_in_month};

/// Seconds since 1970-01-01T00:00:00Z of an RFC 3339 timestamp such as
/// `2026-10-14T09:30:00Z`, `2026-10-14T09:30:00.123456+02:00` or `2026-10-14 09:30:00` (no
/// offset: UTC); fractions of a second are dropped. `None` when the text is not one.
pub fn unix_seconds(text: &str) -> Option<i64> {
    let text = text.trim();
    let bytes = text.as_bytes();
    if bytes.len() < 19 || !matches!(bytes[10], b'T' | b't' | b' ') {
        return None;
    }
    // Digits only (no sign): read by hand, as a million timestamps are read per run.
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        bytes.get(range)?.iter().try_fold(0i64, |value, &byte| {
            byte.is_ascii_digit()
                .then(|| value * 10 + i64::from(byte - b'0'))
        })
    };
    if bytes[4] != b'-' || bytes[7] != b'-' || bytes[13] != b':' || bytes[16] != b':' {
        return None;
    }
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        rest = &fraction[digits..];
    }
    let offset = match rest {
        "" | "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let clock = rest.get(1..)?;
            let (h, m) = clock.split_once(':')?;
            let digits = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
            if !digits(h) || !digits(m) {
                return None;
            }
            let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
            if h > 23 || m > 59 {
                return None;
            }
            sign * (h * 3_600 + m * 60)
        }
    };
    let days = days_from_civil(year, month, day);
    Some(days * 86_400 + hour * 3_600 + minute * 60 + second - offset)
}

/// `2026-10-14T09:30:00Z` of seconds since the epoch (the form `unix_seconds` reads back).
pub fn rfc3339_utc(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3_600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_the_forms_the_api_writes() {
        // Expected values from Python: datetime(2026, 10, 14, 9, 30, tzinfo=timezone.utc).timestamp().
        assert_eq!(unix_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(unix_seconds("2026-10-14T09:30:00Z"), Some(1_791_970_200));
        assert_eq!(
            unix_seconds("2026-10-14T09:30:00.987654Z"),
            Some(1_791_970_200)
        );
        assert_eq!(
            unix_seconds("2026-10-14T11:30:00+02:00"),
            Some(1_791_970_200)
        );
        assert_eq!(
            unix_seconds("2026-10-14T07:00:00-02:30"),
            Some(1_791_970_200)
        );
        assert_eq!(unix_seconds("2026-10-14 09:30:00"), Some(1_791_970_200));
        assert_eq!(unix_seconds("2024-02-29T00:00:00Z"), Some(1_709_164_800));
    }

    #[test]
    fn refuses_what_is_not_a_timestamp() {
        for bad in [
            "",
            "2026-10-14",
            "2026-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-10-14T24:00:00Z",
            "2026-10-14T09:30:00.Z",
            "2026-10-14T09:30:00+2:00",
            "2026-10-14T09:30:00 UTC",
            "2026/10/14T09:30:00Z",
            "+026-10-14T09:30:00Z",
            "2026-10-14T09:3a:00Z",
        ] {
            assert_eq!(unix_seconds(bad), None, "{bad}");
        }
    }

    proptest! {
        #[test]
        fn written_times_read_back(seconds in -62_135_596_800i64..253_402_300_799) {
            prop_assert_eq!(unix_seconds(&rfc3339_utc(seconds)), Some(seconds));
        }
    }
}
