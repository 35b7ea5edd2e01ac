//! Chronicle job folders: read in every list layout, written back and read again to the same
//! folder, told apart from Trajectory run folders, and bad input refused naming the file and
//! the JSON path.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use eval_compare_core::api::SuiteEvalRun;
use eval_compare_core::model::{RunIdx, SourceKind};
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::run_folder::{
    is_folder_file, run_set_from_any_folders, ChronicleFolder, ChronicleFolderFiles, Folder,
    FolderKind, RunFolderError, JOB_FILE, RESULTS_FILE, TRIALS_FILE,
};
use eval_compare_core::testing::json_close::json_close;
use proptest::prelude::*;
use serde_json::{json, Value};

fn job_value() -> Value {
    json!({"id": "job_7", "name": "nightly", "status": "succeeded", "mode": "compare",
        "agents": ["billing@1.0.0", "billing@1.1.0"], "task_suite_id": "suite_1",
        "task_suite_version": "2", "completed_trials": 4, "total_trials": 4})
}

fn trial_value(id: &str, agent: &str, task: &str, passed: bool) -> Value {
    json!({"id": id, "agent": agent, "task_id": task, "status": "succeeded", "error": null,
        "scores": [{"name": "state", "score": if passed { 1.0 } else { 0.0 }, "threshold": 1.0, "passed": passed},
                   {"name": "tone", "score": 0.5, "threshold": null, "passed": null}]})
}

fn trial_values() -> Vec<Value> {
    vec![
        trial_value("t1", "billing@1.0.0", "a", true),
        trial_value("t2", "billing@1.1.0", "a", false),
        trial_value("t3", "billing@1.0.0", "b", true),
        trial_value("t4", "billing@1.1.0", "b", true),
    ]
}

fn results_value() -> Value {
    json!({"job_id": "job_7", "status": "succeeded", "pass_rate": 0.5,
        "task_results": [{"task_id": "a", "passed": false, "failed_scorers": ["state"]},
                         {"task_id": "b", "passed": true}]})
}

fn bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

fn files(entries: &[(&str, Vec<u8>)]) -> BTreeMap<String, Vec<u8>> {
    entries
        .iter()
        .map(|(name, contents)| ((*name).to_owned(), contents.clone()))
        .collect()
}

fn read(files: &BTreeMap<String, Vec<u8>>) -> Result<Folder, RunFolderError> {
    Folder::read(|name| files.get(name).map(Vec::as_slice))
}

fn chronicle(folder: Folder) -> ChronicleFolder {
    match folder {
        Folder::Chronicle(folder) => *folder,
        Folder::Trajectory(_) => panic!("read as a Trajectory folder"),
    }
}

#[test]
fn a_job_folder_reads_builds_and_writes_back() {
    let given = files(&[
        (JOB_FILE, bytes(&job_value())),
        (TRIALS_FILE, bytes(&Value::Array(trial_values()))),
        (RESULTS_FILE, bytes(&results_value())),
    ]);
    let folder = read(&given).unwrap();
    assert_eq!(folder.kind(), FolderKind::Chronicle);
    assert_eq!(
        folder.run_ids(),
        ["job_7/billing@1.0.0", "job_7/billing@1.1.0"]
    );
    assert!(folder.truncated_files().is_empty());
    let set = run_set_from_any_folders(std::slice::from_ref(&folder), SourceKind::Files).unwrap();
    assert_eq!(set.runs().len(), 2);
    assert_eq!(set.runs()[0].info().source, SourceKind::Files);
    let report = build_report(&set, RunIdx(0), &[RunIdx(1)], &ReportSettings::default()).unwrap();
    assert_eq!(report.platform.len(), 1);
    assert!(report.platform[0].agrees(), "{:?}", report.platform[0]);
    assert_eq!(
        report.runs[0]
            .chronicle
            .as_ref()
            .unwrap()
            .platform_pass_rate,
        Some(0.5)
    );

    let written = folder.to_files().unwrap();
    let names: Vec<&str> = written.iter().map(|file| file.name).collect();
    assert_eq!(names, [JOB_FILE, TRIALS_FILE, RESULTS_FILE]);
    assert!(names.iter().all(|name| is_folder_file(name)));
    let again: BTreeMap<String, Vec<u8>> = written
        .into_iter()
        .map(|file| (file.name.to_owned(), file.bytes))
        .collect();
    assert_eq!(read(&again).unwrap(), folder);
}

