//! Links out of the panel: the platform's page of a run's attempts, and a trial's artifacts,
//! both only to other servers than this one ([`crate::links`]).

use eval_compare_core::client::percent_encode;

use crate::links::other_origin;

/// The platform page of an evaluation run's attempts,
/// `<platform>/<org-key>/evaluate/runs/<id>/trajectories`, with both path segments
/// percent-encoded. `None` without the platform's address (a source setting: the API's address
/// is not the platform's pages), when that address is not another origin than the page's
/// (`page_origin`; a link never leads to this server's own pages), without an organization URL
/// key (the opaque organization id is not one, so no link is guessed) or with an empty or
/// dot-segment value.
///
/// The organization URL key is a public path segment, not the API key: no secret is ever put in
/// a link.
pub fn run_trajectories_url(
    platform: Option<&str>,
    org_key: Option<&str>,
    eval_run_id: &str,
    page_origin: &str,
) -> Option<String> {
    let platform = platform
        .map(|url| url.trim().trim_end_matches('/'))
        .filter(|url| other_origin(url, page_origin))?;
    let org_key = org_key.map(str::trim).filter(|key| is_segment(key))?;
    if !is_segment(eval_run_id) {
        return None;
    }
    Some(format!(
        "{platform}/{}/evaluate/runs/{}/trajectories",
        percent_encode(org_key),
        percent_encode(eval_run_id)
    ))
}

/// Whether a value can be one path segment (dot segments would be removed by URL resolution).
fn is_segment(value: &str) -> bool {
    !value.is_empty() && value != "." && value != ".."
}

/// The address an artifact may be linked to: its `url` when it is an absolute `http`/`https`
/// address on another origin than the page's (`page_origin`, as `location.origin` gives it);
/// `None` for anything else, which is then shown by name only.
///
/// Conservative: an address with credentials (`user@`), a backslash, whitespace, control or
/// non-ASCII characters or a percent-encoded host is not linked, nor one whose port is not a
/// number. The page's own origin is never linked, so an artifact cannot point at the app's pages.
pub fn artifact_href(url: &str, page_origin: &str) -> Option<String> {
    other_origin(url, page_origin).then(|| url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "http://127.0.0.1:8080";

    #[test]
    fn an_external_https_or_http_address_is_linked_as_given() {
        for url in [
            "https://artifacts.example.com/job/tr_1/patch.diff",
            "http://files.example.org:8080/a?b=c#d",
            "HTTPS://Example.com",
            "https://[2001:db8::1]:8443/x",
            "http://127.0.0.1:8081/other-server",
        ] {
            assert_eq!(artifact_href(url, PAGE).as_deref(), Some(url), "{url}");
        }
    }

    #[test]
    fn the_pages_own_origin_is_never_linked() {
        for url in [
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:8080/#/compare?runs=a,b",
            "HTTP://127.0.0.1:8080",
            "http://127.0.0.1.:8080/x",
        ] {
            assert_eq!(artifact_href(url, PAGE), None, "{url}");
        }
        assert_eq!(
            artifact_href("https://eval.example.com/x", "https://eval.example.com"),
            None
        );
        assert_eq!(
            artifact_href("https://eval.example.com:443/x", "https://EVAL.example.com"),
            None,
            "the default port is the same origin"
        );
        assert_eq!(
            artifact_href("http://eval.example.com/x", "https://eval.example.com").as_deref(),
            Some("http://eval.example.com/x"),
            "another scheme is another origin"
        );
    }

    #[test]
    fn other_schemes_relative_and_odd_addresses_are_not_linked() {
        for url in [
            "javascript:alert(1)",
            "JavaScript://example.com/%0aalert(1)",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "/api/v1/artifacts/1",
            "//evil.example.com/x",
            "artifacts/out.log",
            "",
            "https://",
            "https:///path",
            "https://user:pass@example.com/x",
            "https://example.com@127.0.0.1:8080/x",
            "https://example.com\\@127.0.0.1:8080/",
            "https://exa mple.com/",
            " https://example.com/",
            "https://example.com/\n",
            "https://%65xample.com/",
            "https://ex\u{e4}mple.com/",
            "https://example.com:80a/",
            "https://example.com:99999/",
            "https://[::1/",
            "https://[::1]x/",
        ] {
            assert_eq!(artifact_href(url, PAGE), None, "{url:?}");
        }
    }

    #[test]
    fn an_opaque_page_origin_links_every_external_address() {
        assert_eq!(
            artifact_href("https://example.com/x", "null").as_deref(),
            Some("https://example.com/x")
        );
    }

    #[test]
    fn the_link_needs_the_platforms_address_and_an_org_key_and_encodes_both_segments() {
        const PLATFORM: &str = "https://app.example.com/";
        let url = |platform, org, run| run_trajectories_url(platform, org, run, PAGE);
        assert_eq!(url(Some(PLATFORM), None, "eval_base_v2"), None);
        assert_eq!(url(Some(PLATFORM), Some("  "), "eval_base_v2"), None);
        assert_eq!(
            url(None, Some("acme"), "eval_base_v2"),
            None,
            "no platform: no link"
        );
        assert_eq!(
            url(Some(PLATFORM), Some("acme"), "eval_base_v2").as_deref(),
            Some("https://app.example.com/acme/evaluate/runs/eval_base_v2/trajectories")
        );
        assert_eq!(
            url(Some(PLATFORM), Some("a/b c"), "run?x=1#y").as_deref(),
            Some("https://app.example.com/a%2Fb%20c/evaluate/runs/run%3Fx%3D1%23y/trajectories")
        );
        assert_eq!(url(Some(PLATFORM), Some("acme"), ".."), None);
        assert_eq!(url(Some(PLATFORM), Some(".."), "run"), None);
        for own in [
            "http://127.0.0.1:8080",
            "/",
            "javascript:alert(1)",
            "app.example.com",
        ] {
            assert_eq!(url(Some(own), Some("acme"), "run"), None, "{own}");
        }
    }
}
