//! Security headers on every response of the server: `X-Content-Type-Options: nosniff`,
//! `Referrer-Policy: no-referrer`, and a Content-Security-Policy.
//!
//! The viewer's page gets [`page_policy`]: scripts only from the server itself, plus
//! `'wasm-unsafe-eval'` (compiling the app's WebAssembly) and the SHA-256 hashes of the inline
//! `<script>` elements of the `index.html` being served ([`inline_script_hashes`]; the build
//! writes its folder's name into them, so the hashes are computed from the file, not kept in
//! the repository). Everything else (API answers, errors, 404s, the build's files) gets
//! [`LOCKED_DOWN`] unless its handler set a policy of its own; proxied answers get
//! [`PROXIED`].

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The policy of every response that is not the viewer's page: nothing may load or run, and
/// nothing may frame it.
pub const LOCKED_DOWN: &str = "default-src 'none'; frame-ancestors 'none'";

/// The policy of a proxied upstream answer: as [`LOCKED_DOWN`], and sandboxed (a unique
/// origin, no scripts) should a browser ever render it as a document.
pub const PROXIED: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// The policy of the viewer's page whose inline scripts have these `'sha256-…'` sources.
///
/// `style-src-attr 'unsafe-inline'`: the viewer sets `style` attributes (bar widths, the task
/// table's width), which Leptos writes with `setAttribute("style", …)`; style elements and
/// sheets stay limited to the server's own files. `img-src data: blob:` for exported images.
pub fn page_policy(script_hashes: &[String]) -> String {
    let mut script_src = String::from("script-src 'self' 'wasm-unsafe-eval'");
    for hash in script_hashes {
        script_src.push_str(" '");
        script_src.push_str(hash);
        script_src.push('\'');
    }
    format!(
        "default-src 'self'; {script_src}; style-src 'self'; style-src-attr 'unsafe-inline'; \
         img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
         frame-ancestors 'none'; form-action 'self'"
    )
}

/// The CSP hash sources (`sha256-<base64>`) of the inline `<script>` elements of `html`, in
/// document order: the exact text between each script's start tag and its `</script>`.
/// Scripts with a `src` attribute are not inline and get none.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    inline_scripts(html)
        .into_iter()
        .map(|text| {
            let digest = Sha256::digest(text.as_bytes());
            format!(
                "sha256-{}",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        })
        .collect()
}

/// The text of the inline scripts of `html`, found the way an HTML parser ends a script
/// element (at the first `</script`, in any case). Comments are skipped.
fn inline_scripts(html: &str) -> Vec<&str> {
    let lower = html.to_ascii_lowercase();
    let mut scripts = Vec::new();
    let mut at = 0;
    while let Some(found) = next_tag(&lower, at) {
        match found {
            Tag::Comment(end) => at = end,
            Tag::ScriptStart(start) => {
                let Some(open_end) = tag_end(&lower, start) else {
                    break;
                };
                let attributes = &lower[start + "<script".len()..open_end];
                let Some(close) = lower[open_end + 1..].find("</script") else {
                    break;
                };
                let body_end = open_end + 1 + close;
                if !has_src(attributes) {
                    scripts.push(&html[open_end + 1..body_end]);
                }
                at = body_end + "</script".len();
            }
        }
    }
    scripts
}

enum Tag {
    /// A comment; scanning goes on after this offset.
    Comment(usize),
    /// A `<script` start tag at this offset.
    ScriptStart(usize),
}

fn next_tag(lower: &str, from: usize) -> Option<Tag> {
    let mut at = from;
    loop {
        let offset = lower.get(at..)?.find('<')? + at;
        let rest = &lower[offset..];
        if rest.starts_with("<!--") {
            let end = rest.find("-->").map_or(lower.len(), |e| offset + e + 3);
            return Some(Tag::Comment(end));
        }
        if rest.starts_with("<script")
            && rest[7..]
                .chars()
                .next()
                .is_some_and(|c| c == '>' || c == '/' || c.is_ascii_whitespace())
        {
            return Some(Tag::ScriptStart(offset));
        }
        at = offset + 1;
    }
}

/// The offset of the `>` ending the start tag at `start`, outside quoted attribute values.
fn tag_end(lower: &str, start: usize) -> Option<usize> {
    let mut quote = None;
    for (i, c) in lower[start..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(start + i),
            _ => {}
        }
    }
    None
}

/// Whether a start tag's attributes (lower case) include `src`.
fn has_src(attributes: &str) -> bool {
    let mut quote = None;
    let mut name = String::new();
    let mut names = Vec::new();
    for c in attributes.chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, c) if c.is_ascii_whitespace() || c == '=' || c == '/' => {
                if !name.is_empty() {
                    names.push(std::mem::take(&mut name));
                }
            }
            (None, c) => name.push(c),
        }
    }
    if !name.is_empty() {
        names.push(name);
    }
    names.iter().any(|n| n == "src")
}

/// Sets `name` to `value` unless the response already has it.
fn default_header(headers: &mut HeaderMap, name: header::HeaderName, value: &'static str) {
    if !headers.contains_key(&name) {
        headers.insert(name, HeaderValue::from_static(value));
    }
}

/// Middleware putting the security headers on every response (keeping a policy its handler
/// chose).
pub async fn add_security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    default_header(headers, header::CONTENT_SECURITY_POLICY, LOCKED_DOWN);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    default_header(headers, header::REFERRER_POLICY, "no-referrer");
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_inline_scripts_only() {
        let html = "<head><!-- <script>not this</script> -->\
            <script>one()</script>\
            <script src=\"/app.js\"></script>\
            <script type=\"module\" data-x='a>b'>\n two()\n</SCRIPT>\
            <scripts>no</scripts><noscript>x</noscript></head>";
        assert_eq!(inline_scripts(html), ["one()", "\n two()\n"]);
        assert!(has_src(" src=/a.js"));
        assert!(!has_src(" data-src=\"x\" type=module"));
        assert!(!has_src(" title=\"src\""));
    }

    #[test]
    fn hashes_as_browsers_do() {
        // `echo -n "alert('Hello, world.');" | openssl dgst -sha256 -binary | base64`, the
        // example of the CSP specification.
        assert_eq!(
            inline_script_hashes("<script>alert('Hello, world.');</script>"),
            ["sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng="]
        );
        let policy = page_policy(&["sha256-abc=".to_owned()]);
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-abc=';"));
        assert!(policy.contains("frame-ancestors 'none'"));
    }
}
