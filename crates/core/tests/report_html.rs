//! The HTML report (`Report::to_html`): one self-contained document with no script and no
//! remote resource, every headline number as the report's own formatters write it, and every
//! string from the data kept as text (hostile ids, labels, names and messages; a property test
//! over arbitrary strings).
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    Category, OutcomeClass, RunIdx, RunInfo, RunSetBuilder, SourceKind, TaskInput, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::report::{build_report, detail_rows, DetailCells, Report, ReportSettings};
use eval_compare_core::run_folder::run_set_from_folders;
use eval_compare_core::share_link::{report_page_path, report_view, share_link};
use eval_compare_core::text::{
    count, html_text, interval_points, optional_value, p_value, signed_points,
};
use proptest::prelude::*;

use eval_compare_core::testing::real_data::humaneval_folder as folder;

/// The golden comparison of the HumanEval run folders (two candidates against codellama).
fn humaneval() -> Report {
    let folders = [
        folder("codellama-34b-instruct"),
        folder("gpt-3.5-turbo"),
        folder("gpt-4"),
    ];
    let set = run_set_from_folders(&folders, SourceKind::Files).unwrap();
    let settings = ReportSettings {
        resamples: 2000,
        seed: 11,
        ..ReportSettings::default()
    };
    build_report(&set, RunIdx(0), &[RunIdx(1), RunIdx(2)], &settings).unwrap()
}

fn link_of(report: &Report) -> String {
    share_link(
        "http://127.0.0.1:8080",
        report_page_path(&report.sources),
        &report_view(report).unwrap(),
    )
}

