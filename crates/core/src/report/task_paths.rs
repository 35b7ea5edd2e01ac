//! A task's path across checkpoints: at each step the task is better than the baseline, the
//! same, or worse (its paired Δ there, rounded as wins, ties and losses are: 1e-9), and the path
//! is classified by one rule, written down in `docs/statistics.md` ("A task's path across
//! checkpoints"). Steps where the task has no paired Δ (not scored there) are skipped.
//!
//! In order, the first that holds:
//! 1. steady: the same state at every step (not listed);
//! 2. regressed from N: worse at every step from N on and at no step before N;
//! 3. improved from N: better at every step from N on and at no step before N;
//! 4. fixed at F, lost at L: better at the steps F up to L (excluded) only, never worse, and L
//!    is a later step where it is not better;
//! 5. broken at B, recovered at R: the same with worse and better swapped;
//! 6. flipping: any other path, with how many times its state changes.

use serde::{Deserialize, Serialize};

use crate::text::plural;

use super::{ProgressionPoint, TaskRow};

/// A task's state at one step, against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepState {
    /// Its paired Δ is above 0.
    Better,
    /// Its paired Δ is 0.
    Same,
    /// Its paired Δ is below 0.
    Worse,
}

impl StepState {
    /// The state of a paired Δ (already rounded to 1e-9, as the task rows hold it).
    pub fn of(delta: f64) -> StepState {
        if delta > 0.0 {
            StepState::Better
        } else if delta < 0.0 {
            StepState::Worse
        } else {
            StepState::Same
        }
    }

    fn mirrored(self) -> StepState {
        match self {
            StepState::Better => StepState::Worse,
            StepState::Same => StepState::Same,
            StepState::Worse => StepState::Better,
        }
    }
}

/// How a task's state changes across the checkpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PathKind {
    /// Worse than the baseline at every step from `step` on, at no step before.
    RegressedFrom {
        /// The first worse step.
        step: i64,
    },
    /// Better than the baseline at every step from `step` on, at no step before.
    ImprovedFrom {
        /// The first better step.
        step: i64,
    },
    /// Better at the steps from `fixed` up to `lost` only, never worse.
    FixedThenLost {
        /// The first better step.
        fixed: i64,
        /// The first later step where it is not better.
        lost: i64,
    },
    /// Worse at the steps from `broken` up to `recovered` only, never better.
    BrokenThenRecovered {
        /// The first worse step.
        broken: i64,
        /// The first later step where it is not worse.
        recovered: i64,
    },
    /// Any other path: its state changes back and forth.
    Flipping {
        /// How many times the state changes from one step to the next.
        changes: usize,
    },
}

impl PathKind {
    /// The path in words, e.g. "worse than the baseline from step 300 on".
    pub fn words(&self) -> String {
        match self {
            PathKind::RegressedFrom { step } => {
                format!("worse than the baseline from step {step} on")
            }
            PathKind::ImprovedFrom { step } => {
                format!("better than the baseline from step {step} on")
            }
            PathKind::FixedThenLost { fixed, lost } => {
                format!("better from step {fixed}, lost at step {lost}")
            }
            PathKind::BrokenThenRecovered { broken, recovered } => {
                format!("worse from step {broken}, recovered at step {recovered}")
            }
            PathKind::Flipping { changes } => format!(
                "flips back and forth ({})",
                plural(*changes as u64, "change", "changes")
            ),
        }
    }

    /// The kind with better and worse swapped (what the rule gives for mirrored states).
    pub fn mirrored(self) -> PathKind {
        match self {
            PathKind::RegressedFrom { step } => PathKind::ImprovedFrom { step },
            PathKind::ImprovedFrom { step } => PathKind::RegressedFrom { step },
            PathKind::FixedThenLost { fixed, lost } => PathKind::BrokenThenRecovered {
                broken: fixed,
                recovered: lost,
            },
            PathKind::BrokenThenRecovered { broken, recovered } => PathKind::FixedThenLost {
                fixed: broken,
                lost: recovered,
            },
            flipping @ PathKind::Flipping { .. } => flipping,
        }
    }
}

/// A task whose state changes across the checkpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskPath {
    /// Index in [`Report::tasks`](super::Report::tasks) (its cells hold each step's mean).
    pub task: usize,
    /// How it changes.
    pub kind: PathKind,
}

/// The path of states at `steps` (ascending, one state each; steps without a state left out):
/// `None` when it never changes.
pub fn classify(steps: &[(i64, StepState)]) -> Option<PathKind> {
    let changes = steps.windows(2).filter(|w| w[0].1 != w[1].1).count();
    if changes == 0 {
        return None;
    }
    if let Some(step) = settled_from(steps, StepState::Worse) {
        return Some(PathKind::RegressedFrom { step });
    }
    if let Some(step) = settled_from(steps, StepState::Better) {
        return Some(PathKind::ImprovedFrom { step });
    }
    if let Some((fixed, lost)) = one_stretch(steps, StepState::Better) {
        return Some(PathKind::FixedThenLost { fixed, lost });
    }
    if let Some((broken, recovered)) = one_stretch(steps, StepState::Worse) {
        return Some(PathKind::BrokenThenRecovered { broken, recovered });
    }
    Some(PathKind::Flipping { changes })
}

