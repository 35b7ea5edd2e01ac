//! What a headline card says, made from the core's report: every statistic of the card as text
//! (a missing value in words, never NaN). Plain functions, tested natively.

use eval_compare_core::model::Analysis;
use eval_compare_core::report::{
    headline_anytime_interval, headline_interval, ledger_verdicts, within_phrase, CandidateResult,
    Decision, PairedAnalysis, Report, Topic,
};

use crate::components::stat_text::{
    count, interval_points, mean, optional_mean, p_value, points, signed_points, StatText,
};
use crate::format::capitalized;
use crate::report::panels::platform_words::platform_means;

/// Label and CSS modifier of a verdict's decision (the core's words).
pub fn verdict_label(decision: Decision) -> (&'static str, &'static str) {
    let modifier = match decision {
        Decision::Better => "verdict-better",
        Decision::Worse => "verdict-worse",
        Decision::NoDetectableDifference => "verdict-no-difference",
        Decision::Inconclusive => "verdict-inconclusive",
        Decision::NotComparable => "verdict-not-comparable",
        Decision::Unreliable => "verdict-unreliable",
        Decision::TooFewPairedTasks | Decision::NotComputable => "verdict-none",
    };
    (decision.label(), modifier)
}

/// The name of an analysis in the card's labels.
pub fn analysis_name(analysis: Analysis) -> &'static str {
    match analysis {
        Analysis::Primary => "primary",
        Analysis::Sensitivity => "sensitivity",
    }
}

/// The texts of one candidate's card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardText {
    /// The candidate run's name.
    pub title: String,
    /// The candidate run's id.
    pub run_id: String,
    /// The verdict's label.
    pub verdict: &'static str,
    /// The verdict's CSS modifier.
    pub modifier: &'static str,
    /// Whether a compared run is still running: the verdict is provisional.
    pub provisional: bool,
    /// Whether a compared run's numbers are partial (not read completely, failed, cancelled).
    pub partial: bool,
    /// The compared runs (baseline, this candidate) not read completely, by name.
    pub incomplete: Vec<String>,
    /// What a "no detectable difference" rules out ("Δ within ±1.6 points at 95%").
    pub verdict_detail: Option<String>,
    /// Why the verdict is what it is, one line each (blocking findings, the disagreement of
    /// the analyses, the running run…).
    pub reasons: Vec<String>,
    /// The report's sentence about the candidate (without its final period).
    pub sentence: String,
    /// While a compared run runs, the headline analysis' anytime-valid interval ("anytime-valid
    /// 95% interval: +0.4 to +9.8 points (stays valid while the run runs)"); `None` otherwise.
    pub anytime_interval: Option<String>,
    /// Label of the Δ: which analysis the headline uses.
    pub delta_label: String,
    /// Δ in points with the headline interval, named (t or Tango score interval).
    pub delta: String,
    /// The p-values that apply, one text each with the test it comes from.
    pub p_values: Vec<(Topic, String)>,
    /// Wins / ties / losses.
    pub win_tie_loss: String,
    /// Mean rewards, baseline → candidate.
    pub means: String,
    /// Minimum detectable effect.
    pub mde: String,
    /// Label of the tasks needed: the target effect.
    pub needed_label: String,
    /// Tasks needed to detect the target effect.
    pub needed: String,
    /// Correlation of the two runs' task scores.
    pub correlation: String,
    /// Label of the other analysis' Δ.
    pub other_label: String,
    /// The other analysis' Δ.
    pub other_delta: String,
    /// With a reviewer's ledger, the verdict and Δ with and without it (core's
    /// `ledger_verdicts`).
    pub ledger: Option<String>,
}

