//! Each reward component's (Chronicle: each scorer's) own paired Δ between the baseline and a
//! candidate, beside the headline: scorers without a threshold are continuous measurements the
//! pass/fail outcome does not show.

use serde::{Deserialize, Serialize};

use crate::model::{ComponentTaskMeans, Run};
use crate::stats::{self, NotComputable, PairedEstimate, Stat};
use crate::text::{
    compact_value, count, interval_value, mean, signed_value, visible, StatText, MISSING,
};

/// One component's paired comparison over the tasks where both runs have a value for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComponentDelta {
    /// Component or scorer name, as given.
    pub name: String,
    /// Its threshold, when it has one (the baseline's first recorded, else the candidate's).
    pub threshold: Option<f64>,
    /// Its weight in the effective reward, when recorded (the baseline's first, else the
    /// candidate's); 0 marks an informative component that does not enter the reward.
    #[serde(default)]
    pub weight: Option<f64>,
    /// Tasks where the baseline has a value for it.
    pub baseline_tasks: usize,
    /// Tasks where the candidate has a value for it.
    pub candidate_tasks: usize,
    /// Δ of the per-task means (candidate − baseline, in the component's own units) over the
    /// tasks both have a value on, with each run's mean and the t and z intervals — the
    /// headline's paired machinery. Its `n` is the number of paired tasks.
    pub estimate: Stat<PairedEstimate>,
}

impl ComponentDelta {
    /// Whether it is informative only: weight 0, it does not enter the reward.
    pub fn is_informative(&self) -> bool {
        self.weight == Some(0.0)
    }
}

/// The column headings of [`component_cells`].
pub const COMPONENT_COLUMNS: [&str; 8] = [
    "Component",
    "Weight",
    "Threshold",
    "Tasks (baseline / candidate / paired)",
    "Baseline mean",
    "Candidate mean",
    "Δ",
    "t interval",
];

/// The cells of one component's row as text, for the page and the markdown alike: name
/// (control characters made visible), weight (0 marked informative), threshold (a scorer with
/// neither a threshold nor a weight only measures), task counts, each run's mean, Δ and its t
/// interval. Without a paired estimate the row says why once, in its first value cell, and
/// the others read "—".
pub fn component_cells(component: &ComponentDelta) -> [String; 8] {
    let paired = component.estimate.as_ref().map_or(0, |e| e.n);
    let [base, cand, delta, interval] = match &component.estimate {
        Ok(e) => [
            mean(e.baseline_mean),
            mean(e.candidate_mean),
            signed_value(e.delta),
            StatText::of(&e.t_interval, interval_value).text(),
        ],
        Err(reason) => {
            let why = match reason {
                NotComputable::NotEnoughData { got: 0, .. } => {
                    format!("{MISSING} (no task has a value in both runs)")
                }
                reason => StatText::missing(reason).text(),
            };
            [
                why,
                MISSING.to_owned(),
                MISSING.to_owned(),
                MISSING.to_owned(),
            ]
        }
    };
    [
        visible(&component.name).into_owned(),
        match component.weight {
            Some(_) if component.is_informative() => "0 (informative)".to_owned(),
            Some(weight) => compact_value(weight),
            None => MISSING.to_owned(),
        },
        match (component.threshold, component.weight) {
            (Some(threshold), _) => mean(threshold),
            // A weighted component enters the reward; a scorer with neither only measures.
            (None, Some(_)) => MISSING.to_owned(),
            (None, None) => format!("{MISSING} (measures only)"),
        },
        format!(
            "{} / {} / {}",
            count(component.baseline_tasks as u64),
            count(component.candidate_tasks as u64),
            count(paired as u64)
        ),
        base,
        cand,
        delta,
        interval,
    ]
}

