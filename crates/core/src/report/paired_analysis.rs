//! Every statistic of one baseline–candidate pair, for one analysis (primary or sensitivity).

use serde::{Deserialize, Serialize};

use crate::model::{completion_order, Analysis, PairedScores};
use crate::stats::{
    self, BootstrapResult, BootstrapRun, BootstrapSettings, ClusterRobust, ConfidenceSequence,
    Interval, McNemar, MinimumDetectableEffect, NotComputable, PairedEstimate, PassAtK, PassCounts,
    SampleProjection, SignTest, Stat, TTest, TaskMoments, Wilcoxon, WinTieLoss,
};

use super::bootstrap_slots::AnalysisBootstraps;

use super::settings::ReportSettings;

/// The statistics of one pair of runs in one analysis. Every field is either a value or the
/// explicit reason it has none ([`NotComputable`]); nothing is NaN.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedAnalysis {
    /// Primary (included samples, paired tasks) or sensitivity (union, failed/absent = 0).
    pub analysis: Analysis,
    /// Tasks in the analysis.
    pub n: usize,
    /// Δ = mean of per-task deltas, its SE, t and z intervals, each run's mean and SE, and the
    /// correlation of the runs' task scores.
    pub estimate: Stat<PairedEstimate>,
    /// Paired t-test.
    pub t_test: Stat<TTest>,
    /// Wilcoxon signed-rank, zeros handled by Pratt (the main result).
    pub wilcoxon_pratt: Stat<Wilcoxon>,
    /// Wilcoxon signed-rank, zeros dropped (scipy's default, for parity).
    pub wilcoxon_wilcox: Stat<Wilcoxon>,
    /// Exact sign test on the non-zero deltas.
    pub sign_test: Stat<SignTest>,
    /// McNemar exact and mid-p, only when every task has exactly one binary sample per run.
    pub mcnemar: Option<Stat<McNemar>>,
    /// Tango's score interval of Δ, only when McNemar applies (one binary sample per task).
    pub score_interval: Option<Stat<Interval>>,
    /// The interval the headline and the verdict use ([`headline_interval`]).
    pub interval_method: IntervalMethod,
    /// Wins, ties and losses of the candidate (deltas rounded to 1e-9).
    pub win_tie_loss: Stat<WinTieLoss>,
    /// Seeded paired bootstrap over tasks (absent when B = 0).
    pub bootstrap: Option<Stat<BootstrapResult>>,
    /// Clustered by task category (absent when no task has a category).
    pub clustered: Option<ClusteredAnalysis>,
    /// Minimum detectable effect (α 0.05 two-sided, power 0.8).
    pub mde: Stat<MinimumDetectableEffect>,
    /// Tasks needed to detect [`ReportSettings::target_delta`].
    pub tasks_needed: Stat<u64>,
    /// Projection of the MDE to [`ReportSettings::project_samples_per_task`] samples per task.
    pub projection: Stat<SampleProjection>,
    /// pass@k of both runs and their paired difference, when both are binary.
    pub pass_at_k: Vec<PassAtKComparison>,
    /// The anytime-valid confidence sequence of Δ ([`stats::confidence_sequence`]), only while
    /// the baseline or the candidate is still running (the verdict's `provisional`): an
    /// interval that stays valid however often the running comparison is looked at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence_sequence: Option<Stat<ConfidenceSequence>>,
}

/// Which interval of Δ the headline uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntervalMethod {
    /// The t interval of the mean per-task delta (n − 1 df).
    T,
    /// Tango's score interval for a paired difference of proportions: a binary paired set
    /// (one 0/1 sample per task and run) of fewer than [`SMALL_BINARY_TASKS`] tasks.
    TangoScore,
}

impl IntervalMethod {
    /// The interval's name in a sentence, e.g. "Tango score interval".
    pub fn label(self) -> &'static str {
        match self {
            IntervalMethod::T => "t interval",
            IntervalMethod::TangoScore => "Tango score interval",
        }
    }
}

