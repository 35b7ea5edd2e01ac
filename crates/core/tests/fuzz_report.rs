//! Fuzzing the report: random run sets (a few runs, tasks and samples; rewards in and out of
//! [0, 1], null, NaN and infinite; every outcome class; checkpoints, components, hostile text)
//! and random settings, valid or not. Properties: `build_report` never panics and is
//! deterministic, and built a step at a time (`ReportBuild`) it is the same; its JSON parses back to the same report and writes the same JSON again; the
//! markdown, the CSV, the table's visible rows and the detail rows never panic.
//! Each case runs a small bootstrap (at most 64 resamples) to stay fast; `PROPTEST_CASES` sets
//! the number of cases (README.md, "Fuzzing").
#![allow(clippy::unwrap_used)]

use eval_compare_core::audit::{Lifecycle, Severity};
use eval_compare_core::model::{
    Category, CheckpointInfo, OutcomeClass, RewardComponent, RunIdx, RunInfo, RunSet,
    RunSetBuilder, SourceKind, TaskInput, TaskSelection, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, detail_rows, to_csv, visible_rows, visible_rows_ranked, CandidateResult,
    Decision, DeferredReport, Report, ReportBuild, ReportError, ReportSettings, TextRanks,
};
use eval_compare_core::testing::json_close::json_close;
use eval_compare_core::view_state::{RowFilter, Sort, SortKey, ViewState};
use proptest::prelude::*;
use serde_json::Value;

/// Task ids: a small pool, so runs share tasks; some hostile.
const TASK_IDS: &[&str] = &[
    "t0",
    "t1",
    "t2",
    "t3",
    "t4",
    "t5",
    "a|b",
    "<b>x</b>",
    "é\u{202e}",
    "",
];

/// Any reward a source might publish.
fn reward() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        2 => Just(None),
        3 => Just(Some(0.0)),
        3 => Just(Some(1.0)),
        3 => (0.0f64..=1.0).prop_map(Some),
        1 => (-3.0f64..4.0).prop_map(Some),
        1 => proptest::sample::select(&[
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e308, -1e308,
            f64::MIN_POSITIVE, 1.0 + f64::EPSILON, -f64::MIN_POSITIVE,
        ][..]).prop_map(Some),
    ]
}

fn number() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        Just(None),
        (-2.0f64..2.0).prop_map(Some),
        proptest::sample::select(&[f64::NAN, f64::INFINITY, 0.0, 1.0][..]).prop_map(Some),
    ]
}

fn text() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(prop_oneof![
        "[a-z ]{0,12}",
        Just("| pipe | and `tick` <script>alert(1)</script>\n# heading".to_owned()),
        Just("\u{1b}[31mred\u{0}\u{202e}".to_owned()),
    ])
}

fn component() -> impl Strategy<Value = RewardComponent> {
    (
        "[a-z|]{0,6}",
        (number(), number(), number(), number()),
        (
            proptest::option::of((number(), number())),
            any::<Option<bool>>(),
        ),
        text(),
    )
        .prop_map(
            |(name, (value, scaled_value, weight, threshold), (range, passed), explanation)| {
                RewardComponent {
                    name,
                    value,
                    scaled_value,
                    weight,
                    score_range: range.map(|(lo, hi)| (lo.unwrap_or(0.0), hi.unwrap_or(1.0))),
                    threshold,
                    passed,
                    explanation,
                }
            },
        )
}

/// One sample: task (or none), class, reward, ending, flags, components.
#[derive(Debug, Clone)]
struct Sample {
    task: Option<usize>,
    class: OutcomeClass,
    reward: Option<f64>,
    ending: Option<String>,
    flags: u8,
    components: Option<Vec<RewardComponent>>,
}

fn sample() -> impl Strategy<Value = Sample> {
    (
        proptest::option::weighted(0.95, 0usize..TASK_IDS.len()),
        proptest::sample::select(OutcomeClass::ALL.to_vec()),
        reward(),
        proptest::option::of(proptest::sample::select(
            &["ENV_DONE", "ERROR", "TRUNCATION", "odd|ending", ""][..],
        )),
        0u8..16,
        proptest::option::weighted(0.1, proptest::collection::vec(component(), 0..3)),
    )
        .prop_map(|(task, class, reward, ending, flags, components)| Sample {
            task,
            class,
            reward,
            ending: ending.map(str::to_owned),
            flags,
            components,
        })
}