/// The texts of the card of candidate `index`, when the report has it (and its runs).
pub fn card_text(report: &Report, index: usize) -> Option<CardText> {
    let candidate = report.candidates.get(index)?;
    let run = report.run_of(candidate)?;
    let baseline = report.baseline()?;
    let (verdict, modifier) = verdict_label(candidate.verdict.decision);
    let verdict_detail = (candidate.verdict.decision == Decision::NoDetectableDifference)
        .then(|| candidate.verdict.interval.as_ref().ok().map(within_phrase))
        .flatten();
    let headline = report.headline(candidate);
    let method = headline.interval_method.label();
    let other = match headline.analysis {
        Analysis::Primary => &candidate.sensitivity,
        Analysis::Sensitivity => &candidate.primary,
    };
    let level = (report.settings.level * 100.0).round();
    let several = report.candidates.len() > 1;
    let delta = StatText::and_then(&headline.estimate, |estimate| {
        let interval = StatText::of(&headline_interval(headline), interval_points);
        StatText::Value(match interval {
            StatText::Value(interval) => format!(
                "{} points ({level}% CI {interval}, {method})",
                signed_points(estimate.delta)
            ),
            StatText::Missing(reason) => format!(
                "{} points (no {method}: {reason})",
                signed_points(estimate.delta)
            ),
        })
    })
    .text();
    let win_tie_loss = StatText::of(&headline.win_tie_loss, |w| {
        format!(
            "{} / {} / {}",
            count(w.wins as u64),
            count(w.ties as u64),
            count(w.losses as u64)
        )
    })
    .text();
    let other_delta = StatText::and_then(&other.estimate, |estimate| {
        StatText::Value(format!(
            "{} points{} on {}",
            signed_points(estimate.delta),
            match &estimate.t_interval {
                Ok(ci) => format!(" ({level}% CI {})", interval_points(ci)),
                Err(_) => String::new(),
            },
            match other.analysis {
                Analysis::Primary => format!("{} paired tasks", count(other.n as u64)),
                Analysis::Sensitivity =>
                    format!("{} tasks, failed and absent as 0", count(other.n as u64)),
            }
        ))
    })
    .text();
    let correlation = StatText::and_then(&headline.estimate, |estimate| {
        StatText::of(&estimate.correlation, |r| mean(*r))
    })
    .text();
    let means = format!(
        "{} → {} (task-weighted) · {}",
        optional_mean(baseline.task_weighted_mean),
        optional_mean(run.task_weighted_mean),
        platform_means(baseline, run),
    );
    Some(CardText {
        title: run.name.clone(),
        run_id: run.id.clone(),
        verdict,
        modifier,
        provisional: candidate.verdict.provisional,
        partial: candidate.verdict.partial,
        incomplete: [baseline, run]
            .into_iter()
            .filter(|run| run.incomplete_load.is_some())
            .map(|run| run.name.clone())
            .collect(),
        verdict_detail,
        reasons: candidate.verdict.reasons.clone(),
        sentence: candidate.sentence.clone(),
        anytime_interval: headline_anytime_interval(report, candidate),
        delta_label: format!("Δ ({} analysis)", analysis_name(headline.analysis)),
        delta,
        p_values: p_values_line(headline, candidate, several),
        win_tie_loss,
        means,
        mde: StatText::of(&headline.mde, |m| format!("{} points", points(m.mde))).text(),
        needed_label: format!(
            "Tasks needed to detect {} points",
            signed_points(report.settings.target_delta)
        ),
        needed: StatText::of(&headline.tasks_needed, |n| count(*n)).text(),
        correlation,
        other_label: format!("{} Δ", capitalized(analysis_name(other.analysis))),
        other_delta,
        ledger: ledger_verdicts(report, candidate),
    })
}