/// Below this many paired tasks a binary paired set's headline interval is Tango's score
/// interval instead of the t interval (which under-covers there; `docs/statistics.md`).
pub const SMALL_BINARY_TASKS: usize = 500;

/// The analysis with tasks clustered by their first category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusteredAnalysis {
    /// Tasks without a category (each forms its own cluster).
    pub tasks_without_category: usize,
    /// Cluster-robust SE with a t interval on C − 1 df.
    pub robust: Stat<ClusterRobust>,
    /// Bootstrap resampling whole clusters (absent when B = 0).
    pub bootstrap: Option<Stat<BootstrapResult>>,
}

/// pass@k and pass^k of baseline and candidate over the paired tasks with at least k samples
/// on both sides, and the paired differences of their per-task values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PassAtKComparison {
    /// k.
    pub k: u64,
    /// Paired tasks with at least k samples in both runs.
    pub tasks: usize,
    /// Paired tasks left out for having fewer than k samples on a side.
    pub tasks_excluded: usize,
    /// Baseline pass@k over those tasks.
    pub baseline: Stat<PassAtK>,
    /// Candidate pass@k over those tasks.
    pub candidate: Stat<PassAtK>,
    /// Paired difference of per-task pass@k (candidate − baseline) with its intervals.
    pub difference: Stat<PairedEstimate>,
    /// Baseline pass^k (every one of k samples passes: per task C(c, k)/C(n, k), τ-bench) over
    /// the same tasks.
    pub baseline_pass_hat: Stat<PassAtK>,
    /// Candidate pass^k over the same tasks.
    pub candidate_pass_hat: Stat<PassAtK>,
    /// Paired difference of per-task pass^k (candidate − baseline) with its intervals.
    pub pass_hat_difference: Stat<PairedEstimate>,
}

/// Computes every statistic for `scores` (already aligned by [`crate::model::RunSet::paired`])
/// but the bootstraps, which it leaves absent and returns ready to draw (none when B = 0):
/// [`crate::report::build_report`] draws them at once, the page in steps.
pub fn analyse_pair(
    scores: &PairedScores,
    analysis: Analysis,
    settings: &ReportSettings,
) -> (PairedAnalysis, Option<AnalysisBootstraps>) {
    let deltas = rounded_deltas(scores);
    let level = settings.level;
    // The t-test, both Wilcoxon variants, the sign test, the MDE and the tasks needed share
    // one rounding, one variance and one ranking of the deltas.
    let tests = stats::delta_tests(&deltas, settings.target_delta);
    let mcnemar = mcnemar_if_single_binary(scores);
    let score_interval = mcnemar.is_some().then(|| score_interval(scores, level));
    let interval_method = if score_interval.is_some() && scores.len() < SMALL_BINARY_TASKS {
        IntervalMethod::TangoScore
    } else {
        IntervalMethod::T
    };
    let bootstraps = (settings.resamples > 0).then(|| bootstraps(scores, &deltas, settings));
    let analysis = PairedAnalysis {
        analysis,
        n: scores.len(),
        estimate: stats::paired_estimate(&scores.base, &scores.cand, level),
        t_test: tests.t_test,
        wilcoxon_pratt: tests.wilcoxon_pratt,
        wilcoxon_wilcox: tests.wilcoxon_wilcox,
        sign_test: tests.sign_test,
        mcnemar,
        score_interval,
        interval_method,
        win_tie_loss: tests.win_tie_loss,
        bootstrap: None,
        clustered: clustered(scores, &deltas, level),
        mde: tests.mde,
        tasks_needed: tests.tasks_needed,
        projection: projection(scores, settings),
        pass_at_k: pass_at_k(scores, settings),
        confidence_sequence: None,
    };
    (analysis, bootstraps)
}

/// Each paired task's delta, candidate − baseline, rounded to 1e-9.
fn rounded_deltas(scores: &PairedScores) -> Vec<f64> {
    scores
        .base
        .iter()
        .zip(&scores.cand)
        .map(|(b, c)| stats::round_delta(c - b))
        .collect()
}

