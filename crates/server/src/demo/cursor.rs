//! Opaque pagination cursors the server can validate.
//!
//! A cursor names the last item of the previous page by its sort key and is bound to one
//! collection scope (the list and its filters). It is the base64url text of
//! `v1 \x1f scope-hash \x1f key \x1f checksum`; a cursor that does not decode, fails its
//! checksum, or belongs to another scope is refused with 400 `invalid_cursor`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::dataset::rng::{derive, label};
use crate::error::ApiError;

const VERSION: &str = "v1";
const SEPARATOR: char = '\u{1f}';
/// Salt of the checksum: the checksum detects edited or corrupted cursors; it is not a secret.
const CHECKSUM_SALT: u64 = 0x6576_616c_2d63_6d70;

fn checksum(body: &str) -> u64 {
    derive(CHECKSUM_SALT, &[label(body)])
}

/// The cursor of the position after `key` in the collection `scope`.
pub fn encode(scope: &str, key: &str) -> String {
    let body = format!("{VERSION}{SEPARATOR}{:016x}{SEPARATOR}{key}", label(scope));
    let text = format!("{body}{SEPARATOR}{:016x}", checksum(&body));
    URL_SAFE_NO_PAD.encode(text)
}

/// The sort key a cursor of the collection `scope` points after.
pub fn decode(scope: &str, cursor: &str) -> Result<String, ApiError> {
    let malformed = || {
        ApiError::invalid_cursor(
            "The cursor is malformed; request the first page again without `cursor`.",
        )
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor.trim_end_matches('='))
        .map_err(|_| malformed())?;
    let text = String::from_utf8(bytes).map_err(|_| malformed())?;
    let (body, sum) = text.rsplit_once(SEPARATOR).ok_or_else(malformed)?;
    if u64::from_str_radix(sum, 16).ok() != Some(checksum(body)) {
        return Err(malformed());
    }
    let mut parts = body.splitn(3, SEPARATOR);
    let (Some(version), Some(scope_hash), Some(key)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(malformed());
    };
    if version != VERSION {
        return Err(ApiError::invalid_cursor(
            "The cursor's format is not supported.",
        ));
    }
    if scope_hash != format!("{:016x}", label(scope)) {
        return Err(ApiError::invalid_cursor(
            "The cursor belongs to a different list or different filters; reuse it only with the request that returned it.",
        ));
    }
    Ok(key.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let cursor = encode("runs|bench_a", "2026-10-01T00:00:00Z\u{1f}eval_x");
        assert_eq!(
            decode("runs|bench_a", &cursor).ok().as_deref(),
            Some("2026-10-01T00:00:00Z\u{1f}eval_x")
        );
        assert!(cursor
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    }

    #[test]
    fn refuses_other_scopes_and_tampering() {
        let cursor = encode("runs|bench_a", "k1");
        assert!(decode("runs|bench_b", &cursor).is_err());
        let mut tampered = URL_SAFE_NO_PAD.decode(&cursor).unwrap_or_default();
        if let Some(byte) = tampered.get_mut(22) {
            *byte ^= 1;
        }
        assert!(decode("runs|bench_a", &URL_SAFE_NO_PAD.encode(tampered)).is_err());
        for junk in ["", "abc", "!!!", "djE"] {
            let error = decode("runs|bench_a", junk).err();
            assert_eq!(
                error.map(|e| (e.status.as_u16(), e.code)),
                Some((400, "invalid_cursor"))
            );
        }
    }
}
