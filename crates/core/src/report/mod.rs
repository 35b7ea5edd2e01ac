//! The comparison report: one serializable value holding the coverage ledger, the
//! comparability audit, the statistics of each candidate against the baseline and one row per
//! task. The viewer renders it and the CLI prints it, so both always agree.
//!
//! [`build_report`] is a pure, deterministic function of the loaded [`RunSet`], the chosen runs
//! and the [`ReportSettings`] (the bootstrap is seeded).

mod bootstrap_slots;
mod categories;
mod checkpoint_steps;
mod chronicle;
mod components;
mod cost;
mod details;
mod effort;
mod effort_facts;
mod effort_tokens;
mod exclusions;
mod explain;
mod flaky;
pub(crate) mod html;
mod ledger;
mod link_snapshot;
mod markdown;
mod paired_analysis;
mod pass_k;
mod pass_threshold;
mod progression;
mod report_build;
mod run_labels;
mod sentence;
mod settings;
mod table;
mod task_paths;
mod task_rows;
mod trial_effort;
mod verdict;
mod words;

pub use bootstrap_slots::{AnalysisBootstraps, BootstrapSlot, DeferredReport, PendingBootstrap};
pub use categories::{
    category_breakdown, category_cells, CategoryBreakdown, CategoryDelta, CATEGORY_COLUMNS,
    CONCENTRATED_SHARE, UNCATEGORISED,
};
pub use checkpoint_steps::{checkpoint_steps, CheckpointSteps, StepComparison};
pub use chronicle::ChronicleSummary;
pub use components::{component_cells, component_deltas, ComponentDelta, COMPONENT_COLUMNS};
pub use cost::{
    candidate_cost, cost_report, cost_section, per_solved_interval, per_task, quality_cost,
    run_costs, unbeaten, wilson, CandidateCost, CostDelta, CostGap, CostReport, QualityCostPoint,
    RunCostSummary,
};
pub use details::{
    anytime_interval_text, detail_rows, headline_anytime_interval, interval_method_text,
    DetailCells, DetailRow,
};
pub use effort::{
    relative_change, CandidateEffort, EffortReport, EndingCount, EndingDelta, RelativeChange,
    RunEffort, TaskEffort, TaskEffortCell, TurnsDelta, NO_ENDING, SOLVED_SCORE, TIMEOUT_ENDINGS,
    TURN_LIMIT_ENDINGS,
};
pub use effort_tokens::{tokens, CandidateTokens, RunTokens, TokensReport};
pub use exclusions::{ExclusionCount, ExclusionReason, Exclusions};
pub use explain::{explain, Topic};
pub use flaky::{flaky_sentence, flaky_tasks, samples_disagree, FlakyTasks};
pub use ledger::{
    attach_ledger, build_report_with_ledger, build_report_with_ledger_deferred, LedgerLine,
    LedgerReport, WithoutLedger,
};
pub use link_snapshot::{
    compare_with_link, headlines_now, needs_snapshot, snapshot, task_words, LinkComparison,
    Movement,
};
pub use paired_analysis::{
    analyse_pair, anytime_interval, headline_interval, headline_p, ClusteredAnalysis,
    IntervalMethod, PairedAnalysis, PassAtKComparison, SMALL_BINARY_TASKS,
};
pub use pass_k::{pass_k_cells, PASS_K_COLUMNS};
pub use pass_threshold::{apply_pass_threshold, check_pass_threshold, pass_value};
pub use progression::{
    platform_cells, platform_progression, platform_sentence, PlatformProgression, PlatformStep,
    Progression, ProgressionPoint, PLATFORM_COLUMNS,
};
pub use report_build::ReportBuild;
pub use sentence::headline_sentence;
pub use settings::{automatic_samples_per_task, ReportSettings, MIN_AUTOMATIC_SAMPLES_PER_TASK};
pub use table::{to_csv, to_csv_rows, visible_rows, visible_rows_ranked, TextRanks};
pub use task_paths::{classify, task_paths, PathKind, StepState, TaskPath};
pub use task_rows::{task_rows, TaskCell, TaskRow};
pub use trial_effort::{
    trial_effort_section, CandidateTrialEffort, RunTrialEffort, TrialEffortReport,
};
pub use verdict::{
    decide, within_phrase, AnalysisFacts, Decision, Thresholds, Verdict, VerdictContext,
    MIN_PAIRED_TASKS, SIGN_RESOLUTION,
};
pub use words::{
    analysis_name, and_more, comparability_words, disagreement_cells, flaky_line, incomplete_loads,
    ledger_cells, ledger_changes, ledger_intro, ledger_verdicts, pairing_line, pairings,
    platform_check_line, set_aside_cell, setting_cell, settings_line, target_kind, union_line,
    CATEGORIES_INTRO, COMPONENTS_HEADING, COMPONENTS_INTRO, DISAGREEMENT_COLUMNS,
    EFFECTIVE_SETTINGS, LEDGER_COLUMNS, LEDGER_HEADING, LISTED_DISAGREEMENTS, NO_CATEGORY,
    PASS_K_INTRO, PLATFORM_PROGRESSION_HEADING, PLATFORM_RESULTS_HEADING, PLATFORM_RESULTS_INTRO,
    SET_ASIDE_COLUMN, TASK_COLUMNS_NOTE, WHERE_DELTA_HEADING,
};
pub use words::{beside_delta, beside_delta_parts, BesideKind, BesidePart, BESIDE_DELTA};
pub use words::{
    candidate_cost_of, cents, cost_beside_verdict, cost_sentence, gap_text, kind_sentence,
    quality_cost_cells, run_cost_cells, signed_cents, unbeaten_sentence, COST_EXPLAINED,
    COST_HEADING, COST_INTRO, QUALITY_COST_COLUMNS, QUALITY_COST_HEADING, QUALITY_COST_INTRO,
    RUN_COST_COLUMNS,
};
pub use words::{
    candidate_effort, ending_cells, ending_sentence, percent, run_effort_cells, signed_percent,
    signed_turns, solved_failed_sentence, task_ending_cell, task_turns_cell, turn_count,
    turns_beside_verdict, turns_sentence, EFFORT_HEADING, EFFORT_INTRO, ENDING_COLUMNS,
    RUN_EFFORT_COLUMNS, TURNS_EXPLAINED,
};
pub use words::{
    measure_beside_verdict, measure_sentence, measure_solved_failed, run_trial_effort_cells,
    seconds, signed_seconds, trial_details_offer, trial_effort_beside_verdict, Measure, DURATION,
    RUN_TRIAL_EFFORT_COLUMNS, STEPS, TRIAL_DURATION_EXPLAINED, TRIAL_EFFORT_HEADING,
    TRIAL_EFFORT_INTRO, TRIAL_STEPS_EXPLAINED,
};
pub use words::{
    pass_threshold_line, path_cells, path_columns, paths_line, step_cells, versus_chosen_line,
    PATHS_HEADING, PATHS_INTRO, STEPS_HEADING, STEPS_INTRO, STEP_COLUMNS,
};
pub use words::{
    run_token_cells, signed_tokens, token_amount, tokens_beside_verdict, tokens_sentence,
    RUN_TOKEN_COLUMNS, TOKENS_EXPLAINED, TOKENS_HEADING, TOKENS_INTRO,
};