#[test]
fn trials_in_pages_and_lines_and_a_cut_export() {
    let items = trial_values();
    let pages = json!([
        {"items": items[..3], "has_next_page": true, "limit": 3, "next_cursor": "c1"},
        {"items": items[3..], "has_next_page": false, "limit": 3}
    ]);
    let lines: String = items.iter().map(|item| format!("{item}\n")).collect();
    for trials in [bytes(&pages), lines.into_bytes()] {
        let given = files(&[(JOB_FILE, bytes(&job_value())), (TRIALS_FILE, trials)]);
        let folder = chronicle(read(&given).unwrap());
        assert_eq!(folder.trials.len(), 4);
        assert!(folder.truncated_files.is_empty());
        assert_eq!(folder.results, None);
    }
    let cut = json!([{"items": items[..2], "has_next_page": true}]);
    let given = files(&[(JOB_FILE, bytes(&job_value())), (TRIALS_FILE, bytes(&cut))]);
    let folder = read(&given).unwrap();
    assert_eq!(folder.truncated_files(), [TRIALS_FILE]);
    let set = run_set_from_any_folders(&[folder], SourceKind::Files).unwrap();
    assert_eq!(
        set.runs()[0].info().incomplete_load.as_deref(),
        Some("trials.json ended with a page saying more followed")
    );
}

#[test]
fn results_may_be_a_page_of_the_suite_runs() {
    let page = json!({"items": [
        {"job_id": "job_other", "pass_rate": 1.0, "task_results": []},
        results_value()
    ], "has_next_page": false});
    let given = files(&[
        (JOB_FILE, bytes(&job_value())),
        (TRIALS_FILE, bytes(&Value::Array(trial_values()))),
        (RESULTS_FILE, bytes(&page)),
    ]);
    let folder = chronicle(read(&given).unwrap());
    assert_eq!(folder.results.unwrap().pass_rate, Some(0.5));
}

fn error_of(entries: &[(&str, Vec<u8>)]) -> String {
    read(&files(entries)).unwrap_err().to_string()
}

#[test]
fn bad_folders_are_refused_naming_the_file_and_path() {
    let job = bytes(&job_value());
    let trials = bytes(&Value::Array(trial_values()));
    assert_eq!(
        error_of(&[(JOB_FILE, job.clone())]),
        "no trials.json here; a Chronicle job folder holds job.json and trials.json (and optionally results.json)"
    );
    assert!(error_of(&[(TRIALS_FILE, trials.clone())]).starts_with("no run.json or job.json here"));
    assert!(error_of(&[
        (JOB_FILE, job.clone()),
        (TRIALS_FILE, trials.clone()),
        ("run.json", b"{}".to_vec())
    ])
    .starts_with("both run.json and job.json here"));

    let mut bad_trials = trial_values();
    bad_trials[2]["scores"][0]["score"] = json!("high");
    let message = error_of(&[
        (JOB_FILE, job.clone()),
        (TRIALS_FILE, bytes(&Value::Array(bad_trials))),
    ]);
    assert!(
        message.starts_with("trials.json: ") && message.contains("[2].scores[0].score"),
        "{message}"
    );

    let message = error_of(&[
        (JOB_FILE, b"{\"name\": 1}".to_vec()),
        (TRIALS_FILE, trials.clone()),
    ]);
    assert!(message.starts_with("job.json: "), "{message}");

    let mut slash = job_value();
    slash["id"] = json!("team/job");
    let message = error_of(&[(JOB_FILE, bytes(&slash)), (TRIALS_FILE, trials.clone())]);
    assert!(
        message.starts_with("job.json at `id`: the run id `team/job`"),
        "{message}"
    );

    let mut hidden = job_value();
    hidden["agents"][1] = json!("billing\u{7}@2");
    let message = error_of(&[(JOB_FILE, bytes(&hidden)), (TRIALS_FILE, trials.clone())]);
    assert!(
        message.starts_with("job.json at `agents[1]`: the run id")
            && message.contains("control characters"),
        "{message}"
    );

    let mut stranger = trial_values();
    stranger.push(trial_value("t9", "", "a", true));
    let message = error_of(&[
        (JOB_FILE, job.clone()),
        (TRIALS_FILE, bytes(&Value::Array(stranger))),
    ]);
    assert!(
        message.starts_with("trials.json at `[4].agent`") && message.contains("the agent is empty"),
        "{message}"
    );

    let mut other = results_value();
    other["job_id"] = json!("job_8");
    let message = error_of(&[
        (JOB_FILE, job.clone()),
        (TRIALS_FILE, trials.clone()),
        (RESULTS_FILE, bytes(&other)),
    ]);
    assert_eq!(
        message,
        "results.json at `job_id`: these are the results of job `job_8`, not of job `job_7` (job.json)"
    );
    let message = error_of(&[
        (JOB_FILE, job.clone()),
        (TRIALS_FILE, trials.clone()),
        (RESULTS_FILE, bytes(&json!({"items": [other]}))),
    ]);
    assert!(
        message.contains("none of its 1 results is of job `job_7`"),
        "{message}"
    );
    let message = error_of(&[
        (JOB_FILE, job),
        (TRIALS_FILE, trials),
        (
            RESULTS_FILE,
            b"{\"job_id\": \"job_7\", \"pass_rate\": \"half\"}".to_vec(),
        ),
    ]);
    assert!(
        message.starts_with("results.json: ") && message.contains("pass_rate"),
        "{message}"
    );
}

