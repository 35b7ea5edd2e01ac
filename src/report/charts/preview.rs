//! Native check of the drawing code on synthetic reports, and a way to look at the charts without
//! a browser: with `EVAL_COMPARE_CHART_DIR=DIR cargo test -p eval-compare-viewer --lib charts`,
//! every chart is written to DIR in both themes, with an `index.html` showing them side by side
//! (open it, or `chromium --screenshot` it). The legends are laid out by the charts' own text
//! width estimate, here as in the browser; the text itself is drawn by whatever shows the SVG.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;

use eval_compare_core::model::{
    Category, CheckpointInfo, OutcomeClass, RunInfo, RunSetBuilder, TaskInput, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::report::{build_report, Report, ReportSettings};

use super::coverage::coverage_bars;
use super::histogram::delta_histogram;
use super::progression::progression_series;
use super::scatter::scatter_points;
use super::sorted::sorted_deltas;
use super::{render_svg, Chart, Theme};

/// A deterministic uniform number in [0, 1) from a key.
fn uniform(key: u64) -> f64 {
    let mut x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// A baseline and three checkpoints of one training run over `tasks` tasks with `samples`
/// samples each; binary rewards, or continuous ones in [0, 1].
fn synthetic_report(tasks: usize, samples: usize, continuous: bool) -> Report {
    let mut builder = RunSetBuilder::new();
    for task in 0..tasks {
        builder
            .add_task(TaskInput {
                id: format!("task-{task}"),
                label: None,
                split: Some("test".into()),
                categories: vec![Category {
                    id: format!("c{}", task % 4),
                    label: format!("Category {}", task % 4),
                }],
            })
            .unwrap();
    }
    let runs = [
        ("eval_base", None, 0.0),
        ("eval_ckpt_s100", Some(100), -0.02),
        ("eval_ckpt_s200", Some(200), 0.03),
        ("eval_ckpt_s300", Some(300), 0.07),
    ];
    let mut indices = Vec::new();
    for (r, (id, step, skill)) in runs.iter().enumerate() {
        let run = builder
            .add_run(RunInfo {
                id: (*id).into(),
                display_name: Some(if step.is_some() {
                    format!("Checkpoint {id}")
                } else {
                    "Base model v2".into()
                }),
                bench_id: Some("bench_v2".into()),
                checkpoint: CheckpointInfo {
                    step: *step,
                    training_run_id: step.map(|_| "train_demo".into()),
                    parent_checkpoint_id: None,
                },
                status: Some("completed".into()),
                source: eval_compare_core::model::SourceKind::Files,
                ..RunInfo::default()
            })
            .unwrap();
        indices.push(run);
        for task in 0..tasks {
            let difficulty = uniform(task as u64);
            for sample in 0..samples {
                let key = ((r * tasks + task) * samples + sample) as u64 + 1_000_003;
                let draw = uniform(key);
                let ending = uniform(key ^ 0xABCD);
                let (class, reward) = if ending < 0.02 {
                    (OutcomeClass::Failed, None)
                } else if ending < 0.05 {
                    (OutcomeClass::CutOff, None)
                } else if ending < 0.06 && r == 3 {
                    (OutcomeClass::Unfinished, None)
                } else if continuous {
                    let value = (difficulty + skill + (draw - 0.5) * 0.3).clamp(0.0, 1.0);
                    (OutcomeClass::Graded, Some(value))
                } else {
                    let pass = draw < (difficulty + skill).clamp(0.0, 1.0);
                    (OutcomeClass::Graded, Some(if pass { 1.0 } else { 0.0 }))
                };
                let trajectory_id = format!("{id}-{task}-{sample}");
                let task_id = format!("task-{task}");
                builder
                    .add_trajectory(
                        run,
                        TrajectoryInput {
                            id: &trajectory_id,
                            task: Some(&task_id),
                            class,
                            reward,
                            ending: None,
                            flags: TrajectoryFlags::default(),
                            created: None,
                            components: None,
                        },
                    )
                    .unwrap();
            }
        }
    }
    let set = builder.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&set, indices[0], &indices[1..], &settings).unwrap()
}

/// Renders a chart in both themes, checks the SVGs and returns them (light, dark).
fn render_both<C: Chart>(chart: &C, axis_titles: &[&str]) -> [String; 2] {
    [Theme::LIGHT, Theme::DARK].map(|theme| {
        let svg = render_svg(chart, &theme).expect("the chart draws");
        assert!(!svg.contains("NaN"), "NaN in {}", chart.title());
        assert!(svg.contains("role=\"img\""));
        assert!(svg.contains("<title>"));
        for title in axis_titles {
            assert!(
                svg.contains(title),
                "{title:?} missing from {}",
                chart.title()
            );
        }
        svg
    })
}

fn write_preview(name: &str, charts: &[(String, [String; 2])]) {
    let Ok(dir) = std::env::var("EVAL_COMPARE_CHART_DIR") else {
        return;
    };
    std::fs::create_dir_all(&dir).unwrap();
    let mut index = String::from(
        "<!DOCTYPE html><meta charset=utf-8><style>body{margin:0;display:grid;\
         grid-template-columns:1fr 1fr;gap:8px;background:#888}svg,img{width:100%;height:auto;\
         display:block}</style>",
    );
    for (slug, [light, dark]) in charts {
        for (theme, svg) in [("light", light), ("dark", dark)] {
            let file = format!("{name}-{slug}-{theme}.svg");
            std::fs::write(format!("{dir}/{file}"), svg).unwrap();
            write!(index, "<img src=\"{file}\">").unwrap();
        }
    }
    std::fs::write(format!("{dir}/{name}.html"), index).unwrap();
}

fn render_all(name: &str, report: &Report) -> usize {
    let mut charts = Vec::new();
    let scatter = scatter_points(report, 2).unwrap();
    charts.push((
        "scatter".to_owned(),
        render_both(&scatter, &["task mean reward"]),
    ));
    let histogram = delta_histogram(report, 2).unwrap();
    charts.push((
        "histogram".to_owned(),
        render_both(&histogram, &["candidate − baseline (points)", "tasks"]),
    ));
    let sorted = sorted_deltas(report, 2).unwrap();
    charts.push((
        "sorted".to_owned(),
        render_both(&sorted, &["ranked by Δ", "Δ (points)"]),
    ));
    let coverage = coverage_bars(report).unwrap();
    charts.push((
        "coverage".to_owned(),
        render_both(&coverage, &["trajectories", "(baseline)"]),
    ));
    let progression = progression_series(report).unwrap().unwrap();
    charts.push((
        "progression".to_owned(),
        render_both(
            &progression,
            &["training step", "task-weighted mean reward"],
        ),
    ));
    let largest = charts
        .iter()
        .flat_map(|(_, svgs)| svgs.iter().map(String::len))
        .max()
        .unwrap_or(0);
    write_preview(name, &charts);
    largest
}

#[test]
fn chronicle_runs_are_counted_in_trials() {
    let mut report = synthetic_report(40, 2, false);
    let bars = coverage_bars(&report).unwrap();
    assert_eq!(bars.title(), "Coverage: trajectories by outcome");
    for run in &mut report.runs {
        run.source = eval_compare_core::model::SourceKind::Chronicle;
    }
    let bars = coverage_bars(&report).unwrap();
    assert_eq!(bars.title(), "Coverage: trials by outcome");
    assert!(bars.summary().starts_with("Trials of each compared run"));
    assert!(!bars.summary().contains("trajector"), "{}", bars.summary());
}

#[test]
fn every_chart_draws_in_both_themes_for_binary_rewards() {
    let report = synthetic_report(400, 4, false);
    render_all("binary", &report);
}

#[test]
fn large_continuous_reports_are_aggregated_into_small_svgs() {
    let report = synthetic_report(20_000, 1, true);
    let scatter = scatter_points(&report, 2).unwrap();
    assert!(
        scatter.cell.is_some(),
        "{} distinct points",
        scatter.distinct
    );
    let largest = render_all("continuous", &report);
    assert!(largest < 400_000, "an SVG has {largest} bytes");
}
