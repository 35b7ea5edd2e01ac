//! Where a candidate's Δ comes from, by task category: per category the mean of its tasks'
//! paired deltas with its interval and paired t-test, Holm and Benjamini–Hochberg across the
//! candidate's categories, each category's contribution to Δ, and one line answering "are the
//! regressions concentrated in one category?".
//!
//! A task counts in its first category (the cluster of the clustered analysis); tasks without
//! one form the group [`UNCATEGORISED`].

use serde::{Deserialize, Serialize};

use crate::model::{Analysis, PairedScores};
use crate::stats::{self, Interval, NotComputable, Stat};
use crate::text::{
    count, interval_points, noun, p_value, signed_points, visible, StatText, MISSING,
};

use super::paired_analysis::{IntervalMethod, SMALL_BINARY_TASKS};

/// The name of the group of tasks without a category.
pub const UNCATEGORISED: &str = "uncategorised";

/// A negative contribution at least this share of all negative contribution makes the
/// regressions "concentrated" in that category.
pub const CONCENTRATED_SHARE: f64 = 0.5;

/// A candidate's Δ split by category, on the headline analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryBreakdown {
    /// The analysis the tasks and deltas come from (the headline's).
    pub analysis: Analysis,
    /// One group per category with a paired task (in the report's category order), then the
    /// tasks without a category.
    pub groups: Vec<CategoryDelta>,
    /// Sum of the negative contributions (reward units; 0 when no group pulls Δ down).
    pub negative_total: f64,
    /// Index in `groups` of the group with the most negative contribution, when one is negative.
    pub largest_negative: Option<usize>,
    /// Its contribution as a share of `negative_total` (0..=1).
    pub largest_negative_share: Option<f64>,
    /// Groups significantly worse: Holm-adjusted p below α and the interval below 0.
    pub significantly_worse: Vec<usize>,
    /// The answer to "are the regressions concentrated in one category?", in one line.
    pub sentence: String,
}

/// The paired Δ of one category's tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryDelta {
    /// Index into [`Report::categories`](super::Report::categories); `None` for the tasks
    /// without a category.
    pub category: Option<u32>,
    /// The category's label, or [`UNCATEGORISED`].
    pub label: String,
    /// Paired tasks in the group.
    pub n: usize,
    /// Mean of the group's paired per-task deltas (each rounded to 1e-9).
    pub delta: f64,
    /// The group's part of the candidate's Δ: n × Δ_group / n_total (reward units); the
    /// contributions of all groups add up to Δ.
    pub contribution: f64,
    /// The interval used: Tango's score interval for one 0/1 sample per task and run (fewer
    /// than [`SMALL_BINARY_TASKS`] tasks, as the headline), else the t interval (n − 1 df).
    pub interval_method: IntervalMethod,
    /// That interval of the group's Δ at the report's level.
    pub interval: Stat<Interval>,
    /// Two-sided p of the group's paired t-test.
    pub p_value: Stat<f64>,
    /// Holm-adjusted p across the candidate's groups that have a p (family-wise).
    pub p_holm: Stat<f64>,
    /// Benjamini–Hochberg-adjusted p across the same groups.
    pub p_bh: Stat<f64>,
}

/// The breakdown of `scores` (one candidate's paired scores in `analysis`) over `labels` (the
/// run set's category labels); `None` when no paired task has a category.
pub fn category_breakdown(
    scores: &PairedScores,
    analysis: Analysis,
    labels: &[String],
    level: f64,
    alpha: f64,
) -> Option<CategoryBreakdown> {
    if scores.cluster.iter().all(Option::is_none) {
        return None;
    }
    let total = scores.len();
    let mut keys: Vec<Option<u32>> = Vec::new();
    for cluster in &scores.cluster {
        if !keys.contains(cluster) {
            keys.push(*cluster);
        }
    }
    // Categories in the report's order, the uncategorised group last.
    keys.sort_by_key(|key| key.map_or(u64::MAX, u64::from));
    let mut groups: Vec<CategoryDelta> = keys
        .iter()
        .map(|&key| {
            let members: Vec<usize> = (0..total).filter(|&i| scores.cluster[i] == key).collect();
            let label = match key {
                Some(index) => labels
                    .get(index as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("category {index}")),
                None => UNCATEGORISED.to_owned(),
            };
            group_delta(scores, &members, key, label, total, level)
        })
        .collect();
    adjust(&mut groups);
    Some(summarize(analysis, groups, alpha))
}

