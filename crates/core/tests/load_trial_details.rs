//! Chronicle trials' steps and durations read on request: only the counted trials are asked
//! for, a failure is kept and read again on the next call (what was read is not read twice),
//! the read gives up after failures in a row keeping what arrived, and the report pairs the
//! steps and durations per task once they are attached (absent from the JSON before).

#![allow(clippy::unwrap_used)]

use eval_compare_core::load::{
    load_jobs, load_trial_details, trial_read_keys, ComponentReadLimits, ComponentStopCause,
    LoadEvent, LoadStore,
};
use eval_compare_core::model::{RunIdx, RunSet, TrialRef};
use eval_compare_core::report::{build_report, Report, ReportSettings};
use eval_compare_core::testing::bodies::{
    chronicle_job_body, chronicle_page, chronicle_results_page, chronicle_trial_item,
    SERVER_FAILURE,
};
use eval_compare_core::testing::scripted::client_over;
use eval_compare_core::testing::ScriptedTransport;
use futures::executor::block_on;

const BASE: &str = "coder@1";
const CAND: &str = "coder@2";

/// A trial's detail with these steps (`kind`, `duration_ms`).
fn detail_body(id: &str, agent: &str, task: &str, steps: &[(&str, Option<u64>)]) -> String {
    let steps: Vec<serde_json::Value> = steps
        .iter()
        .map(|(kind, ms)| serde_json::json!({"kind": kind, "name": kind, "status": "succeeded", "duration_ms": ms}))
        .collect();
    serde_json::json!({
        "id": id, "agent": agent, "task_id": task, "status": "succeeded", "error": null,
        "scores": [], "instruction": "fix it", "steps": steps, "artifacts": []
    })
    .to_string()
}

