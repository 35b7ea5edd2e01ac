//! What each run did on each task, as the effort reads it ([`RunFacts`]): the turns of its
//! counted trajectories and how its attempts ended.
//!
//! Endings are counted by their index in the run's table of ending names, each task's counts
//! side by side in one buffer of the run. Counted in a map per task keyed by name, as they
//! were, a 2 × 100,000 × 8 comparison spent 150 ms natively (400 ms in a tab, in one task) on
//! allocations and string comparisons.

use std::collections::HashMap;
use std::ops::Range;

use crate::model::{OutcomeClass, Run, RunSet, TaskIdx, TaskStats};

use super::effort::{TaskEffortCell, NO_ENDING, SOLVED_SCORE, TIMEOUT_ENDINGS, TURN_LIMIT_ENDINGS};

/// What one run did on one task.
#[derive(Debug, Clone, Default)]
pub(super) struct TaskFacts {
    pub(super) steps_sum: f64,
    pub(super) with_steps: u32,
    pub(super) without_steps: u32,
    pub(super) invalid_steps: u32,
    pub(super) counted: u32,
    pub(super) attempts: u32,
    pub(super) score: Option<f64>,
    /// Where its endings' counts are in [`RunFacts`]'s buffer.
    endings: Range<usize>,
}

impl TaskFacts {
    /// The mean turns of its counted trajectories with a step count.
    pub(super) fn turns(&self) -> Option<f64> {
        (self.with_steps > 0).then(|| self.steps_sum / f64::from(self.with_steps))
    }

    /// Whether the run solved the task ([`SOLVED_SCORE`]), when it has a score.
    pub(super) fn solved(&self) -> Option<bool> {
        self.score.map(|score| score >= SOLVED_SCORE)
    }
}

/// One run's facts by task, and the endings they count.
#[derive(Debug)]
pub(super) struct RunFacts<'a> {
    /// Ending names by index: the run's, then [`NO_ENDING`] unless the run names it.
    names: Vec<&'a str>,
    /// Each index by its name.
    by_name: HashMap<&'a str, u32>,
    /// Each task's (ending index, attempts) pairs, a task's together.
    counts: Vec<(u32, u32)>,
    /// The indices of [`TURN_LIMIT_ENDINGS`] and of [`TIMEOUT_ENDINGS`] the run has.
    singled_out: (Vec<u32>, Vec<u32>),
    /// By task index; `None`: no trajectory there.
    pub(super) tasks: Vec<Option<TaskFacts>>,
}

impl<'a> RunFacts<'a> {
    /// Each task's facts of `run`.
    pub(super) fn of(set: &RunSet, run: &'a Run) -> Self {
        let mut names: Vec<&str> = run.ending_names().iter().map(String::as_str).collect();
        let none = match names.iter().position(|&name| name == NO_ENDING) {
            Some(index) => index as u32,
            None => {
                names.push(NO_ENDING);
                (names.len() - 1) as u32
            }
        };
        let by_name = names
            .iter()
            .enumerate()
            .map(|(index, &name)| (name, index as u32))
            .collect();
        let mut counts = Vec::new();
        // Where each ending's pair of the current task is in `counts` (usize::MAX: none yet).
        let mut slot = vec![usize::MAX; names.len()];
        let tasks = (0..set.tasks().len())
            .map(|index| {
                let task = index as TaskIdx;
                let stats = run.stats_of(task)?;
                (stats.samples() > 0)
                    .then(|| facts_of(run, task, stats, none, &mut counts, &mut slot))
            })
            .collect();
        let mut facts = Self {
            names,
            by_name,
            counts,
            singled_out: (Vec::new(), Vec::new()),
            tasks,
        };
        facts.singled_out = (
            facts.indices_of(&TURN_LIMIT_ENDINGS),
            facts.indices_of(&TIMEOUT_ENDINGS),
        );
        facts
    }

    /// The facts of task `task`, when the run has a trajectory there.
    pub(super) fn task(&self, task: usize) -> Option<&TaskFacts> {
        self.tasks.get(task).and_then(Option::as_ref)
    }

    /// The indices of those of `names` the run has.
    pub(super) fn indices_of(&self, names: &[&str]) -> Vec<u32> {
        names
            .iter()
            .filter_map(|name| self.by_name.get(name).copied())
            .collect()
    }

    /// A task's attempts ending in one of `indices` ([`Self::indices_of`]).
    pub(super) fn count_of(&self, task: &TaskFacts, indices: &[u32]) -> u32 {
        self.pairs(task)
            .iter()
            .filter(|(ending, _)| indices.contains(ending))
            .map(|&(_, count)| count)
            .sum()
    }

    /// Every ending's attempts over all tasks, by name (endings no attempt had left out).
    pub(super) fn totals(&self) -> Vec<(&'a str, u64)> {
        let mut totals = vec![0u64; self.names.len()];
        for &(ending, count) in &self.counts {
            totals[ending as usize] += u64::from(count);
        }
        self.names
            .iter()
            .zip(totals)
            .filter(|&(_, count)| count > 0)
            .map(|(&name, count)| (name, count))
            .collect()
    }