fn group_delta(
    scores: &PairedScores,
    members: &[usize],
    category: Option<u32>,
    label: String,
    total: usize,
    level: f64,
) -> CategoryDelta {
    let base: Vec<f64> = members.iter().map(|&i| scores.base[i]).collect();
    let cand: Vec<f64> = members.iter().map(|&i| scores.cand[i]).collect();
    let deltas: Vec<f64> = base
        .iter()
        .zip(&cand)
        .map(|(b, c)| stats::round_delta(c - b))
        .collect();
    let n = members.len();
    let delta = stats::mean(&deltas).unwrap_or(0.0);
    let single_binary = scores.base_binary
        && scores.cand_binary
        && members
            .iter()
            .all(|&i| scores.base_k[i] == 1 && scores.cand_k[i] == 1);
    let (interval_method, interval) = if single_binary && n < SMALL_BINARY_TASKS {
        let pairs = || base.iter().zip(&cand);
        let candidate_only = pairs().filter(|(b, c)| **b == 0.0 && **c == 1.0).count() as u64;
        let baseline_only = pairs().filter(|(b, c)| **b == 1.0 && **c == 0.0).count() as u64;
        (
            IntervalMethod::TangoScore,
            stats::tango_interval(candidate_only, baseline_only, n as u64, level),
        )
    } else {
        (
            IntervalMethod::T,
            stats::paired_estimate(&base, &cand, level).and_then(|e| e.t_interval),
        )
    };
    CategoryDelta {
        category,
        label,
        n,
        delta,
        contribution: n as f64 * delta / total as f64,
        interval_method,
        interval,
        p_value: stats::paired_t_test(&deltas).map(|t| t.p_value),
        p_holm: Err(NotComputable::NotEnoughData { needed: 1, got: 0 }),
        p_bh: Err(NotComputable::NotEnoughData { needed: 1, got: 0 }),
    }
}

/// Holm and BH over the groups whose test has a p; the others keep their test's reason.
fn adjust(groups: &mut [CategoryDelta]) {
    let available: Vec<(usize, f64)> = groups
        .iter()
        .enumerate()
        .filter_map(|(i, g)| g.p_value.as_ref().ok().map(|&p| (i, p)))
        .collect();
    let raw: Vec<f64> = available.iter().map(|&(_, p)| p).collect();
    let holm = stats::holm(&raw);
    let bh = stats::benjamini_hochberg(&raw);
    for (i, group) in groups.iter_mut().enumerate() {
        let slot = available.iter().position(|&(j, _)| j == i);
        let pick = |adjusted: &Stat<Vec<f64>>| -> Stat<f64> {
            match (slot, adjusted) {
                (Some(s), Ok(values)) => values
                    .get(s)
                    .copied()
                    .ok_or(NotComputable::NotEnoughData { needed: 1, got: 0 }),
                (Some(_), Err(e)) => Err(e.clone()),
                (None, _) => group.p_value.clone(),
            }
        };
        group.p_holm = pick(&holm);
        group.p_bh = pick(&bh);
    }
}

fn summarize(analysis: Analysis, groups: Vec<CategoryDelta>, alpha: f64) -> CategoryBreakdown {
    let negative_total: f64 = groups
        .iter()
        .map(|g| g.contribution)
        .filter(|&c| c < 0.0)
        .sum();
    let largest_negative = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.contribution < 0.0)
        .min_by(|(_, a), (_, b)| a.contribution.total_cmp(&b.contribution))
        .map(|(i, _)| i);
    let largest_negative_share = largest_negative.map(|i| groups[i].contribution / negative_total);
    let significantly_worse: Vec<usize> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| {
            g.p_holm.as_ref().is_ok_and(|&p| p < alpha)
                && g.interval.as_ref().is_ok_and(|i| i.upper < 0.0)
        })
        .map(|(i, _)| i)
        .collect();
    let mut breakdown = CategoryBreakdown {
        analysis,
        groups,
        negative_total,
        largest_negative,
        largest_negative_share,
        significantly_worse,
        sentence: String::new(),
    };
    breakdown.sentence = concentration_sentence(&breakdown);
    breakdown
}

