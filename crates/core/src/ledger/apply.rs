//! A ledger applied to a comparison: the run set rebuilt with each entry's action, and what
//! each entry did in each compared run.
//!
//! - A task left out loses its trajectories in every compared run (the pairing stays honest).
//! - A task counted as a failure scores 0 where it had no value: each of its trajectories
//!   without a value in the primary analysis (failed, ungraded, cancelled, unfinished, an
//!   invalid reward, …) becomes graded with reward 0, and a compared run without a trajectory
//!   on it gets one, graded 0. Trajectories with a value keep it.
//! - A trajectory entry does the same to that one attempt only.
//!
//! A note (`Action::Note`) changes nothing; it applies when what it names is in the
//! comparison, like any other entry.
//!
//! When several entries name the same thing, leaving out wins over counting as a failure; of
//! entries with the same action the first one's reason counts. An entry naming a task or
//! trajectory that no compared run has does not apply: it is kept, marked so, and changes
//! nothing. Runs not compared are copied unchanged.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::model::{
    ModelError, OutcomeClass, RunIdx, RunSet, RunSetBuilder, TaskIdx, TaskInput, Trajectory,
    TrajectoryInput,
};

use super::entry::{Action, Reason, Target};
use super::file::Ledger;

/// The id of the trajectory a run without one on a task counted as a failure is given.
pub fn failure_trajectory_id(task_id: &str) -> String {
    format!("ledger:count_as_failure:{task_id}")
}

/// What the reviewer's ledger changed in one compared run, counted in tasks.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SetAside {
    /// Tasks the ledger changed in this run (left out, or some attempt counted as a failure).
    pub tasks: u64,
    /// Of them, tasks with a trajectory left out.
    pub left_out: u64,
    /// Of them, the others: tasks with an attempt counted as a failure.
    pub counted_as_failure: u64,
    /// By reason, most tasks first (ties in reason order).
    pub by_reason: Vec<ReasonCount>,
}

/// Tasks set aside for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonCount {
    /// The reason.
    pub reason: Reason,
    /// Tasks.
    pub tasks: u64,
}

/// What applying a ledger did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LedgerEffects {
    /// Per entry (aligned with the ledger's), whether it names a task or trajectory of a
    /// compared run.
    pub applies: Vec<bool>,
    /// Per compared run, in the order given, what the ledger changed there.
    pub runs: Vec<(RunIdx, SetAside)>,
    /// Distinct tasks the ledger changed in some compared run.
    pub tasks: u64,
}

/// A run set with a ledger applied.
#[derive(Debug, Clone)]
pub struct AppliedLedger {
    /// The set: the same runs, tasks and categories in the same order, trajectories changed.
    pub set: RunSet,
    /// What changed.
    pub effects: LedgerEffects,
}

/// The action and reason that decide one task or trajectory.
#[derive(Debug, Clone, Copy)]
struct Ruling {
    action: Action,
    reason: Reason,
}

impl Ruling {
    /// Leaving out wins; else the first entry stays.
    fn merge(slot: &mut Option<Ruling>, new: Ruling) {
        match slot {
            Some(old)
                if !(old.action == Action::CountAsFailure && new.action == Action::LeaveOut) => {}
            _ => *slot = Some(new),
        }
    }
}

/// The entries naming each task and each trajectory, by index.
#[derive(Default)]
struct Named<'a> {
    tasks: HashMap<&'a str, Vec<usize>>,
    trajectories: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Named<'a> {
    fn of(ledger: &'a Ledger) -> Named<'a> {
        let mut named = Named::default();
        for (entry, item) in ledger.entries.iter().enumerate() {
            let (map, id) = match &item.target {
                Target::Task(id) => (&mut named.tasks, id.as_str()),
                Target::Trajectory(id) => (&mut named.trajectories, id.as_str()),
            };
            map.entry(id).or_default().push(entry);
        }
        named
    }

    /// What the entries `indices` decide together.
    fn ruling(ledger: &Ledger, indices: Option<&Vec<usize>>) -> Option<Ruling> {
        let mut ruling = None;
        for &entry in indices.into_iter().flatten() {
            let item = &ledger.entries[entry];
            if !item.action.sets_aside() {
                continue;
            }
            Ruling::merge(
                &mut ruling,
                Ruling {
                    action: item.action,
                    reason: item.reason,
                },
            );
        }
        ruling
    }
}

/// Marks the entries `indices` as applying.
fn mark(applies: &mut [bool], indices: Option<&Vec<usize>>) {
    for &entry in indices.into_iter().flatten() {
        if let Some(slot) = applies.get_mut(entry) {
            *slot = true;
        }
    }
}

