//! What the checkpoint panel says beside the core's shared words: the choice of the step every
//! checkpoint is compared with, the pass threshold typed in, and how many paths are shown.

use eval_compare_core::report::Report;
use eval_compare_core::view_state::{parse_thousandths, ViewState, PASS_THOUSANDTHS_RANGE};

/// The most task paths the panel lists; the task table's "Changing by step" filter shows all.
pub const SHOWN_PATHS: usize = 50;

/// The steps the user may compare every checkpoint with: the progression's.
pub fn chosen_step_options(report: &Report) -> Vec<i64> {
    report
        .progression
        .iter()
        .flat_map(|p| p.points.iter().map(|point| point.step))
        .collect()
}

/// `view` comparing every checkpoint with `step` too (an empty or unknown choice clears it).
pub fn with_versus_step(view: &ViewState, choice: &str) -> ViewState {
    ViewState {
        versus_step: choice.parse::<i64>().ok(),
        ..view.clone()
    }
}

/// `view` with the pass threshold typed in `text` (empty: off); an error says why a value is
/// refused, and the view is then left as it was.
pub fn with_pass_threshold(view: &ViewState, text: &str) -> Result<ViewState, String> {
    let text = text.trim();
    let pass_thousandths = if text.is_empty() {
        None
    } else {
        Some(
            parse_thousandths(text)
                .filter(|t| PASS_THOUSANDTHS_RANGE.contains(t))
                .ok_or_else(|| {
                    format!(
                        "`{text}` is not a pass threshold from 0.001 to 1 (at most three decimals)"
                    )
                })?,
        )
    };
    Ok(ViewState {
        pass_thousandths,
        ..view.clone()
    })
}

/// "Showing 50 of 120 tasks; the task table's filter “Changing by step” shows them all."
pub fn shown_paths_line(total: usize) -> Option<String> {
    (total > SHOWN_PATHS).then(|| {
        format!(
            "Showing {SHOWN_PATHS} of {total} tasks; the task table's filter “Changing by step” shows them all."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_threshold_is_read_or_refused() {
        let view = ViewState::default();
        assert_eq!(
            with_pass_threshold(&view, " 0.7 ").map(|v| v.pass_thousandths),
            Ok(Some(700))
        );
        assert_eq!(
            with_pass_threshold(&view, "").map(|v| v.pass_thousandths),
            Ok(None)
        );
        assert!(with_pass_threshold(&view, "0").is_err());
        assert!(with_pass_threshold(&view, "1.5").is_err());
        assert!(with_pass_threshold(&view, "abc").is_err());
    }

    #[test]
    fn the_chosen_step_and_the_paths_line() {
        let view = ViewState::default();
        assert_eq!(with_versus_step(&view, "300").versus_step, Some(300));
        assert_eq!(with_versus_step(&view, "").versus_step, None);
        assert_eq!(shown_paths_line(10), None);
        assert!(shown_paths_line(120).is_some_and(|line| line.contains("50 of 120")));
    }
}
