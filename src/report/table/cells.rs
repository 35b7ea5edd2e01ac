//! Cells of the per-task table: a run's mean with its sample counts and badges, and a delta.

use eval_compare_core::report::TaskCell;
use eval_compare_core::text::{minus_sign, points};
use leptos::prelude::*;

use super::badges::CompactBadges;
use crate::format;

/// A run's cell on a task it never ran: no mean, no sample (for the tests of the cells' words).
#[cfg(test)]
pub(crate) fn never_run_cell() -> TaskCell {
    TaskCell {
        mean: None,
        included: 0,
        samples: 0,
        classes: eval_compare_core::model::ClassCounts::default(),
        zero_by_platform_rule: 0,
        invalid_rewards: 0,
        flaky: false,
    }
}

/// A delta in points as the headline writes it, with its sign (`+25.0`, `−12.5`, `0.0`), or
/// `unpaired`.
pub fn delta_text(delta: Option<f64>) -> String {
    match delta {
        Some(value) if value > 0.0 => format!("+{}", points(value)),
        Some(value) if value < 0.0 => minus_sign(format!("-{}", points(-value))),
        Some(_) => "0.0".to_owned(),
        None => "unpaired".to_owned(),
    }
}

/// CSS class of a delta cell: colored by sign, muted when unpaired.
pub fn delta_class(delta: Option<f64>) -> &'static str {
    match delta {
        Some(value) if value > 0.0 => "delta delta-up",
        Some(value) if value < 0.0 => "delta delta-down",
        Some(_) => "delta delta-zero",
        None => "delta delta-unpaired",
    }
}

/// `included/total`, e.g. `2/3`, with what it means for the tooltip.
pub fn samples_text(cell: &TaskCell) -> (String, String) {
    (
        format!("{}/{}", cell.included, cell.samples),
        format!(
            "{} of {} trajectories included in the mean",
            cell.included, cell.samples
        ),
    )
}

/// One run on one task: the mean of its included samples, `included/total` and the outcome
/// badges (summarized when more than fit). A run that never attempted the task says so.
#[component]
pub fn RunCellView(
    /// The run's cell on the task, from the report.
    cell: TaskCell,
) -> impl IntoView {
    if cell.samples == 0 {
        return view! { <span class="muted">"not run"</span> }.into_any();
    }
    let (samples, samples_title) = samples_text(&cell);
    view! {
        <span class="cell-line">
            <span class="cell-mean">{format::reward_mean(cell.mean)}</span>
            <span class="cell-samples" title=samples_title>{samples}</span>
        </span>
        <span class="cell-badges">
            <CompactBadges cell/>
        </span>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_are_in_points_with_their_sign() {
        assert_eq!(delta_text(Some(0.25)), "+25.0");
        assert_eq!(delta_text(Some(-0.125)), "\u{2212}12.5");
        assert_eq!(delta_text(Some(0.0)), "0.0");
        // The sign is the delta's, even where the rounding shows no digit.
        assert_eq!(delta_text(Some(0.0004)), "+0.0");
        assert_eq!(delta_text(Some(-0.0004)), "\u{2212}0.0");
        assert_eq!(delta_text(None), "unpaired");
    }
}
