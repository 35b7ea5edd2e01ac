//! Verdicts from partial numbers: a compared run not read completely (its load stopped early),
//! or one that failed or was cancelled, is marked partial in the verdict the page, the reports
//! and the gates read; the tasks a running run has not reached, or a stopped load did not read,
//! are "not yet attempted" / "not read yet", never "absent", and no task-set difference.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSetBuilder, SourceKind, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, Decision, Report, ReportSettings};

/// One run: its status, what is missing from its load (if anything), and per task a reward or
/// nothing (no trajectory on that task).
struct Run<'a> {
    id: &'a str,
    status: &'a str,
    incomplete_load: Option<&'a str>,
    rewards: Vec<Option<f64>>,
}

fn report_of(runs: &[Run<'_>]) -> Report {
    let mut b = RunSetBuilder::new();
    let indices: Vec<RunIdx> = runs
        .iter()
        .map(|run| {
            let index = b
                .add_run(RunInfo {
                    id: run.id.into(),
                    display_name: Some(run.id.to_owned()),
                    bench_id: Some("b1".into()),
                    status: Some(run.status.into()),
                    source: SourceKind::Api,
                    incomplete_load: run.incomplete_load.map(str::to_owned),
                    ..RunInfo::default()
                })
                .unwrap();
            for (i, reward) in run.rewards.iter().enumerate() {
                let Some(reward) = reward else { continue };
                let task = format!("t{i}");
                let trajectory = format!("{}-{i}", run.id);
                b.add_trajectory(
                    index,
                    TrajectoryInput {
                        id: &trajectory,
                        task: Some(&task),
                        class: OutcomeClass::Graded,
                        reward: Some(*reward),
                        ending: None,
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .unwrap();
            }
            index
        })
        .collect();
    let set = b.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&set, indices[0], &indices[1..], &settings).unwrap()
}

/// 200 tasks with continuous rewards; the candidate is clearly better (about +15 points).
fn rewards(candidate: bool) -> Vec<Option<f64>> {
    (0..200)
        .map(|i| {
            let base = 0.2 + 0.5 * ((i * 37 % 100) as f64 / 100.0);
            Some(if candidate {
                base + 0.1 + 0.1 * ((i % 3) as f64) / 2.0
            } else {
                base
            })
        })
        .collect()
}

/// The candidate's rewards with tasks from `from` on missing.
fn cut(from: usize) -> Vec<Option<f64>> {
    let mut rewards = rewards(true);
    for reward in &mut rewards[from..] {
        *reward = None;
    }
    rewards
}

fn run<'a>(id: &'a str, status: &'a str, rewards: Vec<Option<f64>>) -> Run<'a> {
    Run {
        id,
        status,
        incomplete_load: None,
        rewards,
    }
}

#[test]
fn a_run_not_read_completely_gets_no_plain_verdict() {
    let complete = report_of(&[
        run("base", "completed", rewards(false)),
        run("cand", "completed", rewards(true)),
    ]);
    let verdict = &complete.candidates[0].verdict;
    assert_eq!(
        (verdict.decision, verdict.partial),
        (Decision::Better, false)
    );
    assert_eq!(verdict.headline(), "better");

    let missing = "trajectory rewards: stopped at page 2 (the API's answer ended early)";
    let report = report_of(&[
        run("base", "completed", rewards(false)),
        Run {
            incomplete_load: Some(missing),
            ..run("cand", "completed", cut(120))
        },
    ]);
    let candidate = &report.candidates[0];
    let verdict = &candidate.verdict;
    assert!(verdict.partial && !verdict.provisional, "{verdict:?}");
    assert_eq!(verdict.evidence, Decision::Better);
    // The sensitivity analysis counts the 80 tasks not read as 0 and disagrees: said, not
    // decided on, as for a running run.
    assert_eq!(verdict.decision, Decision::Better, "{:?}", verdict.reasons);
    assert!(
        verdict
            .reasons
            .iter()
            .any(|r| r.contains("judged when everything is read")),
        "{:?}",
        verdict.reasons
    );
    assert_eq!(verdict.headline(), "better (partial)");
    assert!(
        verdict.reasons.iter().any(|r| r
            == &format!("cand was not read completely ({missing}): the verdict judges only what was read, and the rest could change it")),
        "{:?}",
        verdict.reasons
    );
    assert!(
        candidate.sentence.starts_with("Partial data: cand scores "),
        "{}",
        candidate.sentence
    );
    assert!(
        candidate
            .sentence
            .ends_with("80 tasks excluded (80 not read yet)"),
        "{}",
        candidate.sentence
    );
    // Every renderer and the JSON carry the mark.
    let json = report.to_json();
    assert!(json.contains("\"partial\": true"), "{json}");
    let markdown = report.to_markdown();
    assert!(markdown.contains("better (partial)"), "{markdown}");
    assert!(markdown.contains("was not read completely"), "{markdown}");
    // Tasks not read are no task-set difference.
    assert!(
        !report
            .audit
            .findings
            .iter()
            .any(|f| f.code == "TASK_SETS_DIFFER"),
        "{:?}",
        report.audit.findings
    );
}

#[test]
fn a_failed_run_whose_analyses_agree_is_marked_partial() {
    let report = report_of(&[
        run("base", "completed", rewards(false)),
        run("broken", "failed", rewards(true)),
    ]);
    let verdict = &report.candidates[0].verdict;
    assert_eq!(verdict.decision, Decision::Better);
    assert!(verdict.partial && !verdict.provisional);
    assert_eq!(verdict.headline(), "better (partial)");
    assert!(
        verdict.reasons.contains(
            &"broken failed: its numbers are partial, and only the tasks it scored are judged"
                .to_owned()
        ),
        "{:?}",
        verdict.reasons
    );
    let cancelled = report_of(&[
        run("base", "cancelled", rewards(false)),
        run("cand", "completed", rewards(true)),
    ]);
    let verdict = &cancelled.candidates[0].verdict;
    assert!(verdict.partial);
    assert!(
        verdict
            .reasons
            .iter()
            .any(|r| r.starts_with("base was cancelled: ")),
        "{:?}",
        verdict.reasons
    );
}

#[test]
fn a_running_runs_tasks_not_reached_are_not_yet_attempted_and_no_task_set_difference() {
    let report = report_of(&[
        run("base", "completed", rewards(false)),
        run("live", "running", cut(130)),
    ]);
    let candidate = &report.candidates[0];
    assert!(candidate.verdict.provisional && !candidate.verdict.partial);
    assert_eq!(candidate.verdict.headline(), "better (provisional)");
    assert!(
        candidate
            .sentence
            .ends_with("70 tasks excluded (70 not yet attempted)"),
        "{}",
        candidate.sentence
    );
    assert!(
        !report
            .audit
            .findings
            .iter()
            .any(|f| f.code == "TASK_SETS_DIFFER"),
        "{:?}",
        report.audit.findings
    );
    // Once the run has ended, the same missing tasks are absent and the task sets differ.
    let ended = report_of(&[
        run("base", "completed", rewards(false)),
        run("live", "completed", cut(130)),
    ]);
    assert!(
        ended.candidates[0]
            .sentence
            .ends_with("70 tasks excluded (70 absent from one run)"),
        "{}",
        ended.candidates[0].sentence
    );
    assert!(ended
        .audit
        .findings
        .iter()
        .any(|f| f.code == "TASK_SETS_DIFFER"));
}