#[test]
fn a_trajectory_folder_still_reads_through_the_one_type() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/real-data/humaneval-10x/gpt-4");
    let contents: BTreeMap<String, Vec<u8>> = [
        "run.json",
        "trajectory-rewards.json",
        "trajectories.json",
        "tasks.json",
    ]
    .iter()
    .map(|name| ((*name).to_owned(), std::fs::read(dir.join(name)).unwrap()))
    .collect();
    let folder = read(&contents).unwrap();
    assert_eq!(folder.kind(), FolderKind::Trajectory);
    assert_eq!(folder.run_ids().len(), 1);
    let mut without = contents.clone();
    without.remove("trajectories.json");
    assert_eq!(
        read(&without).unwrap_err().to_string(),
        "no trajectories.json here; a run folder holds run.json, trajectory-rewards.json and trajectories.json (and optionally tasks.json, training-run.json, eval-options.json and platform-progression.json)"
    );
}

fn trial_strategy() -> impl Strategy<Value = Value> {
    (
        0usize..3,
        0usize..4,
        proptest::option::of(0.0f64..1.0),
        proptest::sample::select(vec!["succeeded", "failed", "running", "odd status"]),
        proptest::option::of("[a-z ]{0,12}"),
        any::<bool>(),
    )
        .prop_map(|(agent, task, score, status, error, thresholded)| {
            json!({"agent": format!("agent@{agent}"), "task_id": format!("task {task}"),
                "status": status, "error": error,
                "scores": [{"name": "state", "score": score,
                            "threshold": if thresholded { Some(0.5) } else { None },
                            "passed": score.map(|s| s >= 0.5)}]})
        })
}

/// Every file of a folder as JSON, by name.
fn exported(folder: &ChronicleFolder) -> Value {
    let files = Folder::Chronicle(Box::new(folder.clone()))
        .to_files()
        .unwrap();
    Value::Object(
        files
            .into_iter()
            .map(|file| {
                (
                    file.name.to_owned(),
                    serde_json::from_slice(&file.bytes).unwrap(),
                )
            })
            .collect(),
    )
}

proptest! {
    /// Whatever a job folder holds, writing it and reading the files back gives the same
    /// folder, and the folder builds a run set with one run per agent in `run_ids` order.
    #[test]
    fn a_job_folder_round_trips(
        trials in proptest::collection::vec(trial_strategy(), 0..12),
        subset in proptest::option::of(proptest::collection::vec("[a-z]{1,4}", 0..4)),
        pass_rate in proptest::option::of(0.0f64..1.0),
        with_results in any::<bool>(),
    ) {
        let mut job = job_value();
        job["tasks"] = json!(subset);
        let trials: Vec<Value> = trials
            .into_iter()
            .enumerate()
            .map(|(i, mut trial)| {
                trial["id"] = json!(format!("trial {i}"));
                trial
            })
            .collect();
        let folder = ChronicleFolder::parse(ChronicleFolderFiles {
            job: &bytes(&job),
            trials: &bytes(&Value::Array(trials)),
            results: None,
        })
        .unwrap();
        let folder = ChronicleFolder {
            results: with_results.then(|| SuiteEvalRun {
                job_id: folder.job.id.clone(),
                name: None,
                status: None,
                pass_rate,
                task_results: Vec::new(),
            }),
            ..folder
        };
        let written = Folder::Chronicle(Box::new(folder.clone())).to_files().unwrap();
        let again: BTreeMap<String, Vec<u8>> = written
            .into_iter()
            .map(|file| (file.name.to_owned(), file.bytes))
            .collect();
        let read_back = chronicle(read(&again).unwrap());
        // Numbers read back to the last bit or one ulp from it (serde_json's fast float
        // parsing), as for Trajectory folders.
        if let Err(difference) = json_close(&exported(&read_back), &exported(&folder), 1e-15) {
            return Err(TestCaseError::fail(difference));
        }
        prop_assert_eq!(&read_back.truncated_files, &folder.truncated_files);
        let set = run_set_from_any_folders(&[Folder::Chronicle(Box::new(folder.clone()))], SourceKind::Files).unwrap();
        let ids: Vec<String> = set.runs().iter().map(|run| run.info().id.clone()).collect();
        prop_assert_eq!(ids, folder.run_ids());
        let trajectories: usize = set.runs().iter().map(|run| run.trajectory_count()).sum();
        prop_assert_eq!(trajectories, folder.trials.len());
    }
}