/// The analysis' bootstraps, not yet drawn: over tasks, and over whole categories when the
/// clustered analysis applies.
fn bootstraps(
    scores: &PairedScores,
    deltas: &[f64],
    settings: &ReportSettings,
) -> AnalysisBootstraps {
    let bootstrap = BootstrapSettings {
        resamples: settings.resamples,
        seed: settings.seed,
        level: settings.level,
    };
    AnalysisBootstraps {
        tasks: BootstrapRun::per_task(deltas, &bootstrap),
        clustered: cluster_labels(scores)
            .map(|labels| BootstrapRun::per_cluster(deltas, &labels, &bootstrap)),
    }
}

/// The anytime-valid confidence sequence of Δ over `scores`' paired tasks fed in the order
/// they completed ([`completion_order`] of `times`, each task's time from
/// [`paired_task_times`](crate::model::paired_task_times); deltas rounded to 1e-9), at
/// `level`. Times that are not one per task fall back to task order.
pub fn anytime_interval(
    scores: &PairedScores,
    times: &[Option<i64>],
    level: f64,
) -> Stat<ConfidenceSequence> {
    let order = if times.len() == scores.base.len() {
        completion_order(times)
    } else {
        (0..scores.base.len()).collect()
    };
    let deltas: Vec<f64> = order
        .into_iter()
        .filter_map(|i| {
            Some(stats::round_delta(
                scores.cand.get(i)? - scores.base.get(i)?,
            ))
        })
        .collect();
    stats::confidence_sequence(&deltas, level)
}

/// McNemar applies to one binary outcome per task per run.
fn mcnemar_if_single_binary(scores: &PairedScores) -> Option<Stat<McNemar>> {
    let single = scores.base_k.iter().chain(&scores.cand_k).all(|&k| k == 1);
    if !(scores.base_binary && scores.cand_binary && single) || scores.is_empty() {
        return None;
    }
    let passed = |v: &f64| *v == 1.0;
    let base: Vec<bool> = scores.base.iter().map(passed).collect();
    let cand: Vec<bool> = scores.cand.iter().map(passed).collect();
    Some(stats::mcnemar_from_outcomes(&base, &cand))
}

/// Tango's interval from the discordant pairs (the scores are one 0/1 sample per task).
fn score_interval(scores: &PairedScores, level: f64) -> Stat<Interval> {
    let pairs = || scores.base.iter().zip(&scores.cand);
    let candidate_only = pairs().filter(|(b, c)| **b == 0.0 && **c == 1.0).count() as u64;
    let baseline_only = pairs().filter(|(b, c)| **b == 1.0 && **c == 0.0).count() as u64;
    stats::tango_interval(candidate_only, baseline_only, scores.len() as u64, level)
}

/// Each paired task's cluster, its first category; `None` when no task has one (the clustered
/// analysis does not apply).
fn cluster_labels(scores: &PairedScores) -> Option<Vec<(bool, u32)>> {
    if scores.cluster.iter().all(Option::is_none) {
        return None;
    }
    // A task without a category is its own cluster: key it apart from every category.
    Some(
        scores
            .cluster
            .iter()
            .zip(&scores.task_idx)
            .map(|(cluster, &task)| match cluster {
                Some(category) => (true, *category),
                None => (false, task),
            })
            .collect(),
    )
}

/// The clustered analysis without its bootstrap (left absent, see [`analyse_pair`]).
fn clustered(scores: &PairedScores, deltas: &[f64], level: f64) -> Option<ClusteredAnalysis> {
    let labels = cluster_labels(scores)?;
    Some(ClusteredAnalysis {
        tasks_without_category: scores.cluster.iter().filter(|c| c.is_none()).count(),
        robust: stats::cluster_robust(deltas, &labels, level),
        bootstrap: None,
    })
}

