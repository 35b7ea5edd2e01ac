//! Timestamps of the simulated platform: whole seconds since the Unix epoch, written as
//! RFC 3339 UTC (`2026-10-12T08:00:00Z`), which also sorts lexicographically.

use std::fmt;

use eval_compare_core::model::rfc3339_utc;

/// A point in simulated time, in whole seconds since 1970-01-01T00:00:00Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// The timestamp of a civil UTC date and time.
    pub const fn utc(year: i64, month: u32, day: u32, hour: u32, minute: u32) -> Self {
        let days = days_from_civil(year, month, day);
        Self(days as u64 * 86_400 + hour as u64 * 3_600 + minute as u64 * 60)
    }

    /// This timestamp plus `seconds`.
    pub const fn plus(self, seconds: u64) -> Self {
        Self(self.0 + seconds)
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
const fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&rfc3339_utc(self.0 as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339_utc() {
        assert_eq!(Timestamp(0).to_string(), "1970-01-01T00:00:00Z");
        assert_eq!(Timestamp(951_782_400).to_string(), "2000-02-29T00:00:00Z");
        assert_eq!(
            Timestamp::utc(2026, 10, 12, 8, 30).plus(5).to_string(),
            "2026-10-12T08:30:05Z"
        );
        assert_eq!(
            Timestamp::utc(2026, 12, 31, 23, 59).plus(60).to_string(),
            "2027-01-01T00:00:00Z"
        );
    }

    #[test]
    fn civil_round_trip_over_decades() {
        for days in (0..40_000).step_by(13) {
            let written = Timestamp(days as u64 * 86_400).to_string();
            let date: Vec<i64> = written[..10]
                .split('-')
                .map(|part| part.parse().unwrap_or(-1))
                .collect();
            assert_eq!(
                days_from_civil(date[0], date[1] as u32, date[2] as u32),
                days,
                "{written}"
            );
        }
    }
}
