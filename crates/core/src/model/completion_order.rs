//! The order paired tasks completed in, for the anytime-valid confidence sequence: fed in that
//! order, the tasks seen by a reader looking at a running run are (close to) a prefix of the
//! final sequence, which is what makes the sequence anytime-valid while it runs.
//!
//! The Trajectory API gives a trajectory only its creation time (`created_at`), no finish time:
//! a task's time is the later of the two runs' latest creation time among the trajectories
//! the analysis counts on that task (primary: included samples; sensitivity: every trajectory
//! on it). Tasks with equal times keep task order; tasks whose time is unknown on either side
//! (Chronicle trials, a reward listed without its trajectory) come after every timed task, in
//! task order — so a set without times keeps task order.

use super::paired::{Analysis, PairedScores};
use super::run::RunIdx;
use super::run_set::{Run, RunSet};
use super::task::TaskIdx;
use super::ModelError;

/// Each paired task's time: the later of the two runs' latest counted trajectory's creation
/// time (seconds since the epoch; a side with no counted trajectory, as in the sensitivity
/// analysis, adds nothing), `None` when a counted trajectory has no time or none counts.
pub fn paired_task_times(
    set: &RunSet,
    baseline: RunIdx,
    candidate: RunIdx,
    scores: &PairedScores,
    analysis: Analysis,
) -> Result<Vec<Option<i64>>, ModelError> {
    let (base, cand) = (set.run(baseline)?, set.run(candidate)?);
    Ok(scores
        .task_idx
        .iter()
        .map(|&task| {
            let b = latest_counted(base, task, analysis)?;
            let c = latest_counted(cand, task, analysis)?;
            b.max(c)
        })
        .collect())
}

/// The latest creation time among `run`'s trajectories on `task` that `analysis` counts:
/// `Some(None)` when none counts, `None` when one that counts has no time.
fn latest_counted(run: &Run, task: TaskIdx, analysis: Analysis) -> Option<Option<i64>> {
    let mut latest: Option<i64> = None;
    for trajectory in run.trajectories_of_task(task) {
        let scoring = trajectory.scoring();
        let counted = match analysis {
            Analysis::Primary => scoring.primary.value().is_some(),
            Analysis::Sensitivity => scoring.sensitivity.is_some(),
        };
        if counted {
            let time = trajectory.created?;
            latest = Some(latest.map_or(time, |t| t.max(time)));
        }
    }
    Some(latest)
}

/// Positions `0..times.len()` in completion order: ascending time, ties in position order,
/// unknown times last in position order.
pub fn completion_order(times: &[Option<i64>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..times.len()).collect();
    // Stable: equal keys keep position order.
    order.sort_by_key(|&i| match times[i] {
        Some(time) => (false, time),
        None => (true, 0),
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn orders_by_time_with_ties_and_unknown_times_in_task_order() {
        let times = [Some(30), None, Some(10), Some(30), None, Some(20)];
        assert_eq!(completion_order(&times), [2, 5, 0, 3, 1, 4]);
        assert_eq!(completion_order(&[None, None, None]), [0, 1, 2]);
        assert_eq!(completion_order(&[]), Vec::<usize>::new());
    }

    proptest! {
        #[test]
        fn is_a_permutation_with_known_times_ascending(
            times in proptest::collection::vec(proptest::option::of(0i64..50), 0..60)
        ) {
            let order = completion_order(&times);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..times.len()).collect::<Vec<_>>());
            for pair in order.windows(2) {
                let (a, b) = (times[pair[0]], times[pair[1]]);
                match (a, b) {
                    (Some(x), Some(y)) => prop_assert!(x < y || (x == y && pair[0] < pair[1])),
                    (None, Some(_)) => prop_assert!(false, "an unknown time before a known one"),
                    (Some(_), None) => {}
                    (None, None) => prop_assert!(pair[0] < pair[1]),
                }
            }
        }
    }
}
