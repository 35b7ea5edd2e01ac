//! Size limits on what is shown: a run's display name or a task's label of absurd size is cut
//! to `MAX_SHOWN_FIELD_BYTES` when the run set is built (a coverage warning says which field of
//! which run or task, and from what size), and every renderer shows names and labels cut to
//! `SHOWN_NAME_CHARS` characters (the HTML keeps the whole in a `title`, and breaks long words).
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{RunIdx, SourceKind};
use eval_compare_core::report::{build_report, Report, ReportSettings};
use eval_compare_core::run_folder::run_set_from_folders;
use eval_compare_core::text::{MAX_SHOWN_FIELD_BYTES, SHOWN_NAME_CHARS};

use eval_compare_core::testing::real_data::humaneval_folder as folder;

/// A baseline named with 1 MiB of `n`, a candidate named with 3,000 unbroken `c`, a task the
/// candidate regressed on labelled with 3,000 unbroken `W` and another task with 10 KiB of `L`.
fn report_with_long_texts() -> Report {
    let settings = ReportSettings {
        resamples: 200,
        seed: 11,
        ..ReportSettings::default()
    };
    let build = |base, cand| {
        let set = run_set_from_folders(&[base, cand], SourceKind::Files).unwrap();
        build_report(&set, RunIdx(0), &[RunIdx(1)], &settings).unwrap()
    };
    let plain = build(folder("gpt-4"), folder("codellama-34b-instruct"));
    // The most regressed task: first in the HTML's regressed tasks.
    let regressed = plain
        .tasks
        .iter()
        .filter_map(|task| Some((task.deltas.first().copied().flatten()?, &task.task_id)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, id)| id.clone())
        .unwrap();
    let other = plain
        .tasks
        .iter()
        .map(|task| task.task_id.clone())
        .find(|id| *id != regressed)
        .unwrap();
    let mut base = folder("gpt-4");
    let mut cand = folder("codellama-34b-instruct");
    base.run.display_name = Some("n".repeat(1 << 20));
    cand.run.display_name = Some("c".repeat(3000));
    for folder in [&mut base, &mut cand] {
        for task in folder.tasks.as_mut().unwrap() {
            if task.task_id == regressed {
                task.label = Some("W".repeat(3000));
            } else if task.task_id == other {
                task.label = Some("L".repeat(10 * 1024));
            }
        }
    }
    build(base, cand)
}

#[test]
fn an_absurd_display_name_or_label_is_cut_when_built_with_a_warning() {
    let report = report_with_long_texts();
    let base = &report.runs[0];
    let name = base.display_name.as_deref().unwrap();
    assert!(name.len() <= MAX_SHOWN_FIELD_BYTES, "{}", name.len());
    assert!(name.starts_with("nnnn") && name.ends_with('…'));
    // 3,000 characters is under the limit: kept whole.
    assert_eq!(
        report.runs[1].display_name.as_deref(),
        Some(&*"c".repeat(3000))
    );
    let long_label = report
        .tasks
        .iter()
        .find_map(|task| task.label.as_deref().filter(|label| label.starts_with('L')))
        .unwrap();
    assert!(long_label.len() <= MAX_SHOWN_FIELD_BYTES);

    let cut: Vec<&str> = report
        .coverage
        .warnings
        .iter()
        .filter(|warning| warning.code == "TEXT_CUT")
        .map(|warning| warning.message.as_str())
        .collect();
    assert_eq!(cut.len(), 2, "{cut:#?}");
    assert!(
        cut[0].contains("display name was 1.0 MiB") && cut[0].contains("4.0 KiB"),
        "{}",
        cut[0]
    );
    assert!(
        cut[1].starts_with("1 label was over the 4.0 KiB")
            && cut[1].contains("(10.0 KiB)")
            && cut[1].contains("label of task `"),
        "{}",
        cut[1]
    );
    // The warning quotes the run by its name cut for showing.
    assert!(!cut[0].contains(&"n".repeat(SHOWN_NAME_CHARS + 1)));
}

#[test]
fn every_renderer_shows_names_and_labels_cut_and_bounded() {
    let report = report_with_long_texts();
    let json = report.to_json();
    let markdown = report.to_markdown();
    let html = report.to_html(None);
    // What a 1 MiB name repeated in each costed before (several MiB each).
    assert!(json.len() < 512 * 1024, "JSON of {} bytes", json.len());
    assert!(
        markdown.len() < 128 * 1024,
        "markdown of {} bytes",
        markdown.len()
    );
    assert!(html.len() < 512 * 1024, "HTML of {} bytes", html.len());

    // Markdown: every name and label shown at most SHOWN_NAME_CHARS characters long.
    for letter in ["n", "c", "W", "L"] {
        let too_long = letter.repeat(SHOWN_NAME_CHARS);
        assert!(
            !markdown.contains(&too_long),
            "the markdown shows {letter}… whole"
        );
    }
    let shown_base = format!("{}…", "n".repeat(SHOWN_NAME_CHARS - 1));
    assert!(markdown.contains(&format!("| {shown_base} |")));

    // HTML: the cut text shown, the whole of it in the element's title.
    let shown_cand = format!("{}…", "c".repeat(SHOWN_NAME_CHARS - 1));
    let whole_cand = "c".repeat(3000);
    assert!(
        html.contains(&format!("<h3 title=\"{whole_cand}\">{shown_cand}</h3>")),
        "the candidate's card"
    );
    let whole_label = "W".repeat(3000);
    let shown_label = format!("{}…", "W".repeat(SHOWN_NAME_CHARS - 1));
    assert!(
        html.contains(&format!("<td title=\"{whole_label}\">{shown_label}</td>")),
        "the regressed task's label"
    );
    assert!(!html.contains(&format!(">{}", "c".repeat(SHOWN_NAME_CHARS))));
    // <title> holds the cut names.
    let title = &html[html.find("<title>").unwrap()..html.find("</title>").unwrap()];
    assert!(title.len() < 4 * SHOWN_NAME_CHARS, "{title}");
}

#[test]
fn the_html_breaks_long_words_in_cells_and_headings() {
    let html = report_with_long_texts().to_html(None);
    let css = &html[html.find("<style>").unwrap()..html.find("</style>").unwrap()];
    assert!(
        css.contains("th, td, li, p { overflow-wrap: anywhere; }"),
        "table cells, list items and paragraphs break long words"
    );
    assert!(css.contains("h1, h2, h3 { overflow-wrap: anywhere; }"));
    // A name cut for showing keeps a readable width when its column is squeezed.
    assert!(css.contains("td[title] { min-width: 10em; }"));
}