/// The first step of `state` when the steps in that state are exactly a final stretch that does
/// not start at the first step.
fn settled_from(steps: &[(i64, StepState)], state: StepState) -> Option<i64> {
    let first = steps.iter().position(|&(_, s)| s == state)?;
    let all_after = steps[first..].iter().all(|&(_, s)| s == state);
    (first > 0 && all_after).then(|| steps[first].0)
}

/// (first step, first step after) of the one stretch in `state`, when the steps in that state
/// are one stretch followed by at least one step, and no step is in the opposite state.
fn one_stretch(steps: &[(i64, StepState)], state: StepState) -> Option<(i64, i64)> {
    if steps.iter().any(|&(_, s)| s == state.mirrored()) {
        return None;
    }
    let first = steps.iter().position(|&(_, s)| s == state)?;
    let length = steps[first..]
        .iter()
        .take_while(|&&(_, s)| s == state)
        .count();
    let after = steps.get(first + length)?;
    let again = steps[first + length..].iter().any(|&(_, s)| s == state);
    (!again).then_some((steps[first].0, after.0))
}

/// The tasks of `rows` whose state changes across `points` (the checkpoints by ascending step;
/// a point's `run` is its index in the report's runs, its Δ the row's `deltas[run - 1]`), in
/// task order.
pub fn task_paths(rows: &[TaskRow], points: &[ProgressionPoint]) -> Vec<TaskPath> {
    let mut steps = Vec::with_capacity(points.len());
    rows.iter()
        .enumerate()
        .filter_map(|(task, row)| {
            steps.clear();
            steps.extend(points.iter().filter_map(|point| {
                let delta = row
                    .deltas
                    .get(point.run.checked_sub(1)?)
                    .copied()
                    .flatten()?;
                Some((point.step, StepState::of(delta)))
            }));
            Some(TaskPath {
                task,
                kind: classify(&steps)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::StepState::{Better as B, Same as S, Worse as W};
    use super::*;

    fn path(states: &[StepState]) -> Option<PathKind> {
        let steps: Vec<(i64, StepState)> = states
            .iter()
            .enumerate()
            .map(|(i, &s)| (100 * (i as i64 + 1), s))
            .collect();
        classify(&steps)
    }

    #[test]
    fn each_kind_of_path_is_named() {
        assert_eq!(path(&[S, S, S]), None);
        assert_eq!(path(&[W, W]), None, "worse throughout never changes");
        assert_eq!(path(&[]), None);
        assert_eq!(
            path(&[S, S, W, W, W]),
            Some(PathKind::RegressedFrom { step: 300 })
        );
        assert_eq!(
            path(&[B, S, W]),
            Some(PathKind::RegressedFrom { step: 300 })
        );
        assert_eq!(path(&[S, B]), Some(PathKind::ImprovedFrom { step: 200 }));
        assert_eq!(
            path(&[S, S, S, B, S]),
            Some(PathKind::FixedThenLost {
                fixed: 400,
                lost: 500
            })
        );
        assert_eq!(
            path(&[B, S]),
            Some(PathKind::FixedThenLost {
                fixed: 100,
                lost: 200
            })
        );
        assert_eq!(
            path(&[W, W, S]),
            Some(PathKind::BrokenThenRecovered {
                broken: 100,
                recovered: 300
            })
        );
        assert_eq!(path(&[B, W, B]), Some(PathKind::Flipping { changes: 2 }));
        assert_eq!(
            path(&[S, B, S, B, S]),
            Some(PathKind::Flipping { changes: 4 })
        );
        assert_eq!(
            PathKind::RegressedFrom { step: 300 }.words(),
            "worse than the baseline from step 300 on"
        );
        assert_eq!(
            PathKind::FixedThenLost {
                fixed: 400,
                lost: 500
            }
            .words(),
            "better from step 400, lost at step 500"
        );
        assert_eq!(
            PathKind::Flipping { changes: 3 }.words(),
            "flips back and forth (3 changes)"
        );
    }

    #[test]
    fn a_task_without_a_delta_at_a_step_skips_that_step() {
        let cell = super::super::TaskCell {
            mean: Some(0.5),
            included: 1,
            samples: 1,
            classes: Default::default(),
            zero_by_platform_rule: 0,
            invalid_rewards: 0,
            flaky: false,
        };
        let row = |deltas: Vec<Option<f64>>| TaskRow {
            task_id: "t".into(),
            label: None,
            categories: Vec::new(),
            cells: vec![cell.clone(); deltas.len() + 1],
            deltas,
        };
        let point = |step: i64, run: usize| ProgressionPoint {
            step,
            run,
            mean: None,
            interval: Err(crate::stats::NotComputable::NotEnoughData { needed: 2, got: 0 }),
            delta: None,
            delta_interval: Err(crate::stats::NotComputable::NotEnoughData { needed: 2, got: 0 }),
            provisional: false,
        };
        // Candidates in the report's order 300, 100, 200; points by step.
        let points = [point(100, 2), point(200, 3), point(300, 1)];
        let rows = [
            row(vec![Some(-0.5), Some(0.0), None]),
            row(vec![Some(0.0), Some(0.0), Some(0.0)]),
            row(vec![Some(0.25), Some(-0.25), Some(0.25)]),
        ];
        let paths = task_paths(&rows, &points);
        assert_eq!(
            paths,
            [
                TaskPath {
                    task: 0,
                    kind: PathKind::RegressedFrom { step: 300 }
                },
                TaskPath {
                    task: 2,
                    kind: PathKind::ImprovedFrom { step: 200 }
                },
            ]
        );
    }
}