#[test]
fn the_document_has_no_script_and_no_address_but_the_share_link() {
    let report = humaneval();
    let link = link_of(&report);
    let html = report.to_html(Some(&link));
    assert!(html.starts_with("<!DOCTYPE html>\n"), "{}", &html[..80]);
    assert!(html.ends_with("</html>\n"));
    let lower = html.to_ascii_lowercase();
    for forbidden in [
        "<script",
        "<link",
        "<img",
        "<iframe",
        "<object",
        "<embed",
        "url(",
        "@import",
        " src=",
        "onload",
        "onerror",
        "javascript:",
    ] {
        assert!(!lower.contains(forbidden), "{forbidden} in the document");
    }
    // The link appears as an <a href> and its text, and nothing else names an address.
    let escaped = html_text(&link);
    assert!(html.contains(&format!(
        "<a href=\"{escaped}\" rel=\"noreferrer\">{escaped}</a>"
    )));
    assert!(
        !html
            .replace(&escaped, "")
            .replace("<meta http-equiv=", "")
            .contains("http"),
        "an address besides the share link"
    );
    assert_eq!(html.matches("<a ").count(), 1);
    // Script is forbidden by the document itself too.
    assert!(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
    // The figures are inline SVG: the forest plot, coverage bars, one sorted Δ per candidate.
    assert_eq!(html.matches("<svg ").count(), 2 + report.candidates.len());
}

#[test]
fn every_headline_number_is_in_the_document_as_the_report_writes_it() {
    let report = humaneval();
    let html = report.to_html(None);
    let has = |text: &str, what: &str| {
        assert!(
            html.contains(&html_text(text)),
            "{what}: {text:?} is not in the document"
        );
    };
    for run in &report.runs {
        has(&run.name, "run name");
        has(&run.id, "run id");
        has(
            &optional_value(run.task_weighted_mean),
            "task-weighted mean",
        );
        has(&optional_value(run.pooled_mean), "pooled mean");
        has(&count(run.tasks_scored), "tasks scored");
    }
    for candidate in &report.candidates {
        let verdict = &candidate.verdict;
        has(&verdict.headline(), "verdict");
        let delta = report.headline(candidate).estimate.as_ref().unwrap().delta;
        has(&format!("Δ {} points", signed_points(delta)), "Δ");
        has(
            &format!(
                "{} points",
                interval_points(verdict.interval.as_ref().unwrap())
            ),
            "headline interval",
        );
        has(&p_value(*candidate.p_holm.as_ref().unwrap()), "Holm p");
        has(&candidate.sentence, "sentence");
        for row in detail_rows(&report, candidate, false) {
            has(&row.label, "details label");
            match &row.cells {
                DetailCells::PerAnalysis {
                    primary,
                    sensitivity,
                } => {
                    has(primary, &row.label);
                    has(sensitivity, &row.label);
                }
                DetailCells::Whole(text) => has(text, &row.label),
            }
        }
    }
    has(&count(report.coverage.union_tasks), "union of tasks");
    for finding in &report.audit.findings {
        has(&finding.message, "audit finding");
    }
}

#[test]
fn regressed_tasks_are_listed_worst_first() {
    let report = humaneval();
    let html = report.to_html(None);
    let candidate = &report.candidates[0];
    let slot = candidate.run - 1;
    let mut regressed: Vec<(&str, f64)> = report
        .tasks
        .iter()
        .filter_map(|t| Some((t.task_id.as_str(), t.deltas[slot]?)))
        .filter(|(_, d)| *d < 0.0)
        .collect();
    assert!(!regressed.is_empty(), "the fixture has regressions");
    regressed.sort_by(|a, b| a.1.total_cmp(&b.1));
    let section = html.split("<section class=\"candidate\">").nth(1).unwrap();
    assert!(section.contains(&format!("Regressed tasks ({})", regressed.len())));
    let positions: Vec<usize> = regressed
        .iter()
        .take(50)
        .map(|(id, _)| {
            section
                .find(&format!("<code>{}</code>", html_text(id)))
                .unwrap()
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "not worst first");
    if regressed.len() > 50 {
        assert!(section.contains(&format!(
            "and {} more regressed tasks",
            regressed.len() - 50
        )));
    }
}

#[test]
fn the_same_report_gives_the_same_bytes() {
    let report = humaneval();
    let link = link_of(&report);
    assert_eq!(
        report.to_html(Some(&link)),
        humaneval().to_html(Some(&link))
    );
}

#[test]
fn a_link_that_is_not_http_is_shown_as_text() {
    let html = humaneval().to_html(Some("javascript:alert(1)"));
    assert!(!html.contains("<a "));
    assert!(html.contains("<code>javascript:alert(1)</code>"));
}

/// A report whose every string comes from `text(tag)`.
fn report_with(text: impl Fn(&str) -> String) -> Report {
    let mut builder = RunSetBuilder::new();
    for i in 0..12 {
        builder
            .add_task(TaskInput {
                id: format!("{i}-{}", text(&format!("task{i}"))),
                label: Some(text(&format!("label{i}"))),
                split: None,
                categories: vec![Category {
                    id: format!("c{}", i % 2),
                    label: format!("category {}", i % 2),
                }],
            })
            .unwrap();
    }
    for (run_tag, shift) in [("base", 0usize), ("cand", 1)] {
        let run = builder
            .add_run(RunInfo {
                id: format!("{run_tag}-{}", text(&format!("{run_tag}-id"))),
                display_name: Some(text(&format!("{run_tag}-name"))),
                base_model: Some(text("model")),
                bench_id: Some(text("bench")),
                status: Some("completed".to_owned()),
                source: SourceKind::Files,
                incomplete_load: Some(text("why")),
                ..RunInfo::default()
            })
            .unwrap();
        for task in 0..12 {
            let reward = if (task + shift) % 3 == 0 { 1.0 } else { 0.0 };
            let id = format!("{run_tag}-{task}");
            let task_id = format!("{task}-{}", text(&format!("task{task}")));
            let ending = text("ending");
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &id,
                        task: Some(&task_id),
                        class: OutcomeClass::Other,
                        reward: Some(reward),
                        ending: Some(&ending),
                        flags: TrajectoryFlags::default(),
                        components: None,
                        created: None,
                    },
                )
                .unwrap();
        }
    }
    let settings = ReportSettings {
        resamples: 100,
        ..ReportSettings::default()
    };
    build_report(&builder.build(), RunIdx(0), &[RunIdx(1)], &settings).unwrap()
}

#[test]
fn hostile_strings_stay_text() {
    let hostile = |tag: &str| {
        format!("{tag}<script>alert(1)</script>\"><img src=x onerror=alert(2)>'&amp;\u{202E}")
    };
    let report = report_with(hostile);
    let html = report.to_html(Some(&link_of(&report)));
    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<script"), "a script tag");
    assert!(!lower.contains("<img"), "an image tag");
    assert!(!html.contains('\u{202E}'), "a raw bidi override");
    assert!(html.contains("label3&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img"));
    assert!(html.contains("&#39;&amp;amp;\\u{202E}"));
    // The run names reach the SVG labels, escaped too.
    assert!(html.contains(">cand-name&lt;script&gt;alert(1)…</text>"));
}

