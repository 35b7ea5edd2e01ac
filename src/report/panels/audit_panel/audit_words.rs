//! What the page's comparability audit says: its verdict in a title and a sentence, whether it
//! opens (folded to one line when the runs are comparable, open when anything needs a look),
//! its findings worst first, and what the folded line says is inside. Page-only words (the
//! markdown and HTML reports say the verdict with `core::report::words::audit`); plain
//! functions, tested natively.

use eval_compare_core::audit::{Finding, Severity};
use eval_compare_core::text::plural;

/// The verdict as the panel shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerdictWords {
    /// After "Comparability: ".
    pub title: &'static str,
    /// The CSS modifier of the verdict's band.
    pub modifier: &'static str,
    /// One sentence on what the verdict means for the numbers.
    pub explanation: &'static str,
}

/// The words of a verdict.
pub fn verdict_words(verdict: Severity) -> VerdictWords {
    let (title, modifier, explanation) = match verdict {
        Severity::Info => (
            "Comparable",
            "verdict-ok",
            "Nothing found that would make these runs measure different things.",
        ),
        Severity::Caution => (
            "Comparable, with cautions",
            "verdict-caution",
            "The comparison stands, but a difference below may explain part of it.",
        ),
        Severity::Blocking => (
            "Not comparable",
            "verdict-blocking",
            "These runs measure different things: read the blocking findings before any number.",
        ),
    };
    VerdictWords {
        title,
        modifier,
        explanation,
    }
}

/// Whether the audit is open: as the reader last left it under this verdict (`chosen`), else
/// folded when the runs are comparable and open when a finding is a caution or blocks.
pub fn audit_open(verdict: Severity, chosen: Option<(Severity, bool)>) -> bool {
    match chosen {
        Some((when, open)) if when == verdict => open,
        _ => verdict != Severity::Info,
    }
}

/// The findings in the order the panel lists them: blocking first, then cautions, then the
/// rest; the audit's own order within each severity.
pub fn worst_first(findings: &[Finding]) -> Vec<&Finding> {
    let mut ordered: Vec<&Finding> = findings.iter().collect();
    ordered.sort_by_key(|finding| std::cmp::Reverse(finding.severity));
    ordered
}

/// What the folded line says it holds: "2 findings · 10 settings, all the same", "no findings ·
/// 10 settings, 2 differ"; the settings left out when no run has any (Chronicle jobs).
pub fn folded_contents(findings: usize, settings: usize, differing: usize) -> String {
    let findings = match findings {
        0 => "no findings".to_owned(),
        n => plural(n as u64, "finding", "findings"),
    };
    if settings == 0 {
        return findings;
    }
    let settings_words = plural(settings as u64, "setting", "settings");
    let differ = match differing {
        0 => "all the same".to_owned(),
        n if n >= settings => "all differ".to_owned(),
        1 => "1 differs".to_owned(),
        n => format!("{n} differ"),
    };
    format!("{findings} · {settings_words}, {differ}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::model::RunIdx;

    fn finding(severity: Severity, code: &str) -> Finding {
        Finding {
            severity,
            code: code.to_owned(),
            runs: vec![RunIdx(0)],
            message: format!("{code} message"),
        }
    }

    #[test]
    fn each_verdict_has_its_own_title_band_and_sentence() {
        let all = [Severity::Info, Severity::Caution, Severity::Blocking].map(verdict_words);
        assert_eq!(all[0].title, "Comparable");
        assert_eq!(all[1].modifier, "verdict-caution");
        assert!(all[2].explanation.contains("blocking findings"));
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!((a.title, a.modifier), (b.title, b.modifier));
            }
        }
    }

    #[test]
    fn the_audit_opens_when_it_is_not_simply_comparable_unless_the_reader_closed_it() {
        assert!(!audit_open(Severity::Info, None));
        assert!(audit_open(Severity::Caution, None));
        assert!(audit_open(Severity::Blocking, None));
        assert!(audit_open(Severity::Info, Some((Severity::Info, true))));
        assert!(!audit_open(
            Severity::Blocking,
            Some((Severity::Blocking, false))
        ));
        // A choice made under another verdict does not carry over to a new one.
        assert!(audit_open(
            Severity::Blocking,
            Some((Severity::Info, false))
        ));
        assert!(!audit_open(Severity::Info, Some((Severity::Caution, true))));
    }

    #[test]
    fn blocking_findings_come_first_then_cautions_each_in_the_audits_order() {
        let findings = [
            finding(Severity::Caution, "A"),
            finding(Severity::Info, "B"),
            finding(Severity::Blocking, "C"),
            finding(Severity::Caution, "D"),
            finding(Severity::Blocking, "E"),
        ];
        let codes: Vec<&str> = worst_first(&findings)
            .iter()
            .map(|finding| finding.code.as_str())
            .collect();
        assert_eq!(codes, ["C", "E", "A", "D", "B"]);
        assert!(worst_first(&[]).is_empty());
    }

    #[test]
    fn the_folded_line_counts_the_findings_and_the_settings() {
        assert_eq!(
            folded_contents(2, 10, 0),
            "2 findings · 10 settings, all the same"
        );
        assert_eq!(
            folded_contents(1, 10, 1),
            "1 finding · 10 settings, 1 differs"
        );
        assert_eq!(
            folded_contents(0, 10, 3),
            "no findings · 10 settings, 3 differ"
        );
        assert_eq!(
            folded_contents(4, 10, 10),
            "4 findings · 10 settings, all differ"
        );
        assert_eq!(folded_contents(3, 0, 0), "3 findings");
    }
}