/// One run: identity, checkpoint, recorded numbers, samples.
#[derive(Debug, Clone)]
struct RunCase {
    id: String,
    display_name: Option<String>,
    step: Option<i64>,
    training_run: Option<String>,
    status: Option<String>,
    platform_mean: Option<f64>,
    total_rollouts: Option<u64>,
    selection: Option<(u64, u64, Option<u64>)>,
    source: SourceKind,
    incomplete: Option<String>,
    samples: Vec<Sample>,
}

fn run_case() -> impl Strategy<Value = RunCase> {
    (
        (
            prop_oneof!["r[0-9]", Just("run|one".to_owned()), Just(String::new())],
            text(),
            proptest::option::of(prop_oneof![-2i64..1000, Just(i64::MAX), Just(i64::MIN)]),
            proptest::option::of(proptest::sample::select(&["train", "other"][..])),
        ),
        (
            proptest::option::of(proptest::sample::select(
                &["completed", "running", "failed", "zzz"][..],
            )),
            number(),
            proptest::option::of(prop_oneof![0u64..50, Just(u64::MAX)]),
            proptest::option::of((0u64..20, 0u64..20, proptest::option::of(0u64..4))),
        ),
        (
            proptest::sample::select(
                &[SourceKind::Api, SourceKind::Files, SourceKind::Chronicle][..],
            ),
            proptest::option::weighted(0.1, Just("a page failed".to_owned())),
            proptest::collection::vec(sample(), 0..24),
        ),
    )
        .prop_map(
            |(
                (id, display_name, step, training_run),
                (status, platform_mean, total_rollouts, selection),
                (source, incomplete, samples),
            )| RunCase {
                id,
                display_name,
                step,
                training_run: training_run.map(str::to_owned),
                status: status.map(str::to_owned),
                platform_mean,
                total_rollouts,
                selection,
                source,
                incomplete,
                samples,
            },
        )
}

fn settings() -> impl Strategy<Value = ReportSettings> {
    (
        any::<u64>(),
        0usize..=64,
        prop_oneof![
            12 => Just(0.95),
            6 => 0.5f64..0.999,
            1 => proptest::sample::select(&[0.0, 1.0, f64::NAN, -0.5, 1e-300, 0.999_999_999][..]),
        ],
        prop_oneof![9 => Just(0.05), 1 => proptest::sample::select(&[0.0, 1.0, f64::NAN, 2.0][..])],
        any::<bool>(),
        proptest::collection::vec(prop_oneof![1u64..12, Just(0), Just(u64::MAX)], 0..4),
        prop_oneof![9 => Just(0.02), 1 => proptest::sample::select(&[0.0, -1.0, f64::NAN, 1e9][..])],
        prop_oneof![4 => (1u64..16).prop_map(Some), 2 => Just(None), 1 => Just(Some(0u64)), 1 => Just(Some(u64::MAX))],
    )
        .prop_map(
            |(seed, resamples, level, alpha, sensitivity, pass_k, target_delta, project)| {
                ReportSettings {
                    seed,
                    resamples,
                    level,
                    alpha,
                    headline: if sensitivity {
                        eval_compare_core::model::Analysis::Sensitivity
                    } else {
                        eval_compare_core::model::Analysis::Primary
                    },
                    pass_k,
                    target_delta,
                    project_samples_per_task: project,
                    pass_threshold: None,
                    versus_step: None,
                }
            },
        )
}

/// A case: tasks listed (with categories), runs, the baseline and candidates among them.
#[derive(Debug, Clone)]
struct Case {
    listed: Vec<(usize, Option<String>, Vec<usize>)>,
    runs: Vec<RunCase>,
    baseline: usize,
    candidates: Vec<usize>,
    settings: ReportSettings,
    view: (usize, usize, bool, Option<usize>),
    sensible_choice: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        proptest::collection::vec(
            (
                0usize..TASK_IDS.len(),
                text(),
                proptest::collection::vec(0usize..3, 0..3),
            ),
            0..8,
        ),
        proptest::collection::vec(run_case(), 2..5),
        0usize..5,
        proptest::collection::vec(0usize..5, 0..4),
        settings(),
        (
            0usize..RowFilter::ALL.len(),
            0usize..5,
            any::<bool>(),
            proptest::option::of(0usize..4),
        ),
        proptest::bool::weighted(0.85),
    )
        .prop_map(
            |(listed, runs, baseline, candidates, settings, view, sensible_choice)| Case {
                listed,
                runs,
                baseline,
                candidates,
                settings,
                view,
                sensible_choice,
            },
        )
}