/// Applies `ledger` to the runs `compared` of `set` (the baseline first).
pub fn apply(
    set: &RunSet,
    compared: &[RunIdx],
    ledger: &Ledger,
) -> Result<AppliedLedger, ModelError> {
    let named = Named::of(ledger);
    let mut applies = vec![false; ledger.entries.len()];
    let mut builder = RunSetBuilder::new();
    for task in set.tasks() {
        builder.add_task(TaskInput {
            id: task.id.clone(),
            ..TaskInput::default()
        })?;
    }
    let task_rulings: Vec<Option<Ruling>> = set
        .tasks()
        .iter()
        .map(|task| Named::ruling(ledger, named.tasks.get(task.id.as_str())))
        .collect();
    let mut effects_of_runs = Vec::with_capacity(compared.len());
    let mut changed_tasks = std::collections::BTreeSet::new();
    for (index, run) in set.runs().iter().enumerate() {
        let run_idx = RunIdx(index);
        let new_run = builder.add_run(run.info().clone())?;
        if let Some(join) = run.join() {
            builder.set_join_report(new_run, join.clone())?;
        }
        if !compared.contains(&run_idx) {
            for trajectory in run.trajectories() {
                add(&mut builder, set, new_run, &trajectory, None)?;
            }
            continue;
        }
        let mut changes: BTreeMap<TaskIdx, Ruling> = BTreeMap::new();
        let mut note = |task: Option<TaskIdx>, ruling: Ruling| {
            if let Some(task) = task {
                let mut slot = changes.get(&task).copied();
                Ruling::merge(&mut slot, ruling);
                if let Some(slot) = slot {
                    changes.insert(task, slot);
                }
            }
        };
        for trajectory in run.trajectories() {
            let task_ruling = trajectory
                .task
                .and_then(|task| task_rulings.get(task as usize).copied().flatten());
            let own_entries = named.trajectories.get(trajectory.id);
            mark(&mut applies, own_entries);
            let own = Named::ruling(ledger, own_entries);
            let mut ruling = task_ruling;
            if let Some(own) = own {
                Ruling::merge(&mut ruling, own);
            }
            match ruling {
                Some(ruling) if ruling.action == Action::LeaveOut => note(trajectory.task, ruling),
                Some(ruling) if trajectory.scoring().primary.value().is_none() => {
                    note(trajectory.task, ruling);
                    add(&mut builder, set, new_run, &trajectory, Some(0.0))?;
                }
                _ => add(&mut builder, set, new_run, &trajectory, None)?,
            }
        }
        // A compared run without a trajectory on a task counted as a failure scores 0 there.
        for (task, ruling) in task_rulings.iter().enumerate() {
            let Some(ruling) = ruling.filter(|r| r.action == Action::CountAsFailure) else {
                continue;
            };
            let task = task as TaskIdx;
            if run.stats_of(task).is_some_and(|stats| stats.samples() > 0) {
                continue;
            }
            let Some(task_id) = set.task(task).map(|t| t.id.as_str()) else {
                continue;
            };
            builder.add_trajectory(
                new_run,
                TrajectoryInput {
                    id: &failure_trajectory_id(task_id),
                    task: Some(task_id),
                    class: OutcomeClass::Graded,
                    reward: Some(0.0),
                    ending: None,
                    flags: Default::default(),
                    created: None,
                    components: None,
                },
            )?;
            note(Some(task), ruling);
        }
        changed_tasks.extend(changes.keys().copied());
        effects_of_runs.push((run_idx, count(changes.values())));
    }
    // A task a compared run attempted, or the benchmark lists, is in the comparison even when
    // leaving it out changed nothing (and a note on it applies).
    for (task, item) in set.tasks().iter().enumerate() {
        if !named.tasks.contains_key(item.id.as_str()) {
            continue;
        }
        let attempted = compared.iter().any(|&run| {
            set.run(run)
                .ok()
                .and_then(|run| run.stats_of(task as TaskIdx))
                .is_some_and(|stats| stats.samples() > 0)
        });
        if let Some(known) = set.task(task as TaskIdx).filter(|t| attempted || t.listed) {
            mark(&mut applies, named.tasks.get(known.id.as_str()));
        }
    }
    let mut rebuilt = builder.build();
    rebuilt.take_set_facts(set);
    // Ordered as given, not as the set holds the runs.
    let runs = compared
        .iter()
        .filter_map(|run| effects_of_runs.iter().find(|(r, _)| r == run).cloned())
        .collect();
    Ok(AppliedLedger {
        set: rebuilt,
        effects: LedgerEffects {
            applies,
            runs,
            tasks: changed_tasks.len() as u64,
        },
    })
}

/// Adds `trajectory` of `set` to `run` of the builder, with reward `zero` (graded) when given.
fn add(
    builder: &mut RunSetBuilder,
    set: &RunSet,
    run: RunIdx,
    trajectory: &Trajectory<'_>,
    zero: Option<f64>,
) -> Result<(), ModelError> {
    let task = trajectory
        .task
        .and_then(|task| set.task(task))
        .map(|task| task.id.as_str());
    let (class, reward) = match zero {
        Some(value) => (OutcomeClass::Graded, Some(value)),
        None => (trajectory.class, trajectory.reward),
    };
    builder.add_trajectory_with_steps(
        run,
        TrajectoryInput {
            id: trajectory.id,
            task,
            class,
            reward,
            ending: trajectory.ending,
            flags: trajectory.flags,
            created: trajectory.created,
            components: trajectory.components.map(<[_]>::to_vec),
        },
        trajectory.steps,
    )
}

/// Counts one run's changed tasks by action and reason.
fn count<'a>(rulings: impl Iterator<Item = &'a Ruling>) -> SetAside {
    let mut set_aside = SetAside::default();
    let mut reasons: BTreeMap<Reason, u64> = BTreeMap::new();
    for ruling in rulings {
        set_aside.tasks += 1;
        match ruling.action {
            Action::LeaveOut => set_aside.left_out += 1,
            Action::CountAsFailure => set_aside.counted_as_failure += 1,
            // Notes make no ruling (`Named::ruling` skips them).
            Action::Note => {}
        }
        *reasons.entry(ruling.reason).or_default() += 1;
    }
    let mut by_reason: Vec<ReasonCount> = reasons
        .into_iter()
        .map(|(reason, tasks)| ReasonCount { reason, tasks })
        .collect();
    by_reason.sort_by(|a, b| b.tasks.cmp(&a.tasks).then(a.reason.cmp(&b.reason)));
    set_aside.by_reason = by_reason;
    set_aside
}