/// The component deltas of `cand` against `base`: the baseline's components in the order
/// first seen, then those only the candidate has. Per-task means follow
/// [`Run::component_means`] (null values are none, never 0). Empty when neither run has
/// components.
pub fn component_deltas(base: &Run, cand: &Run, level: f64) -> Vec<ComponentDelta> {
    let base_means = base.component_means();
    let cand_means = cand.component_means();
    let mut names: Vec<&str> = base_means.iter().map(|c| c.name.as_str()).collect();
    for component in &cand_means {
        if !names.contains(&component.name.as_str()) {
            names.push(&component.name);
        }
    }
    let find = |means: &'_ [ComponentTaskMeans], name: &str| -> Option<usize> {
        means.iter().position(|c| c.name == name)
    };
    names
        .into_iter()
        .map(|name| {
            let b = find(&base_means, name).and_then(|i| base_means.get(i));
            let c = find(&cand_means, name).and_then(|i| cand_means.get(i));
            let tasks = |side: Option<&ComponentTaskMeans>| {
                side.map_or(0, |side| side.per_task.iter().flatten().count())
            };
            let (mut base_values, mut cand_values) = (Vec::new(), Vec::new());
            if let (Some(b), Some(c)) = (b, c) {
                for (bv, cv) in b.per_task.iter().zip(&c.per_task) {
                    if let (Some(bv), Some(cv)) = (bv, cv) {
                        base_values.push(*bv);
                        cand_values.push(*cv);
                    }
                }
            }
            ComponentDelta {
                name: name.to_owned(),
                threshold: b.and_then(|b| b.threshold).or(c.and_then(|c| c.threshold)),
                weight: b.and_then(|b| b.weight).or(c.and_then(|c| c.weight)),
                baseline_tasks: tasks(b),
                candidate_tasks: tasks(c),
                estimate: stats::paired_estimate(&base_values, &cand_values, level),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        OutcomeClass, RewardComponent, RunIdx, RunInfo, RunSetBuilder, TrajectoryFlags,
        TrajectoryInput,
    };

    fn part(name: &str, value: Option<f64>) -> RewardComponent {
        RewardComponent {
            name: name.to_owned(),
            value,
            scaled_value: None,
            weight: Some(1.0),
            score_range: Some((0.0, 10.0)),
            threshold: None,
            passed: None,
            explanation: None,
        }
    }

    /// Trajectory runs with reward components get the same per-component deltas.
    #[test]
    fn trajectory_components_are_paired_by_task() {
        let mut builder = RunSetBuilder::new();
        let runs: Vec<RunIdx> = ["base", "cand"]
            .iter()
            .map(|id| {
                builder
                    .add_run(RunInfo {
                        id: (*id).to_owned(),
                        ..RunInfo::default()
                    })
                    .unwrap()
            })
            .collect();
        let rows = [
            // (run, trajectory, task, class, tests value, style value)
            (0, "b1", "t1", OutcomeClass::Graded, Some(2.0), Some(1.0)),
            (0, "b2", "t1", OutcomeClass::Graded, Some(4.0), None),
            (0, "b3", "t2", OutcomeClass::Graded, Some(6.0), Some(1.0)),
            (1, "c1", "t1", OutcomeClass::Graded, Some(5.0), Some(2.0)),
            (1, "c2", "t2", OutcomeClass::Graded, Some(8.0), None),
            // A failed attempt's incidental value does not count.
            (1, "c3", "t2", OutcomeClass::Failed, Some(0.0), Some(9.0)),
        ];
        for (run, id, task, class, tests, style) in rows {
            builder
                .add_trajectory(
                    runs[run],
                    TrajectoryInput {
                        id,
                        task: Some(task),
                        class,
                        reward: Some(0.5),
                        ending: None,
                        flags: TrajectoryFlags::NONE,
                        created: None,
                        components: Some(vec![part("tests", tests), part("style", style)]),
                    },
                )
                .unwrap();
        }
        let set = builder.build();
        let deltas = component_deltas(set.run(runs[0]).unwrap(), set.run(runs[1]).unwrap(), 0.95);
        assert_eq!(deltas.len(), 2);
        let tests = &deltas[0];
        assert_eq!(tests.name, "tests");
        let estimate = tests.estimate.as_ref().unwrap();
        // Per task: base 3 and 6, candidate 5 and 8: Δ = 2 on both.
        assert_eq!(
            (estimate.n, estimate.baseline_mean, estimate.delta),
            (2, 4.5, 2.0)
        );
        let style = &deltas[1];
        assert_eq!((style.baseline_tasks, style.candidate_tasks), (2, 1));
        assert_eq!(style.estimate.as_ref().unwrap().n, 1);
        assert!(style.estimate.as_ref().unwrap().t_interval.is_err());
    }

    #[test]
    fn a_rows_cells_mark_informative_components_and_scorers_that_only_measure() {
        let delta = |weight: Option<f64>, threshold: Option<f64>| ComponentDelta {
            name: "lint\u{1b}".to_owned(),
            threshold,
            weight,
            baseline_tasks: 1200,
            candidate_tasks: 3,
            estimate: stats::paired_estimate(&[1.0, 2.0, 4.0], &[2.0, 2.5, 3.0], 0.95),
        };
        let informative = component_cells(&delta(Some(0.0), None));
        assert_eq!(informative[0], "lint\\u{1B}");
        assert_eq!(informative[1..4], ["0 (informative)", "—", "1,200 / 3 / 3"]);
        assert_eq!(informative[4..7], ["2.333", "2.500", "+0.167"]);
        assert!(delta(Some(0.0), None).is_informative());
        let weighted = component_cells(&delta(Some(2.5), None));
        assert_eq!(weighted[1..3], ["2.5", "—"]);
        let scorer = component_cells(&delta(None, Some(0.5)));
        assert_eq!(scorer[1..3], ["—", "0.500"]);
        let measures = component_cells(&delta(None, None));
        assert_eq!(measures[2], "— (measures only)");
        assert_eq!(COMPONENT_COLUMNS.len(), informative.len());
    }

    #[test]
    fn a_row_without_paired_tasks_says_why_once() {
        let unpaired = ComponentDelta {
            name: "diff_lines".to_owned(),
            threshold: None,
            weight: None,
            baseline_tasks: 0,
            candidate_tasks: 240,
            estimate: stats::paired_estimate(&[], &[], 0.95),
        };
        let cells = component_cells(&unpaired);
        assert_eq!(cells[3], "0 / 240 / 0");
        assert_eq!(
            cells[4..],
            ["— (no task has a value in both runs)", "—", "—", "—"]
        );
        let one = ComponentDelta {
            estimate: stats::paired_estimate(&[1.0], &[2.0], 0.95),
            ..unpaired
        };
        let cells = component_cells(&one);
        assert_eq!(cells[4..7], ["1.000", "2.000", "+1.000"]);
        assert_eq!(
            cells
                .iter()
                .filter(|cell| cell.contains("not enough data"))
                .count(),
            1,
            "{cells:?}"
        );
    }

    #[test]
    fn runs_without_components_have_no_deltas() {
        let mut builder = RunSetBuilder::new();
        let a = builder.add_run(RunInfo::default()).unwrap();
        let set = builder.build();
        let run = set.run(a).unwrap();
        assert!(component_deltas(run, run, 0.95).is_empty());
    }
}
