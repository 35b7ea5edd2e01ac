//! A pass threshold for graded rewards: each valid reward `r` becomes a pass (1) when
//! `r ≥ threshold`, else a fail (0), before anything is computed. The report of the thresholded
//! runs is then about pass rates, and what only exists for 0/1 rewards exists for continuous
//! ones too: pass@k and pass^k, McNemar and Tango's interval (one sample per task), flaky tasks
//! (samples that disagree), wins and losses as flips. The rule is in `docs/statistics.md`
//! ("A pass threshold for graded rewards").
//!
//! Only valid rewards change: a trajectory without a reward keeps its outcome class (failed,
//! ungraded, cancelled… keep what the analyses do with them; a cut-off scored 0 by the platform
//! rule fails), an invalid reward stays invalid. Thresholding is idempotent: a set already
//! thresholded at `t` is unchanged by it (0 and 1 stay 0 and 1 for any `t` in (0, 1]).

use crate::model::{ModelError, RewardState, RunSet, RunSetBuilder, TaskInput, TrajectoryInput};

use super::ReportError;

/// Refuses a threshold outside (0, 1]: at 0 every graded sample would pass.
pub fn check_pass_threshold(threshold: f64) -> Result<(), ReportError> {
    if threshold.is_finite() && threshold > 0.0 && threshold <= 1.0 {
        Ok(())
    } else {
        Err(ReportError::InvalidSetting(format!(
            "the pass threshold {threshold} must lie in (0, 1]: a reward at or above it passes"
        )))
    }
}

/// Whether a valid reward passes at `threshold`: 1 when `reward ≥ threshold`, else 0.
pub fn pass_value(reward: f64, threshold: f64) -> f64 {
    if reward >= threshold {
        1.0
    } else {
        0.0
    }
}

/// `set` with every valid reward of every run scored pass (1) or fail (0) at `threshold`: the
/// same runs, tasks and categories in the same order, the same trajectories and outcome classes.
pub fn apply_pass_threshold(set: &RunSet, threshold: f64) -> Result<RunSet, ModelError> {
    let mut builder = RunSetBuilder::new();
    for task in set.tasks() {
        builder.add_task(TaskInput {
            id: task.id.clone(),
            ..TaskInput::default()
        })?;
    }
    for run in set.runs() {
        let new_run = builder.add_run(run.info().clone())?;
        if let Some(join) = run.join() {
            builder.set_join_report(new_run, join.clone())?;
        }
        for trajectory in run.trajectories() {
            let reward = match RewardState::from_reward(trajectory.reward) {
                RewardState::Valid(value) => Some(pass_value(value, threshold)),
                _ => trajectory.reward,
            };
            let task = trajectory
                .task
                .and_then(|task| set.task(task))
                .map(|task| task.id.as_str());
            builder.add_trajectory(
                new_run,
                TrajectoryInput {
                    id: trajectory.id,
                    task,
                    class: trajectory.class,
                    reward,
                    ending: trajectory.ending,
                    flags: trajectory.flags,
                    created: trajectory.created,
                    components: trajectory.components.map(<[_]>::to_vec),
                },
            )?;
        }
    }
    let mut rebuilt = builder.build();
    rebuilt.take_set_facts(set);
    Ok(rebuilt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{OutcomeClass, RunInfo, RunSetBuilder, TaskInput, TrajectoryFlags};

    fn set(rows: &[(&str, OutcomeClass, Option<f64>)]) -> RunSet {
        let mut builder = RunSetBuilder::new();
        for task in ["a", "b"] {
            builder
                .add_task(TaskInput {
                    id: task.into(),
                    label: Some(format!("Task {task}")),
                    ..TaskInput::default()
                })
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let run = builder
            .add_run(RunInfo {
                id: "r".into(),
                ..RunInfo::default()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        for (i, (task, class, reward)) in rows.iter().enumerate() {
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &format!("x{i}"),
                        task: Some(task),
                        class: *class,
                        reward: *reward,
                        ending: None,
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .unwrap_or_else(|e| panic!("{e}"));
        }
        builder.build()
    }

    fn rewards(set: &RunSet) -> Vec<Option<f64>> {
        set.runs()[0].trajectories().map(|t| t.reward).collect()
    }

    #[test]
    fn valid_rewards_pass_at_or_above_the_threshold_and_the_rest_is_kept() {
        let g = OutcomeClass::Graded;
        let original = set(&[
            ("a", g, Some(0.7)),
            ("a", g, Some(0.69999)),
            ("b", g, Some(1.0)),
            ("b", g, Some(0.0)),
            ("b", OutcomeClass::Failed, None),
            ("b", g, Some(f64::NAN)),
        ]);
        let thresholded = apply_pass_threshold(&original, 0.7).unwrap_or_else(|e| panic!("{e}"));
        let got = rewards(&thresholded);
        assert_eq!(got[..4], [Some(1.0), Some(0.0), Some(1.0), Some(0.0)]);
        assert_eq!(got[4], None, "no reward stays no reward");
        assert!(
            got[5].is_some_and(f64::is_nan),
            "an invalid reward stays invalid"
        );
        assert_eq!(
            thresholded.runs()[0].trajectories().nth(4).map(|t| t.class),
            Some(OutcomeClass::Failed)
        );
        assert_eq!(thresholded.tasks()[0].label.as_deref(), Some("Task a"));
        assert!(thresholded.runs()[0].totals().binary);
        let again = apply_pass_threshold(&thresholded, 0.7).unwrap_or_else(|e| panic!("{e}"));
        let twice = rewards(&again);
        assert_eq!(twice[..5], got[..5], "thresholding twice changes nothing");
    }

    #[test]
    fn a_threshold_outside_0_to_1_is_refused() {
        assert!(check_pass_threshold(0.5).is_ok());
        assert!(check_pass_threshold(1.0).is_ok());
        for bad in [0.0, -0.1, 1.01, f64::NAN, f64::INFINITY] {
            assert!(check_pass_threshold(bad).is_err(), "{bad}");
        }
    }
}
