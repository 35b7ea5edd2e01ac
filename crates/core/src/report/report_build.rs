//! The report built a step at a time: [`ReportBuild::advance`] does one step (the runs'
//! summaries, one candidate's analyses, the audit and verdicts, the coverage ledger, the
//! platform checks and progression, the task rows, one run's effort counts, the effort, the
//! checkpoints), so the page can paint between steps of a 100,000-task comparison;
//! [`build_report_deferred`](super::build_report_deferred) runs every step at once. Either way
//! the report is the same.

use crate::audit::{self, Audit, Lifecycle, PlatformCheck};
use crate::coverage::{self, Coverage};
use crate::model::{self, Analysis, PairedScores, Run, RunIdx, RunSet, SourceKind};
use crate::stats;
use crate::text::{shorten, SHOWN_NAME_CHARS};

use super::effort_facts::RunFacts;
use super::{
    adjust_p_values, analyse_pair, anytime_interval, bootstrap_slots, candidate_verdict,
    category_breakdown, component_deltas, flaky_tasks, headline_sentence, placeholder_verdict,
    platform_progression, progression, summarize_run, task_rows, validate, verdict_context,
    CandidateResult, DeferredReport, Exclusions, PendingBootstrap, Progression, Report,
    ReportError, ReportSettings, Role, RunSummary, TaskRow, REPORT_FORMAT_VERSION,
};

/// What the next [`ReportBuild::advance`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Runs,
    Candidate(usize),
    Verdicts,
    Coverage,
    Platform,
    Tasks,
    /// Counting what run `i` (the baseline first) did on each task, for the effort.
    EffortFacts(usize),
    Effort,
    Checkpoints,
    Built,
}

/// A report of `candidates` against `baseline` being built, borrowing the run set.
#[derive(Debug)]
pub struct ReportBuild<'a> {
    set: &'a RunSet,
    baseline: RunIdx,
    candidates: Vec<RunIdx>,
    settings: ReportSettings,
    base_run: &'a Run,
    cand_runs: Vec<&'a Run>,
    category_labels: Vec<String>,
    next: Step,
    runs: Vec<RunSummary>,
    results: Vec<CandidateResult>,
    bootstraps: Vec<PendingBootstrap>,
    audit: Option<Audit>,
    coverage: Option<Coverage>,
    platform: Vec<PlatformCheck>,
    progression: Option<Progression>,
    checkpoints: Option<super::CheckpointSteps>,
    tasks: Vec<TaskRow>,
    effort: Option<super::EffortReport>,
    effort_facts: Vec<RunFacts<'a>>,
}