use serde::{Deserialize, Serialize};

use crate::audit::{Audit, Lifecycle, PlatformCheck, Severity};
use crate::coverage::Coverage;
use crate::model::{Analysis, ModelError, Run, RunIdx, RunSet, SourceKind, TaskScoring};
use crate::stats::{self, Stat};

/// Version of the report's JSON shape; bumped on any incompatible change.
///
/// 2: a candidate's `components` (each reward component's or scorer's paired Δ), a run's
/// `task_scoring` and `chronicle` (its job), the report's `platform` checks (the platform's own
/// results of each Chronicle job beside its trials).
///
/// 3: a candidate's `verdict` is an object (`decision`, `evidence`, `provisional`,
/// `interval_method`, `interval`, `reasons`; `docs/statistics.md`); an analysis'
/// `score_interval` (Tango's, for one binary sample per task) and `interval_method`; later,
/// additively, an analysis' `confidence_sequence` (present only while a compared run runs).
///
/// 4: where the Δ comes from: a candidate's `by_category` (Δ per task category with its
/// interval, paired t-test, Holm and BH across the categories, each category's contribution and
/// the concentration line; `null` when no task has a category) and `flaky` (tasks whose samples
/// disagree and their share of Δ); a run's `flaky_tasks`; a task cell's `flaky`; each pass@k
/// comparison's pass^k (`baseline_pass_hat`, `candidate_pass_hat`, `pass_hat_difference`); a
/// progression point's `provisional`; later, additively, the reviewer's ledger: the report's
/// `ledger`, a candidate's `without_ledger` and a coverage run's `set_aside` (present only
/// when the report was built with a ledger); later, additively, the settings'
/// `pass_threshold` and `versus_step` (present only when set) and the report's `checkpoints`
/// (the checkpoints against each other and the tasks' paths; present only with a progression);
/// later, additively, the report's `effort` (turns and endings beside quality); later,
/// additively, the report's `cost` (money per task beside quality).
pub const REPORT_FORMAT_VERSION: u32 = 4;

