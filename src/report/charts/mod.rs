//! The charts of the comparison report, drawn with plotters from the core [`Report`] (never
//! from API data), so every number they show is the report's.
//!
//! Each chart is a pure function and a trait impl:
//! - data extraction from the report, e.g. [`scatter::scatter_points`], returning the chart's
//!   data or the reason there is not enough of it ([`NoChart`]);
//! - the [`Chart`] trait: its title, summary, legend and axes, and its own marks drawn over any
//!   plotters `DrawingBackend` on a [`canvas::Canvas`]; the frame, legend and axes are drawn
//!   for every chart alike by [`Chart::draw`] (the steps in [`frame`]), and [`render_svg`]
//!   renders the whole to an SVG string. Labels and ticks are in [`labels`]; what the two progression charts share in
//!   [`checkpoints`].
//!
//! [`ReportCharts`] memoizes the data per report and focus and draws in effects: a theme change
//! redraws without extracting again. Large reports are aggregated rather than drawn point by
//! point (scatter above 1,000 distinct points → 40 × 40 grid; sorted deltas above 500 tasks →
//! 500 quantile bins), so the SVGs stay small and the download is exactly what is shown.

pub mod canvas;
pub mod checkpoints;
pub mod common;
pub mod coverage;
pub mod download;
pub mod focus;
pub mod frame;
pub mod histogram;
pub mod labels;
pub mod progression;
pub mod progression_delta;
pub mod quality_cost;
pub mod scatter;
pub mod sorted;
pub mod theme;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod preview;

use std::sync::Arc;

use eval_compare_core::report::Report;
use leptos::prelude::*;

pub use common::{render_svg, Chart, NoChart, RenderError};
pub use theme::{use_theme, Theme};

use coverage::{coverage_bars, CoverageBars};
use download::download_svg;
use focus::PairedTasks;
use histogram::{delta_histogram_of, DeltaHistogram};
use progression::{progression_series, ProgressionSeries};
use progression_delta::{progression_deltas, ProgressionDeltas};
use scatter::{scatter_points_of, ScatterData};
use sorted::{sorted_deltas_of, SortedDeltas};

/// Any of the report's charts. [`ChartFigure`] takes this one type, so the component and its
/// reactive plumbing are compiled once rather than once per chart.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyChart {
    /// Per-task scatter.
    Scatter(ScatterData),
    /// Distribution of per-task deltas.
    Histogram(DeltaHistogram),
    /// Sorted per-task deltas.
    Sorted(SortedDeltas),
    /// Coverage bars.
    Coverage(CoverageBars),
    /// Reward by checkpoint step.
    Progression(ProgressionSeries),
    /// Paired Δ against the baseline by checkpoint step.
    ProgressionDelta(ProgressionDeltas),
    /// Δ reward against Δ cost per task across the candidates.
    QualityCost(quality_cost::QualityCostChart),
}

impl AnyChart {
    /// The chart as a standalone, accessible SVG document.
    pub fn svg(&self, theme: &Theme) -> Result<String, RenderError> {
        match self {
            AnyChart::Scatter(chart) => render_svg(chart, theme),
            AnyChart::Histogram(chart) => render_svg(chart, theme),
            AnyChart::Sorted(chart) => render_svg(chart, theme),
            AnyChart::Coverage(chart) => render_svg(chart, theme),
            AnyChart::Progression(chart) => render_svg(chart, theme),
            AnyChart::ProgressionDelta(chart) => render_svg(chart, theme),
            AnyChart::QualityCost(chart) => render_svg(chart, theme),
        }
    }

    /// The file name of the downloaded SVG.
    pub fn file_name(&self) -> String {
        match self {
            AnyChart::Scatter(chart) => chart.file_name(),
            AnyChart::Histogram(chart) => chart.file_name(),
            AnyChart::Sorted(chart) => chart.file_name(),
            AnyChart::Coverage(chart) => chart.file_name(),
            AnyChart::Progression(chart) => chart.file_name(),
            AnyChart::ProgressionDelta(chart) => chart.file_name(),
            AnyChart::QualityCost(chart) => chart.file_name(),
        }
    }
}

/// A chart's data, or why it cannot be drawn.
pub type ChartData = Result<AnyChart, NoChart>;

