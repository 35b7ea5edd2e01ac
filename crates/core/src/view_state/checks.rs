//! The rules a link's values follow: one rule for identifiers ([`check_id`], shared with run
//! folders and the CLI), free text, parameter names that would carry a credential, and the
//! safe rendering of a refused value in a message.

use super::limits::MAX_ID_LEN;

/// True for parameter names that would carry a credential.
pub(super) fn looks_like_secret(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace(['-', '_'], "");
    [
        "apikey",
        "key",
        "token",
        "secret",
        "password",
        "auth",
        "authorization",
        "xapikey",
    ]
    .iter()
    .any(|s| k == *s)
}

/// The one rule for an identifier (run, agent, benchmark, task, category) in a link, checked
/// the same when a link is read and when a run is opened to be compared (a run folder's
/// `run.json`, the CLI's run id arguments): 1 to [`MAX_ID_LEN`] characters, not only white
/// space, no white space at either end, no control characters. An id is compared exactly as
/// written, so it is never trimmed: an id the rule refuses is refused, not changed. The error
/// says why in plain words.
pub fn check_id(value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Err("empty value".into());
    }
    if value.trim().is_empty() {
        return Err("only white space".into());
    }
    if value.trim() != value {
        return Err("starts or ends with white space".into());
    }
    let length = value.chars().count();
    if length > MAX_ID_LEN {
        return Err(format!("longer than {MAX_ID_LEN} characters ({length})"));
    }
    if let Some(control) = value.chars().find(|c| c.is_control()) {
        return Err(format!(
            "contains control characters (the first is U+{:04X})",
            u32::from(control)
        ));
    }
    Ok(())
}

/// An identifier read from a link: [`check_id`]'s rule.
pub(super) fn identifier(value: &str) -> Result<String, String> {
    check_id(value)?;
    Ok(value.to_owned())
}

pub(super) fn printable_text(value: &str, max: usize) -> Result<String, String> {
    if value.chars().count() > max {
        return Err(format!("longer than {max} characters"));
    }
    if value.chars().any(char::is_control) {
        return Err("contains control characters".into());
    }
    Ok(value.trim().to_owned())
}

/// A short, safe rendering of untrusted text for messages.
pub(super) fn printable(s: &str) -> String {
    let cleaned: String = s.chars().filter(|c| !c.is_control()).take(40).collect();
    if s.chars().count() > 40 {
        format!("{cleaned}…")
    } else {
        cleaned
    }
}