/// Builds the run set (tasks and runs the builder refuses are left out, as a source would fail
/// on them) and returns it with the indices of the runs it holds.
fn build(case: &Case) -> (eval_compare_core::model::RunSet, Vec<RunIdx>) {
    let mut builder = RunSetBuilder::new();
    for (task, label, categories) in &case.listed {
        let _ = builder.add_task(TaskInput {
            id: TASK_IDS[*task].to_owned(),
            label: label.clone(),
            split: Some("test".to_owned()),
            categories: categories
                .iter()
                .map(|c| Category {
                    id: format!("c{c}"),
                    label: ["Cat | one", "Cat two", "<i>three</i>"][*c].to_owned(),
                })
                .collect(),
        });
    }
    let mut indices = Vec::new();
    for run in &case.runs {
        let info = RunInfo {
            id: run.id.clone(),
            display_name: run.display_name.clone(),
            base_model: Some("model".to_owned()),
            checkpoint: CheckpointInfo {
                step: run.step,
                training_run_id: run.training_run.clone(),
                parent_checkpoint_id: None,
            },
            bench_id: Some("bench".to_owned()),
            task_selection: run
                .selection
                .map(|(available, selected, max_samples)| TaskSelection {
                    split: "test".to_owned(),
                    available,
                    selected,
                    max_samples,
                }),
            status: run.status.clone(),
            platform_reward_mean: run.platform_mean,
            total_rollouts: run.total_rollouts,
            source: run.source,
            incomplete_load: run.incomplete.clone(),
            ..RunInfo::default()
        };
        let Ok(index) = builder.add_run(info) else {
            continue;
        };
        for (i, sample) in run.samples.iter().enumerate() {
            let id = format!("{}-{i}", run.id);
            let mut flags = TrajectoryFlags::NONE;
            for (bit, (flag, _)) in TrajectoryFlags::NAMED.iter().enumerate() {
                if sample.flags & (1 << bit) != 0 {
                    flags.insert(*flag);
                }
            }
            builder
                .add_trajectory(
                    index,
                    TrajectoryInput {
                        id: &id,
                        task: sample.task.map(|task| TASK_IDS[task]),
                        class: sample.class,
                        reward: sample.reward,
                        ending: sample.ending.as_deref(),
                        flags,
                        created: None,
                        components: sample.components.clone(),
                    },
                )
                .unwrap();
        }
        indices.push(index);
    }
    (builder.build(), indices)
}

fn view(case: &Case) -> ViewState {
    let (filter, key, descending, category) = case.view;
    ViewState {
        filter: RowFilter::ALL[filter],
        sort: Sort {
            key: SortKey::ALL[key],
            descending,
        },
        category: category.map(|c| format!("c{c}")),
        search: category.map(|_| "t".to_owned()),
        ..ViewState::default()
    }
}

/// `rows` sorted as the table's order is defined, comparing the task rows themselves: by the
/// sort key's value (a number missing after present ones, a text missing before), reversed
/// when descending, ties in task order.
fn sorted_by_comparison(report: &Report, rows: &[usize], view: &ViewState) -> Vec<usize> {
    let focus = view.focus.min(report.candidates.len().saturating_sub(1));
    let number = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    };
    let mean = |row: &eval_compare_core::report::TaskRow, run: usize| {
        row.cells.get(run).and_then(|cell| cell.mean)
    };
    let category = |row: &eval_compare_core::report::TaskRow| {
        row.categories
            .first()
            .and_then(|&c| report.categories.get(c as usize))
            .map(String::as_str)
    };
    let effort = |row: usize| {
        report
            .effort
            .as_ref()
            .and_then(|effort| effort.tasks.get(row))
            .and_then(|task| task.cells.get(focus + 1))
    };
    let mut sorted = rows.to_vec();
    sorted.sort_by(|&i, &j| {
        let (a, b) = (&report.tasks[i], &report.tasks[j]);
        let ordering = match view.sort.key {
            SortKey::Delta => number(
                a.deltas.get(focus).copied().flatten(),
                b.deltas.get(focus).copied().flatten(),
            ),
            SortKey::Task => a
                .label
                .as_deref()
                .unwrap_or(&a.task_id)
                .cmp(b.label.as_deref().unwrap_or(&b.task_id)),
            SortKey::Category => category(a).cmp(&category(b)),
            SortKey::Baseline => number(mean(a, 0), mean(b, 0)),
            SortKey::Candidate => number(mean(a, focus + 1), mean(b, focus + 1)),
            SortKey::Turns => number(
                effort(i).and_then(|cell| cell.turns),
                effort(j).and_then(|cell| cell.turns),
            ),
            SortKey::Ending => effort(i)
                .and_then(|cell| cell.ending.as_deref())
                .cmp(&effort(j).and_then(|cell| cell.ending.as_deref())),
        };
        let ordering = if view.sort.descending {
            ordering.reverse()
        } else {
            ordering
        };
        ordering.then(i.cmp(&j))
    });
    sorted
}

