//! Run folders from disk, the pure half (`state::files::grouping`): files grouped by folder,
//! parsed by the core, errors naming the folder, the file and the JSON path while every other
//! folder is kept, reopened runs replacing the old, and the report's source; and the
//! `FileRuns` state over it. Native tests (`state_files.rs` reads browser files).
#![cfg(not(target_arch = "wasm32"))]

mod run_folder_fixture;

use eval_compare_core::large_list::AsRewardFacts;
use eval_compare_core::model::{RunIdx, SourceKind};
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::run_folder::{is_folder_file, Folder, PackedRunFolder};
use eval_compare_core::testing::bodies::{chronicle_job_body, chronicle_trial_item};
use eval_compare_viewer::state::files::grouping::{
    group_by_folder, merge_runs, missing_runs, open_files, parse_folders, run_set_of, OpenedRun,
    PickedFile, LOOSE_FILES,
};
use eval_compare_viewer::state::files::{issues_note, FileRuns};
use leptos::prelude::*;
use run_folder_fixture::{file, run_folder, run_json, trajectories_json};

fn ids(runs: &[OpenedRun]) -> Vec<&str> {
    runs.iter()
        .flat_map(|run| run.run_ids.iter().map(String::as_str))
        .collect()
}

/// The Trajectory run folder of an opened folder.
fn trajectory(opened: &OpenedRun) -> &PackedRunFolder {
    match opened.run.as_ref() {
        Folder::Trajectory(folder) => folder,
        Folder::Chronicle(folder) => panic!("{} is a job's folder", folder.job.id),
    }
}

#[test]
fn only_the_run_folder_files_count() {
    for name in [
        "run.json",
        "trajectory-rewards.json",
        "trajectories.json",
        "tasks.json",
    ] {
        assert!(is_folder_file(name), "{name}");
    }
    for name in ["README.md", "run.json.bak", "Run.json", ""] {
        assert!(!is_folder_file(name), "{name}");
    }
}

#[test]
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
    let names: Vec<&str> = groups[0].files.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["run.json", "trajectories.json", "trajectory-rewards.json"]
    );

    let (runs, issues) = parse_folders(&groups);
    assert_eq!(
        ids(&runs),
        ["er_base", "er_cand"],
        "the good folders are kept"
    );
    assert_eq!(runs[0].folder, "runs/base");
    assert_eq!(issues.len(), 2);
    assert_eq!(issues[0].folder, "runs/broken");
    assert!(
        issues[0].message.starts_with("trajectory-rewards.json")
            && issues[0].message.contains("[0].reward"),
        "{}",
        issues[0].message
    );
    assert_eq!(issues[1].folder, "runs/partial");
    assert_eq!(
        issues[1].message,
        "no trajectory-rewards.json, trajectories.json here; a run folder holds run.json, \
         trajectory-rewards.json and trajectories.json (and optionally tasks.json, \
         training-run.json, eval-options.json and platform-progression.json)"
    );
}

#[test]
fn a_leading_slash_is_ignored_and_tasks_are_read_when_present() {
    let mut files: Vec<PickedFile> = run_folder("/drop/base", "er_base", &[0.5, 1.0]);
    files.push(file(
        "/drop/base/tasks.json",
        r#"[{"task_id":"t0","label":"first"},{"task_id":"t1"}]"#,
    ));
    let groups = group_by_folder(files);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].folder, "drop/base");
    let (runs, issues) = parse_folders(&groups);
    assert!(issues.is_empty(), "{issues:?}");
    let tasks = trajectory(&runs[0])
        .tasks
        .as_ref()
        .expect("tasks.json was read");
    assert_eq!(tasks.len(), 2);
    assert_eq!(trajectory(&runs[0]).rewards.len(), 2);
}

#[test]
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
    assert_eq!(LOOSE_FILES, "(picked files)");
    let (first, _) = parse_folders(&groups);

    let (again, _) = parse_folders(&group_by_folder(run_folder("elsewhere", "er_1", &[0.7])));
    let mut runs = first;
    let mut issues = Vec::new();
    merge_runs(&mut runs, again, &mut issues);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].folder, "elsewhere");
    assert_eq!(trajectory(&runs[0]).rewards[0].reward(), 0.7);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].folder, "elsewhere");
    assert_eq!(
        issues[0].message,
        "run er_1 was already open from (picked files); this folder replaces it"
    );
}

#[test]
fn opening_files_adds_their_runs_and_says_when_none_is_a_run_folder_file() {
    let mut runs = Vec::new();
    let issues = open_files(&mut runs, run_folder("base", "er_base", &[0.2]));
    assert!(issues.is_empty(), "{issues:?}");
    let mut files = run_folder("cand", "er_cand", &[0.4]);
    files.push(file("cand/run.json.bak", "{}"));
    files.extend(run_folder("again", "er_base", &[0.3]));
    let issues = open_files(&mut runs, files);
    assert_eq!(ids(&runs), ["er_base", "er_cand"]);
    assert_eq!(runs[0].folder, "again");
    assert_eq!(issues.len(), 1, "{issues:?}");

    let issues = open_files(&mut runs, vec![file("notes.txt", "hello")]);
    assert_eq!(ids(&runs), ["er_base", "er_cand"], "nothing is lost");
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].folder, LOOSE_FILES);
    assert_eq!(
        issues[0].message,
        "none of these files is a run-folder file: a run folder holds run.json, \
         trajectory-rewards.json and trajectories.json (and optionally tasks.json, \
         training-run.json, eval-options.json and platform-progression.json); a Chronicle job folder holds job.json and \
         trials.json (and optionally results.json)"
    );
}

