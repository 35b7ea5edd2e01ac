//! The reviewer's ledger on SWE-bench Pro (shared/real-data): GPT-5's 250-turn run against
//! Claude Sonnet 4.5, the tasks whose attempt ended in an error or without a submission in
//! either run set aside as infrastructure errors. Checked against per_instance.csv, read
//! independently here.
#![allow(clippy::unwrap_used)]

mod real_data_common;

use std::collections::BTreeSet;

use eval_compare_core::ledger::{Action, Entry, Ledger, Reason, Target};
use eval_compare_core::model::{RunIdx, SourceKind};
use eval_compare_core::report::{build_report_with_ledger, ledger_verdicts, ReportSettings};
use eval_compare_core::run_folder::run_set_from_folders;
use real_data_common::{load_folder, Table};

const CLAUDE: &str = "claude-45sonnet-10132025";
const GPT5: &str = "gpt-5-250-turns-10132025";

/// The tasks per_instance.csv says either run ended in ERROR or MISSING_SUBMIT.
fn csv_set_aside() -> BTreeSet<String> {
    let table = Table::read("swe-bench-pro/per_instance.csv");
    let (system, task, reason) = (
        table.column("system"),
        table.column("task_id"),
        table.column("termination_reason"),
    );
    table
        .rows
        .iter()
        .filter(|row| [CLAUDE, GPT5].contains(&row[system].as_str()))
        .filter(|row| ["ERROR", "MISSING_SUBMIT"].contains(&row[reason].as_str()))
        .map(|row| row[task].clone())
        .collect()
}

#[test]
fn setting_aside_the_errors_and_missing_submissions_reports_both_verdicts() {
    let folders = [
        load_folder("swe-bench-pro", CLAUDE),
        load_folder("swe-bench-pro", GPT5),
    ];
    let set = run_set_from_folders(&folders, SourceKind::Files).unwrap();
    // The reviewer's filter, on the model: an attempt that ended in an error or without a
    // submission, in either run.
    let mut tasks = BTreeSet::new();
    for run in set.runs() {
        for trajectory in run.trajectories() {
            if matches!(trajectory.ending, Some("ERROR" | "MISSING_SUBMIT")) {
                let task = set.task(trajectory.task.unwrap()).unwrap();
                tasks.insert(task.id.clone());
            }
        }
    }
    assert_eq!(tasks, csv_set_aside());
    assert_eq!(tasks.len(), 114);
    let ledger = Ledger {
        entries: tasks
            .iter()
            .map(|task| Entry {
                target: Target::Task(task.clone()),
                action: Action::LeaveOut,
                reason: Reason::InfrastructureError,
                note: Some("attempt ended in an error or without a submission".into()),
                at: Some("2026-12-05T12:00:00Z".into()),
            })
            .collect(),
    };
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    let report =
        build_report_with_ledger(&set, RunIdx(0), &[RunIdx(1)], &settings, &ledger).unwrap();
    let ledger_report = report.ledger.as_ref().unwrap();
    assert_eq!(ledger_report.tasks_set_aside, 114);
    assert!(ledger_report.entries.iter().all(|line| line.applies));
    // Both runs attempted all 730 tasks: each loses the same 114.
    for run in &report.coverage.runs {
        assert_eq!(run.tasks_attempted, 730 - 114);
        let set_aside = run.set_aside.as_ref().unwrap();
        assert_eq!((set_aside.tasks, set_aside.left_out), (114, 114));
        assert_eq!(set_aside.by_reason[0].reason, Reason::InfrastructureError);
    }
    // With the ledger nothing is left out of the primary analysis, and the sensitivity
    // analysis (failed counted 0) equals it.
    let candidate = &report.candidates[0];
    assert_eq!(candidate.primary.n, 730 - 114);
    assert_eq!(candidate.excluded.total, 0);
    let delta = |a: &eval_compare_core::report::PairedAnalysis| a.estimate.as_ref().unwrap().delta;
    assert_eq!(delta(&candidate.primary), delta(&candidate.sensitivity));
    let without = candidate.without_ledger.as_ref().unwrap();
    assert_eq!(without.n, 670);
    let line = ledger_verdicts(&report, candidate).unwrap();
    assert!(line.starts_with("With 114 tasks set aside: "), "{line}");
    assert!(line.contains("; without: "), "{line}");
    let markdown = report.to_markdown();
    assert!(markdown.contains(&line), "{markdown}");
    assert!(
        markdown.contains("| 114 (114 infrastructure error) |"),
        "{markdown}"
    );
}

#[test]
fn the_candidates_for_errors_and_missing_submissions_are_the_same_tasks_and_fit_a_link() {
    use eval_compare_core::ledger::{ledger_candidates, with_entries, CandidateKind};
    use eval_compare_core::view_state::{ViewState, MAX_QUERY_LEN};

    let folders = [
        load_folder("swe-bench-pro", CLAUDE),
        load_folder("swe-bench-pro", GPT5),
    ];
    let set = run_set_from_folders(&folders, SourceKind::Files).unwrap();
    let compared = [RunIdx(0), RunIdx(1)];
    // The reviewer takes the execution-error group, then the no-submission group (what is
    // already set aside is not offered again), both as infrastructure errors.
    let mut ledger = Ledger::default();
    for kind in [
        CandidateKind::ExecutionFailures,
        CandidateKind::NoSubmission,
    ] {
        let groups = ledger_candidates(&set, &compared, &ledger);
        let group = groups.iter().find(|g| g.kind == kind).unwrap();
        let entries = group.entries(
            Action::LeaveOut,
            Reason::InfrastructureError,
            Some("2026-12-05T12:00:00Z"),
        );
        ledger = with_entries(&ledger, entries);
    }
    let tasks: BTreeSet<String> = ledger
        .entries
        .iter()
        .map(|entry| entry.target.id().to_owned())
        .collect();
    assert_eq!(tasks, csv_set_aside());
    assert_eq!(ledger.entries.len(), 114);
    // GPT-5 ended 53 attempts in an agent error: the group counts them per run.
    let first = ledger_candidates(&set, &compared, &Ledger::default());
    let errors = first
        .iter()
        .find(|g| g.kind == CandidateKind::ExecutionFailures)
        .unwrap();
    assert_eq!(errors.per_run[1], (RunIdx(1), 53));
    let no_submission = first
        .iter()
        .find(|g| g.kind == CandidateKind::NoSubmission)
        .unwrap();
    assert_eq!(no_submission.per_run[1], (RunIdx(1), 54));

    // The whole ledger goes into a link that can be read back (its shared note and time
    // written once), and reads back the same.
    let view = ViewState {
        baseline: Some(CLAUDE.into()),
        candidates: vec![GPT5.into()],
        ledger: Some(ledger.to_link_text()),
        ..ViewState::default()
    };
    let query = view.to_query();
    assert!(query.len() <= MAX_QUERY_LEN, "{}", query.len());
    let parsed = ViewState::from_query(&query);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    let text = parsed.state.ledger.unwrap();
    assert_eq!(Ledger::from_link_text(&text).unwrap(), ledger);
    // Same figures as the ledger written from per_instance.csv.
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report =
        build_report_with_ledger(&set, RunIdx(0), &[RunIdx(1)], &settings, &ledger).unwrap();
    assert_eq!(report.ledger.as_ref().unwrap().tasks_set_aside, 114);
    assert_eq!(report.candidates[0].primary.n, 730 - 114);
}
