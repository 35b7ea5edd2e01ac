//! CI gates on a report, read from the core's one verdict per candidate: a blocking
//! comparability finding (exit 5 unless allowed), a compared run still running, failed,
//! cancelled or not read completely (a run folder's list ending with a page saying more
//! followed) when the regression gate is asked for (exit 11 unless allowed), and a significant
//! regression (exit 6 when asked for). Checked in that order; then, when asked for, turns per
//! task that rose beyond a limit (exit 13, [`with_turns_gate`]). With a reviewer's ledger the
//! gates judge the verdicts computed with it, and the lines name each verdict without it too.

use eval_compare_core::audit::{Lifecycle, Severity};
use eval_compare_core::report::{
    ledger_changes, ledger_verdicts, signed_percent, turns_sentence, CandidateEffort,
    CandidateResult, Decision, Report,
};
use eval_compare_core::text::{shorten, SHOWN_NAME_CHARS};

use crate::exit_code::Exit;

/// Which gates are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gates {
    /// Exit 6 when a candidate is significantly worse.
    pub fail_on_regression: bool,
    /// Do not exit 5 on a blocking comparability finding.
    pub allow_incomparable: bool,
    /// Let the regression gate judge runs still running, failed or cancelled (no exit 11).
    pub allow_unfinished: bool,
}

/// The exit code of a report and the lines explaining it (for stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateOutcome {
    /// The exit code.
    pub exit: Exit,
    /// One line per blocking finding, unfinished run and regression that matters under the
    /// gates.
    pub messages: Vec<String>,
}

/// What the gates read from a report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Findings {
    /// Blocking comparability findings ("CODE: message").
    blocking: Vec<String>,
    /// Compared runs still running, failed, cancelled or not read completely ("Step 500
    /// (running)", "Step 400 (not read completely: …)").
    unfinished: Vec<String>,
    /// Candidates whose verdict is a regression, with the gates' allowances applied.
    regressions: Vec<String>,
}

/// Applies the gates to a report.
pub fn evaluate(report: &Report, gates: Gates) -> GateOutcome {
    let blocking = report
        .audit
        .with_severity(Severity::Blocking)
        .map(|finding| format!("{}: {}", finding.code, finding.message))
        .collect();
    let unfinished = report
        .runs
        .iter()
        .filter_map(|run| {
            let name = shorten(&run.name, SHOWN_NAME_CHARS);
            let status = run.status.as_deref();
            if Lifecycle::of(status).is_unfinished() {
                Some(format!("{name} ({})", status.unwrap_or("")))
            } else {
                let missing = run.incomplete_load.as_deref()?;
                Some(format!("{name} (not read completely: {missing})"))
            }
        })
        .collect();
    let regressions = report
        .candidates
        .iter()
        .filter(|candidate| is_regression(candidate, gates))
        .map(regression_line)
        .collect();
    let mut outcome = decide(
        &Findings {
            blocking,
            unfinished,
            regressions,
        },
        gates,
    );
    outcome.messages.extend(ledger_lines(report));
    outcome
}

/// With a reviewer's ledger, each candidate's verdict with and without it (the gates judge the
/// one with it); first, when the ledger changes a verdict, the sentence that says so.
fn ledger_lines(report: &Report) -> Vec<String> {
    if report.ledger.is_none() {
        return Vec::new();
    }
    let verdicts = report.candidates.iter().filter_map(|candidate| {
        let name = report.run_of(candidate).map_or("candidate".into(), |run| {
            shorten(&run.name, SHOWN_NAME_CHARS)
        });
        Some(format!(
            "reviewer's ledger: {name}: {}",
            ledger_verdicts(report, candidate)?
        ))
    });
    ledger_changes(report).into_iter().chain(verdicts).collect()
}

