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

impl Run {
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
        let mut found: Vec<(String, Option<f64>, Vec<SampleStats>)> = Vec::new();
        for row in 0..columns.len() {
            let Some(parts) = columns.components.get(&(row as u32)) else {
                continue;
            };
            let (Some(&task), Some(&class)) = (columns.task.get(row), columns.class.get(row))
            else {
                continue;
            };
            if task == NONE_U32
                || matches!(
                    class,
                    OutcomeClass::Failed | OutcomeClass::Cancelled | OutcomeClass::Unfinished
                )
            {
                continue;
            }
            for part in parts {
                let slot = match index.get(part.name.as_str()) {
                    Some(&slot) => slot,
                    None => {
                        index.insert(part.name.as_str().into(), found.len());
                        found.push((part.name.clone(), None, vec![SampleStats::default(); tasks]));
                        found.len() - 1
                    }
                };
                let Some(entry) = found.get_mut(slot) else {
                    continue;
                };
                if entry.1.is_none() {
                    entry.1 = part.threshold.filter(|t| t.is_finite());
                }
                if let (Some(value), Some(stats)) = (
                    part.value.filter(|value| value.is_finite()),
                    entry.2.get_mut(task as usize),
                ) {
                    stats.push(value);
                }
            }
        }
        found
            .into_iter()
            .map(|(name, threshold, stats)| ComponentTaskMeans {
                name,
                threshold,
                per_task: stats.iter().map(SampleStats::mean).collect(),
            })
            .collect()
    }
}