/// Data strings: anything, with markup characters made likely.
fn data_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[<>\"'&=/ a-z]{0,16}",
        any::<String>().prop_map(|s| s.chars().take(16).collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every `<` and `"` of the document is the writer's: the document of arbitrary strings has
    /// exactly as many as the document of the same strings with `<` and `"` replaced by other
    /// characters (the same structure, no markup possible in the data).
    #[test]
    fn no_markup_comes_from_the_data(texts in prop::collection::vec(data_text(), 8)) {
        let pick = |tag: &str| {
            let index = tag.bytes().map(usize::from).sum::<usize>() % texts.len();
            texts[index].clone()
        };
        let raw = report_with(pick);
        let safe = report_with(|tag| pick(tag).replace('<', "‹").replace('"', "″"));
        let raw_html = raw.to_html(Some(&link_of(&raw)));
        let safe_html = safe.to_html(Some(&link_of(&safe)));
        prop_assert_eq!(raw_html.matches('<').count(), safe_html.matches('<').count());
        prop_assert_eq!(raw_html.matches('"').count(), safe_html.matches('"').count());
        prop_assert!(!raw_html.to_ascii_lowercase().contains("<script"));
    }
}

#[test]
fn every_statistic_is_explained_with_the_reports_settings() {
    let report = humaneval();
    let html = report.to_html(None);
    let glossary = &html[html.find("id=\"glossary\"").expect("a glossary section")..];
    for topic in eval_compare_core::report::Topic::ALL {
        let text = eval_compare_core::report::explain(topic, &report.settings);
        assert!(
            glossary.contains(&*html_text(&text)),
            "{topic:?} is not explained: {text}"
        );
    }
}

#[test]
fn coverage_warnings_are_grouped_by_code() {
    // Incomplete loads and endings this build does not class: warnings of two codes.
    let report = report_with(|s| s.to_owned());
    let html = report.to_html(None);
    let groups = eval_compare_core::coverage::group_warnings(&report.coverage.warnings);
    assert!(!groups.is_empty(), "the fixture has coverage warnings");
    for group in &groups {
        let heading = format!("<code>{}</code> (", html_text(group.code));
        assert_eq!(html.matches(&heading).count(), 1, "{}", group.code);
    }
}

#[test]
fn the_share_link_carries_every_setting_the_address_can_hold() {
    let mut report = humaneval();
    let view = report_view(&report).unwrap();
    assert_eq!(ReportSettings::from_view(&view), report.settings);
    report.settings.target_delta = 0.035;
    report.settings.project_samples_per_task = Some(30);
    let view = report_view(&report).unwrap();
    assert_eq!((view.target_tenths, view.project_samples), (35, Some(30)));
    assert_eq!(ReportSettings::from_view(&view), report.settings);
    assert!(link_of(&report).contains("target=3.5") && link_of(&report).contains("kprime=30"));
    // A target Δ finer than a tenth of a point cannot travel: no link rather than a wrong one.
    report.settings.target_delta = 0.0215;
    assert!(report_view(&report).is_none());
}

#[test]
fn where_the_delta_comes_from_is_in_each_candidate_section_escaped() {
    let report = report_with(|tag| format!("{tag}<b>"));
    let html = report.to_html(Some(&link_of(&report)));
    let candidate = &report.candidates[0];
    let breakdown = candidate.by_category.as_ref().expect("two categories");
    assert!(html.contains("<h3>Where the Δ comes from</h3>"));
    for group in &breakdown.groups {
        let cells = eval_compare_core::report::category_cells(group);
        let row: String = cells
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let text = eval_compare_core::text::html_text(text);
                if i == 0 {
                    format!("<td>{text}</td>")
                } else {
                    format!("<td class=\"num\">{text}</td>")
                }
            })
            .collect();
        assert!(html.contains(&row), "the row of {} is missing", group.label);
    }
    assert!(html.contains(&eval_compare_core::text::html_text(&breakdown.sentence)));
    assert!(html.contains(&format!(
        "<p>Flaky tasks: {}.</p>",
        eval_compare_core::text::html_text(&eval_compare_core::report::flaky_sentence(
            &candidate.flaky
        ))
    )));
}
