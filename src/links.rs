//! The rule of every link out of the viewer (a trial's artifact, the platform's pages): only an
//! absolute `http`/`https` address on another origin than the page's, so nothing from an API or
//! a setting can make a link lead to this server's own pages. Pure; no DOM.

/// Whether `url` is an absolute `http(s)` address whose origin differs from `page_origin` (as
/// `location.origin` gives it).
///
/// Conservative: an address with credentials (`user@`), a backslash, whitespace, control or
/// non-ASCII characters or a percent-encoded host does not pass, nor one whose port is not a
/// number.
pub fn other_origin(url: &str, page_origin: &str) -> bool {
    match Origin::parse(url) {
        Some(target) => Origin::parse(page_origin).is_none_or(|own| own != target),
        None => false,
    }
}

/// Scheme, host and port of an absolute http(s) address.
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    secure: bool,
    host: String,
    port: u16,
}

impl Origin {
    fn parse(url: &str) -> Option<Self> {
        let suspicious =
            |c: char| c.is_whitespace() || c.is_control() || c == '\\' || !c.is_ascii();
        if url.chars().any(suspicious) {
            return None;
        }
        let (scheme, rest) = url.split_once("://")?;
        let secure = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else {
            return None;
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.contains(['@', '%']) {
            return None;
        }
        let (host, port) = match authority.strip_prefix('[') {
            Some(inner) => {
                let (literal, after) = inner.split_once(']')?;
                let port = if after.is_empty() {
                    ""
                } else {
                    after.strip_prefix(':')?
                };
                if literal.is_empty() || literal.contains('[') {
                    return None;
                }
                (format!("[{literal}]"), port)
            }
            None => {
                let (host, port) = authority.rsplit_once(':').unwrap_or((authority, ""));
                if host.contains([':', '[', ']']) {
                    return None;
                }
                (host.to_owned(), port)
            }
        };
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        if host.is_empty() {
            return None;
        }
        let port = if port.is_empty() {
            if secure {
                443
            } else {
                80
            }
        } else if port.bytes().all(|b| b.is_ascii_digit()) {
            port.parse().ok()?
        } else {
            return None;
        };
        Some(Self { secure, host, port })
    }
}
