//! Parsing the IMF-fixdate form of HTTP dates (RFC 9110), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.

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
    if year < 1970 || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_since_epoch(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second;
    Some(seconds * 1_000)
}

fn parse_digits(text: &str, width: usize) -> Option<u64> {
    if text.len() != width || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn is_leap(year: u64) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

fn days_in_month(year: u64, month: u64) -> u64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the given civil date (year ≥ 1970), counting whole leap cycles.
fn days_since_epoch(year: u64, month: u64, day: u64) -> u64 {
    let leap_days_before = |y: u64| (y - 1) / 4 - (y - 1) / 100 + (y - 1) / 400;
    let years = year - 1970;
    let leap_days = leap_days_before(year) - leap_days_before(1970);
    let months_before: u64 = (1..month).map(|m| days_in_month(year, m)).sum();
    years * 365 + leap_days + months_before + day - 1
}
