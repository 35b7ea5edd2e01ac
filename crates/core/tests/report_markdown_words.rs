//! The markdown report's own phrases read as written: a quoted option key is a code span (not
//! an escaped backtick), a `<` before a number stays a `<`.

#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunInfo, RunOptions, RunSetBuilder, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, ReportSettings};

fn run(id: &str, temperature: f64) -> RunInfo {
    RunInfo {
        id: id.to_owned(),
        display_name: Some(id.to_owned()),
        status: Some("completed".to_owned()),
        options: RunOptions {
            temperature: Some(temperature),
            ..RunOptions::default()
        },
        ..RunInfo::default()
    }
}

#[test]
fn a_findings_option_key_is_code_and_no_backtick_is_escaped() {
    let mut builder = RunSetBuilder::new();
    let base = builder.add_run(run("base", 0.7)).unwrap();
    let cand = builder.add_run(run("cand", 1.0)).unwrap();
    for index in [base, cand] {
        for task in 0..6 {
            let (id, name) = (format!("{}-{task}", index.0), format!("t{task}"));
            let input = TrajectoryInput {
                id: &id,
                task: Some(&name),
                class: OutcomeClass::Graded,
                reward: Some(f64::from(u8::from(task % 2 == 0))),
                ending: Some("ENV_DONE"),
                flags: TrajectoryFlags::NONE,
                created: None,
                components: None,
            };
            builder.add_trajectory(index, input).unwrap();
        }
    }
    let set = builder.build();
    let markdown = build_report(&set, base, &[cand], &ReportSettings::default())
        .unwrap()
        .to_markdown();
    let finding = markdown
        .lines()
        .find(|line| line.contains("Temperature differs"))
        .unwrap_or_else(|| panic!("no temperature finding in {markdown}"));
    assert!(
        finding.contains("base 0.7 (recorded, `temperature`)"),
        "{finding}"
    );
    assert!(!finding.contains("\\`"), "{finding}");
}
