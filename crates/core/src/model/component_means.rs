//! Per-task means of each reward component (Trajectory) or scorer (Chronicle) of one run, for
//! the components' own paired deltas.

use super::aggregate::SampleStats;
use super::id_map::IdMap;
use super::outcome::OutcomeClass;
use super::run_set::Run;
use super::task::TaskIdx;
use super::trajectory::NONE_U32;

/// One component's per-task mean in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentTaskMeans {
    /// Component or scorer name, as given.
    pub name: String,
    /// Its threshold, the first one recorded (scorers without one only measure).
    pub threshold: Option<f64>,
    /// Its weight in the effective reward, the first one recorded (0: informative only, it
    /// does not enter the reward).
    pub weight: Option<f64>,
    /// Per task (indexed by [`TaskIdx`] over all tasks of the set): the mean of the values
    /// counted there, `None` when none is.
    pub per_task: Vec<Option<f64>>,
}

impl ComponentTaskMeans {
    /// The mean on one task.
    pub fn on(&self, task: TaskIdx) -> Option<f64> {
        self.per_task.get(task as usize).copied().flatten()
    }
}

/// Whether a trajectory's component values count for its task: it has a task and did not fail,
/// was not cancelled and has finished (an incidental score of a failed attempt is not a result).
pub fn components_count(task: TaskIdx, class: OutcomeClass) -> bool {
    task != NONE_U32
        && !matches!(
            class,
            OutcomeClass::Failed | OutcomeClass::Cancelled | OutcomeClass::Unfinished
        )
}

impl Run {
    /// The trajectories whose reward components would count ([`components_count`]), in row
    /// order: what reading the components of this run asks for.
    pub fn component_targets(&self) -> Vec<&str> {
        let columns = &self.columns;
        (0..columns.len())
            .filter(|&row| {
                matches!(
                    (columns.task.get(row), columns.class.get(row)),
                    (Some(&task), Some(&class)) if components_count(task, class)
                )
            })
            .map(|row| columns.ids.get(row))
            .collect()
    }

    /// How many [`Self::component_targets`] there are, counted without listing them.
    pub fn component_target_count(&self) -> usize {
        let columns = &self.columns;
        columns
            .task
            .iter()
            .zip(&columns.class)
            .filter(|&(&task, &class)| components_count(task, class))
            .count()
    }

    /// Each component's per-task mean, components in the order first seen (tasks in order).
    ///
    /// A value counts when it is a finite number (the raw value, in the component's own units)
    /// on a trajectory with a task that did not fail, was not cancelled and has finished: a
    /// null value is "produced none", never 0, and an incidental score of a failed attempt is
    /// not a result. Empty when no trajectory has components.
    pub fn component_means(&self) -> Vec<ComponentTaskMeans> {
        let columns = &self.columns;
        if columns.components.is_empty() {
            return Vec::new();
        }
        let tasks = self.task_stats.len();
        let mut index: IdMap<Box<str>, usize> = IdMap::default();
        let mut found: Vec<Found> = Vec::new();
        for row in 0..columns.len() {
            let Some(parts) = columns.components.get(&(row as u32)) else {
                continue;
            };
            let (Some(&task), Some(&class)) = (columns.task.get(row), columns.class.get(row))
            else {
                continue;
            };
            if !components_count(task, class) {
                continue;
            }
            for part in parts {
                let slot = match index.get(part.name.as_str()) {
                    Some(&slot) => slot,
                    None => {
                        index.insert(part.name.as_str().into(), found.len());
                        found.push(Found {
                            name: part.name.clone(),
                            threshold: None,
                            weight: None,
                            stats: vec![SampleStats::default(); tasks],
                        });
                        found.len() - 1
                    }
                };
                let Some(entry) = found.get_mut(slot) else {
                    continue;
                };
                if entry.threshold.is_none() {
                    entry.threshold = part.threshold.filter(|t| t.is_finite());
                }
                if entry.weight.is_none() {
                    entry.weight = part.weight.filter(|w| w.is_finite());
                }
                if let (Some(value), Some(stats)) = (
                    part.value.filter(|value| value.is_finite()),
                    entry.stats.get_mut(task as usize),
                ) {
                    stats.push(value);
                }
            }
        }
        found
            .into_iter()
            .map(|found| ComponentTaskMeans {
                name: found.name,
                threshold: found.threshold,
                weight: found.weight,
                per_task: found.stats.iter().map(SampleStats::mean).collect(),
            })
            .collect()
    }
}

/// One component as gathered over a run's rows.
struct Found {
    name: String,
    threshold: Option<f64>,
    weight: Option<f64>,
    stats: Vec<SampleStats>,
}
