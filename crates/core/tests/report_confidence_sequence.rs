//! The anytime-valid confidence sequence of Δ in the report: present (in both analyses, the
//! details rows and the markdown's headline) only while the baseline or the candidate is still
//! running, absent from the JSON otherwise so finished reports keep their bytes.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SourceKind, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, detail_rows, headline_interval, DetailCells, Report, ReportSettings,
};
use eval_compare_core::stats::{confidence_sequence, Interval};

/// A run with one reward per task (`None`: a failed trajectory).
fn add_run(b: &mut RunSetBuilder, id: &str, status: &str, rewards: &[Option<f64>]) -> RunIdx {
    let run = b
        .add_run(RunInfo {
            id: id.into(),
            display_name: Some(id.to_owned()),
            bench_id: Some("b1".into()),
            status: Some(status.into()),
            source: SourceKind::Files,
            ..RunInfo::default()
        })
        .unwrap();
    for (i, reward) in rewards.iter().enumerate() {
        let class = if reward.is_some() {
            OutcomeClass::Graded
        } else {
            OutcomeClass::Failed
        };
        b.add_trajectory(
            run,
            TrajectoryInput {
                id: &format!("{id}-{i}"),
                task: Some(&format!("t{i}")),
                class,
                reward: *reward,
                ending: None,
                flags: TrajectoryFlags::default(),
                created: None,
                components: None,
            },
        )
        .unwrap();
    }
    run
}

/// 80 tasks with continuous rewards; the candidate is ahead on most of them.
fn rewards() -> (Vec<Option<f64>>, Vec<Option<f64>>) {
    let base = (0..80).map(|i| Some(f64::from(i % 5) / 5.0)).collect();
    let cand = (0..80)
        .map(|i| Some((f64::from(i % 5) / 5.0 + f64::from(i % 3) / 6.0).min(1.0)))
        .collect();
    (base, cand)
}

fn report_of(base_status: &str, cand_status: &str, cand: &[Option<f64>]) -> Report {
    let (base, _) = rewards();
    let mut b = RunSetBuilder::new();
    let base = add_run(&mut b, "base", base_status, &base);
    let cand = add_run(&mut b, "live", cand_status, cand);
    let set: RunSet = b.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&set, base, &[cand], &settings).unwrap()
}

fn expected_deltas(cand: &[Option<f64>]) -> Vec<f64> {
    let (base, _) = rewards();
    base.iter()
        .zip(cand)
        .filter_map(|(b, c)| Some(c.as_ref()? - b.as_ref()?))
        .map(eval_compare_core::stats::round_delta)
        .collect()
}

#[test]
fn a_running_candidate_carries_the_confidence_sequence_everywhere() {
    let (_, cand) = rewards();
    let report = report_of("completed", "running", &cand);
    let candidate = &report.candidates[0];
    assert!(candidate.verdict.provisional);
    let expected = confidence_sequence(&expected_deltas(&cand), 0.95).unwrap();
    let sequence = candidate
        .primary
        .confidence_sequence
        .clone()
        .unwrap()
        .unwrap();
    assert_eq!(sequence, expected);
    assert_eq!(sequence.tasks, 80);
    assert!(candidate.sensitivity.confidence_sequence.is_some());
    // Wider than the fixed-n headline interval it sits beside.
    let headline: Interval = headline_interval(&candidate.primary).unwrap();
    assert!(sequence.interval.lower < headline.lower && headline.upper < sequence.interval.upper);

    let json = report.to_json();
    assert!(json.contains("\"confidence_sequence\""), "{json}");
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(
        back.candidates[0].primary.confidence_sequence,
        candidate.primary.confidence_sequence
    );

    let rows = detail_rows(&report, candidate, false);
    let position = |label: &str| rows.iter().position(|r| r.label == label).unwrap();
    let row = &rows[position("Anytime-valid confidence sequence (95%)")];
    assert_eq!(
        position("Anytime-valid confidence sequence (95%)"),
        position("Headline interval") + 1
    );
    let DetailCells::PerAnalysis { primary, .. } = &row.cells else {
        panic!("{row:?}")
    };
    assert_eq!(
        primary,
        &eval_compare_core::text::interval_points(&expected.interval)
    );

    let text = report.to_markdown();
    let line = format!(
        "  - anytime-valid 95% interval: {} points (stays valid while the run runs).",
        eval_compare_core::text::interval_points(&expected.interval)
    );
    assert!(text.contains(&line), "{text}");
}