/// The p-values that apply: t, Wilcoxon (Pratt), sign, McNemar when present, and Holm and BH
/// adjusted ones when several candidates are compared.
pub fn p_values_line(
    analysis: &PairedAnalysis,
    candidate: &CandidateResult,
    several: bool,
) -> Vec<(Topic, String)> {
    let mut parts = vec![
        (
            Topic::PairedT,
            format!(
                "t {}",
                StatText::of(&analysis.t_test, |t| p_value(t.p_value)).text()
            ),
        ),
        (
            Topic::WilcoxonPratt,
            format!(
                "Wilcoxon (Pratt) {}",
                StatText::of(&analysis.wilcoxon_pratt, |w| p_value(w.p_value)).text()
            ),
        ),
        (
            Topic::SignTest,
            format!(
                "sign {}",
                StatText::of(&analysis.sign_test, |s| p_value(s.p_value)).text()
            ),
        ),
    ];
    if let Some(mcnemar) = &analysis.mcnemar {
        parts.push((
            Topic::McNemar,
            format!(
                "McNemar {}",
                StatText::of(mcnemar, |m| p_value(m.p_exact)).text()
            ),
        ));
    }
    if several {
        parts.push((
            Topic::HolmBh,
            format!(
                "Holm {}",
                StatText::of(&candidate.p_holm, |p| p_value(*p)).text()
            ),
        ));
        parts.push((
            Topic::HolmBh,
            format!(
                "BH {}",
                StatText::of(&candidate.p_bh, |p| p_value(*p)).text()
            ),
        ));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::model::{RunIdx, SourceKind};
    use eval_compare_core::report::{build_report, ReportSettings};
    use eval_compare_core::run_folder::{run_set_from_folders, RunFolder};
    use serde_json::json;

    /// A run folder with one graded trajectory per listed task.
    fn folder(id: &str, scores: &[(&str, f64)]) -> RunFolder {
        let run = serde_json::from_value(json!({
            "eval_run_id": id, "bench_id": "b_1", "agent_id": "a_1", "options": {},
            "status": "completed", "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z"
        }))
        .expect("a run");
        let item = |i: usize, task: &str, reward: f64| {
            json!({
                "trajectory_id": format!("{id}-{i}"), "organization_id": "org", "source": "eval",
                "status": "completed", "termination_reason": "ENV_DONE", "reward": reward,
                "created_at": "2026-01-01T00:00:00Z", "task_id": task
            })
        };
        let rewards = scores
            .iter()
            .enumerate()
            .map(|(i, (task, reward))| {
                serde_json::from_value(item(i, task, *reward)).expect("a record")
            })
            .collect();
        let trajectories = scores
            .iter()
            .enumerate()
            .map(|(i, (task, reward))| {
                serde_json::from_value(item(i, task, *reward)).expect("a record")
            })
            .collect();
        RunFolder {
            run,
            rewards,
            trajectories,
            tasks: None,
            training_run: None,
            eval_options: None,
            platform_series: None,
            truncated_files: Vec::new(),
            costs: Default::default(),
        }
    }

    fn report() -> Report {
        let tasks = ["t1", "t2", "t3", "t4", "t5", "t6"];
        let base = [0.2, 0.4, 0.5, 0.1, 0.9, 0.3];
        let cand = [0.5, 0.4, 0.9, 0.3, 1.0, 0.2];
        let zip = |rewards: &[f64; 6]| -> Vec<(&str, f64)> {
            tasks.iter().copied().zip(rewards.iter().copied()).collect()
        };
        let folders = [
            folder("base", &zip(&base)),
            folder("cand", &zip(&cand)),
            // Pairs with the baseline on one task only: no interval, no test.
            folder("lonely", &[("t1", 0.6)]),
        ];
        let set = run_set_from_folders(&folders, SourceKind::Files).expect("a run set");
        let settings = ReportSettings {
            resamples: 0,
            ..ReportSettings::default()
        };
        build_report(&set, RunIdx(0), &[RunIdx(1), RunIdx(2)], &settings).expect("a report")
    }

    #[test]
    fn a_card_says_the_candidates_delta_tests_and_means() {
        let report = report();
        let text = card_text(&report, 0).expect("the first candidate");
        assert_eq!(
            (text.title.as_str(), text.run_id.as_str()),
            ("cand", "cand")
        );
        assert_eq!(text.sentence, report.candidates[0].sentence);
        assert_eq!(text.delta_label, "Δ (primary analysis)");
        assert!(
            text.delta.contains("points (95% CI ") && text.delta.ends_with(", t interval)"),
            "{}",
            text.delta
        );
        // Six paired tasks: too few for a verdict, said in words.
        assert_eq!(text.verdict, "too few paired tasks");
        assert_eq!(text.modifier, "verdict-none");
        assert_eq!(
            text.reasons,
            ["6 paired tasks; a verdict needs at least 10"]
        );
        assert!(!text.provisional);
        assert_eq!(text.verdict_detail, None);
        assert_eq!(
            text.anytime_interval, None,
            "finished runs: no confidence sequence"
        );
        let names: Vec<&str> = text
            .p_values
            .iter()
            .map(|(_, p)| p.rsplit_once(' ').map_or(p.as_str(), |(name, _)| name))
            .collect();
        let topics: Vec<Topic> = text.p_values.iter().map(|(topic, _)| *topic).collect();
        assert_eq!(
            topics[..3],
            [Topic::PairedT, Topic::WilcoxonPratt, Topic::SignTest]
        );
        assert_eq!(topics[topics.len() - 2..], [Topic::HolmBh, Topic::HolmBh]);
        assert_eq!(names[..3], ["t", "Wilcoxon (Pratt)", "sign"]);
        assert_eq!(
            names[names.len() - 2..],
            ["Holm", "BH"],
            "several candidates: adjusted p-values"
        );
        assert_eq!(text.other_label, "Sensitivity Δ");
        assert!(text.means.ends_with("(pooled)"), "{}", text.means);
    }

    #[test]
    fn what_cannot_be_computed_is_said_in_words_never_nan() {
        let report = report();
        let text = card_text(&report, 1).expect("the lonely candidate");
        assert_eq!(text.verdict, "too few paired tasks");
        assert_eq!(text.modifier, "verdict-none");
        let all = format!("{text:?}");
        assert!(!all.contains("NaN"), "{all}");
        assert!(all.contains("not enough data"), "{all}");
        assert!(card_text(&report, 2).is_none(), "no third candidate");
    }

    #[test]
    fn every_verdict_has_a_label_and_a_modifier() {
        assert_eq!(
            verdict_label(Decision::Better),
            ("better", "verdict-better")
        );
        assert_eq!(verdict_label(Decision::Worse), ("worse", "verdict-worse"));
        assert_eq!(
            verdict_label(Decision::NoDetectableDifference),
            ("no detectable difference", "verdict-no-difference")
        );
        assert_eq!(
            verdict_label(Decision::NotComparable),
            ("not comparable", "verdict-not-comparable")
        );
        assert_eq!(
            verdict_label(Decision::Unreliable),
            ("unreliable", "verdict-unreliable")
        );
        assert_eq!(verdict_label(Decision::TooFewPairedTasks).1, "verdict-none");
    }

    /// n binary tasks: the baseline passes the odd ones, the candidate also the first
    /// `gained` even ones; `status` is the candidate's.
    fn binary_report(n: usize, gained: usize, status: &str, bench: &str) -> Report {
        let tasks: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
        let base: Vec<(&str, f64)> = tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), (i % 2) as f64))
            .collect();
        let cand: Vec<(&str, f64)> = tasks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let pass = i % 2 == 1 || i / 2 < gained;
                (t.as_str(), if pass { 1.0 } else { 0.0 })
            })
            .collect();
        let mut cand_folder = folder("cand", &cand);
        cand_folder.run.status = serde_json::from_value(json!(status)).expect("a status");
        cand_folder.run.bench_id = bench.to_owned();
        let folders = [folder("base", &base), cand_folder];
        let set = run_set_from_folders(&folders, SourceKind::Files).expect("a run set");
        let settings = ReportSettings {
            resamples: 0,
            ..ReportSettings::default()
        };
        build_report(&set, RunIdx(0), &[RunIdx(1)], &settings).expect("a report")
    }

    #[test]
    fn a_small_binary_card_names_tangos_interval_and_a_running_one_is_provisional() {
        let report = binary_report(60, 12, "running", "b_1");
        let text = card_text(&report, 0).expect("the candidate");
        assert_eq!((text.verdict, text.provisional), ("better", true));
        assert!(
            text.delta.ends_with(", Tango score interval)"),
            "{}",
            text.delta
        );
        assert!(
            text.reasons.iter().any(|r| r.contains("is still running")),
            "{:?}",
            text.reasons
        );
    }

    #[test]
    fn a_running_candidate_shows_its_anytime_valid_interval() {
        let report = binary_report(60, 12, "running", "b_1");
        let text = card_text(&report, 0).expect("the candidate");
        let sequence = report.candidates[0]
            .primary
            .confidence_sequence
            .clone()
            .expect("computed while running")
            .expect("a value");
        assert_eq!(
            text.anytime_interval.as_deref(),
            Some(
                format!(
                    "anytime-valid 95% interval: {} points (stays valid while the run runs)",
                    interval_points(&sequence.interval)
                )
                .as_str()
            )
        );
        // 12 gains in 60 tasks: wider than Tango's fixed-n interval, still around +20 points.
        let tango = headline_interval(&report.candidates[0].primary).expect("Tango's");
        assert!(sequence.interval.lower < tango.lower && tango.upper < sequence.interval.upper);
        assert!(sequence.interval.contains(0.2));
        let finished = binary_report(60, 12, "completed", "b_1");
        let text = card_text(&finished, 0).expect("the candidate");
        assert_eq!(text.anytime_interval, None);
    }

    #[test]
    fn identical_runs_say_what_they_rule_out_and_another_version_shows_no_direction() {
        let same = binary_report(400, 0, "completed", "b_1");
        let text = card_text(&same, 0).expect("the candidate");
        assert_eq!(text.verdict, "no detectable difference");
        assert_eq!(
            text.verdict_detail.as_deref(),
            Some("Δ within ±1.0 points at 95%")
        );
        let other = binary_report(60, 20, "completed", "b_0");
        let text = card_text(&other, 0).expect("the candidate");
        assert_eq!(
            (text.verdict, text.modifier),
            ("not comparable", "verdict-not-comparable")
        );
        assert!(
            text.reasons[0]
                .starts_with("blocking comparability finding: BENCHMARK_VERSION_DIFFERS"),
            "{:?}",
            text.reasons
        );
    }
}
