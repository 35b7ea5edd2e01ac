//! The quality–cost view of the cost panel: the table (the reports' own rows) and, when a
//! candidate has both a Δ reward and a Δ cost, the chart on the shared frame.

use std::sync::Arc;

use eval_compare_core::report::{
    quality_cost_cells, unbeaten_sentence, Report, QUALITY_COST_COLUMNS, QUALITY_COST_HEADING,
    QUALITY_COST_INTRO,
};
use leptos::prelude::*;

use crate::report::charts::quality_cost::quality_cost_chart;
use crate::report::charts::{use_theme, AnyChart, ChartData, ChartFigure};

use super::head;

/// The table and chart of `report`'s quality–cost view.
#[component]
pub fn QualityCostView(report: Arc<Report>) -> impl IntoView {
    let points = report
        .cost
        .as_ref()
        .map(|cost| cost.quality_cost.clone())
        .unwrap_or_default();
    let rows = points
        .iter()
        .map(|point| {
            let cells = quality_cost_cells(&report, point)
                .into_iter()
                .map(|text| view! { <td>{text}</td> })
                .collect_view();
            view! { <tr class:unbeaten=point.unbeaten>{cells}</tr> }
        })
        .collect_view();
    let sentence = unbeaten_sentence(&report);
    let chart: Result<_, _> = quality_cost_chart(&report);
    let figure = chart.is_ok().then(|| {
        let data: Memo<ChartData> = Memo::new(move |_| chart.clone().map(AnyChart::QualityCost));
        view! { <ChartFigure heading=QUALITY_COST_HEADING data theme=use_theme()/> }
    });
    view! {
        <h4 class="quality-cost-title">{QUALITY_COST_HEADING}</h4>
        <p class="muted">{QUALITY_COST_INTRO}</p>
        <div class="table-scroll">
            <table class="quality-cost">
                <thead>
                    <tr>{head(&QUALITY_COST_COLUMNS)}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {sentence.map(|line| view! { <p class="quality-cost-unbeaten">{line}</p> })}
        {figure}
    }
}