/// The report's charts: per-task scatter, Δ distribution and sorted deltas of the focused
/// candidate, coverage of every run, and reward by checkpoint step when the candidates are
/// checkpoints of one training run (means, and the paired Δ with its band, a running step
/// provisional). Follows the system's light or dark scheme.
#[component]
pub fn ReportCharts(
    /// The report, as built by the core.
    report: Signal<Arc<Report>>,
    /// Index into `report.candidates` of the candidate the per-task charts show.
    focus: Signal<usize>,
) -> impl IntoView {
    let theme = use_theme();
    // The focused candidate's paired tasks, read once for the three per-task charts (new for
    // each report and focus: never compared).
    let paired: Memo<Arc<PairedTasks>> = Memo::new_with_compare(
        move |_| report.with(|report| Arc::new(PairedTasks::at(report, focus.get()))),
        |_, _| true,
    );
    let per_task = move |chart: fn(&Report, usize, &PairedTasks) -> ChartData| {
        Memo::new(move |_| {
            let paired = paired.get();
            report.with(|report| chart(report, focus.get_untracked(), &paired))
        })
    };
    let scatter: Memo<ChartData> = per_task(|report, focus, paired| {
        scatter_points_of(report, focus, paired).map(AnyChart::Scatter)
    });
    let histogram: Memo<ChartData> = per_task(|report, focus, paired| {
        delta_histogram_of(report, focus, paired).map(AnyChart::Histogram)
    });
    let sorted: Memo<ChartData> = per_task(|report, focus, paired| {
        sorted_deltas_of(report, focus, paired).map(AnyChart::Sorted)
    });
    let coverage: Memo<ChartData> =
        Memo::new(move |_| report.with(|report| coverage_bars(report).map(AnyChart::Coverage)));
    let has_progression = Memo::new(move |_| report.with(|report| report.progression.is_some()));
    let progression: Memo<ChartData> = Memo::new(move |_| {
        report.with(|report| {
            progression_series(report)
                .unwrap_or(Err(NoChart::TooFewCheckpoints { points: 0 }))
                .map(AnyChart::Progression)
        })
    });
    let progression_delta: Memo<ChartData> = Memo::new(move |_| {
        report.with(|report| {
            progression_deltas(report)
                .unwrap_or(Err(NoChart::TooFewCheckpoints { points: 0 }))
                .map(AnyChart::ProgressionDelta)
        })
    });
    view! {
        <section class="report-charts" aria-label="Charts">
            <ChartFigure heading="Per-task mean reward" data=scatter theme/>
            <ChartFigure heading="Distribution of per-task Δ" data=histogram theme/>
            <ChartFigure heading="Per-task Δ, sorted" data=sorted theme/>
            <ChartFigure heading="Coverage: trajectories by outcome" data=coverage theme/>
            {move || {
                has_progression
                    .get()
                    .then(|| {
                        view! {
                            <ChartFigure heading="Reward by checkpoint step" data=progression theme/>
                            <ChartFigure
                                heading="Δ against the baseline by checkpoint step"
                                data=progression_delta
                                theme
                            />
                        }
                    })
            }}
        </section>
    }
}

/// One chart: its SVG (drawn in an effect, redrawn on a data or theme change) with a "Download
/// SVG" button, or the reason it cannot be drawn.
#[component]
pub fn ChartFigure(
    /// What the chart shows; heads the message when there is not enough data, and names the
    /// download button for assistive technology.
    heading: &'static str,
    /// The chart's data, or why there is none.
    data: Memo<ChartData>,
    /// Colours.
    theme: Signal<Theme>,
) -> impl IntoView {
    let container = NodeRef::<leptos::html::Div>::new();
    // What is on screen, for the download: exactly the markup inserted.
    let shown = StoredValue::new((String::new(), String::new()));
    let failure = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let theme = theme.get();
        let Some(element) = container.get() else {
            return;
        };
        data.with(|data| {
            let Ok(chart) = data else {
                return;
            };
            match chart.svg(&theme) {
                Ok(svg) => {
                    element.set_inner_html(&svg);
                    shown.set_value((svg, chart.file_name()));
                    failure.set(None);
                }
                Err(error) => {
                    element.set_inner_html("");
                    shown.set_value((String::new(), String::new()));
                    failure.set(Some(format!("The chart could not be drawn: {}.", error.0)));
                }
            }
        });
    });
    let drawable = Memo::new(move |_| data.with(Result::is_ok));
    let download = move |_| {
        let (svg, file_name) = shown.get_value();
        if svg.is_empty() {
            return;
        }
        match download_svg(&svg, &file_name) {
            Ok(()) => failure.set(None),
            Err(error) => failure.set(Some(format!(
                "The download could not start: {}.",
                error
                    .as_string()
                    .unwrap_or_else(|| "the browser refused it".to_owned())
            ))),
        }
    };
    let button_label = format!("Download SVG: {heading}");
    view! {
        <figure class="chart">
            {move || {
                if drawable.get() {
                    view! {
                        <div class="chart-svg" node_ref=container></div>
                        <div class="chart-actions">
                            <button
                                type="button"
                                class="chart-download"
                                aria-label=button_label.clone()
                                on:click=download
                            >
                                "Download SVG"
                            </button>
                        </div>
                    }
                        .into_any()
                } else {
                    let reason = data
                        .with(|data| data.as_ref().err().map(ToString::to_string))
                        .unwrap_or_default();
                    view! {
                        <figcaption class="chart-heading">{heading}</figcaption>
                        <p class="chart-empty">{reason}</p>
                    }
                        .into_any()
                }
            }}
            {move || failure.get().map(|message| view! { <p class="chart-error" role="alert">{message}</p> })}
        </figure>
    }
}
