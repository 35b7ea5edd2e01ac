//! The report's charts in a real browser: data extraction from reports built with the core,
//! SVG rendering (legends laid out by the charts' width estimate), aggregation at 100,000
//! tasks, the core's radix sort of numbers in wasm, the "not enough data" cases, and the
//! mounted `ReportCharts` component.
#![cfg(target_arch = "wasm32")]

mod chart_fixture;
mod support;

use std::sync::Arc;

use chart_fixture::{large_report, report_of, run, small_report};
use eval_compare_core::model::OutcomeClass;
use eval_compare_core::radix::sort_numbers;
use eval_compare_viewer::report::charts::common::{accessible_svg, render_svg, Chart, NoChart};
use eval_compare_viewer::report::charts::coverage::coverage_bars;
use eval_compare_viewer::report::charts::download::{svg_blob, SVG_MIME};
use eval_compare_viewer::report::charts::histogram::delta_histogram;
use eval_compare_viewer::report::charts::progression::progression_series;
use eval_compare_viewer::report::charts::progression_delta::progression_deltas;
use eval_compare_viewer::report::charts::scatter::{scatter_points, DISTINCT_POINT_LIMIT, GRID};
use eval_compare_viewer::report::charts::sorted::{sorted_deltas, BAR_LIMIT};
use eval_compare_viewer::report::charts::{ReportCharts, Theme};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::{mount_point, select_all, wait_for};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn svg_of<C: Chart>(chart: &C, theme: &Theme) -> String {
    render_svg(chart, theme).expect("the chart draws")
}

#[wasm_bindgen_test]
fn scatter_merges_coincident_tasks_into_counted_points() {
    let report = small_report();
    let scatter = scatter_points(&report, 0).expect("six paired tasks");
    assert_eq!(scatter.tasks, 6);
    assert_eq!(scatter.cell, None);
    let points: Vec<(f64, f64, u32)> = scatter
        .marks
        .iter()
        .map(|mark| (mark.x, mark.y, mark.count))
        .collect();
    // base/ck100 per task: (1,1) (1,1) (0,1) (0,0) (1,0) (0,0); most populous first.
    assert_eq!(
        points,
        [(0.0, 0.0, 2), (1.0, 1.0, 2), (0.0, 1.0, 1), (1.0, 0.0, 1)]
    );
    assert_eq!(scatter.max_count, 2);
    assert!(scatter.radius(2) > scatter.radius(1));
    let wtl = scatter.win_tie_loss.expect("the report counted wins");
    assert_eq!((wtl.wins, wtl.ties, wtl.losses), (1, 4, 1));
    // ck200 failed on t5: five paired tasks.
    assert_eq!(scatter_points(&report, 1).expect("five").tasks, 5);
    assert_eq!(
        scatter_points(&report, 2).map(|_| ()),
        Err(NoChart::NoCandidate)
    );
}

#[wasm_bindgen_test]
fn sorted_deltas_ascend_and_cover_every_rank() {
    let report = small_report();
    let sorted = sorted_deltas(&report, 0).expect("six paired tasks");
    let values: Vec<f64> = sorted.bars.iter().map(|bar| bar.value).collect();
    assert_eq!(values, [-100.0, 0.0, 0.0, 0.0, 0.0, 100.0]);
    assert!(!sorted.binned);
    assert!(sorted
        .bars
        .iter()
        .enumerate()
        .all(|(rank, bar)| bar.start == rank && bar.end == rank + 1));
}

#[wasm_bindgen_test]
fn histogram_gives_one_bar_per_lattice_value_and_marks_delta() {
    let report = small_report();
    let histogram = delta_histogram(&report, 0).expect("six paired tasks");
    assert!(histogram.discrete);
    let bars: Vec<(f64, f64, u32)> = histogram
        .bins
        .iter()
        .map(|bin| (bin.lower, bin.upper, bin.count))
        .collect();
    assert_eq!(
        bars,
        [(-150.0, -50.0, 1), (-50.0, 50.0, 4), (50.0, 150.0, 1)]
    );
    assert_eq!(histogram.delta, Some(0.0));
    let interval = histogram.interval.expect("a t interval");
    assert!(interval.lower < 0.0 && interval.upper > 0.0);
    let svg = svg_of(&histogram, &Theme::LIGHT);
    assert!(svg.contains("Δ = 0.0 points (mean)"), "{svg}");
    assert!(svg.contains("95% CI "), "{svg}");
}

