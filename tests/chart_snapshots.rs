//! Snapshot tests of the report's charts: each chart's SVG, drawn from the fixed reports of
//! `chart_fixture`, is committed under `tests/snapshots/` and compared exactly, in the light
//! and the dark theme, and in the light theme for a large report with continuous rewards (the
//! scatter and the sorted deltas aggregated, the histogram's bins ranged, narrow intervals).
//!
//! After an intended change of a chart, rewrite the snapshots and review them as pictures:
//! `UPDATE_SNAPSHOTS=1 cargo test -p eval-compare-viewer --test chart_snapshots`.
//!
//! Native only: the legends are laid out by an estimate of the text widths (the same natively
//! and in the browser), but the browser draws the text with the page's fonts, which vary with
//! the browser and the installed fonts. So these SVGs are the charts' drawing code on fixed
//! inputs, not pixel for pixel what a given browser shows (`charts.rs` checks the browser's).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod chart_fixture;

use std::path::PathBuf;

use chart_fixture::{continuous_report, small_report};
use eval_compare_core::report::Report;
use eval_compare_viewer::report::charts::coverage::coverage_bars;
use eval_compare_viewer::report::charts::histogram::delta_histogram;
use eval_compare_viewer::report::charts::progression::progression_series;
use eval_compare_viewer::report::charts::progression_delta::progression_deltas;
use eval_compare_viewer::report::charts::scatter::scatter_points;
use eval_compare_viewer::report::charts::sorted::sorted_deltas;
use eval_compare_viewer::report::charts::{render_svg, Chart, Theme};

/// The environment variable that rewrites the snapshots instead of comparing with them.
const UPDATE: &str = "UPDATE_SNAPSHOTS";

/// Tasks of the aggregated snapshots: above the scatter's 1,000 distinct points and the sorted
/// chart's 500 bars.
const LARGE_TASKS: usize = 1_200;

fn snapshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.svg"))
}

/// Compares `svg` with the snapshot `tests/snapshots/NAME.svg`, or writes the snapshot when
/// `UPDATE_SNAPSHOTS=1`. A missing snapshot is a failure.
fn assert_snapshot(name: &str, svg: &str) {
    let path = snapshot_path(name);
    if std::env::var(UPDATE).is_ok_and(|value| value == "1") {
        std::fs::create_dir_all(path.parent().expect("the snapshots folder")).unwrap();
        std::fs::write(&path, svg).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "no snapshot {} ({error}): create it with `{UPDATE}=1 cargo test -p \
             eval-compare-viewer --test chart_snapshots` and review it",
            path.display()
        )
    });
    if svg != expected {
        let line = svg
            .lines()
            .zip(expected.lines())
            .position(|(actual, expected)| actual != expected)
            .unwrap_or_else(|| svg.lines().count().min(expected.lines().count()));
        panic!(
            "the chart differs from its snapshot {} from line {}:\n  drawn:    {}\n  snapshot: \
             {}\nIf the change is intended, rewrite the snapshots with `{UPDATE}=1 cargo test -p \
             eval-compare-viewer --test chart_snapshots` and review them.",
            path.display(),
            line + 1,
            svg.lines().nth(line).unwrap_or("(end of the drawing)"),
            expected
                .lines()
                .nth(line)
                .unwrap_or("(end of the snapshot)"),
        );
    }
}

/// Checks the chart's SVG in both themes against `NAME-light.svg` and `NAME-dark.svg`.
fn assert_themed_snapshots<C: Chart>(name: &str, chart: &C) {
    for (theme, suffix) in [(Theme::LIGHT, "light"), (Theme::DARK, "dark")] {
        let svg = render_svg(chart, &theme).expect("the chart draws");
        assert_snapshot(&format!("{name}-{suffix}"), &svg);
    }
}

fn large() -> Report {
    continuous_report(LARGE_TASKS)
}

#[test]
fn scatter_snapshots() {
    let report = small_report();
    assert_themed_snapshots("scatter", &scatter_points(&report, 0).unwrap());
    let grid = scatter_points(&large(), 1).unwrap();
    assert!(grid.cell.is_some(), "the large scatter is aggregated");
    assert_snapshot("scatter-grid", &render_svg(&grid, &Theme::LIGHT).unwrap());
}

#[test]
fn histogram_snapshots() {
    let report = small_report();
    assert_themed_snapshots("histogram", &delta_histogram(&report, 0).unwrap());
    let continuous = delta_histogram(&large(), 1).unwrap();
    assert!(!continuous.discrete, "continuous deltas get ranged bins");
    assert_snapshot(
        "histogram-continuous",
        &render_svg(&continuous, &Theme::LIGHT).unwrap(),
    );
}

#[test]
fn sorted_deltas_snapshots() {
    let report = small_report();
    assert_themed_snapshots("sorted", &sorted_deltas(&report, 0).unwrap());
    let binned = sorted_deltas(&large(), 1).unwrap();
    assert!(binned.binned, "the large sorted deltas are binned");
    assert_snapshot(
        "sorted-binned",
        &render_svg(&binned, &Theme::LIGHT).unwrap(),
    );
}

#[test]
fn coverage_snapshots() {
    assert_themed_snapshots("coverage", &coverage_bars(&small_report()).unwrap());
}

#[test]
fn progression_snapshots() {
    let series = progression_series(&small_report())
        .expect("two checkpoints of one training run")
        .unwrap();
    assert_themed_snapshots("progression", &series);
    let narrow = progression_series(&large())
        .expect("two checkpoints")
        .unwrap();
    assert_snapshot(
        "progression-continuous",
        &render_svg(&narrow, &Theme::LIGHT).unwrap(),
    );
}

#[test]
fn progression_delta_snapshots_draw_a_running_step_as_provisional() {
    let report = chart_fixture::progression_with_running();
    let series = progression_deltas(&report)
        .expect("checkpoints of one training run")
        .unwrap();
    let provisional: Vec<bool> = series.points.iter().map(|p| p.provisional).collect();
    assert_eq!(provisional, [false, false, true]);
    let progression = report.progression.as_ref().unwrap();
    for (point, drawn) in progression.points.iter().zip(&series.points) {
        assert_eq!(drawn.delta, point.delta.unwrap() * 100.0);
        let interval = point.delta_interval.as_ref().unwrap();
        assert_eq!(
            drawn.interval,
            Some((interval.lower * 100.0, interval.upper * 100.0))
        );
    }
    assert!(series.summary().contains("step 300: "));
    assert!(series.summary().ends_with("provisional: still running."));
    let svg = render_svg(&series, &Theme::LIGHT).unwrap();
    assert!(
        svg.lines().any(|line| line.trim() == "running"),
        "the provisional step is labelled"
    );
    assert_themed_snapshots("progression-delta", &series);
}
