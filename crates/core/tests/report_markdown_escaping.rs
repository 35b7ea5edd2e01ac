//! The markdown report of runs whose every string is hostile: HTML, terminal escape sequences,
//! NUL, table pipes, links and right-to-left overrides. Nothing of it reaches the text raw.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSetBuilder, SourceKind, TaskInput, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::report::{build_report, ReportSettings};

/// Every kind of hostile text, with a tag to tell the fields apart.
fn hostile(tag: &str) -> String {
    format!("{tag}<script>alert(1)</script>|\u{1b}[2J\u{1b}]8;;http://x\u{7}\0\u{202E}evil\u{200B}`![i](http://t/p.png)&amp;\n# h")
}

fn markdown() -> String {
    let mut builder = RunSetBuilder::new();
    for i in 0..4 {
        builder
            .add_task(TaskInput {
                id: hostile(&format!("task{i}")),
                label: Some(hostile(&format!("label{i}"))),
                split: None,
                categories: Vec::new(),
            })
            .unwrap();
    }
    for (run_tag, rewards) in [
        ("base", [0.0, 0.0, 1.0, 0.5]),
        ("cand", [1.0, 1.0, 0.0, 0.5]),
    ] {
        let run = builder
            .add_run(RunInfo {
                id: hostile(&format!("{run_tag}-id")),
                display_name: Some(hostile(&format!("{run_tag}-name"))),
                base_model: Some(hostile("model")),
                bench_id: Some(hostile("bench")),
                status: Some(hostile("status")),
                source: SourceKind::Files,
                incomplete_load: Some(hostile("why")),
                ..RunInfo::default()
            })
            .unwrap();
        for (task, reward) in rewards.iter().enumerate() {
            let id = format!("{run_tag}-{task}");
            let task_id = hostile(&format!("task{task}"));
            let ending = hostile("ending");
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &id,
                        task: Some(&task_id),
                        class: OutcomeClass::Other,
                        reward: Some(*reward),
                        ending: Some(&ending),
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .unwrap();
        }
    }
    let set = builder.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&set, RunIdx(0), &[RunIdx(1)], &settings)
        .unwrap()
        .to_markdown()
}

#[test]
fn no_raw_control_bidi_or_html_reaches_the_markdown() {
    let text = markdown();
    for raw in ['\u{1b}', '\0', '\u{7}', '\u{202E}', '\u{200B}'] {
        assert!(!text.contains(raw), "raw {raw:?} in\n{text}");
    }
    assert!(!text.contains("<script>"), "{text}");
    assert!(!text.contains("[i](http"), "a link survived:\n{text}");
    assert!(text.contains("&amp;amp;"), "{text}");
    assert!(text.contains("\\u{1B}\\[2J"), "{text}");
    assert!(text.contains("\\u{202E}evil\\u{200B}"), "{text}");
    assert!(text.contains("\\u{0}"), "{text}");
    // Every line that quotes data is still one line: the newline in the data is made visible.
    assert!(!text.lines().any(|line| line.starts_with("# h")), "{text}");
    // Each field is there, escaped, and attributed to its place.
    for tag in [
        "base-name",
        "cand-name",
        "base-id",
        "model",
        "bench",
        "status",
        "why",
        "label0",
        "ending",
    ] {
        assert!(
            text.contains(&format!("{tag}&lt;script&gt;alert(1)&lt;/script&gt;\\|")),
            "{tag} missing in\n{text}"
        );
    }
}

/// Cells of a markdown table row: split at every `|` not escaped with a backslash.
fn cells(line: &str) -> usize {
    let mut count = 0usize;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => count += 1,
            _ => escaped = false,
        }
    }
    count.saturating_sub(1)
}

#[test]
fn hostile_pipes_do_not_add_table_cells() {
    let text = markdown();
    let runs_header = text
        .lines()
        .find(|line| line.starts_with("| role |"))
        .unwrap();
    let columns = cells(runs_header);
    assert_eq!(columns, 10);
    let rows: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("| Baseline |") || line.starts_with("| Candidate |"))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        assert_eq!(cells(row), columns, "{row}");
    }
    let coverage_header = text
        .lines()
        .find(|line| line.starts_with("| run |"))
        .unwrap();
    let coverage_columns = cells(coverage_header);
    let coverage_rows = text
        .lines()
        .filter(|line| line.starts_with("| base-name") || line.starts_with("| cand-name"));
    assert_eq!(coverage_rows.clone().count(), 2, "{text}");
    for row in coverage_rows {
        assert_eq!(cells(row), coverage_columns, "{row}");
    }
}