#[wasm_bindgen_test]
fn coverage_counts_every_run_by_outcome() {
    let report = small_report();
    let coverage = coverage_bars(&report).expect("trajectories");
    let rows: Vec<(String, bool, u64)> = coverage
        .runs
        .iter()
        .map(|run| (run.name.clone(), run.baseline, run.total))
        .collect();
    assert_eq!(
        rows,
        [
            ("BASE".to_owned(), true, 6),
            ("Step 100".to_owned(), false, 6),
            ("Step 200".to_owned(), false, 6),
        ]
    );
    // Graded first in the stack, then failed.
    assert_eq!(coverage.runs[2].counts[0], 5);
    assert_eq!(
        coverage.classes,
        [OutcomeClass::Graded, OutcomeClass::Failed]
    );
    let svg = svg_of(&coverage, &Theme::DARK);
    for text in ["trajectories", "BASE (baseline)", "graded", "failed"] {
        assert!(svg.contains(text), "{text:?} missing");
    }
}

#[wasm_bindgen_test]
fn progression_follows_the_report_and_is_absent_without_checkpoints() {
    let report = small_report();
    let series = progression_series(&report)
        .expect("two checkpoints of one training run")
        .expect("both have means");
    let steps: Vec<i64> = series.points.iter().map(|point| point.step).collect();
    assert_eq!(steps, [100, 200]);
    let expected = report.progression.as_ref().expect("a progression");
    assert_eq!(Some(series.points[0].mean), expected.points[0].mean);
    assert_eq!(series.baseline_mean, expected.baseline_mean);
    let svg = svg_of(&series, &Theme::LIGHT);
    assert!(svg.contains("training step") && svg.contains("task-weighted mean reward"));

    let plain = report_of(&[
        run("base", None, &[Some(1.0), Some(0.0)]),
        run("other", None, &[Some(0.0), Some(1.0)]),
    ]);
    assert!(progression_series(&plain).is_none());
}

#[wasm_bindgen_test]
fn every_svg_has_titles_axis_labels_a_text_alternative_and_no_nan() {
    let report = small_report();
    let scatter = scatter_points(&report, 0).expect("scatter");
    let histogram = delta_histogram(&report, 0).expect("histogram");
    let sorted = sorted_deltas(&report, 0).expect("sorted");
    let coverage = coverage_bars(&report).expect("coverage");
    let progression = progression_series(&report)
        .expect("progression")
        .expect("points");
    let progression_delta = progression_deltas(&report)
        .expect("progression")
        .expect("points");
    let cases: Vec<(String, String, Vec<&str>)> = [Theme::LIGHT, Theme::DARK]
        .iter()
        .flat_map(|theme| {
            vec![
                (
                    scatter.title(),
                    svg_of(&scatter, theme),
                    vec![
                        "BASE: task mean reward",
                        "Step 100: task mean reward",
                        "0.2",
                    ],
                ),
                (
                    histogram.title(),
                    svg_of(&histogram, theme),
                    vec![
                        "per-task Δ = candidate − baseline (points)",
                        "tasks",
                        "+100",
                    ],
                ),
                (
                    sorted.title(),
                    svg_of(&sorted, theme),
                    vec!["paired tasks ranked by Δ", "Δ (points)"],
                ),
                (
                    coverage.title(),
                    svg_of(&coverage, theme),
                    vec!["trajectories", "Step 200"],
                ),
                (
                    progression.title(),
                    svg_of(&progression, theme),
                    vec!["training step", "task-weighted mean reward", "0.4"],
                ),
                (
                    progression_delta.title(),
                    svg_of(&progression_delta, theme),
                    vec![
                        "training step",
                        "Δ against the baseline (points)",
                        "0 = BASE",
                    ],
                ),
            ]
        })
        .collect();
    for (title, svg, texts) in &cases {
        assert!(!svg.contains("NaN"), "NaN in {title}");
        assert!(svg.starts_with("<svg "), "{title}");
        assert!(svg.contains("role=\"img\" aria-label=\""), "{title}");
        assert!(svg.contains("<desc>"), "{title}");
        // The title is drawn and also the SVG's <title>.
        let escaped = title.replace('&', "&amp;");
        assert!(
            svg.contains(&format!("<title>{escaped}</title>")),
            "{title}"
        );
        assert!(svg.matches(&escaped).count() >= 2, "{title} is not drawn");
        for text in texts {
            assert!(svg.contains(text), "{text:?} missing from {title}");
        }
    }
    // The themes differ: the dark background is the dark surface colour.
    let first_dark = cases.len() / 2;
    assert!(cases[first_dark].1.contains("#191D23") && !cases[0].1.contains("#191D23"));
}

