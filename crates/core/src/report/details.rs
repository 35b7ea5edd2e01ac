//! The statistics details of one candidate: every statistic of both analyses, as labelled text
//! rows. The CLI's markdown prints them as a table and the page's headline card in its details
//! expander, so both list the same statistics under the same labels.

use crate::stats::{BootstrapResult, ConfidenceSequence, PassAtK, Stat};
use crate::text::{count, interval_points, mean, p_value, plural, points, signed_points, StatText};

use super::explain::Topic;
use super::paired_analysis::{IntervalMethod, SMALL_BINARY_TASKS};
use super::{CandidateResult, PairedAnalysis, Report};

/// What a statistic of binary outcomes says when the tasks are not one 0/1 sample each.
const NOT_BINARY: &str = "does not apply (not one binary sample per task)";

/// Which interval the headline uses, and why.
pub fn interval_method_text(method: IntervalMethod) -> String {
    match method {
        IntervalMethod::T => "t interval".to_owned(),
        IntervalMethod::TangoScore => format!(
            "Tango score interval (one binary sample per task, fewer than {} tasks)",
            count(SMALL_BINARY_TASKS as u64)
        ),
    }
}

/// The anytime-valid interval in a sentence: "anytime-valid 95% interval: +0.4 to +9.8 points
/// (stays valid while the run runs)".
pub fn anytime_interval_text(sequence: &ConfidenceSequence) -> String {
    format!(
        "anytime-valid {}% interval: {} points (stays valid while the run runs)",
        (sequence.interval.level * 100.0).round(),
        interval_points(&sequence.interval)
    )
}

/// The headline analysis' anytime-valid interval of `candidate` as [`anytime_interval_text`],
/// or why it has none; `None` when no compared run is running (none was computed).
pub fn headline_anytime_interval(report: &Report, candidate: &CandidateResult) -> Option<String> {
    let sequence = report.headline(candidate).confidence_sequence.as_ref()?;
    Some(match sequence {
        Ok(sequence) => anytime_interval_text(sequence),
        Err(_) => format!(
            "anytime-valid interval: {}",
            StatText::of(sequence, |_| String::new()).text()
        ),
    })
}

/// One row of the details: a statistic's label and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailRow {
    /// What the row shows, e.g. `Paired t-test p`.
    pub label: String,
    /// The statistic it shows, for its explanation ([`super::explain`]).
    pub topic: Topic,
    /// Its text in each analysis, or one text for the candidate.
    pub cells: DetailCells,
}

/// The text of a details row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DetailCells {
    /// One text per analysis.
    PerAnalysis {
        /// In the primary analysis (paired tasks, included samples).
        primary: String,
        /// In the sensitivity analysis (failed and absent counted as 0).
        sensitivity: String,
    },
    /// One text for the candidate as a whole (adjusted p-values, pass@k).
    Whole(String),
}

/// A statistic's text in one analysis, given whether the bootstrap is still being computed.
type Cell = fn(&PairedAnalysis, bool) -> String;

/// A per-analysis row before it is evaluated: its label, topic and cell.
type PerAnalysisRow = (String, Topic, Cell);

