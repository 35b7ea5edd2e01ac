//! Run folders from disk: files grouped by folder, parsed by the core, errors naming the folder,
//! the file and the JSON path while every other folder is kept, and the report's source.
#![cfg(target_arch = "wasm32")]

use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_viewer::state::files::{
    group_by_folder, merge_runs, parse_folders, run_set_of, FileRuns, PickedFile, LOOSE_FILES,
};
use leptos::prelude::*;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn file(path: &str, body: &str) -> PickedFile {
    PickedFile {
        path: path.to_owned(),
        bytes: body.as_bytes().to_vec(),
    }
}

fn run_json(id: &str) -> String {
    format!(
        r#"{{"eval_run_id":"{id}","bench_id":"b_1","options":{{}},"status":"completed","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#
    )
}

fn rewards_json(id: &str, rewards: &[f64]) -> String {
    let items: Vec<String> = rewards
        .iter()
        .enumerate()
        .map(|(i, r)| format!(r#"{{"trajectory_id":"{id}-{i}","reward":{r},"task_id":"t{i}"}}"#))
        .collect();
    format!("[{}]", items.join(","))
}

fn trajectories_json(id: &str, count: usize) -> String {
    let items: Vec<String> = (0..count)
        .map(|i| {
            format!(
                r#"{{"trajectory_id":"{id}-{i}","organization_id":"org","source":"eval","status":"completed","termination_reason":"ENV_DONE","created_at":"2026-01-01T00:00:00Z","task_id":"t{i}"}}"#
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

fn run_folder(dir: &str, id: &str, rewards: &[f64]) -> Vec<PickedFile> {
    vec![
        file(&format!("{dir}/run.json"), &run_json(id)),
        file(
            &format!("{dir}/trajectory-rewards.json"),
            &rewards_json(id, rewards),
        ),
        file(
            &format!("{dir}/trajectories.json"),
            &trajectories_json(id, rewards.len()),
        ),
    ]
}

#[wasm_bindgen_test]
fn files_are_grouped_by_folder_and_a_bad_folder_is_reported_by_file_and_path() {
    let mut files = run_folder("runs/base", "er_base", &[0.2, 0.5, 0.9]);
    files.extend(run_folder("runs/cand", "er_cand", &[0.4, 0.5, 1.0]));
    // A broken folder: a reward that is not a number, and one without its trajectories.
    files.push(file("runs/broken/run.json", &run_json("er_broken")));
    files.push(file(
        "runs/broken/trajectory-rewards.json",
        r#"[{"trajectory_id":"b-0","reward":"high","task_id":"t0"}]"#,
    ));
    files.push(file(
        "runs/broken/trajectories.json",
        &trajectories_json("er_broken", 1),
    ));
    files.push(file("runs/partial/run.json", &run_json("er_partial")));
    files.push(file("runs/README.md", "not a run file"));

    let groups = group_by_folder(files);
    let folders: Vec<&str> = groups.iter().map(|group| group.folder.as_str()).collect();
    assert_eq!(
        folders,
        ["runs/base", "runs/broken", "runs/cand", "runs/partial"]
    );

    let (runs, issues) = parse_folders(&groups);
    let ids: Vec<&str> = runs
        .iter()
        .map(|run| run.run.run.eval_run_id.as_str())
        .collect();
    assert_eq!(ids, ["er_base", "er_cand"], "the good folders are kept");
    assert_eq!(issues.len(), 2);
    assert_eq!(issues[0].folder, "runs/broken");
    assert!(
        issues[0].message.starts_with("trajectory-rewards.json")
            && issues[0].message.contains("[0].reward"),
        "{}",
        issues[0].message
    );
    assert_eq!(issues[1].folder, "runs/partial");
    assert!(
        issues[1]
            .message
            .starts_with("no trajectory-rewards.json, trajectories.json here"),
        "{}",
        issues[1].message
    );
}

#[wasm_bindgen_test]
fn loose_files_form_one_folder_and_a_reopened_run_replaces_the_old() {
    let loose: Vec<PickedFile> = run_folder("x", "er_1", &[0.5])
        .into_iter()
        .map(|picked| PickedFile {
            path: picked.path.trim_start_matches("x/").to_owned(),
            ..picked
        })
        .collect();
    let groups = group_by_folder(loose);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].folder, LOOSE_FILES);
    let (first, _) = parse_folders(&groups);

    let (again, _) = parse_folders(&group_by_folder(run_folder("elsewhere", "er_1", &[0.7])));
    let mut runs = first;
    let mut issues = Vec::new();
    merge_runs(&mut runs, again, &mut issues);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].folder, "elsewhere");
    assert_eq!(issues.len(), 1);
    assert!(
        issues[0].message.contains("replaces"),
        "{}",
        issues[0].message
    );
}

#[wasm_bindgen_test]
fn a_report_from_files_says_so_and_needs_every_run_open() {
    let mut files = run_folder("base", "er_base", &[0.2, 0.5, 0.9, 0.1]);
    files.extend(run_folder("cand", "er_cand", &[0.4, 0.5, 1.0, 0.3]));
    let (runs, issues) = parse_folders(&group_by_folder(files));
    assert!(issues.is_empty());
    let wanted = vec!["er_base".to_owned(), "er_cand".to_owned()];
    assert!(run_set_of(&runs, &["er_base".to_owned(), "er_gone".to_owned()]).is_none());
    let set = run_set_of(&runs, &wanted)
        .expect("every run is open")
        .expect("a run set");
    let report = build_report(
        &set,
        RunIdx(0),
        &[RunIdx(1)],
        &ReportSettings {
            resamples: 0,
            ..ReportSettings::default()
        },
    )
    .expect("a report");
    assert_eq!(
        report.sources,
        [eval_compare_core::model::SourceKind::Files]
    );

    let owner = Owner::new();
    owner.with(|| {
        let opened = FileRuns::new();
        opened.add_files(run_folder("base", "er_base", &[0.2]));
        assert_eq!(opened.missing(&wanted), ["er_cand"]);
        assert!(opened.run_set(&wanted).is_none());
        opened.add_files(run_folder("cand", "er_cand", &[0.4]));
        assert!(opened.missing(&wanted).is_empty());
        assert!(matches!(opened.run_set(&wanted), Some(Ok(_))));
        opened.add_files(vec![file("notes.txt", "hello")]);
        assert_eq!(opened.issues().len(), 1, "nothing usable is reported");
        assert_eq!(opened.runs().len(), 2, "and nothing is lost");
    });
}
