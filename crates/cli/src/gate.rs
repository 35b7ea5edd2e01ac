//! CI gates on a report: a blocking comparability finding (exit 5 unless allowed) and a
//! significant regression (exit 6 when asked for). Gate 5 is checked first.

use eval_compare_core::audit::Severity;
use eval_compare_core::report::{Report, Verdict};

use crate::exit_code::Exit;

/// Which gates are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gates {
    /// Exit 6 when a candidate is significantly worse.
    pub fail_on_regression: bool,
    /// Do not exit 5 on a blocking comparability finding.
    pub allow_incomparable: bool,
}

/// The exit code of a report and the lines explaining it (for stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateOutcome {
    /// The exit code.
    pub exit: Exit,
    /// One line per blocking finding and per regression that matters under the gates.
    pub messages: Vec<String>,
}

/// Applies the gates to a report.
pub fn evaluate(report: &Report, gates: Gates) -> GateOutcome {
    let blocking: Vec<String> = report
        .audit
        .with_severity(Severity::Blocking)
        .map(|finding| format!("{}: {}", finding.code, finding.message))
        .collect();
    let regressions: Vec<String> = report
        .candidates
        .iter()
        .filter(|candidate| candidate.verdict == Verdict::Worse)
        .map(|candidate| match &candidate.p_holm {
            Ok(p) => format!("{} (Holm-adjusted p = {p:.4})", candidate.sentence),
            Err(_) => candidate.sentence.clone(),
        })
        .collect();
    decide(&blocking, &regressions, gates)
}

/// The decision itself, from the blocking findings and the regressions found.
fn decide(blocking: &[String], regressions: &[String], gates: Gates) -> GateOutcome {
    let mut messages = Vec::new();
    let blocked = !blocking.is_empty() && !gates.allow_incomparable;
    for finding in blocking {
        if gates.allow_incomparable {
            messages.push(format!(
                "warning: blocking comparability finding (allowed by --allow-incomparable): {finding}"
            ));
        } else {
            messages.push(format!("not comparable: {finding}"));
        }
    }
    let regressed = !regressions.is_empty() && gates.fail_on_regression;
    if gates.fail_on_regression {
        for regression in regressions {
            messages.push(format!("significant regression: {regression}"));
        }
    }
    let exit = if blocked {
        Exit::Incomparable
    } else if regressed {
        Exit::Regression
    } else {
        Exit::Ok
    };
    GateOutcome { exit, messages }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gates(fail_on_regression: bool, allow_incomparable: bool) -> Gates {
        Gates {
            fail_on_regression,
            allow_incomparable,
        }
    }

    #[test]
    fn blocking_wins_unless_allowed_and_regressions_count_only_when_asked() {
        let blocking = ["SPLIT_DIFFERS: split differs".to_owned()];
        let regression = ["B scores 3.0 points lower".to_owned()];
        let none: [String; 0] = [];
        let cases = [
            (&none[..], &none[..], gates(true, false), Exit::Ok),
            (
                &blocking[..],
                &none[..],
                gates(false, false),
                Exit::Incomparable,
            ),
            (&blocking[..], &none[..], gates(false, true), Exit::Ok),
            (
                &blocking[..],
                &regression[..],
                gates(true, false),
                Exit::Incomparable,
            ),
            (
                &blocking[..],
                &regression[..],
                gates(true, true),
                Exit::Regression,
            ),
            (&none[..], &regression[..], gates(false, false), Exit::Ok),
            (
                &none[..],
                &regression[..],
                gates(true, false),
                Exit::Regression,
            ),
        ];
        for (blocking, regressions, gates, expected) in cases {
            assert_eq!(
                decide(blocking, regressions, gates).exit,
                expected,
                "{blocking:?} {regressions:?} {gates:?}"
            );
        }
    }

    #[test]
    fn every_gate_that_matters_is_explained() {
        let outcome = decide(
            &["SPLIT_DIFFERS: split differs".to_owned()],
            &["B scores 3.0 points lower".to_owned()],
            gates(true, true),
        );
        assert_eq!(
            outcome.messages,
            [
                "warning: blocking comparability finding (allowed by --allow-incomparable): SPLIT_DIFFERS: split differs",
                "significant regression: B scores 3.0 points lower",
            ]
        );
        assert!(decide(&[], &["x".to_owned()], gates(false, false))
            .messages
            .is_empty());
    }
}
