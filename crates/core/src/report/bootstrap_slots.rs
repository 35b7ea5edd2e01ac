//! A report's bootstraps as work still to do: [`build_report`](super::build_report) draws them
//! at once; the page draws them a few resamples at a time, so a large bootstrap never blocks
//! it, and shows the rest of the report meanwhile. Either way each result goes in its slot and
//! the report is the same.

use crate::model::Analysis;
use crate::stats::{BootstrapResult, BootstrapRun, Stat};

use super::Report;

/// Where a bootstrap's result goes in a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BootstrapSlot {
    /// Index in [`Report::candidates`].
    pub candidate: usize,
    /// The analysis.
    pub analysis: Analysis,
    /// Resampling whole categories (the clustered analysis) rather than tasks.
    pub clustered: bool,
    /// The candidate's turn Δ ([`super::TurnsDelta`]) rather than its reward's (`analysis`
    /// and `clustered` then unused).
    pub effort: bool,
    /// With `effort`: the candidate's tokens Δ ([`super::CandidateTokens`]) rather than its
    /// turns'.
    pub tokens: bool,
}

/// One analysis' bootstraps, not yet drawn; each may already be refused (too few tasks, say).
#[derive(Debug)]
pub struct AnalysisBootstraps {
    /// Resampling tasks.
    pub tasks: Stat<BootstrapRun>,
    /// Resampling whole categories, when the clustered analysis applies.
    pub clustered: Option<Stat<BootstrapRun>>,
}

/// A bootstrap of a report, to draw and put in its slot.
#[derive(Debug)]
pub struct PendingBootstrap {
    /// Where its result goes.
    pub slot: BootstrapSlot,
    /// The bootstrap, or why it cannot run.
    pub run: Stat<BootstrapRun>,
}

impl PendingBootstrap {
    /// Its result, drawing whatever is left at once (natively over the machine's cores).
    pub fn complete(self) -> (BootstrapSlot, Stat<BootstrapResult>) {
        (self.slot, self.run.and_then(BootstrapRun::complete))
    }
}

/// A report whose bootstraps are still to draw (none when B = 0): every other number is final.
#[derive(Debug)]
pub struct DeferredReport {
    /// The report, its bootstrap fields absent.
    pub report: Report,
    /// Its bootstraps, in candidate order.
    pub bootstraps: Vec<PendingBootstrap>,
}

impl DeferredReport {
    /// The finished report: every bootstrap drawn and in its slot.
    pub fn complete(self) -> Report {
        let mut report = self.report;
        for pending in self.bootstraps {
            let (slot, result) = pending.complete();
            report.fill_bootstrap(slot, result);
        }
        report
    }
}

impl Report {
    /// Puts a bootstrap's result in its slot; a slot the report does not have (no such
    /// candidate, or no clustered analysis) is left alone.
    pub fn fill_bootstrap(&mut self, slot: BootstrapSlot, result: Stat<BootstrapResult>) {
        if slot.effort {
            let Some(effort) = self.effort.as_mut() else {
                return;
            };
            if slot.tokens {
                let tokens = effort.tokens.as_mut();
                if let Some(candidate) = tokens.and_then(|t| t.candidates.get_mut(slot.candidate)) {
                    candidate.bootstrap = Some(result);
                }
            } else if let Some(candidate) = effort.candidates.get_mut(slot.candidate) {
                candidate.turns.bootstrap = Some(result);
            }
            return;
        }
        let Some(candidate) = self.candidates.get_mut(slot.candidate) else {
            return;
        };
        let analysis = match slot.analysis {
            Analysis::Primary => &mut candidate.primary,
            Analysis::Sensitivity => &mut candidate.sensitivity,
        };
        if !slot.clustered {
            analysis.bootstrap = Some(result);
        } else if let Some(clustered) = &mut analysis.clustered {
            clustered.bootstrap = Some(result);
        }
    }
}

/// The pending bootstraps of one analysis of the candidate at `candidate`.
pub(super) fn pending(
    candidate: usize,
    analysis: Analysis,
    bootstraps: Option<AnalysisBootstraps>,
) -> Vec<PendingBootstrap> {
    let Some(AnalysisBootstraps { tasks, clustered }) = bootstraps else {
        return Vec::new();
    };
    let slot = |clustered| BootstrapSlot {
        candidate,
        analysis,
        clustered,
        effort: false,
        tokens: false,
    };
    std::iter::once(PendingBootstrap {
        slot: slot(false),
        run: tasks,
    })
    .chain(clustered.map(|run| PendingBootstrap {
        slot: slot(true),
        run,
    }))
    .collect()
}

/// The pending turn bootstraps of the candidates, in candidate order ([`super::effort`]); their
/// tokens' (`tokens`) go in the tokens' slots.
pub(super) fn pending_effort(runs: Vec<Stat<BootstrapRun>>, tokens: bool) -> Vec<PendingBootstrap> {
    runs.into_iter()
        .enumerate()
        .map(|(candidate, run)| PendingBootstrap {
            slot: BootstrapSlot {
                candidate,
                analysis: Analysis::Primary,
                clustered: false,
                effort: true,
                tokens,
            },
            run,
        })
        .collect()
}
