//! The settings form's rules and words: a typed setting checked as the URL codec reads it, and
//! the status line under the form. Plain functions, tested natively.

use eval_compare_core::client::percent_encode;
use eval_compare_core::view_state::ViewState;

use crate::components::stat_text::count;
use crate::state::report::ReportTimings;

/// Checks one setting as the URL codec would read it: the value, or why it is refused.
fn check_setting(param: &str, typed: &str) -> Result<ViewState, String> {
    let parsed = ViewState::from_query(&format!("{param}={}", percent_encode(typed.trim())));
    match parsed.issues.into_iter().next() {
        Some(issue) => Err(issue.reason),
        None => Ok(parsed.state),
    }
}

/// What the settings form holds, as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypedSettings<'a> {
    /// Bootstrap seed.
    pub seed: &'a str,
    /// Bootstrap resamples B.
    pub resamples: &'a str,
    /// Confidence level in percent.
    pub level: &'a str,
    /// Target Δ in points (at most one decimal).
    pub target: &'a str,
    /// K′; empty for the automatic one.
    pub k_prime: &'a str,
}

/// `view` with the settings as typed in the form, or why the first refused one is refused,
/// named by its field. An empty K′ is the automatic one (max(8, 2 × the samples per task)).
pub fn apply_settings(view: &ViewState, typed: TypedSettings<'_>) -> Result<ViewState, String> {
    let mut next = view.clone();
    next.seed = check_setting("seed", typed.seed)
        .map_err(|why| format!("Seed: {why}"))?
        .seed;
    next.resamples = check_setting("B", typed.resamples)
        .map_err(|why| format!("Resamples: {why}"))?
        .resamples;
    next.confidence_percent = check_setting("ci", typed.level)
        .map_err(|why| format!("Confidence level: {why}"))?
        .confidence_percent;
    next.target_tenths = check_setting("target", typed.target)
        .map_err(|why| format!("Target Δ: {why}"))?
        .target_tenths;
    next.project_samples = if typed.k_prime.trim().is_empty() {
        None
    } else {
        check_setting("kprime", typed.k_prime)
            .map_err(|why| format!("K′: {why}"))?
            .project_samples
    };
    Ok(next)
}

/// The line under the settings: how far the bootstrap being computed is (`drawing`, the share
/// of its resamples drawn), or how long the report took.
pub fn settings_status(
    drawing: Option<f64>,
    resamples: u32,
    timings: Option<ReportTimings>,
) -> String {
    match (drawing, timings) {
        (Some(share), _) => format!(
            "Computing the bootstrap (B = {}): {:.0}% drawn…",
            count(u64::from(resamples)),
            (100.0 * share).clamp(0.0, 100.0).floor()
        ),
        (
            None,
            Some(ReportTimings {
                first_ms,
                full_ms: Some(full_ms),
                ..
            }),
        ) => format!(
            "Computed in this browser: {first_ms:.0} ms without the bootstrap, then {full_ms:.0} ms drawing it (B = {}).",
            count(u64::from(resamples))
        ),
        (None, Some(ReportTimings { first_ms, .. })) => {
            format!("Computed in this browser in {first_ms:.0} ms.")
        }
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_settings_are_applied_when_the_url_codec_accepts_them() {
        let view = ViewState::default();
        let typed = TypedSettings {
            seed: " 7 ",
            resamples: "2000",
            level: "90",
            target: "2.5",
            k_prime: " 16",
        };
        let next = apply_settings(&view, typed).expect("valid settings");
        assert_eq!(
            (
                next.seed,
                next.resamples,
                next.confidence_percent,
                next.target_tenths,
                next.project_samples
            ),
            (7, 2000, 90, 25, Some(16))
        );
        let automatic = apply_settings(
            &next,
            TypedSettings {
                k_prime: "",
                ..typed
            },
        )
        .expect("an empty K′ is the automatic one");
        assert_eq!(automatic.project_samples, None);
        assert_eq!(
            ViewState {
                seed: view.seed,
                resamples: view.resamples,
                confidence_percent: view.confidence_percent,
                target_tenths: view.target_tenths,
                project_samples: view.project_samples,
                ..next
            },
            view,
            "nothing else changes"
        );
    }

    #[test]
    fn the_first_refused_setting_is_named() {
        let view = ViewState::default();
        let refused = |seed, resamples, level, target, k_prime| {
            apply_settings(
                &view,
                TypedSettings {
                    seed,
                    resamples,
                    level,
                    target,
                    k_prime,
                },
            )
            .expect_err("refused")
        };
        assert!(refused("x", "y", "z", "2", "").starts_with("Seed: "));
        assert!(refused("1", "y", "z", "2", "").starts_with("Resamples: "));
        assert!(refused("1", "2000", "120", "2", "").starts_with("Confidence level: "));
        assert!(refused("1", "2000", "95", "0", "").starts_with("Target Δ: "));
        assert!(refused("1", "2000", "95", "2.25", "").starts_with("Target Δ: "));
        assert!(refused("1", "2000", "95", "2", "0").starts_with("K′: "));
    }

    #[test]
    fn the_status_says_what_is_computing_or_how_long_it_took() {
        let first = ReportTimings {
            first_at_ms: 10.0,
            first_ms: 12.4,
            full_ms: None,
            full_at_ms: None,
        };
        assert_eq!(
            settings_status(Some(0.0), 10_000, Some(first)),
            "Computing the bootstrap (B = 10,000): 0% drawn…"
        );
        assert_eq!(
            settings_status(Some(0.996), 10_000, Some(first)),
            "Computing the bootstrap (B = 10,000): 99% drawn…"
        );
        assert_eq!(
            settings_status(None, 10_000, Some(first)),
            "Computed in this browser in 12 ms."
        );
        let full = ReportTimings {
            full_ms: Some(840.6),
            full_at_ms: Some(900.0),
            ..first
        };
        assert_eq!(
            settings_status(None, 2_000, Some(full)),
            "Computed in this browser: 12 ms without the bootstrap, then 841 ms drawing it (B = 2,000)."
        );
        assert_eq!(settings_status(None, 2_000, None), "");
    }
}
