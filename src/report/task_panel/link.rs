//! Links to the platform's own pages of a run.

use eval_compare_core::client::percent_encode;

/// The platform page of an evaluation run's attempts, `/<org-key>/evaluate/runs/<id>/trajectories`,
/// with both path segments percent-encoded. `None` without an organization URL key (the opaque
/// organization id is not one, so no link is guessed) or with an empty or dot-segment value.
///
/// The organization URL key is a public path segment, not the API key: no secret is ever put in
/// a link.
pub fn run_trajectories_path(org_key: Option<&str>, eval_run_id: &str) -> Option<String> {
    let org_key = org_key.map(str::trim).filter(|key| is_segment(key))?;
    if !is_segment(eval_run_id) {
        return None;
    }
    Some(format!(
        "/{}/evaluate/runs/{}/trajectories",
        percent_encode(org_key),
        percent_encode(eval_run_id)
    ))
}

/// Whether a value can be one path segment (dot segments would be removed by URL resolution).
fn is_segment(value: &str) -> bool {
    !value.is_empty() && value != "." && value != ".."
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_needs_an_org_key_and_encodes_both_segments() {
        assert_eq!(run_trajectories_path(None, "eval_base_v2"), None);
        assert_eq!(run_trajectories_path(Some("  "), "eval_base_v2"), None);
        assert_eq!(
            run_trajectories_path(Some("acme"), "eval_base_v2").as_deref(),
            Some("/acme/evaluate/runs/eval_base_v2/trajectories")
        );
        assert_eq!(
            run_trajectories_path(Some("a/b c"), "run?x=1#y").as_deref(),
            Some("/a%2Fb%20c/evaluate/runs/run%3Fx%3D1%23y/trajectories")
        );
        assert_eq!(run_trajectories_path(Some("acme"), ".."), None);
        assert_eq!(run_trajectories_path(Some(".."), "run"), None);
    }
}
