//! Parsing the IMF-fixdate form of HTTP dates (RFC 9110), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.

use crate::calendar::{days_from_civil, days_in_month};

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// Milliseconds since the Unix epoch of an IMF-fixdate, or `None` when the text is not one.
pub fn parse_http_date_ms(text: &str) -> Option<u64> {
    let mut fields = text.split_ascii_whitespace();
    let day_name = fields.next()?.strip_suffix(',')?;
    let day = fields.next()?;
    let month = fields.next()?;
    let year = fields.next()?;
    let time = fields.next()?;
    if fields.next()? != "GMT" || fields.next().is_some() || !DAY_NAMES.contains(&day_name) {
        return None;
    }
    let day = parse_digits(day, 2)?;
    let month = MONTHS.iter().position(|name| *name == month)? as u64 + 1;
    let year = parse_digits(year, 4)?;
    let mut clock = time.split(':');
    let hour = parse_digits(clock.next()?, 2)?;
    let minute = parse_digits(clock.next()?, 2)?;
    let second = parse_digits(clock.next()?, 2)?;
    if clock.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    // Four digits each: within i64.
    let (year, month, day) = (year as i64, month as i64, day as i64);
    if year < 1970 || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day) as u64;
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second;
    Some(seconds * 1_000)
}

fn parse_digits(text: &str, width: usize) -> Option<u64> {
    if text.len() != width || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}
