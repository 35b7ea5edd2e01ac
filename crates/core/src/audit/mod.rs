//! The comparability audit: can these runs be compared at all, and what should a reader keep
//! in mind? Each finding names its runs, a stable code and one line of explanation; the
//! verdict is the worst severity found.

mod chronicle;
mod lifecycle;
mod models;
mod platform;
mod settings;
mod tasks;

pub use lifecycle::{Lifecycle, StillToCome};
pub use platform::{platform_checks, PlatformCheck, TaskDisagreement, PASS_RATE_TOLERANCE};
pub use tasks::TASK_SET_CAUTION_SHARE;

use serde::{Deserialize, Serialize};

use crate::model::{EffectiveSetting, ModelError, Run, RunIdx, RunSet};

/// How much a finding weighs on the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing; does not weaken the comparison.
    Info,
    /// The comparison stands but a difference may explain part of it.
    Caution,
    /// The runs measure different things: the comparison is not meaningful.
    Blocking,
}

/// One thing the audit found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// How much it weighs.
    pub severity: Severity,
    /// Stable code, e.g. `TEMPERATURE_DIFFERS`.
    pub code: String,
    /// Runs concerned (baseline first when it is one of them).
    pub runs: Vec<RunIdx>,
    /// One line a reviewer understands.
    pub message: String,
}

/// The audit of a baseline against its candidates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Audit {
    /// The baseline.
    pub baseline: RunIdx,
    /// The candidates, in the order given.
    pub candidates: Vec<RunIdx>,
    /// Everything found, per run first, then per candidate in order.
    pub findings: Vec<Finding>,
    /// The worst severity found; `Info` when nothing was found.
    pub verdict: Severity,
    /// The effective settings of each compared Trajectory run (the baseline first), with
    /// where each value came from; Chronicle runs have none.
    #[serde(default)]
    pub settings: Vec<RunSettings>,
}

/// One run's effective settings, as the audit compared them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The run.
    pub run: RunIdx,
    /// Every setting, resolved, in the order of [`SETTINGS`](crate::model::SETTINGS).
    pub settings: Vec<EffectiveSetting>,
}

impl Audit {
    /// Findings of one severity.
    pub fn with_severity(&self, severity: Severity) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(move |finding| finding.severity == severity)
    }
}

/// Audits `candidates` against `baseline`: per run its lifecycle, per candidate the pair's
/// settings (for Chronicle jobs: suite, version, subset, scorers, environment), models and
/// tasks, then the platform's own results of each Chronicle job against its trials.
pub fn audit(set: &RunSet, baseline: RunIdx, candidates: &[RunIdx]) -> Result<Audit, ModelError> {
    let base = set.run(baseline)?;
    let mut findings = Vec::new();
    lifecycle::check(baseline, base, &mut findings);
    chronicle::check_run(baseline, base, &mut findings);
    for &candidate in candidates {
        let cand = set.run(candidate)?;
        if candidate == baseline {
            findings.push(Finding {
                severity: Severity::Info,
                code: "SAME_RUN".to_owned(),
                runs: vec![baseline],
                message: format!("{} is compared with itself.", base.info().shown_name()),
            });
            continue;
        }
        lifecycle::check(candidate, cand, &mut findings);
        chronicle::check_run(candidate, cand, &mut findings);
        let pair = Pair {
            base: (baseline, base),
            cand: (candidate, cand),
            names: (base.info().shown_name(), cand.info().shown_name()),
        };
        // Chronicle jobs record a suite, its version, subset, scorers and environment instead
        // of a benchmark version and sampling settings.
        if !chronicle::check_pair(&pair, &mut findings) {
            settings::check(&pair, &mut findings);
        }
        models::check(&pair, &mut findings);
        tasks::check(set, &pair, &mut findings)?;
    }
    let members: Vec<RunIdx> = std::iter::once(baseline)
        .chain(candidates.iter().copied())
        .collect();
    platform::findings(&platform_checks(set, &members)?, &members, &mut findings);
    let mut settings = Vec::new();
    for &member in &members {
        let info = set.run(member)?.info();
        if info.chronicle.is_none() && !settings.iter().any(|s: &RunSettings| s.run == member) {
            settings.push(RunSettings {
                run: member,
                settings: info.effective_settings(),
            });
        }
    }
    let verdict = findings
        .iter()
        .map(|finding| finding.severity)
        .max()
        .unwrap_or(Severity::Info);
    Ok(Audit {
        baseline,
        candidates: candidates.to_vec(),
        findings,
        verdict,
        settings,
    })
}

/// A baseline and one candidate.
struct Pair<'a> {
    base: (RunIdx, &'a Run),
    cand: (RunIdx, &'a Run),
    /// Their names as findings quote them ([`crate::model::RunInfo::shown_name`]).
    names: (std::borrow::Cow<'a, str>, std::borrow::Cow<'a, str>),
}

impl Pair<'_> {
    fn runs(&self) -> Vec<RunIdx> {
        vec![self.base.0, self.cand.0]
    }

    fn base_name(&self) -> &str {
        &self.names.0
    }

    fn cand_name(&self) -> &str {
        &self.names.1
    }

    fn finding(&self, severity: Severity, code: &str, message: String) -> Finding {
        Finding {
            severity,
            code: code.to_owned(),
            runs: self.runs(),
            message,
        }
    }

    /// A finding that the two runs record one thing differently, in the one form every such
    /// finding takes: "{what}: {baseline} {base}, {candidate} {cand} — {why}".
    fn differs(
        &self,
        (severity, code): (Severity, &str),
        what: &str,
        (base, cand): (String, String),
        why: &str,
    ) -> Finding {
        let (b_name, c_name) = (self.base_name(), self.cand_name());
        let message = format!("{what}: {b_name} {base}, {c_name} {cand} — {why}");
        self.finding(severity, code, message)
    }

    /// Pushes the finding on one value both runs should record alike (a benchmark version, a
    /// task suite, its version) when they do not: `differs` with the two values when both
    /// record it and they differ; `unknown` with the names of the runs that do not record it
    /// when either does not (`None`: nothing to say).
    fn recorded_alike(
        &self,
        findings: &mut Vec<Finding>,
        (base, cand): (Option<&str>, Option<&str>),
        differs: impl FnOnce(&str, &str) -> Finding,
        unknown: impl FnOnce(String) -> Option<Finding>,
    ) {
        let found = match (base, cand) {
            (Some(b), Some(c)) if b != c => Some(differs(b, c)),
            (Some(_), Some(_)) => None,
            _ => unknown(self.unrecorded(base.is_none(), cand.is_none())),
        };
        findings.extend(found);
    }

    /// The names of the runs that do not record something: one of them, or both.
    fn unrecorded(&self, base: bool, cand: bool) -> String {
        match (base, cand) {
            (true, true) => format!("{} and {}", self.base_name(), self.cand_name()),
            (true, false) => self.base_name().to_owned(),
            _ => self.cand_name().to_owned(),
        }
    }
}
