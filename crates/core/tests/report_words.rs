//! The report's shared sentences (`report::words`) read the same in every renderer: one report
//! of more than a thousand tasks (so counts carry their thousands separator) rendered as
//! markdown and as HTML holds each sentence word for word, numbers formatted the same. The page
//! takes them from the same functions (the viewer's coverage ledger words test).
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSetBuilder, SourceKind, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, pairing_line, settings_line, Report, ReportSettings,
};
use eval_compare_core::text::html_text;

/// A baseline on tasks 0..1,300 and a candidate on tasks 20..1,310: 1,280 paired of 1,310.
fn report() -> Report {
    let mut b = RunSetBuilder::new();
    let mut add = |id: &str, tasks: std::ops::Range<usize>| -> RunIdx {
        let run = b
            .add_run(RunInfo {
                id: id.into(),
                display_name: Some(id.to_owned()),
                bench_id: Some("b1".into()),
                status: Some("completed".into()),
                source: SourceKind::Files,
                ..RunInfo::default()
            })
            .unwrap();
        for i in tasks {
            let (task, trajectory) = (format!("t{i}"), format!("{id}-{i}"));
            b.add_trajectory(
                run,
                TrajectoryInput {
                    id: &trajectory,
                    task: Some(&task),
                    class: OutcomeClass::Graded,
                    reward: Some(((i * 7) % 10) as f64 / 10.0),
                    ending: None,
                    flags: TrajectoryFlags::default(),
                    created: None,
                    components: None,
                },
            )
            .unwrap();
        }
        run
    };
    let base = add("base", 0..1_300);
    let cand = add("cand", 20..1_310);
    let set = b.build();
    let settings = ReportSettings {
        resamples: 1_500,
        ..ReportSettings::default()
    };
    build_report(&set, base, &[cand], &settings).unwrap()
}

#[test]
fn every_renderer_says_the_shared_sentences_word_for_word() {
    let report = report();
    let markdown = report.to_markdown();
    let html = report.to_html(None);

    let settings = settings_line(&report);
    assert!(settings.contains("bootstrap B = 1,500"), "{settings}");
    assert!(markdown.contains(&settings), "{markdown}");
    assert!(html.contains(&html_text(&settings)), "{html}");

    let pair = &report.coverage.comparisons[0];
    let pairing = pairing_line(pair);
    assert_eq!(
        pairing,
        "1,280 paired of 1,310 in the union; 20 only in the baseline, 10 only in the candidate."
    );
    assert!(markdown.contains(&format!("cand: {pairing}")), "{markdown}");
    assert!(
        html.contains(&html_text(&format!("cand: {pairing}"))),
        "{html}"
    );
}
