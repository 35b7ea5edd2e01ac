//! The reviewer's ledger in the report: its entries with whether each applies, each compared
//! run's tasks set aside (in the coverage ledger), and each candidate's verdict and Δ without
//! the ledger beside those with it. Every other figure of the report is computed with the
//! ledger applied ([`crate::ledger::apply`]).

use serde::{Deserialize, Serialize};

use crate::ledger::{apply, Entry, Ledger, LedgerEffects};
use crate::model::{RunIdx, RunSet};
use crate::stats::{NotComputable, Stat};

use super::{build_report_deferred, DeferredReport, Report, ReportError, ReportSettings, Verdict};

/// The ledger a report was built with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerReport {
    /// Every entry, in the ledger's order, with whether it applies.
    pub entries: Vec<LedgerLine>,
    /// Distinct tasks the ledger changed in some compared run.
    pub tasks_set_aside: u64,
}

/// One entry of the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerLine {
    /// The entry as the file gives it.
    pub entry: Entry,
    /// Whether it names a task or trajectory of a compared run; one that does not is kept and
    /// changes nothing.
    pub applies: bool,
}

/// A candidate's headline without the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WithoutLedger {
    /// The verdict the report would give without the ledger.
    pub verdict: Verdict,
    /// The headline Δ without the ledger.
    pub delta: Stat<f64>,
    /// Tasks in the headline analysis without the ledger.
    pub n: usize,
}

impl WithoutLedger {
    /// Whether the ledger changes the decision (the marks aside).
    pub fn changes_decision(&self, with: &Verdict) -> bool {
        self.verdict.decision != with.decision
    }
}

/// The report of `candidates` against `baseline` with `ledger` applied, each candidate's
/// verdict and Δ without it beside ([`CandidateResult::without_ledger`](super::CandidateResult)).
/// An empty ledger gives [`build_report`](super::build_report)'s report with an empty ledger
/// section.
pub fn build_report_with_ledger(
    set: &RunSet,
    baseline: RunIdx,
    candidates: &[RunIdx],
    settings: &ReportSettings,
    ledger: &Ledger,
) -> Result<Report, ReportError> {
    build_report_with_ledger_deferred(set, baseline, candidates, settings, ledger)
        .map(DeferredReport::complete)
}

/// [`build_report_with_ledger`] with its bootstraps still to draw ([`DeferredReport`]). The
/// report without the ledger is built only for its verdicts and Δ, which need no bootstrap:
/// its bootstraps are never drawn.
pub fn build_report_with_ledger_deferred(
    set: &RunSet,
    baseline: RunIdx,
    candidates: &[RunIdx],
    settings: &ReportSettings,
    ledger: &Ledger,
) -> Result<DeferredReport, ReportError> {
    let without = build_report_deferred(set, baseline, candidates, settings)?.report;
    let compared: Vec<RunIdx> = std::iter::once(baseline)
        .chain(candidates.iter().copied())
        .collect();
    let applied = apply(set, &compared, ledger)?;
    let mut deferred = build_report_deferred(&applied.set, baseline, candidates, settings)?;
    attach_ledger(&mut deferred.report, &without, ledger, &applied.effects);
    Ok(deferred)
}

/// Adds the ledger to `report` (built on the set with `ledger` applied): its entries, each
/// compared run's tasks set aside, and each candidate's headline in `without` (the same
/// comparison built without the ledger; its bootstraps need not be drawn).
pub fn attach_ledger(
    report: &mut Report,
    without: &Report,
    ledger: &Ledger,
    effects: &LedgerEffects,
) {
    report.ledger = Some(LedgerReport {
        entries: ledger
            .entries
            .iter()
            .enumerate()
            .map(|(index, entry)| LedgerLine {
                entry: entry.clone(),
                applies: effects.applies.get(index).copied().unwrap_or(false),
            })
            .collect(),
        tasks_set_aside: effects.tasks,
    });
    for run in &mut report.coverage.runs {
        run.set_aside = Some(
            effects
                .runs
                .iter()
                .find(|(index, _)| *index == run.run)
                .map(|(_, set_aside)| set_aside.clone())
                .unwrap_or_default(),
        );
    }
    for (candidate, other) in report.candidates.iter_mut().zip(&without.candidates) {
        let headline = without.headline(other);
        candidate.without_ledger = Some(WithoutLedger {
            verdict: other.verdict.clone(),
            delta: headline
                .estimate
                .as_ref()
                .map(|estimate| estimate.delta)
                .map_err(NotComputable::clone),
            n: headline.n,
        });
    }
}
