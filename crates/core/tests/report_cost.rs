//! The cost section on real HumanEval run folders given billing rows: its markdown equals a
//! committed golden text (regenerate after an intended change:
//! `UPDATE_GOLDEN=1 cargo test -p eval-compare-core --test report_cost`), its JSON's cost reads
//! back the same, and the HTML report shows the same words. A folder without a billing row is
//! unavailable, never 0, and so is every Δ it enters; the quality–cost view marks the runs no
//! other beats on both.
#![allow(clippy::unwrap_used)]

use eval_compare_core::api::BillingRunCost;
use eval_compare_core::model::{CostUnavailable, RunCost, RunIdx, SourceKind};
use eval_compare_core::report::{
    build_report, cost_beside_verdict, CostGap, CostReport, Report, ReportSettings,
};
use eval_compare_core::run_folder::run_set_from_folders;
use eval_compare_core::testing::json_close::json_close;
use eval_compare_core::testing::real_data::humaneval_folder as folder;

const GOLDEN_MARKDOWN: &str = "tests/data/report_golden_cost.md";

fn billing(run_id: &str, inference: f64, grading: f64, sandbox: f64) -> BillingRunCost {
    BillingRunCost {
        run_id: run_id.to_owned(),
        name: run_id.to_owned(),
        run_type: Some("eval".to_owned()),
        status: Some("completed".to_owned()),
        launch_at: None,
        cents: inference + grading + sandbox,
        training_cents: 0.0,
        inference_cents: inference,
        grading_cents: grading,
        sandbox_cents: sandbox,
    }
}

/// codellama (baseline) and gpt-3.5-turbo with billing rows, gpt-4 without.
fn report() -> Report {
    let mut base = folder("codellama-34b-instruct");
    let mut cheaper = folder("gpt-3.5-turbo");
    let unbilled = folder("gpt-4");
    base.costs.billing = Some(billing(&base.run.eval_run_id, 820.0, 98.4, 240.6));
    cheaper.costs.billing = Some(billing(&cheaper.run.eval_run_id, 410.5, 98.4, 180.25));
    let set = run_set_from_folders(&[base, cheaper, unbilled], SourceKind::Files).unwrap();
    let settings = ReportSettings {
        resamples: 0,
        seed: 11,
        ..ReportSettings::default()
    };
    build_report(&set, RunIdx(0), &[RunIdx(1), RunIdx(2)], &settings).unwrap()
}

#[test]
fn the_cost_section_equals_the_golden_markdown_and_reads_back_from_json() {
    let report = report();
    let markdown = report.to_markdown();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN_MARKDOWN);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &markdown).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert!(markdown == expected, "the markdown differs:\n{markdown}");
    assert!(markdown.contains("## Cost: money per task"));

    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let back: CostReport = serde_json::from_value(json["cost"].clone()).unwrap();
    // serde_json's reading may differ in the last bit of a float: compare to 1e-12.
    let again = serde_json::to_value(&back).unwrap();
    json_close(&again, &json["cost"], 1e-12).unwrap();
    assert_eq!(back.quality_cost.len(), 3);
}

#[test]
fn a_run_without_billing_is_unavailable_and_the_view_marks_the_unbeaten() {
    let report = report();
    let cost = report.cost.as_ref().unwrap();
    let cheaper = &cost.candidates[0];
    let delta = cheaper.per_attempted_task.as_ref().unwrap();
    assert!(delta.delta < 0.0, "gpt-3.5 costs less per task: {delta:?}");
    assert!(cost_beside_verdict(cheaper).ends_with(" ¢ per task"));
    let unbilled = &cost.candidates[1];
    assert_eq!(
        unbilled.per_attempted_task,
        Err(CostGap::Unavailable {
            run: 2,
            why: CostUnavailable::NotInFolder
        })
    );
    assert_eq!(
        cost_beside_verdict(unbilled),
        "cost unavailable: the run folder holds no billing row"
    );
    assert_eq!(
        cost.runs[2].cost,
        RunCost::Unavailable(CostUnavailable::NotInFolder)
    );
    // gpt-3.5 scores higher than codellama for less: it beats the baseline, which is not
    // unbeaten; gpt-4 has no cost, so it is never marked.
    let marks: Vec<(usize, bool)> = cost
        .quality_cost
        .iter()
        .map(|point| (point.run, point.unbeaten))
        .collect();
    assert_eq!(marks, vec![(0, false), (1, true), (2, false)]);

    let html = report.to_html(None);
    assert!(html.contains("<section id=\"cost\">"), "no cost section");
    assert!(html.contains("cost unavailable: the run folder holds no billing row"));
}

#[test]
fn a_report_without_any_billing_has_no_cost_section() {
    let set = run_set_from_folders(
        &[folder("codellama-34b-instruct"), folder("gpt-4")],
        SourceKind::Files,
    )
    .unwrap();
    let report = build_report(&set, RunIdx(0), &[RunIdx(1)], &ReportSettings::default()).unwrap();
    assert!(report.cost.is_none());
    assert!(!report.to_json().contains("\"cost\""));
}

#[test]
fn the_html_report_draws_the_quality_cost_view_and_puts_the_cost_beside_the_delta() {
    let report = report();
    let html = report.to_html(None);
    let cheaper = &report.cost.as_ref().unwrap().candidates[0];
    let delta = html
        .split("<p class=\"delta\">")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .unwrap();
    let beside = format!(
        "<span class=\"beside\">{}{}</span>",
        eval_compare_core::report::BESIDE_DELTA,
        cost_beside_verdict(cheaper)
    );
    assert!(delta.ends_with(&beside), "{delta}");
    // The figure follows the quality–cost table: the baseline (beaten) and gpt-3.5 (unbeaten);
    // gpt-4 has no cost and is left out, as from the page's chart.
    let figure = html
        .split("aria-label=\"Quality against cost")
        .nth(1)
        .and_then(|rest| rest.split("</svg>").next())
        .unwrap();
    assert!(figure.contains(">gpt-3.5-turbo</text>"), "{figure}");
    assert!(!figure.contains(">gpt-4</text>"), "{figure}");
    assert_eq!(
        figure
            .matches("<circle class=\"point baseline hollow\"")
            .count(),
        1
    );
    // One filled point for gpt-3.5, one in the legend.
    assert_eq!(figure.matches("<circle class=\"point\"").count(), 2);
    // Below the view's table: the figure draws what the table lists.
    let table = html.find("<th scope=\"col\">Δ cost per attempted task</th>");
    assert!(table.unwrap() < html.find("aria-label=\"Quality against cost").unwrap());
}
