//! The comparison "as of" a time: the runs with only the trajectories created by then.
//!
//! What it reconstructs: which trajectories had been created when a link was taken, so the
//! report counts the tasks and samples a reader saw then. What it cannot: a trajectory created
//! by then but finished (or scored, or re-scored) later shows its outcome of now, not its state
//! then (the Trajectory API keeps no history of a trajectory); the runs' records (status,
//! planned rollouts) are today's; a trajectory without a creation time cannot be placed and is
//! kept (and counted, so the page can say so).

use serde::{Deserialize, Serialize};

use super::builder::rebuild_run;
use super::run_set::RunSet;

/// What [`RunSet::as_of`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AsOf {
    /// The time, seconds since the Unix epoch.
    pub at: i64,
    /// Trajectories created after it, left out (every run).
    pub left_out: u64,
    /// Trajectories without a creation time, kept (every run).
    pub without_time: u64,
}

impl RunSet {
    /// The run set with only the trajectories created at or before `at` (seconds since the
    /// epoch), aggregates computed again; tasks, categories and run records unchanged. See
    /// the module doc for what this cannot reconstruct.
    pub fn as_of(&self, at: i64) -> (RunSet, AsOf) {
        let mut summary = AsOf {
            at,
            ..AsOf::default()
        };
        let task_count = self.tasks.len();
        let runs = self
            .runs
            .iter()
            .map(|run| {
                let created = &run.columns.created;
                for time in created.iter() {
                    match time {
                        Some(time) if time > at => summary.left_out += 1,
                        Some(_) => {}
                        None => summary.without_time += 1,
                    }
                }
                rebuild_run(
                    run,
                    |row| created.get(row).flatten().is_none_or(|t| t <= at),
                    task_count,
                )
            })
            .collect();
        let set = RunSet {
            runs,
            tasks: self.tasks.clone(),
            task_index: self.task_index.clone(),
            categories: self.categories.clone(),
            task_conflicts: self.task_conflicts.clone(),
            cut_labels: self.cut_labels.clone(),
            platform_series: self.platform_series.clone(),
            token_counts: self.token_counts.clone(),
        };
        (set, summary)
    }

    /// The newest creation time among the trajectories of `runs` (seconds since the epoch),
    /// if any has one: what a link records so that [`Self::as_of`] shows what was loaded.
    pub fn newest_created(&self, runs: &[super::RunIdx]) -> Option<i64> {
        runs.iter()
            .filter_map(|&run| self.runs.get(run.0))
            .flat_map(|run| run.columns.created.iter().flatten())
            .max()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        OutcomeClass, RunIdx, RunInfo, RunSetBuilder, TrajectoryFlags, TrajectoryInput,
    };

    fn set() -> RunSet {
        let mut b = RunSetBuilder::new();
        let run = b
            .add_run(RunInfo {
                id: "r".into(),
                ..RunInfo::default()
            })
            .unwrap();
        for (i, (task, reward, created)) in [
            ("a", 1.0, Some(10)),
            ("a", 0.0, Some(30)),
            ("b", 1.0, Some(20)),
            ("c", 0.5, None),
            ("d", 1.0, Some(40)),
        ]
        .into_iter()
        .enumerate()
        {
            b.add_trajectory(
                run,
                TrajectoryInput {
                    id: &format!("t{i}"),
                    task: Some(task),
                    class: OutcomeClass::Graded,
                    reward: Some(reward),
                    ending: None,
                    flags: TrajectoryFlags::NONE,
                    created,
                    components: None,
                },
            )
            .unwrap();
        }
        b.build()
    }

    use super::*;

    #[test]
    fn keeps_what_was_created_by_then_and_recomputes_the_aggregates() {
        let set = set();
        let (then, summary) = set.as_of(25);
        assert_eq!(
            summary,
            AsOf {
                at: 25,
                left_out: 2,
                without_time: 1
            }
        );
        let run = then.run(RunIdx(0)).unwrap();
        assert_eq!(run.trajectory_count(), 3);
        let ids: Vec<&str> = run.trajectories().map(|t| t.id).collect();
        assert_eq!(ids, ["t0", "t2", "t3"]);
        // Task a: only its first sample (1.0) then; task d not attempted yet.
        let a = then.find_task("a").unwrap();
        let d = then.find_task("d").unwrap();
        assert_eq!(run.stats_of(a).unwrap().primary.mean(), Some(1.0));
        assert_eq!(run.stats_of(d).unwrap().samples(), 0);
        assert_eq!(then.tasks().len(), set.tasks().len());
        // Now: both samples of a.
        let now = set.run(RunIdx(0)).unwrap();
        assert_eq!(now.stats_of(a).unwrap().primary.mean(), Some(0.5));
        // Everything is kept at the newest time.
        assert_eq!(set.newest_created(&[RunIdx(0)]), Some(40));
        let (all, summary) = set.as_of(40);
        assert_eq!(summary.left_out, 0);
        assert_eq!(all.run(RunIdx(0)).unwrap().trajectory_count(), 5);
    }
}