fn check_report(report: &Report, case: &Case) -> Result<(), TestCaseError> {
    let json = report.to_json();
    let parsed: Report = match serde_json::from_str(&json) {
        Ok(parsed) => parsed,
        Err(error) => {
            return Err(TestCaseError::fail(format!(
                "the report's JSON does not parse back: {error}\n{json}"
            )))
        }
    };
    // serde_json reads some 17-digit numbers back one bit off (it is built without its
    // `float_roundtrip` feature), so numbers are compared to a relative 1e-15.
    let (written, again): (Value, Value) = (
        serde_json::from_str(&json).unwrap(),
        serde_json::from_str(&parsed.to_json()).unwrap(),
    );
    if let Err(difference) = json_close(&written, &again, 1e-15) {
        prop_assert!(false, "the JSON changed on a round trip: {}", difference);
    }
    let markdown = report.to_markdown();
    prop_assert!(!markdown.is_empty());
    let _ = to_csv(report);
    let shown = view(case);
    let rows = visible_rows(report, &shown);
    prop_assert!(rows.iter().all(|&row| row < report.tasks.len()));
    prop_assert_eq!(&rows, &sorted_by_comparison(report, &rows, &shown));
    // Text ranks kept for the report, first used by other views (all rows sorted by task, then
    // by category, other filter), order this view's rows as its own do.
    let kept = TextRanks::for_report(report);
    for (key, filter) in [
        (SortKey::Task, RowFilter::All),
        (SortKey::Category, RowFilter::Failed),
    ] {
        let other = ViewState {
            filter,
            sort: Sort {
                key,
                descending: false,
            },
            ..ViewState::default()
        };
        let _ = visible_rows_ranked(report, &other, &kept);
    }
    prop_assert_eq!(&visible_rows_ranked(report, &shown, &kept), &rows);
    // Ranks kept for another report with as many rows (the rows reversed) are not used.
    let mut reversed = report.clone();
    reversed.tasks.reverse();
    let foreign = TextRanks::for_report(&reversed);
    for key in [SortKey::Task, SortKey::Category] {
        let other = ViewState {
            sort: Sort {
                key,
                descending: false,
            },
            ..ViewState::default()
        };
        let _ = visible_rows_ranked(&reversed, &other, &foreign);
    }
    prop_assert_eq!(&visible_rows_ranked(report, &shown, &foreign), &rows);
    for candidate in &report.candidates {
        let _ = detail_rows(report, candidate, false);
        check_verdict(report, candidate)?;
        check_where_delta(report, candidate)?;
    }
    Ok(())
}

/// Where the Δ comes from: the categories' contributions (their n-weighted mean) add up to the
/// headline Δ and their tasks to its n; flaky tasks are among the paired ones; pass^k never
/// exceeds pass@k, and both equal the pass rate at k = 1.
fn check_where_delta(report: &Report, candidate: &CandidateResult) -> Result<(), TestCaseError> {
    let headline = report.headline(candidate);
    if let (Some(breakdown), Ok(estimate)) = (&candidate.by_category, &headline.estimate) {
        let n: usize = breakdown.groups.iter().map(|g| g.n).sum();
        prop_assert_eq!(n, headline.n);
        let total: f64 = breakdown.groups.iter().map(|g| g.contribution).sum();
        prop_assert!(
            (total - estimate.delta).abs() <= 1e-12 * (1.0 + estimate.delta.abs()),
            "categories add up to {} against Δ {}",
            total,
            estimate.delta
        );
    }
    let flaky = &candidate.flaky;
    prop_assert!(flaky.either <= flaky.paired && flaky.paired == headline.n);
    prop_assert!(flaky.baseline.max(flaky.candidate) <= flaky.either);
    for pk in &headline.pass_at_k {
        for (at, hat) in [
            (&pk.baseline, &pk.baseline_pass_hat),
            (&pk.candidate, &pk.candidate_pass_hat),
        ] {
            let (Ok(at), Ok(hat)) = (at, hat) else {
                continue;
            };
            for (a, h) in at.per_task.iter().zip(&hat.per_task) {
                if let (Some(a), Some(h)) = (a, h) {
                    prop_assert!(
                        *h <= *a + 1e-15,
                        "pass^{} {} > pass@{} {}",
                        pk.k,
                        h,
                        pk.k,
                        a
                    );
                    if pk.k == 1 {
                        prop_assert!((h - a).abs() <= 1e-12);
                    }
                }
            }
        }
    }
    Ok(())
}