#[wasm_bindgen_test]
fn degenerate_reports_give_a_reason_instead_of_a_chart() {
    // Nothing paired: the candidate failed everywhere.
    let none = report_of(&[
        run("base", None, &[Some(1.0), Some(0.0)]),
        run("cand", None, &[None, None]),
    ]);
    assert_eq!(
        scatter_points(&none, 0).map(|_| ()),
        Err(NoChart::TooFewTasks { tasks: 0 })
    );
    assert_eq!(
        delta_histogram(&none, 0).map(|_| ()),
        Err(NoChart::TooFewTasks { tasks: 0 })
    );
    // The coverage still draws: the candidate's trajectories are failures.
    assert!(coverage_bars(&none).is_ok());

    // One paired task.
    let one = report_of(&[
        run("base", None, &[Some(1.0)]),
        run("cand", None, &[Some(0.0)]),
    ]);
    for result in [
        scatter_points(&one, 0).map(|_| ()),
        delta_histogram(&one, 0).map(|_| ()),
        sorted_deltas(&one, 0).map(|_| ()),
    ] {
        assert_eq!(result, Err(NoChart::TooFewTasks { tasks: 1 }));
    }

    // Every task has the same Δ (+50 points).
    let equal = report_of(&[
        run("base", None, &[Some(0.0), Some(0.5), Some(0.25)]),
        run("cand", None, &[Some(0.5), Some(1.0), Some(0.75)]),
    ]);
    let reason = delta_histogram(&equal, 0)
        .map(|_| ())
        .expect_err("every Δ is +50 points");
    assert_eq!(
        reason,
        NoChart::AllDeltasEqual {
            tasks: 3,
            delta: 0.5
        }
    );
    assert_eq!(
        reason.to_string(),
        "Not enough data to chart a distribution: all 3 paired tasks have the same Δ (+50.0 \
         points)."
    );
    assert_eq!(sorted_deltas(&equal, 0).map(|_| ()), Err(reason));
    // The scatter still has something to show: three tasks above the diagonal.
    assert_eq!(scatter_points(&equal, 0).expect("three tasks").tasks, 3);
}

#[wasm_bindgen_test]
fn a_hundred_thousand_tasks_are_aggregated_and_stay_fast() {
    let tasks = 100_000;
    let report = large_report(tasks);
    let performance = web_sys::window()
        .and_then(|window| window.performance())
        .expect("performance");
    let started = performance.now();
    let scatter = scatter_points(&report, 0).expect("scatter");
    let histogram = delta_histogram(&report, 0).expect("histogram");
    let sorted = sorted_deltas(&report, 0).expect("sorted");
    let extracted = performance.now();
    let svgs = [
        svg_of(&scatter, &Theme::LIGHT),
        svg_of(&histogram, &Theme::LIGHT),
        svg_of(&sorted, &Theme::LIGHT),
    ];
    let drawn = performance.now();
    console_log!(
        "100k tasks: extraction {:.0} ms, drawing {:.0} ms, SVG sizes {:?} bytes",
        extracted - started,
        drawn - extracted,
        svgs.iter().map(String::len).collect::<Vec<_>>()
    );

    assert!(scatter.distinct > DISTINCT_POINT_LIMIT);
    assert_eq!(scatter.cell, Some(1.0 / GRID as f64));
    assert!(scatter.marks.len() <= GRID * GRID);
    assert_eq!(
        scatter
            .marks
            .iter()
            .map(|mark| mark.count as usize)
            .sum::<usize>(),
        tasks
    );

    assert!(sorted.binned);
    assert_eq!(sorted.bars.len(), BAR_LIMIT);
    assert_eq!(sorted.bars[0].start, 0);
    assert_eq!(sorted.bars[BAR_LIMIT - 1].end, tasks);
    assert!(sorted
        .bars
        .windows(2)
        .all(|pair| { pair[0].end == pair[1].start && pair[0].value <= pair[1].value }));

    assert!(!histogram.discrete);
    assert_eq!(
        histogram
            .bins
            .iter()
            .map(|bin| bin.count as usize)
            .sum::<usize>(),
        tasks
    );
    assert!(histogram
        .bins
        .windows(2)
        .all(|pair| (pair[0].upper - pair[1].lower).abs() < 1e-9));

    for svg in &svgs {
        assert!(svg.len() < 300_000, "an SVG has {} bytes", svg.len());
        assert!(!svg.contains("NaN"));
    }
}

#[wasm_bindgen_test]
fn numbers_sort_in_total_order() {
    let mut values = vec![0.5, -1.0, 0.0, -0.0, 2.0, -0.25, 1e-9, -3e-9];
    sort_numbers(&mut values);
    let expected = [-1.0, -0.25, -3e-9, -0.0, 0.0, 1e-9, 0.5, 2.0];
    assert_eq!(
        values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        expected.map(f64::to_bits)
    );
}