/// Every statistic of `candidate` in both analyses, then the adjusted p-values of the headline
/// test (when several candidates are compared) and pass@k. `bootstrap_pending` says that the
/// bootstrap of this report is still being computed (the page shows the report before it).
pub fn detail_rows(
    report: &Report,
    candidate: &CandidateResult,
    bootstrap_pending: bool,
) -> Vec<DetailRow> {
    let level = (report.settings.level * 100.0).round();
    let per_analysis: Vec<PerAnalysisRow> = vec![
        ("Tasks".to_owned(), Topic::PrimaryAnalysis, |a, _| {
            count(a.n as u64)
        }),
        ("Δ (points)".to_owned(), Topic::Delta, |a, _| {
            StatText::of(&a.estimate, |e| signed_points(e.delta)).text()
        }),
        ("SE (points)".to_owned(), Topic::StandardError, |a, _| {
            StatText::and_then(&a.estimate, |e| StatText::of(&e.se, |se| points(*se))).text()
        }),
        (
            format!("t interval ({level}%)"),
            Topic::TInterval,
            |a, _| {
                StatText::and_then(&a.estimate, |e| {
                    StatText::of(&e.t_interval, interval_points)
                })
                .text()
            },
        ),
        (
            format!("z interval ({level}%)"),
            Topic::ZInterval,
            |a, _| {
                StatText::and_then(&a.estimate, |e| {
                    StatText::of(&e.z_interval, interval_points)
                })
                .text()
            },
        ),
        (
            format!("Tango score interval ({level}%)"),
            Topic::TangoInterval,
            |a, _| match &a.score_interval {
                Some(interval) => StatText::of(interval, interval_points).text(),
                None => NOT_BINARY.to_owned(),
            },
        ),
        (
            HEADLINE_INTERVAL.to_owned(),
            Topic::HeadlineInterval,
            |a, _| interval_method_text(a.interval_method),
        ),
        (
            "Bootstrap percentile".to_owned(),
            Topic::BootstrapPercentile,
            |a, pending| bootstrap_text(&a.bootstrap, pending, |b| interval_points(&b.percentile)),
        ),
        ("Bootstrap BCa".to_owned(), Topic::Bca, |a, pending| {
            bootstrap_text(&a.bootstrap, pending, |b| {
                StatText::of(&b.bca, interval_points).text()
            })
        }),
        (
            "Clustered by category (robust SE)".to_owned(),
            Topic::Clustered,
            |a, _| match &a.clustered {
                Some(clustered) => StatText::of(&clustered.robust, |r| {
                    format!(
                        "{} (C = {}, p {})",
                        interval_points(&r.interval),
                        r.clusters,
                        p_value(r.p_value)
                    )
                })
                .text(),
                None => NO_CATEGORY.to_owned(),
            },
        ),
        (
            "Clustered bootstrap percentile".to_owned(),
            Topic::Clustered,
            |a, pending| match &a.clustered {
                Some(clustered) => bootstrap_text(&clustered.bootstrap, pending, |b| {
                    interval_points(&b.percentile)
                }),
                None => NO_CATEGORY.to_owned(),
            },
        ),
        ("Paired t-test p".to_owned(), Topic::PairedT, |a, _| {
            StatText::of(&a.t_test, |t| {
                format!("{} (t = {:.3}, df {:.0})", p_value(t.p_value), t.t, t.df)
            })
            .text()
        }),
        (
            "Wilcoxon signed-rank (Pratt) p".to_owned(),
            Topic::WilcoxonPratt,
            |a, _| StatText::of(&a.wilcoxon_pratt, |w| p_value(w.p_value)).text(),
        ),
        (
            "Wilcoxon (zeros dropped) p".to_owned(),
            Topic::WilcoxonZerosDropped,
            |a, _| StatText::of(&a.wilcoxon_wilcox, |w| p_value(w.p_value)).text(),
        ),
        ("Sign test p".to_owned(), Topic::SignTest, |a, _| {
            StatText::of(&a.sign_test, |s| p_value(s.p_value)).text()
        }),
        (
            "McNemar exact / mid-p".to_owned(),
            Topic::McNemar,
            |a, _| match &a.mcnemar {
                Some(m) => StatText::of(m, |m| {
                    format!("{} / {}", p_value(m.p_exact), p_value(m.p_mid))
                })
                .text(),
                None => NOT_BINARY.to_owned(),
            },
        ),
        (
            "Wins / ties / losses".to_owned(),
            Topic::WinTieLoss,
            |a, _| {
                StatText::of(&a.win_tie_loss, |w| {
                    format!(
                        "{} / {} / {}",
                        count(w.wins as u64),
                        count(w.ties as u64),
                        count(w.losses as u64)
                    )
                })
                .text()
            },
        ),
        ("Correlation".to_owned(), Topic::Correlation, |a, _| {
            StatText::and_then(&a.estimate, |e| StatText::of(&e.correlation, |r| mean(*r))).text()
        }),
        (
            "Minimum detectable effect (points)".to_owned(),
            Topic::Mde,
            |a, _| StatText::of(&a.mde, |m| points(m.mde)).text(),
        ),
        (
            "Tasks needed for the target Δ".to_owned(),
            Topic::TasksNeeded,
            |a, _| StatText::of(&a.tasks_needed, |n| count(*n)).text(),
        ),
        (
            "MDE at K′ samples per task".to_owned(),
            Topic::MdeProjection,
            |a, _| {
                StatText::of(&a.projection, |p| {
                    format!(
                        "{} points (K′ = {})",
                        points(p.projected_mde),
                        p.samples_per_task
                    )
                })
                .text()
            },
        ),
    ];
    let mut per_analysis = per_analysis;
    if candidate.primary.confidence_sequence.is_some()
        || candidate.sensitivity.confidence_sequence.is_some()
    {
        // Only while a compared run runs, so finished reports keep their rows.
        let row: PerAnalysisRow = (
            format!("Anytime-valid confidence sequence ({level}%)"),
            Topic::AnytimeValid,
            |a, _| match &a.confidence_sequence {
                Some(sequence) => StatText::of(sequence, |s| interval_points(&s.interval)).text(),
                None => "not computed (no compared run is running)".to_owned(),
            },
        );
        let after = per_analysis
            .iter()
            .position(|(label, _, _)| label == HEADLINE_INTERVAL)
            .map_or(per_analysis.len(), |i| i + 1);
        per_analysis.insert(after, row);
    }
    let mut rows: Vec<DetailRow> = per_analysis
        .into_iter()
        .map(|(label, topic, cell)| DetailRow {
            label,
            topic,
            cells: DetailCells::PerAnalysis {
                primary: cell(&candidate.primary, bootstrap_pending),
                sensitivity: cell(&candidate.sensitivity, bootstrap_pending),
            },
        })
        .collect();
    if report.candidates.len() > 1 {
        rows.push(DetailRow {
            label: "Holm / BH adjusted p (headline test)".to_owned(),
            topic: Topic::HolmBh,
            cells: DetailCells::Whole(format!(
                "{} / {}",
                StatText::of(&candidate.p_holm, |p| p_value(*p)).text(),
                StatText::of(&candidate.p_bh, |p| p_value(*p)).text()
            )),
        });
    }
    for pk in &candidate.primary.pass_at_k {
        let mean_of = |stat: &Stat<PassAtK>| {
            StatText::and_then(stat, |p| StatText::of(&p.mean, |m| mean(*m))).text()
        };
        rows.push(DetailRow {
            topic: Topic::PassAtK,
            label: format!(
                "pass@{} (baseline → candidate, {})",
                pk.k,
                plural(pk.tasks as u64, "task", "tasks")
            ),
            cells: DetailCells::Whole(format!(
                "{} → {}",
                mean_of(&pk.baseline),
                mean_of(&pk.candidate)
            )),
        });
        rows.push(DetailRow {
            topic: Topic::PassAtK,
            label: format!(
                "pass^{} (baseline → candidate, {} of {} samples pass)",
                pk.k, pk.k, pk.k
            ),
            cells: DetailCells::Whole(format!(
                "{} → {}",
                mean_of(&pk.baseline_pass_hat),
                mean_of(&pk.candidate_pass_hat)
            )),
        });
    }
    rows
}

/// The label of the row after which the confidence sequence's row goes.
const HEADLINE_INTERVAL: &str = "Headline interval";

/// The clustered rows' text when no task has a category.
const NO_CATEGORY: &str = "no task has a category";

/// A bootstrap result's text: computing, not run (B = 0), its value, or why it has none.
fn bootstrap_text(
    result: &Option<Stat<BootstrapResult>>,
    pending: bool,
    format: impl FnOnce(&BootstrapResult) -> String,
) -> String {
    match result {
        Some(stat) => StatText::of(stat, format).text(),
        None if pending => "computing…".to_owned(),
        None => "not run (B = 0)".to_owned(),
    }
}
