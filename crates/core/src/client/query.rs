//! Percent-encoding of path segments and query strings.

use super::error::ApiError;

/// Percent-encodes everything except RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(hex_digit(byte >> 4));
            out.push(hex_digit(byte & 0x0f));
        }
    }
    out
}

fn hex_digit(nibble: u8) -> char {
    char::from(b"0123456789ABCDEF"[usize::from(nibble & 0x0f)])
}

/// An identifier used as a path segment, encoded so `/`, `?` and `#` stay in it. Empty ids and
/// the dot segments `.` and `..` (which a URL resolver would remove) are refused.
pub(crate) fn segment(what: &str, id: &str) -> Result<String, ApiError> {
    if id.is_empty() {
        return Err(ApiError::InvalidArgument(format!("{what} is empty")));
    }
    if id == "." || id == ".." {
        return Err(ApiError::InvalidArgument(format!(
            "{what} `{id}` is not a valid id"
        )));
    }
    Ok(percent_encode(id))
}

/// Query parameters in the order added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Query(Vec<(&'static str, String)>);

impl Query {
    /// Adds a parameter.
    pub(crate) fn push(&mut self, name: &'static str, value: impl Into<String>) {
        self.0.push((name, value.into()));
    }

    /// Adds a parameter when a value is given.
    pub(crate) fn push_opt(&mut self, name: &'static str, value: Option<&str>) {
        if let Some(value) = value {
            self.push(name, value);
        }
    }

    /// Appends another query's parameters.
    pub(crate) fn extend(&mut self, other: &Query) {
        self.0.extend(other.0.iter().cloned());
    }

    /// `?a=1&b=2`, or an empty string when there is no parameter.
    pub(crate) fn to_query_string(&self) -> String {
        let pairs: Vec<String> = self
            .0
            .iter()
            .map(|(name, value)| format!("{name}={}", percent_encode(value)))
            .collect();
        if pairs.is_empty() {
            String::new()
        } else {
            format!("?{}", pairs.join("&"))
        }
    }
}