/// Projection to K′ samples per task (the settings' K′, else max(8, 2 × the most included
/// samples of a paired task)) from each paired task's mean, count and variance. In the
/// sensitivity analysis an absent side is a single 0 (k = 0 there).
fn projection(scores: &PairedScores, settings: &ReportSettings) -> Stat<SampleProjection> {
    let side = |means: &[f64], ks: &[u32], vars: &[Option<f64>]| -> Vec<TaskMoments> {
        means
            .iter()
            .zip(ks)
            .zip(vars)
            .map(|((&mean, &k), &variance)| TaskMoments {
                mean,
                samples: u64::from(k.max(1)),
                variance: variance.filter(|_| k > 1),
            })
            .collect()
    };
    let most = scores
        .base_k
        .iter()
        .chain(&scores.cand_k)
        .copied()
        .max()
        .unwrap_or(0);
    stats::project_from_moments(
        &side(&scores.base, &scores.base_k, &scores.base_var),
        &side(&scores.cand, &scores.cand_k, &scores.cand_var),
        settings.samples_per_task_for(u64::from(most)),
    )
}

fn pass_at_k(scores: &PairedScores, settings: &ReportSettings) -> Vec<PassAtKComparison> {
    if !(scores.base_binary && scores.cand_binary) || scores.is_empty() {
        return Vec::new();
    }
    let max_k = scores
        .base_k
        .iter()
        .chain(&scores.cand_k)
        .copied()
        .max()
        .unwrap_or(0);
    settings
        .pass_k
        .iter()
        .copied()
        .filter(|&k| k >= 1 && k <= u64::from(max_k))
        .map(|k| pass_at_k_for(scores, k, settings.level))
        .collect()
}

fn pass_at_k_for(scores: &PairedScores, k: u64, level: f64) -> PassAtKComparison {
    let mut base = Vec::with_capacity(scores.len());
    let mut cand = Vec::with_capacity(scores.len());
    for i in 0..scores.len() {
        let b = PassCounts {
            samples: u64::from(scores.base_k[i]),
            passes: u64::from(scores.base_passes[i]),
        };
        let c = PassCounts {
            samples: u64::from(scores.cand_k[i]),
            passes: u64::from(scores.cand_passes[i]),
        };
        if b.samples >= k && c.samples >= k {
            base.push(b);
            cand.push(c);
        }
    }
    let baseline = stats::pass_at_k(&base, k);
    let candidate = stats::pass_at_k(&cand, k);
    let baseline_pass_hat = stats::pass_hat_k(&base, k);
    let candidate_pass_hat = stats::pass_hat_k(&cand, k);
    PassAtKComparison {
        k,
        tasks: base.len(),
        tasks_excluded: scores.len() - base.len(),
        difference: per_task_difference(&baseline, &candidate, level),
        pass_hat_difference: per_task_difference(&baseline_pass_hat, &candidate_pass_hat, level),
        baseline,
        candidate,
        baseline_pass_hat,
        candidate_pass_hat,
    }
}

/// The paired estimate of two runs' per-task values over the same tasks.
fn per_task_difference(
    baseline: &Stat<PassAtK>,
    candidate: &Stat<PassAtK>,
    level: f64,
) -> Stat<PairedEstimate> {
    match (baseline, candidate) {
        (Ok(b), Ok(c)) => {
            let b: Vec<f64> = b.per_task.iter().flatten().copied().collect();
            let c: Vec<f64> = c.per_task.iter().flatten().copied().collect();
            stats::paired_estimate(&b, &c, level)
        }
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    }
}

/// The headline interval of Δ: per [`PairedAnalysis::interval_method`], Tango's score interval
/// (small binary paired sets) or the t interval.
pub fn headline_interval(analysis: &PairedAnalysis) -> Stat<Interval> {
    match (analysis.interval_method, &analysis.score_interval) {
        (IntervalMethod::TangoScore, Some(interval)) => interval.clone(),
        _ => analysis
            .estimate
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|e| e.t_interval.clone()),
    }
}

/// The headline p-value: the paired t-test's.
pub fn headline_p(analysis: &PairedAnalysis) -> Stat<f64> {
    analysis
        .t_test
        .as_ref()
        .map(|t| t.p_value)
        .map_err(|e: &NotComputable| e.clone())
}