/// A trial's detail: `(trial, agent, task, steps)`.
type TrialSteps = (
    &'static str,
    &'static str,
    &'static str,
    Vec<(&'static str, Option<u64>)>,
);

/// The steps of each trial read.
fn details() -> Vec<TrialSteps> {
    let s = |ms| Some(ms);
    vec![
        // 2 steps, 3.0 s.
        (
            "a1",
            BASE,
            "t1",
            vec![
                ("setup", s(1000)),
                ("agent", s(500)),
                ("tool_call", s(500)),
                ("scoring", s(1000)),
            ],
        ),
        // 4 steps, 4.0 s.
        (
            "a2",
            BASE,
            "t2",
            vec![
                ("setup", s(1000)),
                ("agent", s(500)),
                ("tool_call", s(500)),
                ("agent", s(500)),
                ("tool_call", s(500)),
                ("scoring", s(1000)),
            ],
        ),
        // 3 steps, 5.0 s.
        (
            "b1",
            CAND,
            "t1",
            vec![
                ("setup", s(1000)),
                ("agent", s(1000)),
                ("tool_call", s(1000)),
                ("agent", s(1000)),
                ("scoring", s(1000)),
            ],
        ),
        // 5 steps, 4.5 s.
        (
            "b2",
            CAND,
            "t2",
            vec![
                ("setup", s(1000)),
                ("agent", s(500)),
                ("tool_call", s(500)),
                ("agent", s(500)),
                ("tool_call", s(500)),
                ("agent", s(500)),
                ("scoring", s(1000)),
            ],
        ),
        // 2 steps, a tool call without a duration: no duration.
        (
            "b3",
            CAND,
            "t3",
            vec![("setup", s(1000)), ("agent", s(500)), ("tool_call", None)],
        ),
    ]
}

/// A finished compare job `job_1` of two agents on t1–t3; the baseline's t3 trial failed
/// without scores (not counted). Trial `b2`'s detail answers `b2_answers`.
fn script(transport: &ScriptedTransport, b2_answers: Vec<u16>) {
    for (id, agent, task, steps) in details() {
        let body = detail_body(id, agent, task, &steps);
        let answers = if id == "b2" {
            b2_answers.clone()
        } else {
            vec![200]
        };
        let answers = answers
            .into_iter()
            .map(|status| match status {
                200 => (200, body.clone()),
                other => (other, SERVER_FAILURE.to_owned()),
            })
            .collect();
        transport.route(&format!("/jobs/job_1/trials/{id}"), answers);
    }
    let failed = serde_json::json!({
        "id": "a3", "agent": BASE, "task_id": "t3", "status": "failed",
        "error": "sandbox lost", "scores": []
    })
    .to_string();
    transport.route(
        "/jobs/job_1/trials",
        vec![(
            200,
            chronicle_page(
                &[
                    chronicle_trial_item("a1", BASE, "t1", true),
                    chronicle_trial_item("a2", BASE, "t2", false),
                    failed,
                    chronicle_trial_item("b1", CAND, "t1", true),
                    chronicle_trial_item("b2", CAND, "t2", true),
                    chronicle_trial_item("b3", CAND, "t3", true),
                ],
                None,
            ),
        )],
    );
    transport.route(
        "/task-suites/suite_1/eval-runs?job_id=job_1",
        vec![(
            200,
            chronicle_results_page("job_1", &[("t1", true), ("t2", false), ("t3", false)]),
        )],
    );
    transport.route(
        "/jobs/job_1",
        vec![(
            200,
            chronicle_job_body("job_1", "succeeded", &[BASE, CAND], 6, 6),
        )],
    );
}

fn report_of(set: &RunSet) -> Report {
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    build_report(set, RunIdx(0), &[RunIdx(1)], &settings).unwrap()
}

fn limits(failures_in_a_row: usize) -> ComponentReadLimits {
    ComponentReadLimits {
        concurrency: 2,
        failures_in_a_row,
        ..ComponentReadLimits::for_reads(5)
    }
}

#[test]
fn counted_trials_are_read_resumed_after_a_failure_and_paired_per_task() {
    let transport = ScriptedTransport::default();
    script(&transport, vec![503, 200]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let jobs = vec!["job_1".to_owned()];
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    let mut set = store.chronicle_run_set(&jobs).unwrap().unwrap();
    let before = report_of(&set);
    assert_eq!(before.trial_effort, None);
    let json = serde_json::to_string(&before).unwrap();
    assert!(
        !json.contains("trial_effort"),
        "absent from the JSON until read"
    );
    assert!(!before.to_markdown().contains("Trials: steps and duration"));

    let targets = set.trial_detail_targets(&[RunIdx(0), RunIdx(1)]);
    let trial_ids: Vec<&str> = targets.iter().map(|t| t.trial_id.as_str()).collect();
    assert_eq!(
        trial_ids,
        ["a1", "a2", "b1", "b2", "b3"],
        "the failed a3 is not counted"
    );
    assert!(targets.iter().all(|t| t.job_id == "job_1"));

    let events = std::cell::Cell::new(0);
    let count = |event: LoadEvent<'_>| {
        if let LoadEvent::Components { .. } = event {
            events.set(events.get() + 1);
        }
    };
    assert_eq!(
        block_on(load_trial_details(
            &client,
            &store,
            &targets,
            &limits(10),
            &count
        )),
        None
    );
    assert_eq!(events.get(), 5);
    let keys = trial_read_keys(&targets);
    let progress = store.trial_detail_progress(&keys);
    assert_eq!((progress.wanted, progress.read, progress.failed), (5, 4, 1));
    let (key, _) = progress.first_error.unwrap();
    assert_eq!(
        key,
        trial_read_keys(&[TrialRef {
            job_id: "job_1".into(),
            trial_id: "b2".into()
        }])[0]
    );

    // Reading again asks only for what failed.
    let from = transport.request_count();
    block_on(load_trial_details(
        &client,
        &store,
        &targets,
        &limits(10),
        &|_| {},
    ));
    assert_eq!(
        transport.urls_since(from),
        ["http://api.test/v1/backtests/jobs/job_1/trials/b2"]
    );
    assert!(store.trial_detail_progress(&keys).is_complete());

    // The store's run set carries them (as the page builds it); so does a set attached by hand.
    let built = store.chronicle_run_set(&jobs).unwrap().unwrap();
    assert_eq!(
        report_of(&built).trial_effort.unwrap().runs[1].read,
        3,
        "the read details enter the jobs' run set"
    );
    assert_eq!(store.attach_trial_details(&mut set, &targets), 5);
    let report = report_of(&set);
    let section = report.trial_effort.as_ref().unwrap();
    let (base, cand) = (&section.runs[0], &section.runs[1]);
    assert_eq!((base.counted, base.read, base.without_duration), (2, 2, 0));
    assert_eq!((cand.counted, cand.read, cand.without_duration), (3, 3, 1));
    assert_eq!(base.mean_steps, Some(3.0));
    assert!((cand.mean_steps.unwrap() - 10.0 / 3.0).abs() < 1e-12);
    assert_eq!(
        (base.mean_duration_s, cand.mean_duration_s),
        (Some(3.5), Some(4.75))
    );

    let candidate = &section.candidates[0];
    // Steps: t1 2 → 3, t2 4 → 5 (t3 has no counted baseline trial).
    let steps = candidate.steps.estimate.as_ref().unwrap();
    assert_eq!((steps.n, steps.delta, steps.baseline_mean), (2, 1.0, 3.0));
    assert!((candidate.steps.relative.as_ref().unwrap().ratio - 1.0 / 3.0).abs() < 1e-12);
    assert!(candidate.steps.bootstrap.is_some());
    // Duration: t1 3 → 5 s, t2 4 → 4.5 s.
    let duration = candidate.duration.estimate.as_ref().unwrap();
    assert_eq!((duration.n, duration.delta), (2, 1.25));
    // Both solved t1 only (the baseline failed t2).
    assert_eq!(candidate.steps.solved_tasks, 1);

    let markdown = report.to_markdown();
    assert!(markdown.contains("## Trials: steps and duration"));
    assert!(markdown.contains("| baseline | coder@1 | 3.0 | 3.5 s | 2 of 2 | 0 / 0 |"));
    assert!(markdown.contains("Steps per trial: +33.3% per task"));
    assert!(markdown.contains("against the baseline's 3.0 on 2 paired tasks (Δ +1.0"));
    let html = report.to_html(None);
    assert!(html.contains("<section id=\"trial-effort\">"));

    // Beside the verdict, on every card: one home for the page and the HTML report.
    use eval_compare_core::report::{beside_delta_parts, BesideKind, Topic, BESIDE_DELTA};
    let parts = beside_delta_parts(&report, &report.candidates[0]);
    let kinds: Vec<(BesideKind, &str)> = parts.iter().map(|p| (p.kind, p.text.as_str())).collect();
    assert!(
        kinds.contains(&(BesideKind::TrialSteps, "+33.3% steps")),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&(BesideKind::TrialDuration, "+35.7% duration")),
        "{kinds:?}"
    );
    let steps = parts
        .iter()
        .find(|p| p.kind == BesideKind::TrialSteps)
        .unwrap();
    assert!(steps
        .sentence
        .starts_with("Steps per trial: +33.3% per task"));
    assert_eq!(steps.kind.topic(), Topic::TrialSteps);
    let card = format!("<span class=\"beside\">{BESIDE_DELTA}+33.3% steps</span>");
    assert!(
        html.contains(&card),
        "the HTML card has the steps beside the Δ"
    );
    assert!(markdown.contains("  - Trials: +33.3% steps · +35.7% duration per trial."));
}

#[test]
fn a_read_gives_up_after_failures_in_a_row_and_keeps_what_arrived() {
    let transport = ScriptedTransport::default();
    script(&transport, vec![503]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let jobs = vec!["job_1".to_owned()];
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    let set = store.chronicle_run_set(&jobs).unwrap().unwrap();
    let targets = set.trial_detail_targets(&[RunIdx(0), RunIdx(1)]);
    // Only b2 fails: one failure in a row gives up there.
    let limits = ComponentReadLimits {
        concurrency: 1,
        ..limits(1)
    };
    let stop = block_on(load_trial_details(
        &client,
        &store,
        &targets,
        &limits,
        &|_| {},
    ))
    .unwrap();
    assert!(matches!(
        stop.cause,
        ComponentStopCause::FailuresInARow(1, _)
    ));
    assert_eq!((stop.read, stop.wanted), (3, 5));
    let progress = store.trial_detail_progress(&trial_read_keys(&targets));
    assert_eq!(
        (progress.read, progress.failed, progress.not_read()),
        (3, 1, 1)
    );
    assert!(progress.stopped.is_some());
}