    /// The task table's cell of one task.
    pub(super) fn cell(&self, task: &TaskFacts) -> TaskEffortCell {
        // The most frequent ending, the first by name on a tie.
        let ending = self
            .pairs(task)
            .iter()
            .map(|&(ending, count)| (self.names[ending as usize], count))
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
            .map(|(name, _)| name.to_owned());
        TaskEffortCell {
            turns: task.turns(),
            attempts: task.attempts,
            turn_limit: self.count_of(task, &self.singled_out.0),
            timeout: self.count_of(task, &self.singled_out.1),
            ending,
        }
    }

    fn pairs(&self, task: &TaskFacts) -> &[(u32, u32)] {
        self.counts.get(task.endings.clone()).unwrap_or(&[])
    }
}

/// One task's facts, its endings' pairs appended to `counts` (`slot`: every entry
/// `usize::MAX`, as it is left).
fn facts_of(
    run: &Run,
    task: TaskIdx,
    stats: &TaskStats,
    none: u32,
    counts: &mut Vec<(u32, u32)>,
    slot: &mut [usize],
) -> TaskFacts {
    let start = counts.len();
    let mut facts = TaskFacts {
        score: stats.primary.mean(),
        ..TaskFacts::default()
    };
    for (trajectory, ending) in run.trajectories_of_task_by_ending(task) {
        if trajectory.class != OutcomeClass::Unfinished {
            facts.attempts += 1;
            let ending = ending.unwrap_or(none);
            let at = &mut slot[ending as usize];
            if *at == usize::MAX {
                *at = counts.len();
                counts.push((ending, 0));
            }
            counts[*at].1 += 1;
        }
        if trajectory.scoring().primary.value().is_none() {
            continue;
        }
        facts.counted += 1;
        match trajectory.steps {
            Some(steps) if steps >= 0 => {
                facts.with_steps += 1;
                facts.steps_sum += steps as f64;
            }
            Some(_) => facts.invalid_steps += 1,
            None => facts.without_steps += 1,
        }
    }
    for &(ending, _) in &counts[start..] {
        slot[ending as usize] = usize::MAX;
    }
    facts.endings = start..counts.len();
    facts
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;
    use crate::model::{RunInfo, RunSetBuilder, TaskInput, TrajectoryFlags, TrajectoryInput};

    /// Endings a trajectory may have: the singled-out ones, one named like "none recorded",
    /// another, or none.
    const ENDINGS: [Option<&str>; 6] = [
        Some("MAX_STEPS"),
        Some("TIMEOUT"),
        Some("SANDBOX_TIMEOUT"),
        Some(NO_ENDING),
        Some("COMPLETED"),
        None,
    ];

    proptest! {
        /// Counted by index, each task's endings are those a map by name counts from the
        /// trajectories as the run shows them: the cell's most frequent ending (the first by
        /// name on a tie), the turn limits, the timeouts and the run's totals.
        #[test]
        fn endings_counted_by_index_match_a_count_by_name(
            rows in prop::collection::vec((0u32..4, 0usize..ENDINGS.len(), any::<bool>()), 0..60),
        ) {
            let mut builder = RunSetBuilder::new();
            for task in 0..4 {
                builder
                    .add_task(TaskInput {
                        id: format!("t{task}"),
                        label: None,
                        split: None,
                        categories: Vec::new(),
                    })
                    .unwrap();
            }
            let run = builder.add_run(RunInfo::default()).unwrap();
            for (row, &(task, ending, unfinished)) in rows.iter().enumerate() {
                let class = if unfinished { OutcomeClass::Unfinished } else { OutcomeClass::Graded };
                builder
                    .add_trajectory(
                        run,
                        TrajectoryInput {
                            id: &format!("r{row}"),
                            task: Some(&format!("t{task}")),
                            class,
                            reward: (!unfinished).then_some(1.0),
                            ending: ENDINGS[ending],
                            flags: TrajectoryFlags::NONE,
                            created: None,
                            components: None,
                        },
                    )
                    .unwrap();
            }
            let set = builder.build();
            let run = set.run(run).unwrap();
            let facts = RunFacts::of(&set, run);
            let mut totals: BTreeMap<&str, u64> = BTreeMap::new();
            for task in 0..4 {
                let mut by_name: BTreeMap<&str, u32> = BTreeMap::new();
                for trajectory in run.trajectories_of_task(task) {
                    if trajectory.class != OutcomeClass::Unfinished {
                        *by_name.entry(trajectory.ending.unwrap_or(NO_ENDING)).or_default() += 1;
                    }
                }
                for (&name, &count) in &by_name {
                    *totals.entry(name).or_default() += u64::from(count);
                }
                let Some(task_facts) = facts.task(task as usize) else {
                    prop_assert!(by_name.is_empty());
                    continue;
                };
                let cell = facts.cell(task_facts);
                let most = by_name
                    .iter()
                    .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
                    .map(|(name, _)| (*name).to_owned());
                prop_assert_eq!(cell.ending, most);
                let named = |names: &[&str]| names.iter().filter_map(|n| by_name.get(n)).sum::<u32>();
                prop_assert_eq!(cell.turn_limit, named(&TURN_LIMIT_ENDINGS));
                prop_assert_eq!(cell.timeout, named(&TIMEOUT_ENDINGS));
                prop_assert_eq!(cell.attempts, by_name.values().sum::<u32>());
            }
            let counted: BTreeMap<&str, u64> = facts.totals().into_iter().collect();
            prop_assert_eq!(counted, totals);
        }
    }
}