#[test]
fn a_running_baseline_also_brings_it() {
    let (_, cand) = rewards();
    let report = report_of("queued", "completed", &cand);
    assert!(report.candidates[0].primary.confidence_sequence.is_some());
}

#[test]
fn finished_or_failed_runs_have_none_and_their_json_does_not_name_it() {
    let (_, mut cand) = rewards();
    for status in ["completed", "failed"] {
        if status == "failed" {
            cand[3] = None;
        }
        let report = report_of("completed", status, &cand);
        let candidate = &report.candidates[0];
        assert!(!candidate.verdict.provisional, "{status}");
        assert_eq!(candidate.primary.confidence_sequence, None, "{status}");
        assert_eq!(candidate.sensitivity.confidence_sequence, None, "{status}");
        assert!(
            !report.to_json().contains("confidence_sequence"),
            "{status}"
        );
        let rows = detail_rows(&report, candidate, false);
        assert!(
            rows.iter().all(|r| !r.label.starts_with("Anytime")),
            "{status}"
        );
        assert!(!report.to_markdown().contains("anytime-valid"), "{status}");
    }
}

/// A run whose task `i` has one graded trajectory created at `times[i]`.
fn add_timed_run(
    b: &mut RunSetBuilder,
    id: &str,
    status: &str,
    rewards: &[Option<f64>],
    times: &[Option<i64>],
) -> RunIdx {
    let run = b
        .add_run(RunInfo {
            id: id.into(),
            display_name: Some(id.to_owned()),
            bench_id: Some("b1".into()),
            status: Some(status.into()),
            source: SourceKind::Api,
            ..RunInfo::default()
        })
        .unwrap();
    for (i, (reward, time)) in rewards.iter().zip(times).enumerate() {
        b.add_trajectory(
            run,
            TrajectoryInput {
                id: &format!("{id}-{i}"),
                task: Some(&format!("t{i:02}")),
                class: OutcomeClass::Graded,
                reward: *reward,
                ending: None,
                flags: TrajectoryFlags::default(),
                created: *time,
                components: None,
            },
        )
        .unwrap();
    }
    run
}

#[test]
fn the_sequence_is_fed_in_completion_order() {
    // The baseline ran long ago; the running candidate reached the tasks in reverse task order,
    // except that task 5 (the last in time) waited for a baseline rerun.
    let (base, cand) = rewards();
    let n = base.len();
    let base_times: Vec<Option<i64>> = (0..n)
        .map(|i| Some(if i == 5 { 10_000 } else { 100 }))
        .collect();
    let cand_times: Vec<Option<i64>> = (0..n).map(|i| Some(5_000 - i as i64)).collect();
    let mut b = RunSetBuilder::new();
    let base_run = add_timed_run(&mut b, "base", "completed", &base, &base_times);
    let cand_run = add_timed_run(&mut b, "live", "running", &cand, &cand_times);
    let set = b.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report = build_report(&set, base_run, &[cand_run], &settings).unwrap();
    let deltas = expected_deltas(&cand);
    let mut order: Vec<usize> = (0..n).rev().filter(|&i| i != 5).collect();
    order.push(5);
    let in_completion_order: Vec<f64> = order.iter().map(|&i| deltas[i]).collect();
    let expected = confidence_sequence(&in_completion_order, 0.95).unwrap();
    let got = report.candidates[0]
        .primary
        .confidence_sequence
        .clone()
        .unwrap()
        .unwrap();
    assert_eq!(got, expected);
    // The order matters: fed in task order the sequence is another one.
    let in_task_order = confidence_sequence(&deltas, 0.95).unwrap();
    assert_ne!(got.interval, in_task_order.interval);

    // Without creation times (e.g. Chronicle trials) the sequence keeps task order.
    let none = vec![None; n];
    let mut b = RunSetBuilder::new();
    let base_run = add_timed_run(&mut b, "base", "completed", &base, &none);
    let cand_run = add_timed_run(&mut b, "live", "running", &cand, &none);
    let report = build_report(&b.build(), base_run, &[cand_run], &settings).unwrap();
    let got = report.candidates[0]
        .primary
        .confidence_sequence
        .clone()
        .unwrap()
        .unwrap();
    assert_eq!(got, in_task_order);
}
