//! A candidate's section: the components' introduction and where its Δ comes from (the
//! categories, the flaky tasks, pass@k beside pass^k).

use super::super::flaky::{flaky_sentence, FlakyTasks};

/// The heading of a candidate's reward components (the page adds the candidate's name).
pub const COMPONENTS_HEADING: &str = "Components";

/// What the components' table shows.
pub const COMPONENTS_INTRO: &str = "Each component's or scorer's own paired Δ (candidate − \
    baseline) over the tasks both runs have a value for it, in its own units, per task the mean \
    over its counted samples; a missing value is left out, never taken as 0. A component of \
    weight 0 is informative: it does not enter the reward.";

/// The heading of where a candidate's Δ comes from (the page names the candidate in it).
pub const WHERE_DELTA_HEADING: &str = "Where the Δ comes from";

/// In place of the categories' table when no paired task has a category.
pub const NO_CATEGORY: &str = "No task has a category.";

/// What the categories' table shows.
pub const CATEGORIES_INTRO: &str = "Per category the mean of its tasks' paired deltas (a task \
    counts in its first category), with the interval the headline would use for that many \
    tasks; p of the paired t-test, adjusted across the categories by Holm (family-wise) and \
    Benjamini–Hochberg. The contributions (n of the category × its Δ / all tasks) add up to Δ.";

/// The flaky tasks of a candidate: "Flaky tasks: 12 of 164 paired tasks flaky (…)."
pub fn flaky_line(flaky: &FlakyTasks) -> String {
    format!("Flaky tasks: {}.", flaky_sentence(flaky))
}

/// What the pass@k table shows.
pub const PASS_K_INTRO: &str = "pass@k: at least one of k samples passes (unbiased, per task \
    1 − C(n−c, k)/C(n, k)); pass^k: every one of k samples passes (τ-bench, per task \
    C(c, k)/C(n, k)); both averaged over the tasks with at least k samples in both runs.";