/// Whether a candidate counts as a regression: its verdict is worse; or its evidence is worse
/// and what overrode it is allowed (a blocking finding under `--allow-incomparable`) or is a
/// doubt that must not hide a regression (unreliable). A provisional verdict counts too: the
/// unfinished gate decides first whether it may be judged.
fn is_regression(candidate: &CandidateResult, gates: Gates) -> bool {
    let verdict = &candidate.verdict;
    match verdict.decision {
        Decision::Worse => true,
        Decision::NotComparable => gates.allow_incomparable && verdict.evidence == Decision::Worse,
        Decision::Unreliable => verdict.evidence == Decision::Worse,
        _ => false,
    }
}

fn regression_line(candidate: &CandidateResult) -> String {
    let mut line = match &candidate.p_holm {
        Ok(p) => format!("{} (Holm-adjusted p = {p:.4})", candidate.sentence),
        Err(_) => candidate.sentence.clone(),
    };
    let verdict = &candidate.verdict;
    if verdict.decision != Decision::Worse || verdict.provisional {
        line.push_str(&format!("; verdict: {}", verdict.headline()));
    }
    line
}

/// The decision itself, from what the report holds.
fn decide(findings: &Findings, gates: Gates) -> GateOutcome {
    let mut messages = Vec::new();
    let blocked = !findings.blocking.is_empty() && !gates.allow_incomparable;
    for finding in &findings.blocking {
        if gates.allow_incomparable {
            messages.push(format!(
                "warning: blocking comparability finding (allowed by --allow-incomparable): {finding}"
            ));
        } else {
            messages.push(format!("not comparable: {finding}"));
        }
    }
    let refused =
        gates.fail_on_regression && !gates.allow_unfinished && !findings.unfinished.is_empty();
    for run in &findings.unfinished {
        messages.push(if refused {
            format!(
                "not finished: {run}; the regression gate does not judge partial numbers (--allow-unfinished judges them as they stand)"
            )
        } else {
            format!("warning: {run} has not finished: its numbers are partial and its verdict provisional or partial")
        });
    }
    let regressed = !findings.regressions.is_empty() && gates.fail_on_regression;
    if gates.fail_on_regression {
        for regression in &findings.regressions {
            messages.push(format!("significant regression: {regression}"));
        }
    }
    let exit = if blocked {
        Exit::Incomparable
    } else if refused {
        Exit::Unfinished
    } else if regressed {
        Exit::Regression
    } else {
        Exit::Ok
    };
    GateOutcome { exit, messages }
}

/// The turns gate (`--max-turns-increase PERCENT`) after the others: exit 13 when the other
/// gates passed and a candidate's paired relative increase of turns per task has its whole
/// interval above `limit` percent; a candidate whose increase cannot be judged (no step counts,
/// too few tasks) is a warning, never a pass or a failure in silence.
pub fn with_turns_gate(
    mut outcome: GateOutcome,
    report: &Report,
    limit: Option<f64>,
) -> GateOutcome {
    let Some(limit) = limit else {
        return outcome;
    };
    let mut exceeded = false;
    for candidate in &report.candidates {
        let name = report.run_of(candidate).map_or("candidate".into(), |run| {
            shorten(&run.name, SHOWN_NAME_CHARS)
        });
        let Some(effort) = candidate_effort_of(report, candidate) else {
            outcome.messages.push(format!(
                "warning: turns of {name} not judged: the report has no effort section"
            ));
            continue;
        };
        let sentence = turns_sentence(&effort.turns);
        match &effort.turns.relative {
            Ok(relative) if relative.interval.lower * 100.0 > limit => {
                exceeded = true;
                outcome.messages.push(format!(
                    "turns above the limit of {}: {name}: {sentence}",
                    signed_percent(limit / 100.0)
                ));
            }
            Ok(_) => {}
            Err(_) => outcome.messages.push(format!(
                "warning: turns of {name} not judged against --max-turns-increase: {sentence}"
            )),
        }
    }
    if exceeded && outcome.exit == Exit::Ok {
        outcome.exit = Exit::TurnsIncrease;
    }
    outcome
}