impl<'a> ReportBuild<'a> {
    /// Checks the comparison and its settings; nothing is computed yet. With a pass threshold
    /// in `settings`, `set` is the thresholded set ([`super::apply_pass_threshold`], as
    /// [`super::build_report_deferred`] makes it).
    pub fn start(
        set: &'a RunSet,
        baseline: RunIdx,
        candidates: &[RunIdx],
        settings: &ReportSettings,
    ) -> Result<Self, ReportError> {
        validate(set, baseline, candidates, settings)?;
        let base_run = set.run(baseline)?;
        let cand_runs = candidates
            .iter()
            .map(|&c| set.run(c))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            set,
            baseline,
            candidates: candidates.to_vec(),
            settings: settings.clone(),
            base_run,
            cand_runs,
            category_labels: set.categories().iter().map(|c| c.label.clone()).collect(),
            next: Step::Runs,
            runs: Vec::with_capacity(candidates.len() + 1),
            results: Vec::with_capacity(candidates.len()),
            bootstraps: Vec::new(),
            audit: None,
            coverage: None,
            platform: Vec::new(),
            progression: None,
            checkpoints: None,
            tasks: Vec::new(),
            effort: None,
            effort_facts: Vec::with_capacity(candidates.len() + 1),
        })
    }

    /// True once every step is done: [`ReportBuild::finish`] then only assembles.
    pub fn is_built(&self) -> bool {
        self.next == Step::Built
    }

    /// The share of the steps done, in [0, 1].
    pub fn progress(&self) -> f64 {
        let candidates = self.candidates.len();
        let done = match self.next {
            Step::Runs => 0,
            Step::Candidate(i) => 1 + i,
            Step::Verdicts => 1 + candidates,
            Step::Coverage => 2 + candidates,
            Step::Platform => 3 + candidates,
            Step::Tasks => 4 + candidates,
            Step::EffortFacts(i) => 5 + candidates + i,
            Step::Effort => 6 + 2 * candidates,
            Step::Checkpoints => 7 + 2 * candidates,
            Step::Built => 8 + 2 * candidates,
        };
        done as f64 / (8 + 2 * candidates) as f64
    }

    /// Does the next step; nothing once built.
    pub fn advance(&mut self) -> Result<(), ReportError> {
        self.next = match self.next {
            Step::Runs => {
                self.summarize_runs();
                Step::Candidate(0)
            }
            Step::Candidate(i) => {
                self.analyse_candidate(i)?;
                if i + 1 < self.candidates.len() {
                    Step::Candidate(i + 1)
                } else {
                    Step::Verdicts
                }
            }
            Step::Verdicts => {
                self.decide_verdicts()?;
                Step::Coverage
            }
            Step::Coverage => {
                self.coverage = Some(coverage::coverage(
                    self.set,
                    self.baseline,
                    &self.candidates,
                )?);
                Step::Platform
            }
            Step::Platform => {
                self.platform_and_progression()?;
                Step::Tasks
            }
            Step::Tasks => {
                self.tasks = task_rows(self.set, &self.all_runs());
                Step::EffortFacts(0)
            }
            Step::EffortFacts(i) => {
                let runs = self.all_runs();
                if let Some(run) = runs.get(i) {
                    self.effort_facts.push(RunFacts::of(self.set, run));
                }
                if i + 1 < runs.len() {
                    Step::EffortFacts(i + 1)
                } else {
                    Step::Effort
                }
            }
            Step::Effort => {
                let (effort, effort_bootstraps) = super::effort::effort(
                    self.set,
                    &self.all_runs(),
                    &self.effort_facts,
                    &self.settings,
                );
                self.effort_facts = Vec::new();
                self.effort = Some(effort);
                self.bootstraps.extend(effort_bootstraps);
                Step::Checkpoints
            }
            Step::Checkpoints => {
                self.checkpoints = match &self.progression {
                    Some(progression) => Some(super::checkpoint_steps(
                        self.set,
                        &self.runs,
                        progression,
                        &self.tasks,
                        &self.settings,
                    )?),
                    None => None,
                };
                Step::Built
            }
            Step::Built => Step::Built,
        };
        Ok(())
    }

    /// The baseline's run, then the candidates'.
    fn all_runs(&self) -> Vec<&'a Run> {
        std::iter::once(self.base_run)
            .chain(self.cand_runs.iter().copied())
            .collect()
    }

    /// The report, its bootstraps still to draw; the steps not yet done are done first.
    pub fn finish(mut self) -> Result<DeferredReport, ReportError> {
        while !self.is_built() {
            self.advance()?;
        }
        let all_runs = self.all_runs();
        let mut sources: Vec<SourceKind> = Vec::new();
        for run in std::iter::once(self.base_run).chain(self.cand_runs.iter().copied()) {
            if !sources.contains(&run.info().source) {
                sources.push(run.info().source);
            }
        }
        let (Some(audit), Some(coverage)) = (self.audit, self.coverage) else {
            unreachable!("a built report has its audit and coverage");
        };
        let mut report = Report {
            format_version: REPORT_FORMAT_VERSION,
            settings: self.settings,
            sources,
            coverage,
            audit,
            platform: self.platform,
            progression: self.progression,
            checkpoints: self.checkpoints,
            categories: self.category_labels,
            tasks: self.tasks,
            runs: self.runs,
            candidates: self.results,
            ledger: None,
            effort: self.effort,
            cost: None,
            trial_effort: None,
        };
        report.cost = super::cost::cost_section(&report, self.set, &all_runs);
        report.trial_effort = super::trial_effort_section(self.set, &all_runs, &report.settings);
        Ok(DeferredReport {
            report,
            bootstraps: self.bootstraps,
        })
    }

    fn summarize_runs(&mut self) {
        let level = self.settings.level;
        self.runs.push(summarize_run(
            self.set,
            self.baseline,
            self.base_run,
            Role::Baseline,
            level,
        ));
        for (&index, run) in self.candidates.iter().zip(&self.cand_runs) {
            self.runs
                .push(summarize_run(self.set, index, run, Role::Candidate, level));
        }
        super::run_labels::make_unique(&mut self.runs);
    }

    /// Candidate `i`'s paired analyses (its bootstraps left to draw), exclusions, components,
    /// categories and flaky tasks; its p-values and verdict come with the others'.
    fn analyse_candidate(&mut self, i: usize) -> Result<(), ReportError> {
        let (set, baseline, settings) = (self.set, self.baseline, &self.settings);
        let (cand, cand_run) = (self.candidates[i], self.cand_runs[i]);
        let primary_scores = set.paired(baseline, cand, Analysis::Primary)?;
        let sensitivity_scores = set.paired(baseline, cand, Analysis::Sensitivity)?;
        let (mut primary, primary_bootstraps) =
            analyse_pair(&primary_scores, Analysis::Primary, settings);
        let (mut sensitivity, sensitivity_bootstraps) =
            analyse_pair(&sensitivity_scores, Analysis::Sensitivity, settings);
        self.bootstraps.extend(bootstrap_slots::pending(
            i,
            Analysis::Primary,
            primary_bootstraps,
        ));
        self.bootstraps.extend(bootstrap_slots::pending(
            i,
            Analysis::Sensitivity,
            sensitivity_bootstraps,
        ));
        // While a compared run runs (the verdict's `provisional`, same rule as
        // `verdict_context`), each analysis carries its anytime-valid confidence sequence.
        let running = [&self.runs[0], &self.runs[i + 1]]
            .iter()
            .any(|run| Lifecycle::of(run.status.as_deref()) == Lifecycle::NotFinished);
        if running {
            let times = |scores: &PairedScores, analysis| {
                model::paired_task_times(set, baseline, cand, scores, analysis)
            };
            let primary_times = times(&primary_scores, Analysis::Primary)?;
            let sensitivity_times = times(&sensitivity_scores, Analysis::Sensitivity)?;
            primary.confidence_sequence = Some(anytime_interval(
                &primary_scores,
                &primary_times,
                settings.level,
            ));
            sensitivity.confidence_sequence = Some(anytime_interval(
                &sensitivity_scores,
                &sensitivity_times,
                settings.level,
            ));
        }
        let excluded = Exclusions::count(&primary_scores.left_out, self.base_run, cand_run);
        let headline_scores = match settings.headline {
            Analysis::Primary => &primary_scores,
            Analysis::Sensitivity => &sensitivity_scores,
        };
        self.results.push(CandidateResult {
            run: i + 1,
            primary,
            sensitivity,
            excluded,
            components: component_deltas(self.base_run, cand_run, settings.level),
            by_category: category_breakdown(
                headline_scores,
                settings.headline,
                &self.category_labels,
                settings.level,
                settings.alpha,
            ),
            flaky: flaky_tasks(headline_scores, settings.headline),
            p_holm: Err(stats::NotComputable::NotEnoughData { needed: 1, got: 0 }),
            p_bh: Err(stats::NotComputable::NotEnoughData { needed: 1, got: 0 }),
            verdict: placeholder_verdict(),
            sentence: String::new(),
            without_ledger: None,
        });
        Ok(())
    }

    /// Holm and BH across the candidates, the audit, and each candidate's verdict and
    /// sentence.
    fn decide_verdicts(&mut self) -> Result<(), ReportError> {
        let settings = &self.settings;
        adjust_p_values(&mut self.results, settings);
        let audit = audit::audit(self.set, self.baseline, &self.candidates)?;
        for (result, &cand) in self.results.iter_mut().zip(&self.candidates) {
            let context = verdict_context(&audit, &self.runs, cand, result);
            result.verdict = candidate_verdict(result, &context, settings);
        }
        for result in &mut self.results {
            let name = shorten(&self.runs[result.run].name, SHOWN_NAME_CHARS);
            let headline = match settings.headline {
                Analysis::Primary => &result.primary,
                Analysis::Sensitivity => &result.sensitivity,
            };
            result.sentence =
                headline_sentence(&name, headline, &result.excluded, settings, &result.verdict);
        }
        self.audit = Some(audit);
        Ok(())
    }

    fn platform_and_progression(&mut self) -> Result<(), ReportError> {
        let members: Vec<RunIdx> = std::iter::once(self.baseline)
            .chain(self.candidates.iter().copied())
            .collect();
        self.platform = audit::platform_checks(self.set, &members)?;
        let set = self.set;
        self.progression = progression::progression(&self.runs, &self.results, &self.settings).map(
            |mut progression| {
                progression.platform = set
                    .platform_series(&progression.training_run_id)
                    .map(|series| platform_progression(&progression.points, series));
                progression
            },
        );
        Ok(())
    }
}