/// The verdict's invariants (docs/statistics.md): better or worse only when significant after
/// Holm with the interval on that side and nothing blocking; not comparable only with a
/// blocking finding; no detectable difference only within ± the target Δ; provisional exactly
/// when a compared run has not finished; no NaN in its words.
fn check_verdict(report: &Report, candidate: &CandidateResult) -> Result<(), TestCaseError> {
    let verdict = &candidate.verdict;
    let blocking = report.audit.with_severity(Severity::Blocking).count();
    match verdict.decision {
        Decision::Better | Decision::Worse => {
            prop_assert_eq!(verdict.evidence, verdict.decision);
            let p = candidate.p_holm.as_ref().ok().copied();
            prop_assert!(
                p.is_some_and(|p| p < report.settings.alpha),
                "{:?}",
                verdict
            );
            let interval = verdict.interval.as_ref().ok();
            prop_assert!(
                interval.is_some_and(|i| if verdict.decision == Decision::Better {
                    i.lower > 0.0
                } else {
                    i.upper < 0.0
                }),
                "{:?}",
                verdict
            );
        }
        Decision::NotComparable => prop_assert!(blocking > 0, "{:?}", verdict),
        Decision::NoDetectableDifference => {
            let interval = verdict.interval.as_ref().ok();
            prop_assert!(
                interval.is_some_and(
                    |i| i.lower.abs().max(i.upper.abs()) <= report.settings.target_delta
                ),
                "{:?}",
                verdict
            );
        }
        _ => {}
    }
    let running = [report.runs.first(), report.run_of(candidate)]
        .into_iter()
        .flatten()
        .any(|run| Lifecycle::of(run.status.as_deref()) == Lifecycle::NotFinished);
    prop_assert_eq!(verdict.provisional, running);
    prop_assert!(
        verdict.reasons.iter().all(|r| !r.contains("NaN")),
        "{:?}",
        verdict
    );
    Ok(())
}

/// The report built by [`ReportBuild`] one step at a time, its progress checked to rise
/// from 0 to 1 and the build to end within two steps per candidate (its analysis, its effort
/// facts) plus the fixed ones.
fn stepwise_report(
    set: &RunSet,
    baseline: RunIdx,
    candidates: &[RunIdx],
    settings: &ReportSettings,
) -> Result<Result<Report, ReportError>, TestCaseError> {
    let mut build = match ReportBuild::start(set, baseline, candidates, settings) {
        Ok(build) => build,
        Err(error) => return Ok(Err(error)),
    };
    let mut progress = build.progress();
    prop_assert_eq!(progress, 0.0);
    let mut steps = 0;
    while !build.is_built() {
        if let Err(error) = build.advance() {
            return Ok(Err(error));
        }
        steps += 1;
        prop_assert!(steps <= 2 * candidates.len() + 8, "{} steps", steps);
        prop_assert!(build.progress() > progress && build.progress() <= 1.0);
        progress = build.progress();
    }
    prop_assert_eq!(progress, 1.0);
    Ok(build.finish().map(DeferredReport::complete))
}

proptest! {
    #[test]
    fn random_run_sets_report_without_panic(case in case()) {
        let (set, runs) = build(&case);
        let pick = |i: usize| runs.get(i % runs.len().max(1)).copied().unwrap_or(RunIdx(i));
        let baseline = pick(case.baseline);
        let mut candidates: Vec<RunIdx> = case.candidates.iter().map(|&c| pick(c)).collect();
        candidates.dedup();
        if case.sensible_choice {
            // Mostly a valid choice (the baseline not among the candidates, at least one), so
            // that most cases get past the validation and build a report.
            candidates.retain(|&c| c != baseline);
            if candidates.is_empty() {
                candidates.extend(runs.iter().copied().find(|&run| run != baseline));
            }
        }
        let first = build_report(&set, baseline, &candidates, &case.settings);
        let second = build_report(&set, baseline, &candidates, &case.settings);
        let [first_json, second_json] = [&first, &second]
            .map(|report| report.as_ref().map(Report::to_json).map_err(ToString::to_string));
        prop_assert!(first_json == second_json, "built twice, the report differs");
        let stepwise = stepwise_report(&set, baseline, &candidates, &case.settings)?;
        let stepwise_json = stepwise.as_ref().map(Report::to_json).map_err(ToString::to_string);
        prop_assert!(first_json == stepwise_json, "built a step at a time, the report differs");
        if let Ok(report) = first {
            check_report(&report, &case)?;
        }
    }
}
