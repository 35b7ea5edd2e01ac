//! Trajectories by outcome: one horizontal bar per run split by outcome class, widths
//! proportional to the counts, with the colour key. The bar's parts are shaped by
//! [`outcome_bar`] (tested natively).

use eval_compare_core::coverage::RunCoverage;
use eval_compare_core::model::OutcomeClass;
use leptos::prelude::*;

use crate::components::stat_text::count;

/// CSS modifier of an outcome class (its colour).
pub fn class_modifier(class: OutcomeClass) -> &'static str {
    match class {
        OutcomeClass::Graded => "outcome-graded",
        OutcomeClass::Ungraded => "outcome-ungraded",
        OutcomeClass::CutOff => "outcome-cut-off",
        OutcomeClass::ModelEnding => "outcome-model-ending",
        OutcomeClass::Failed => "outcome-failed",
        OutcomeClass::Cancelled => "outcome-cancelled",
        OutcomeClass::Unfinished => "outcome-unfinished",
        OutcomeClass::Other => "outcome-other",
    }
}

/// One class's segment of a bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// The outcome class.
    pub class: OutcomeClass,
    /// Its share of the run's trajectories, in percent.
    pub width: f64,
    /// Its tooltip: the class, the count and the share.
    pub title: String,
}

/// A run's bar: its accessible label (every count in words) and one segment per class present.
pub fn outcome_bar(run: &RunCoverage, name: &str) -> (String, Vec<Segment>) {
    let total = run.samples_total;
    let parts: Vec<(OutcomeClass, u64)> = OutcomeClass::ALL
        .into_iter()
        .map(|class| (class, u64::from(run.samples.get(class))))
        .filter(|(_, n)| *n > 0)
        .collect();
    let described = parts
        .iter()
        .map(|(class, n)| format!("{} {}", count(*n), class.label()))
        .collect::<Vec<_>>()
        .join(", ");
    let label = format!("{name}: {} trajectories: {described}", count(total));
    let segments = parts
        .into_iter()
        .map(|(class, n)| {
            let width = if total > 0 {
                n as f64 * 100.0 / total as f64
            } else {
                0.0
            };
            let share = format!("{:.1}%", width);
            Segment {
                class,
                width,
                title: format!("{}: {} ({share})", class.label(), count(n)),
            }
        })
        .collect();
    (label, segments)
}

/// The colour key of the outcome bars.
#[component]
pub fn OutcomeLegend() -> impl IntoView {
    let items = OutcomeClass::ALL
        .into_iter()
        .map(|class| {
            view! {
                <li>
                    <span class=format!("swatch {}", class_modifier(class)) aria-hidden="true"></span>
                    {class.label()}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="legend" aria-label="Outcome classes">{items}</ul> }
}

/// A horizontal bar of one run's trajectories split by outcome class; the counts are in its
/// label and in each segment's tooltip.
#[component]
pub fn OutcomeBar(run: RunCoverage, name: String) -> impl IntoView {
    let (label, segments) = outcome_bar(&run, &name);
    let segments = segments
        .into_iter()
        .map(|segment| {
            view! {
                <span
                    class=format!("segment {}", class_modifier(segment.class))
                    style=format!("width: {:.3}%", segment.width)
                    title=segment.title
                ></span>
            }
        })
        .collect_view();
    view! {
        <div class="outcome-row">
            <span class="outcome-name">{name.clone()}</span>
            <div class="outcome-bar" role="img" aria-label=label>{segments}</div>
            <span class="outcome-total">{count(run.samples_total)}</span>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::model::{ClassCounts, RunIdx};

    fn run(samples: ClassCounts) -> RunCoverage {
        RunCoverage {
            run: RunIdx(0),
            run_id: "er_1".to_owned(),
            name: "Base".to_owned(),
            tasks_selected: None,
            tasks_attempted: 0,
            tasks_scored: 0,
            tasks_by_class: ClassCounts::default(),
            tasks_absent: 0,
            samples_total: samples.total(),
            samples,
            samples_valid: 0,
            samples_expected: None,
            invalid_rewards: 0,
            zero_by_platform_rule: 0,
            zero_without_grade: 0,
            without_task: 0,
            join: None,
            incomplete_load: None,
            set_aside: None,
        }
    }

    #[test]
    fn a_bar_has_a_segment_per_class_present_in_proportion() {
        let (label, segments) = outcome_bar(
            &run(ClassCounts {
                graded: 3,
                failed: 1,
                ..ClassCounts::default()
            }),
            "Base",
        );
        assert_eq!(label, "Base: 4 trajectories: 3 graded, 1 failed");
        assert_eq!(
            segments,
            [
                Segment {
                    class: OutcomeClass::Graded,
                    width: 75.0,
                    title: "graded: 3 (75.0%)".to_owned(),
                },
                Segment {
                    class: OutcomeClass::Failed,
                    width: 25.0,
                    title: "failed: 1 (25.0%)".to_owned(),
                },
            ]
        );
    }

    #[test]
    fn a_run_without_trajectories_has_an_empty_bar() {
        let (label, segments) = outcome_bar(&run(ClassCounts::default()), "Empty");
        assert_eq!(label, "Empty: 0 trajectories: ");
        assert!(segments.is_empty());
    }
}