/// "Regressions concentrated in `x`: …", "Regressions spread over …" or "No category pulls Δ
/// down …", with how many categories are significantly worse after Holm.
fn concentration_sentence(breakdown: &CategoryBreakdown) -> String {
    let groups = breakdown.groups.len() as u64;
    let worse = breakdown.significantly_worse.len() as u64;
    let worse_text = format!(
        "{} of {} {} significantly worse (Holm)",
        count(worse),
        count(groups),
        noun(groups, "category", "categories")
    );
    let (Some(index), Some(share)) = (breakdown.largest_negative, breakdown.largest_negative_share)
    else {
        return format!("No category pulls Δ down (every contribution ≥ 0); {worse_text}.");
    };
    let group = &breakdown.groups[index];
    let negatives = breakdown
        .groups
        .iter()
        .filter(|g| g.contribution < 0.0)
        .count() as u64;
    let carried = format!(
        "{} carries {:.0}% of the negative contribution ({} of {} points)",
        visible(&group.label),
        share * 100.0,
        signed_points(group.contribution),
        signed_points(breakdown.negative_total)
    );
    if share >= CONCENTRATED_SHARE {
        format!("Regressions concentrated in one category: {carried}; {worse_text}.")
    } else {
        format!(
            "Regressions spread over {} {}: the largest, {carried}; {worse_text}.",
            count(negatives),
            noun(negatives, "category", "categories")
        )
    }
}

/// The column headings of [`category_cells`].
pub const CATEGORY_COLUMNS: [&str; 7] = [
    "Category",
    "Tasks",
    "Δ (points)",
    "Interval",
    "Contribution to Δ (points)",
    "p (t-test)",
    "p Holm / BH",
];

/// The cells of one category's row as text, for the page and the markdown alike (the label
/// with control characters made visible).
pub fn category_cells(group: &CategoryDelta) -> [String; 7] {
    let p = |stat: &Stat<f64>| StatText::of(stat, |&p| p_value(p)).text();
    [
        visible(&group.label).into_owned(),
        count(group.n as u64),
        signed_points(group.delta),
        match &group.interval {
            Ok(interval) => format!(
                "{} ({})",
                interval_points(interval),
                group.interval_method.label()
            ),
            Err(reason) => format!("{MISSING} ({})", crate::text::why(reason)),
        },
        signed_points(group.contribution),
        p(&group.p_value),
        format!("{} / {}", p(&group.p_holm), p(&group.p_bh)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(rows: &[(Option<u32>, f64, f64)]) -> PairedScores {
        PairedScores {
            task_idx: (0..rows.len() as u32).collect(),
            base: rows.iter().map(|r| r.1).collect(),
            cand: rows.iter().map(|r| r.2).collect(),
            base_k: vec![3; rows.len()],
            cand_k: vec![3; rows.len()],
            base_var: vec![None; rows.len()],
            cand_var: vec![None; rows.len()],
            base_passes: vec![0; rows.len()],
            cand_passes: vec![0; rows.len()],
            cluster: rows.iter().map(|r| r.0).collect(),
            base_binary: false,
            cand_binary: false,
            left_out: Vec::new(),
        }
    }

    fn labels() -> Vec<String> {
        vec!["alpha".into(), "beta".into()]
    }

    #[test]
    fn groups_follow_category_order_with_uncategorised_last() {
        let s = scores(&[
            (None, 0.5, 0.5),
            (Some(1), 0.2, 0.6),
            (Some(0), 0.9, 0.1),
            (Some(1), 0.3, 0.5),
            (Some(0), 0.8, 0.4),
        ]);
        let b = category_breakdown(&s, Analysis::Primary, &labels(), 0.95, 0.05).unwrap();
        let names: Vec<&str> = b.groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(names, ["alpha", "beta", UNCATEGORISED]);
        assert_eq!(b.groups[0].n, 2);
        assert!((b.groups[0].delta + 0.6).abs() < 1e-12);
        assert!((b.groups[0].contribution + 0.24).abs() < 1e-12);
        assert_eq!(b.largest_negative, Some(0));
        assert_eq!(b.largest_negative_share, Some(1.0));
        assert!(b.sentence.starts_with(
            "Regressions concentrated in one category: alpha carries 100% of the negative"
        ));
        assert_eq!(b.groups[2].p_holm, b.groups[2].p_value, "n = 1 has no test");
    }

    #[test]
    fn no_category_means_no_breakdown_and_no_negative_says_so() {
        assert!(category_breakdown(
            &scores(&[(None, 0.1, 0.2)]),
            Analysis::Primary,
            &[],
            0.95,
            0.05
        )
        .is_none());
        let s = scores(&[(Some(0), 0.1, 0.3), (Some(1), 0.2, 0.2)]);
        let b = category_breakdown(&s, Analysis::Primary, &labels(), 0.95, 0.05).unwrap();
        assert!(b.sentence.starts_with("No category pulls Δ down"));
        assert_eq!(b.negative_total, 0.0);
    }
}
