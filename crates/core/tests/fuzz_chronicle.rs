//! Property tests of Chronicle jobs onto the model and the report: whatever the trials, a job
//! builds, its report is built without a panic, a Chronicle task's score is one outcome per
//! task and run, and platform results made by the guide's rule from the same trials (as the
//! demo server makes them) always agree with the audit's recomputation.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{
    ChronicleJob, ChronicleScore, ChronicleTrial, SuiteEvalRun, TaskResult,
};
use eval_compare_core::audit::platform_checks;
use eval_compare_core::model::{Analysis, RunSetBuilder};
use eval_compare_core::report::{build_report, ReportSettings};
use proptest::prelude::*;
use serde_json::Value;

const STATUSES: [&str; 6] = [
    "succeeded",
    "failed",
    "running",
    "queued",
    "cancelled",
    "paused",
];

fn score_strategy() -> impl Strategy<Value = ChronicleScore> {
    (
        0usize..3,
        proptest::option::of(0.0f64..=1.0),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(name, score, thresholded, flip)| {
            let threshold = thresholded.then_some(0.5);
            // `passed` as the platform writes it: false without a score; otherwise the
            // threshold's verdict, or anything for a scorer that only measures.
            let passed = match (score, threshold) {
                (None, _) => Some(false),
                (Some(score), Some(threshold)) => Some(score >= threshold),
                (Some(_), None) => Some(flip),
            };
            ChronicleScore {
                name: ["state", "handoff", "tone"][name].to_owned(),
                score,
                threshold,
                passed,
            }
        })
}

fn trial_strategy() -> impl Strategy<Value = ChronicleTrial> {
    (
        0usize..3,
        0usize..5,
        proptest::sample::select(STATUSES.to_vec()),
        any::<bool>(),
        proptest::collection::vec(score_strategy(), 0..4),
    )
        .prop_map(|(agent, task, status, errored, scores)| ChronicleTrial {
            id: String::new(),
            agent: format!("agent@{agent}"),
            task_id: Some(format!("task_{task}")),
            status: Some(status.to_owned()),
            error: errored.then(|| Value::String("boom".into())),
            scores,
        })
}

/// The platform's results as the demo server computes them: tasks whose trials all finished,
/// failed when a thresholded scorer did not pass in some trial.
fn platform_results(job: &ChronicleJob, trials: &[ChronicleTrial]) -> SuiteEvalRun {
    let mut tasks: Vec<&str> = Vec::new();
    for trial in trials {
        let task = trial.task_id.as_deref().unwrap();
        if !tasks.contains(&task) {
            tasks.push(task);
        }
    }
    let mut results = Vec::new();
    for task in tasks {
        let of_task: Vec<&ChronicleTrial> = trials
            .iter()
            .filter(|t| t.task_id.as_deref() == Some(task))
            .collect();
        if of_task
            .iter()
            .any(|t| matches!(t.status.as_deref(), Some("queued" | "running")))
        {
            continue;
        }
        let mut failed_scorers: Vec<String> = Vec::new();
        for t in &of_task {
            for score in &t.scores {
                if score.threshold.is_some()
                    && score.passed != Some(true)
                    && !failed_scorers.contains(&score.name)
                {
                    failed_scorers.push(score.name.clone());
                }
            }
        }
        results.push(TaskResult {
            task_id: task.to_owned(),
            title: None,
            passed: Some(failed_scorers.is_empty()),
            failed_scorers,
        });
    }
    let passed = results.iter().filter(|r| r.passed == Some(true)).count();
    SuiteEvalRun {
        job_id: job.id.clone(),
        name: None,
        status: None,
        pass_rate: (!results.is_empty()).then(|| passed as f64 / results.len() as f64),
        task_results: results,
    }
}

proptest! {
    #[test]
    fn chronicle_jobs_build_report_and_agree_with_the_guide_rule(
        trials in proptest::collection::vec(trial_strategy(), 1..24),
    ) {
        let trials: Vec<ChronicleTrial> = trials
            .into_iter()
            .enumerate()
            .map(|(i, trial)| ChronicleTrial { id: format!("trial_{i}"), ..trial })
            .collect();
        let job: ChronicleJob = serde_json::from_value(serde_json::json!({
            "id": "job_p", "status": "succeeded", "mode": "compare",
            "agents": ["agent@0", "agent@1"], "task_suite_id": "suite_1"
        }))
        .unwrap();
        let results = platform_results(&job, &trials);
        let mut builder = RunSetBuilder::new();
        let runs = builder.add_chronicle_job(&job, &trials, Some(&results)).unwrap();
        let set = builder.build();

        let checks = platform_checks(&set, &runs).unwrap();
        prop_assert_eq!(checks.len(), 1);
        prop_assert!(checks[0].agrees(), "{:?}", checks[0]);

        for &run in &runs {
            for stats in set.run(run).unwrap().task_stats() {
                if stats.primary_binary {
                    prop_assert!(stats.primary.count() <= 1);
                }
                prop_assert!(stats.included_samples <= stats.samples());
            }
        }
        let paired = set.paired(runs[0], runs[1], Analysis::Primary).unwrap();
        if paired.base_binary && paired.cand_binary {
            prop_assert!(paired.base_k.iter().chain(&paired.cand_k).all(|&k| k == 1));
        }
        let settings = ReportSettings { resamples: 0, ..ReportSettings::default() };
        let report = build_report(&set, runs[0], &runs[1..], &settings).unwrap();
        let json = report.to_json();
        prop_assert!(!json.contains("NaN"));
        let again: eval_compare_core::report::Report = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(again.platform.len(), 1);
        let _ = report.to_markdown();
    }
}
