//! Each reward component's (Chronicle: each scorer's) own paired Δ between the baseline and a
//! candidate, beside the headline: scorers without a threshold are continuous measurements the
//! pass/fail outcome does not show.

use serde::{Deserialize, Serialize};

use crate::model::{ComponentTaskMeans, Run};
use crate::stats::{self, PairedEstimate, Stat};

/// One component's paired comparison over the tasks where both runs have a value for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComponentDelta {
    /// Component or scorer name, as given.
    pub name: String,
    /// Its threshold, when it has one (the baseline's first recorded, else the candidate's).
    pub threshold: Option<f64>,
    /// Tasks where the baseline has a value for it.
    pub baseline_tasks: usize,
    /// Tasks where the candidate has a value for it.
    pub candidate_tasks: usize,
    /// Δ of the per-task means (candidate − baseline, in the component's own units) over the
    /// tasks both have a value on, with each run's mean and the t and z intervals — the
    /// headline's paired machinery. Its `n` is the number of paired tasks.
    pub estimate: Stat<PairedEstimate>,
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
                baseline_tasks: tasks(b),
                candidate_tasks: tasks(c),
                estimate: stats::paired_estimate(&base_values, &cand_values, level),
            }
        })
        .collect()
}