/// The effort of `candidate` in `report`.
fn candidate_effort_of<'a>(
    report: &'a Report,
    candidate: &CandidateResult,
) -> Option<&'a CandidateEffort> {
    report
        .effort
        .as_ref()?
        .candidates
        .iter()
        .find(|effort| effort.run == candidate.run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gates(fail_on_regression: bool, allow_incomparable: bool) -> Gates {
        Gates {
            fail_on_regression,
            allow_incomparable,
            allow_unfinished: false,
        }
    }

    /// Checks each case's exit: findings, gates, and the exit they decide.
    fn assert_exits(cases: &[(Findings, Gates, Exit)]) {
        for (findings, gates, expected) in cases {
            assert_eq!(
                decide(findings, *gates).exit,
                *expected,
                "{findings:?} {gates:?}"
            );
        }
    }

    fn findings(blocking: &[&str], unfinished: &[&str], regressions: &[&str]) -> Findings {
        let own = |lines: &[&str]| lines.iter().map(|&l| l.to_owned()).collect();
        Findings {
            blocking: own(blocking),
            unfinished: own(unfinished),
            regressions: own(regressions),
        }
    }

    #[test]
    fn blocking_wins_unless_allowed_and_regressions_count_only_when_asked() {
        let blocking = ["SPLIT_DIFFERS: split differs"];
        let regression = ["B scores 3.0 points lower"];
        let cases = [
            (findings(&[], &[], &[]), gates(true, false), Exit::Ok),
            (
                findings(&blocking, &[], &[]),
                gates(false, false),
                Exit::Incomparable,
            ),
            (findings(&blocking, &[], &[]), gates(false, true), Exit::Ok),
            (
                findings(&blocking, &[], &regression),
                gates(true, false),
                Exit::Incomparable,
            ),
            (
                findings(&blocking, &[], &regression),
                gates(true, true),
                Exit::Regression,
            ),
            (
                findings(&[], &[], &regression),
                gates(false, false),
                Exit::Ok,
            ),
            (
                findings(&[], &[], &regression),
                gates(true, false),
                Exit::Regression,
            ),
        ];
        assert_exits(&cases);
    }

    #[test]
    fn the_regression_gate_refuses_unfinished_runs_unless_allowed() {
        let running = ["Step 500 (running)"];
        let regression = ["B scores 3.0 points lower"];
        let allowing = Gates {
            allow_unfinished: true,
            ..gates(true, false)
        };
        let cases = [
            // Without the regression gate a running run is only a warning.
            (findings(&[], &running, &[]), gates(false, false), Exit::Ok),
            (
                findings(&[], &running, &[]),
                gates(true, false),
                Exit::Unfinished,
            ),
            (
                findings(&[], &running, &regression),
                gates(true, false),
                Exit::Unfinished,
            ),
            (findings(&[], &running, &[]), allowing, Exit::Ok),
            (
                findings(&[], &running, &regression),
                allowing,
                Exit::Regression,
            ),
            // Gate 5 comes first.
            (
                findings(&["X: y"], &running, &[]),
                gates(true, false),
                Exit::Incomparable,
            ),
        ];
        assert_exits(&cases);
        let warned = decide(&findings(&[], &running, &[]), gates(false, false));
        assert_eq!(
            warned.messages,
            ["warning: Step 500 (running) has not finished: its numbers are partial and its verdict provisional or partial"]
        );
        let refused = decide(&findings(&[], &running, &[]), gates(true, false));
        assert!(
            refused.messages[0].starts_with("not finished: Step 500 (running); "),
            "{:?}",
            refused.messages
        );
    }

    #[test]
    fn every_gate_that_matters_is_explained() {
        let outcome = decide(
            &findings(
                &["SPLIT_DIFFERS: split differs"],
                &[],
                &["B scores 3.0 points lower"],
            ),
            gates(true, true),
        );
        assert_eq!(
            outcome.messages,
            [
                "warning: blocking comparability finding (allowed by --allow-incomparable): SPLIT_DIFFERS: split differs",
                "significant regression: B scores 3.0 points lower",
            ]
        );
        assert!(decide(&findings(&[], &[], &["x"]), gates(false, false))
            .messages
            .is_empty());
    }
}