#[test]
fn a_report_from_files_says_so_and_needs_every_run_open() {
    let mut files = run_folder("base", "er_base", &[0.2, 0.5, 0.9, 0.1]);
    files.extend(run_folder("cand", "er_cand", &[0.4, 0.5, 1.0, 0.3]));
    let (runs, issues) = parse_folders(&group_by_folder(files));
    assert!(issues.is_empty());
    let wanted = vec!["er_base".to_owned(), "er_cand".to_owned()];
    let partly = [
        "er_gone".to_owned(),
        "er_base".to_owned(),
        "er_x".to_owned(),
    ];
    assert!(run_set_of(&runs, &partly).is_none());
    assert_eq!(missing_runs(&runs, &partly), ["er_gone", "er_x"]);
    assert!(missing_runs(&runs, &wanted).is_empty());
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
    assert_eq!(report.sources, [SourceKind::Files]);
}

#[test]
fn file_runs_keep_the_runs_of_every_opening_and_the_issues_of_the_last() {
    let owner = Owner::new();
    owner.with(|| {
        let wanted = vec!["er_base".to_owned(), "er_cand".to_owned()];
        let opened = FileRuns::new();
        assert!(opened.reading().is_none());
        opened.add_files(run_folder("base", "er_base", &[0.2]));
        assert_eq!(opened.missing(&wanted), ["er_cand"]);
        assert!(run_set_of(&opened.runs(), &wanted).is_none());
        opened.add_files(run_folder("cand", "er_cand", &[0.4]));
        assert!(opened.missing(&wanted).is_empty());
        assert!(matches!(run_set_of(&opened.runs(), &wanted), Some(Ok(_))));
        opened.add_files(vec![file("notes.txt", "hello")]);
        assert_eq!(opened.issues().len(), 1, "nothing usable is reported");
        assert_eq!(opened.runs().len(), 2, "and nothing is lost");
        // No folder was opened this time: the issues do not say every other one was.
        assert_eq!(issues_note(opened.opened_last()), "No folder was opened.");
        let mut files = run_folder("fourth", "er_fourth", &[0.1]);
        files.push(file("fourth/run.json.bak", "{}"));
        opened.add_files(files);
        assert_eq!(
            issues_note(opened.opened_last()),
            "Every other folder was opened."
        );
        opened.add_files(run_folder("third", "er_third", &[0.3]));
        assert!(
            opened.issues().is_empty(),
            "the issues are the last opening's"
        );
        assert_eq!(opened.runs().len(), 4);
        opened.clear();
        assert!(opened.runs().is_empty());
        assert_eq!(opened.missing(&wanted), wanted);
    });
}

fn job_folder(dir: &str, id: &str, agents: &[&str]) -> Vec<PickedFile> {
    let trials: Vec<String> = agents
        .iter()
        .enumerate()
        .flat_map(|(a, agent)| {
            ["t1", "t2"].into_iter().map(move |task| {
                chronicle_trial_item(&format!("{a}-{task}"), agent, task, a == 0 || task == "t1")
            })
        })
        .collect();
    vec![
        file(
            &format!("{dir}/job.json"),
            &chronicle_job_body(id, "succeeded", agents, 4, 4),
        ),
        file(
            &format!("{dir}/trials.json"),
            &format!("[{}]", trials.join(",")),
        ),
    ]
}

#[test]
fn a_chronicle_job_folder_opens_as_its_agents_runs() {
    let mut runs = Vec::new();
    let mut files = job_folder("jobs/cmp", "job_cmp", &["coder@1", "coder@2"]);
    files.extend(run_folder("base", "er_base", &[0.2, 0.5]));
    let issues = open_files(&mut runs, files);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        ids(&runs),
        ["er_base", "job_cmp/coder@1", "job_cmp/coder@2"]
    );
    let wanted = vec!["job_cmp/coder@1".to_owned(), "job_cmp/coder@2".to_owned()];
    let set = run_set_of(&runs, &wanted)
        .expect("every run is open")
        .expect("a run set");
    assert_eq!(set.runs().len(), 2, "only the job's folder is used");
    let report =
        build_report(&set, RunIdx(0), &[RunIdx(1)], &ReportSettings::default()).expect("a report");
    assert_eq!(report.sources, [SourceKind::Files]);
    assert_eq!(
        report.runs[0]
            .chronicle
            .as_ref()
            .map(|job| job.job_id.as_str()),
        Some("job_cmp")
    );
    assert_eq!(
        missing_runs(&runs, &["job_cmp/coder@3".to_owned()]).len(),
        1
    );

    let issues = open_files(
        &mut runs,
        vec![job_folder("half", "job_h", &["a@1"]).remove(0)],
    );
    assert_eq!(issues.len(), 1);
    assert!(issues[0].message.contains("trials.json"), "{issues:?}");
}

#[test]
fn an_opened_folder_says_what_it_holds() {
    use eval_compare_viewer::report::files_page::folder_holds;
    let (runs, issues) = parse_folders(&group_by_folder(run_folder(
        "runs/base",
        "er_base",
        &[0.2, 0.5],
    )));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(runs[0].folder, "runs/base");
    assert_eq!(folder_holds(&runs[0]), "run er_base");
}