#[wasm_bindgen_test]
fn accessible_svg_escapes_the_text_alternative() {
    let svg = accessible_svg(
        "<svg width=\"1\" height=\"1\" xmlns=\"http://www.w3.org/2000/svg\">\n</svg>",
        "A <b> & \"c\"",
        "x < y",
    );
    assert_eq!(
        svg,
        "<svg width=\"1\" height=\"1\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" \
         aria-label=\"A &lt;b&gt; &amp; &quot;c&quot;. x &lt; y\">\n<title>A &lt;b&gt; &amp; \
         &quot;c&quot;</title>\n<desc>x &lt; y</desc>\n</svg>"
    );
}

#[wasm_bindgen_test]
fn the_downloaded_blob_is_the_svg() {
    let svg = svg_of(
        &coverage_bars(&small_report()).expect("coverage"),
        &Theme::LIGHT,
    );
    let blob = svg_blob(&svg).expect("a blob");
    assert_eq!(blob.type_(), SVG_MIME);
    assert_eq!(blob.size() as usize, svg.len());
}

/// Waits until the `.chart-svg` containers under `root` hold `count` SVGs.
async fn wait_for_svgs(root: &web_sys::HtmlElement, count: usize) -> Vec<web_sys::Element> {
    for _ in 0..100 {
        let svgs = select_all(root, ".chart-svg > svg");
        if svgs.len() == count {
            return svgs;
        }
        TimeoutFuture::new(20).await;
    }
    panic!("expected {count} charts; the DOM is: {}", root.inner_html());
}

#[wasm_bindgen_test]
async fn report_charts_draws_every_chart_and_follows_the_focus() {
    let root = mount_point();
    let report = RwSignal::new(Arc::new(small_report()));
    let focus = RwSignal::new(0usize);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <ReportCharts report=Signal::from(report) focus=Signal::from(focus)/> }
    });
    let svgs = wait_for_svgs(&root, 6).await;
    let labels: Vec<String> = svgs
        .iter()
        .map(|svg| svg.get_attribute("aria-label").unwrap_or_default())
        .collect();
    assert!(
        labels[0].starts_with("Per-task mean reward: Step 100 vs BASE. "),
        "{labels:?}"
    );
    assert!(
        labels[4].starts_with("Reward by checkpoint step: train_1. "),
        "{labels:?}"
    );
    assert!(
        labels[5].starts_with("Δ against the baseline by step: train_1. "),
        "{labels:?}"
    );
    assert!(labels.iter().all(|label| !label.contains("NaN")));
    let buttons = select_all(&root, "button.chart-download");
    assert_eq!(buttons.len(), 6);
    assert_eq!(
        buttons[0].get_attribute("aria-label").as_deref(),
        Some("Download SVG: Per-task mean reward")
    );

    // Downloading starts without an error message.
    if let Some(button) = buttons.first() {
        use wasm_bindgen::JsCast;
        button
            .dyn_ref::<web_sys::HtmlElement>()
            .expect("a button is an HtmlElement")
            .click();
    }
    TimeoutFuture::new(50).await;
    assert!(
        select_all(&root, ".chart-error").is_empty(),
        "{}",
        root.inner_html()
    );

    focus.set(1);
    for _ in 0..100 {
        let label = select_all(&root, ".chart-svg > svg")
            .first()
            .and_then(|svg| svg.get_attribute("aria-label"))
            .unwrap_or_default();
        if label.starts_with("Per-task mean reward: Step 200 vs BASE. ") {
            return;
        }
        TimeoutFuture::new(20).await;
    }
    panic!(
        "the scatter did not follow the focus: {}",
        root.inner_html()
    );
}

#[wasm_bindgen_test]
async fn report_charts_explain_missing_data_and_skip_the_progression() {
    let root = mount_point();
    let report = Arc::new(report_of(&[
        run("base", None, &[Some(1.0), Some(0.0)]),
        run("cand", None, &[None, Some(1.0)]),
    ]));
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <ReportCharts report=Signal::stored(report.clone()) focus=Signal::stored(0)/> }
    });
    // Only the coverage can be drawn; no progression without checkpoints.
    wait_for(&root, ".chart-svg > svg", 2_000).await;
    let messages: Vec<String> = select_all(&root, ".chart-empty")
        .iter()
        .map(|element| element.text_content().unwrap_or_default())
        .collect();
    assert_eq!(
        messages,
        vec![
            "Not enough data: only 1 task was scored by both runs; a chart needs at least 2."
                .to_owned();
            3
        ]
    );
    assert_eq!(select_all(&root, "figure.chart").len(), 4);
    assert_eq!(select_all(&root, ".chart-svg > svg").len(), 1);
}
