//! The upstream URL of a proxied request: the upstream's base path followed by the request's
//! path, segment by segment as the client sent them, and its query. A path with a dot segment
//! (`.` or `..`, plain or percent-encoded), an encoded separator (`%2F`, `%5C`) or a backslash
//! is refused: URL parsers resolve or split on those, which would let a request reach a path
//! outside the API (or outside a base prefix of `--upstream`) with the caller's key.

use reqwest::Url;

use crate::error::ApiError;

/// The URL `path` (as received, percent-encoded) and `query` are forwarded to, under `base`.
pub fn upstream_url(base: &Url, path: &str, query: Option<&str>) -> Result<Url, ApiError> {
    let refuse = |why: &str| {
        ApiError::invalid_request(
            "path",
            format!(
                "The path `{}` {why}; the proxy forwards only plain paths under /api/ and /v1/.",
                shown(path)
            ),
        )
    };
    let Some(rest) = path.strip_prefix('/') else {
        return Err(refuse("is not absolute"));
    };
    for segment in rest.split('/') {
        if segment.contains('\\') {
            return Err(refuse("contains a backslash"));
        }
        let decoded = percent_decode(segment);
        if decoded.contains(&b'/') || decoded.contains(&b'\\') {
            return Err(refuse("contains an encoded separator (%2F or %5C)"));
        }
        if decoded == b"." || decoded == b".." {
            return Err(refuse(
                "contains a dot segment (`.` or `..`, plain or encoded)",
            ));
        }
    }
    let prefix = base.path().trim_end_matches('/');
    let wanted = format!("{prefix}{path}");
    let mut url = base.clone();
    url.set_path(&wanted);
    url.set_query(query);
    // The checks above leave nothing for the URL parser to resolve; should it still change
    // the path, nothing is sent.
    if url.path() != wanted || !url.path().starts_with(&format!("{prefix}/")) {
        return Err(refuse("does not stay under the upstream's base path"));
    }
    Ok(url)
}

/// `segment` with its `%XX` escapes decoded (other `%` left as they are).
fn percent_decode(segment: &str) -> Vec<u8> {
    let bytes = segment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                decoded.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        decoded.push(bytes[i]);
        i += 1;
    }
    decoded
}

/// A path as shown in an error: escaped, at most 80 characters.
fn shown(path: &str) -> String {
    let mut text: String = path
        .chars()
        .take(80)
        .flat_map(char::escape_default)
        .collect();
    if path.chars().count() > 80 {
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(base: &str, path: &str) -> Result<String, u16> {
        upstream_url(&Url::parse(base).unwrap(), path, Some("limit=5"))
            .map(|url| url.to_string())
            .map_err(|e| e.status.as_u16())
    }

    #[test]
    fn keeps_plain_paths_under_the_base() {
        assert_eq!(
            target("http://h:1/", "/api/v1/agents").as_deref(),
            Ok("http://h:1/api/v1/agents?limit=5")
        );
        assert_eq!(
            target("http://h:1/base", "/api/v1/eval/a%20b.c..d").as_deref(),
            Ok("http://h:1/base/api/v1/eval/a%20b.c..d?limit=5")
        );
    }

    #[test]
    fn refuses_dot_segments_and_encoded_separators() {
        for path in [
            "/api/../../admin",
            "/api/./v1",
            "/api/%2e%2e/admin",
            "/api/.%2E/admin",
            "/api/%2e/admin",
            "/api/v1/..",
            "/api/a%2Fb",
            "/api/a%2fb",
            "/api/a%5Cb",
            "/api/..\\admin",
            "api/v1",
        ] {
            assert_eq!(target("http://h/base/", path), Err(400), "{path}");
        }
        assert_eq!(percent_decode("%2e%2E%"), b"..%");
        assert_eq!(percent_decode("%zz%4"), b"%zz%4");
    }
}