/// Why a report could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReportError {
    /// A run index does not exist in the set.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// No candidate was given.
    #[error("choose at least one candidate run to compare with the baseline")]
    NoCandidate,
    /// The baseline was also listed as a candidate.
    #[error("the baseline `{0}` cannot also be a candidate")]
    BaselineIsCandidate(String),
    /// A setting is out of range.
    #[error("invalid setting: {0}")]
    InvalidSetting(String),
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_FORMAT_VERSION`].
    pub format_version: u32,
    /// Everything the numbers were computed with.
    pub settings: ReportSettings,
    /// Where the data came from: each run's source ("api", "files", …), deduplicated.
    pub sources: Vec<SourceKind>,
    /// The compared runs: the baseline first, then the candidates in order.
    pub runs: Vec<RunSummary>,
    /// Coverage ledger (its run indices refer to the loaded set; `runs[i].index` maps them).
    pub coverage: Coverage,
    /// Comparability audit.
    pub audit: Audit,
    /// The platform's own results of each Chronicle job among the compared runs, set beside
    /// those computed from its trials (jobs whose results were loaded; empty otherwise).
    pub platform: Vec<PlatformCheck>,
    /// One result per candidate, in order.
    pub candidates: Vec<CandidateResult>,
    /// Reward against checkpoint step, when the candidates are checkpoints of one training run.
    pub progression: Option<Progression>,
    /// The checkpoints against each other and the tasks whose state changes across them, with
    /// a progression (absent from the JSON otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<CheckpointSteps>,
    /// Category labels; task rows refer to them by index.
    pub categories: Vec<String>,
    /// One row per task of the union, in task order.
    pub tasks: Vec<TaskRow>,
    /// Effort beside quality: turns and endings per run, per candidate and per task row
    /// (absent from reports written before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<EffortReport>,
    /// Money beside quality: each run's cost per attempted and per solved task, each
    /// candidate's Δ and the quality–cost view; absent when no compared run carries anything
    /// from billing (nothing was read: Chronicle jobs, folders written without billing.json).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostReport>,
    /// Chronicle trials' steps and durations per run and per candidate, once trial details
    /// were read (absent from the JSON otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_effort: Option<TrialEffortReport>,
    /// The reviewer's ledger the figures were computed with, when one was given (absent from
    /// the JSON otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ledger: Option<LedgerReport>,
}

/// Whether a run is the baseline or a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The run everything is compared against.
    Baseline,
    /// A run compared against the baseline.
    Candidate,
}

/// Identity and headline numbers of one compared run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Index in the loaded set (what coverage and audit refer to).
    pub index: RunIdx,
    /// Baseline or candidate.
    pub role: Role,
    /// Run id.
    pub id: String,
    /// Short name for display: "Step 400" for a checkpoint, else the display name or id; unique
    /// in the report (a label two runs share gets what tells them apart).
    pub name: String,
    /// Display name as recorded.
    pub display_name: Option<String>,
    /// Base model slug.
    pub base_model: Option<String>,
    /// Checkpoint step, for checkpoint evals.
    pub step: Option<i64>,
    /// Training run of the checkpoint.
    pub training_run_id: Option<String>,
    /// Benchmark version.
    pub bench_id: Option<String>,
    /// Lifecycle status, kept by name.
    pub status: Option<String>,
    /// Where it was loaded from.
    pub source: SourceKind,
    /// Why its load is incomplete, when a page failed.
    pub incomplete_load: Option<String>,
    /// Trajectories loaded.
    pub trajectories: u64,
    /// Tasks with at least one included sample ("as of N graded tasks" for running evals).
    pub tasks_scored: u64,
    /// The platform's own `reward_mean` (pooled over trajectories), as reported.
    pub platform_reward_mean: Option<f64>,
    /// Mean over all included samples, pooled (what the platform's mean estimates); under the
    /// all-trials-pass rule each task counts as its one outcome.
    pub pooled_mean: Option<f64>,
    /// Mean over tasks of the per-task means (equal weight per task): the analysis' mean.
    pub task_weighted_mean: Option<f64>,
    /// t interval of the task-weighted mean over this run's scored tasks.
    pub task_weighted_interval: Stat<stats::Interval>,
    /// Whether every included reward is 0 or 1.
    pub binary: bool,
    /// Scored tasks whose included samples disagree ([`samples_disagree`]: not all equal; for
    /// 0/1 rewards a pass rate strictly between 0 and 1).
    pub flaky_tasks: u64,
    /// How a task's samples make its score (Chronicle runs: every trial must pass).
    pub task_scoring: TaskScoring,
    /// The Chronicle job, for Chronicle runs.
    pub chronicle: Option<ChronicleSummary>,
}

/// One candidate against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateResult {
    /// Index in [`Report::runs`].
    pub run: usize,
    /// Primary analysis: paired tasks, included samples.
    pub primary: PairedAnalysis,
    /// Sensitivity analysis: union of tasks, failed and absent counted as 0.
    pub sensitivity: PairedAnalysis,
    /// Tasks left out of the primary analysis, by reason.
    pub excluded: Exclusions,
    /// Each reward component's (scorer's) own paired Δ; empty when the runs have none.
    pub components: Vec<ComponentDelta>,
    /// Δ per task category on the headline analysis; `None` when no paired task has one.
    pub by_category: Option<CategoryBreakdown>,
    /// Paired tasks whose samples disagree (headline analysis) and their share of Δ.
    pub flaky: FlakyTasks,
    /// Holm-adjusted p of the headline test across candidates (family-wise).
    pub p_holm: Stat<f64>,
    /// Benjamini–Hochberg-adjusted p of the headline test across candidates.
    pub p_bh: Stat<f64>,
    /// The one decision about this candidate (page, markdown and CLI gates read it).
    pub verdict: Verdict,
    /// One plain sentence stating the headline.
    pub sentence: String,
    /// The verdict and Δ without the reviewer's ledger, when the report has one (absent from
    /// the JSON otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub without_ledger: Option<WithoutLedger>,
}

impl Report {
    /// The worst comparability finding.
    pub fn comparability(&self) -> Severity {
        self.audit.verdict
    }

    /// The baseline's summary.
    pub fn baseline(&self) -> Option<&RunSummary> {
        self.runs.first()
    }

    /// The summary of a candidate result's run.
    pub fn run_of(&self, candidate: &CandidateResult) -> Option<&RunSummary> {
        self.runs.get(candidate.run)
    }

    /// The analysis a candidate's headline uses, per the settings.
    pub fn headline<'a>(&self, candidate: &'a CandidateResult) -> &'a PairedAnalysis {
        match self.settings.headline {
            Analysis::Primary => &candidate.primary,
            Analysis::Sensitivity => &candidate.sensitivity,
        }
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        // Serializing plain data with string keys cannot fail; fall back to a JSON error object.
        serde_json::to_string_pretty(self).unwrap_or_else(|e| {
            format!("{{\"error\": \"the report could not be serialized: {e}\"}}")
        })
    }

    /// The report as markdown-friendly text.
    pub fn to_markdown(&self) -> String {
        markdown::render(self)
    }
}

/// Builds the report of `candidates` against `baseline`.
pub fn build_report(
    set: &RunSet,
    baseline: RunIdx,
    candidates: &[RunIdx],
    settings: &ReportSettings,
) -> Result<Report, ReportError> {
    build_report_deferred(set, baseline, candidates, settings).map(DeferredReport::complete)
}

/// The report of `candidates` against `baseline` with its bootstraps still to draw
/// ([`DeferredReport`]); completed, it is [`build_report`]'s.
pub fn build_report_deferred(
    set: &RunSet,
    baseline: RunIdx,
    candidates: &[RunIdx],
    settings: &ReportSettings,
) -> Result<DeferredReport, ReportError> {
    match settings.pass_threshold {
        Some(threshold) => {
            check_pass_threshold(threshold)?;
            let thresholded = apply_pass_threshold(set, threshold)?;
            ReportBuild::start(&thresholded, baseline, candidates, settings)?.finish()
        }
        None => ReportBuild::start(set, baseline, candidates, settings)?.finish(),
    }
}

fn validate(
    set: &RunSet,
    baseline: RunIdx,
    candidates: &[RunIdx],
    settings: &ReportSettings,
) -> Result<(), ReportError> {
    if candidates.is_empty() {
        return Err(ReportError::NoCandidate);
    }
    if candidates.contains(&baseline) {
        return Err(ReportError::BaselineIsCandidate(
            set.run(baseline)?.info().id.clone(),
        ));
    }
    if !(settings.level > 0.0 && settings.level < 1.0) {
        return Err(ReportError::InvalidSetting(format!(
            "confidence level {} must lie strictly between 0 and 1",
            settings.level
        )));
    }
    if !(settings.alpha > 0.0 && settings.alpha < 1.0) {
        return Err(ReportError::InvalidSetting(format!(
            "alpha {} must lie strictly between 0 and 1",
            settings.alpha
        )));
    }
    if settings.resamples == 1 {
        return Err(ReportError::InvalidSetting(
            "the bootstrap needs at least 2 resamples (or 0 to skip it)".into(),
        ));
    }
    if settings.project_samples_per_task == Some(0) {
        return Err(ReportError::InvalidSetting(
            "K′ (samples per task of the projection) must be at least 1".into(),
        ));
    }
    if let Some(threshold) = settings.pass_threshold {
        check_pass_threshold(threshold)?;
    }
    if !(settings.target_delta.is_finite() && settings.target_delta > 0.0) {
        return Err(ReportError::InvalidSetting(
            "the target Δ must be a positive number".into(),
        ));
    }
    Ok(())
}

/// Holm and BH across the candidates whose headline test has a p-value.
fn adjust_p_values(results: &mut [CandidateResult], settings: &ReportSettings) {
    let headline_ps: Vec<Stat<f64>> = results
        .iter()
        .map(|r| match settings.headline {
            Analysis::Primary => headline_p(&r.primary),
            Analysis::Sensitivity => headline_p(&r.sensitivity),
        })
        .collect();
    let available: Vec<(usize, f64)> = headline_ps
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.as_ref().ok().map(|&p| (i, p)))
        .collect();
    let raw: Vec<f64> = available.iter().map(|&(_, p)| p).collect();
    let holm = stats::holm(&raw);
    let bh = stats::benjamini_hochberg(&raw);
    for (i, result) in results.iter_mut().enumerate() {
        let slot = available.iter().position(|&(j, _)| j == i);
        let pick = |adjusted: &Stat<Vec<f64>>| -> Stat<f64> {
            match (slot, adjusted) {
                (Some(s), Ok(values)) => values
                    .get(s)
                    .copied()
                    .ok_or(stats::NotComputable::NotEnoughData { needed: 1, got: 0 }),
                (Some(_), Err(e)) => Err(e.clone()),
                (None, _) => headline_ps[i].clone(),
            }
        };
        result.p_holm = pick(&holm);
        result.p_bh = pick(&bh);
    }
}

/// Until the audit is known (replaced before the report is returned).
fn placeholder_verdict() -> Verdict {
    Verdict {
        decision: Decision::NotComputable,
        evidence: Decision::NotComputable,
        provisional: false,
        partial: false,
        interval_method: IntervalMethod::T,
        interval: Err(stats::NotComputable::NotEnoughData { needed: 1, got: 0 }),
        reasons: Vec::new(),
    }
}

/// What a candidate's verdict depends on besides its statistics: the blocking findings that
/// concern it (naming it, or naming no candidate: the baseline's own), the compared runs
/// still running, those not read completely, and those that failed or were cancelled.
fn verdict_context(
    audit: &Audit,
    runs: &[RunSummary],
    candidate: RunIdx,
    result: &CandidateResult,
) -> VerdictContext {
    let (Some(baseline), Some(run)) = (runs.first(), runs.get(result.run)) else {
        return VerdictContext::default();
    };
    pair_context(audit, baseline, run, candidate, result.excluded.total)
}

/// [`verdict_context`] of one pair: `baseline` and `run` (the candidate, `candidate` in the
/// loaded set) with `excluded_tasks` left out of its primary analysis.
fn pair_context(
    audit: &Audit,
    baseline: &RunSummary,
    run: &RunSummary,
    candidate: RunIdx,
    excluded_tasks: u64,
) -> VerdictContext {
    let blocking = audit
        .with_severity(Severity::Blocking)
        .filter(|finding| {
            finding.runs.contains(&candidate)
                || !finding
                    .runs
                    .iter()
                    .any(|run| audit.candidates.contains(run))
        })
        .map(|finding| format!("{}: {}", finding.code, finding.message))
        .collect();
    let compared = || [baseline, run].into_iter();
    let running = compared()
        .filter(|run| Lifecycle::of(run.status.as_deref()) == Lifecycle::NotFinished)
        .map(|run| run.name.clone())
        .collect();
    let incomplete = compared()
        .filter_map(|run| Some((run.name.clone(), run.incomplete_load.clone()?)))
        .collect();
    let ended_early = compared()
        .filter_map(|run| match Lifecycle::of(run.status.as_deref()) {
            Lifecycle::Failed => Some((run.name.clone(), "failed")),
            Lifecycle::Cancelled => Some((run.name.clone(), "was cancelled")),
            _ => None,
        })
        .collect();
    VerdictContext {
        blocking,
        running,
        incomplete,
        ended_early,
        excluded_tasks,
    }
}

/// The verdict of one candidate, per [`decide`], on the headline analysis.
fn candidate_verdict(
    result: &CandidateResult,
    context: &VerdictContext,
    settings: &ReportSettings,
) -> Verdict {
    pair_verdict(
        &result.primary,
        &result.sensitivity,
        &result.p_holm,
        context,
        settings,
    )
}

/// [`candidate_verdict`] of one pair's analyses and its headline test's adjusted p.
fn pair_verdict(
    primary: &PairedAnalysis,
    sensitivity: &PairedAnalysis,
    p_holm: &Stat<f64>,
    context: &VerdictContext,
    settings: &ReportSettings,
) -> Verdict {
    let (headline, other) = match settings.headline {
        Analysis::Primary => (primary, sensitivity),
        Analysis::Sensitivity => (sensitivity, primary),
    };
    decide(
        &AnalysisFacts::of(headline),
        &AnalysisFacts::of(other),
        p_holm,
        context,
        Thresholds {
            alpha: settings.alpha,
            target_delta: settings.target_delta,
        },
    )
}

fn summarize_run(set: &RunSet, index: RunIdx, run: &Run, role: Role, level: f64) -> RunSummary {
    let info = run.info();
    let totals = run.totals();
    let (mut sum, mut count) = (0.0, 0u64);
    let mut task_means = Vec::with_capacity(run.task_stats().len());
    let mut flaky = 0u64;
    for stats in run.task_stats() {
        flaky += u64::from(samples_disagree(&stats.primary));
        if let Some(mean) = stats.primary.mean() {
            sum += mean * f64::from(stats.primary.count());
            count += u64::from(stats.primary.count());
            task_means.push(mean);
        }
    }
    let pooled_mean = (count > 0).then(|| sum / count as f64);
    RunSummary {
        index,
        role,
        id: info.id.clone(),
        name: run_labels::run_label(run),
        display_name: info.display_name.clone(),
        base_model: info.base_model.clone(),
        step: info.checkpoint.step,
        training_run_id: info.checkpoint.training_run_id.clone(),
        bench_id: info.bench_id.clone(),
        status: info.status.clone(),
        source: info.source,
        incomplete_load: info.incomplete_load.clone(),
        trajectories: totals.trajectories,
        tasks_scored: totals.tasks_scored,
        platform_reward_mean: info.platform_reward_mean.filter(|m| m.is_finite()),
        pooled_mean,
        task_weighted_mean: totals.task_mean,
        task_weighted_interval: mean_interval(&task_means, level),
        binary: totals.binary,
        flaky_tasks: flaky,
        task_scoring: info.task_scoring,
        chronicle: chronicle::chronicle_summary(set, index),
    }
}

/// t interval of a mean over n values (n − 1 df).
fn mean_interval(values: &[f64], level: f64) -> Stat<stats::Interval> {
    let summary = stats::summarize(values)?;
    let se = summary.se?;
    if se == 0.0 {
        return Err(stats::NotComputable::ZeroVariance);
    }
    let t = stats::dist::StudentT::new((summary.n - 1) as f64)?.quantile(0.5 + 0.5 * level)?;
    Ok(stats::Interval::around(summary.mean, t * se, level))
}
