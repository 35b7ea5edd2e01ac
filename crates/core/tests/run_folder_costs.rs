//! A run folder's cost files: `billing.json` and `rollout-statistics.json` written by
//! `to_files`, read back by the folder feed into the same costs, put on the run as the load
//! engine puts them; a folder without them leaves the cost unavailable (never 0), and a file
//! about another run is refused naming it.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use eval_compare_core::api::{decode, BillingRunCost, EvalRolloutStatistics};
use eval_compare_core::model::{CostUnavailable, Lookup, RunCost, SourceKind};
use eval_compare_core::run_folder::{
    run_set_from_any_folders, Folder, RunFolderError, BILLING_FILE, ROLLOUT_STATISTICS_FILE,
};

const RUN: &str = r#"{"eval_run_id": "er_1", "bench_id": "b1", "agent_id": null, "display_name": "one", "options": {}, "status": "completed", "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}"#;
const REWARDS: &str = r#"[{"trajectory_id": "t1", "reward": 1.0, "task_id": "a"}]"#;
const TRAJECTORIES: &str = r#"[{"trajectory_id": "t1", "organization_id": "o", "source": "eval", "created_at": "2026-10-01T09:00:00Z", "task_id": "a", "num_steps": 7, "termination_reason": "ENV_DONE", "reward": 1.0}]"#;
const BILLING: &str = r#"{"run_id": "er_1", "name": "r", "type": "eval", "status": "completed", "launch_at": "2026-10-01T09:00:00Z", "cents": 12.5, "training_cents": 0, "inference_cents": 10, "grading_cents": 0.5, "sandbox_cents": 2}"#;
const STATISTICS: &str = r#"{"eval_run_id": "er_1", "snapshots": [{"eval_run_id": "er_1", "stage": "rollout", "knob_name": "max_turns", "unit": "turns", "samples": [7], "sample_count": 1, "created_at": "2026-10-01T12:00:00Z"}]}"#;

fn read(files: &HashMap<&str, Vec<u8>>) -> Result<Folder, RunFolderError> {
    Folder::read(|name| files.get(name).map(Vec::as_slice))
}

fn files(extra: &[(&'static str, &str)]) -> HashMap<&'static str, Vec<u8>> {
    let mut files: HashMap<&'static str, Vec<u8>> = [
        ("run.json", RUN),
        ("trajectory-rewards.json", REWARDS),
        ("trajectories.json", TRAJECTORIES),
    ]
    .into_iter()
    .chain(extra.iter().copied())
    .map(|(name, text)| (name, text.as_bytes().to_vec()))
    .collect();
    files.shrink_to_fit();
    files
}

fn cost_of(folder: &Folder) -> (RunCost, Lookup<EvalRolloutStatistics>) {
    let set = run_set_from_any_folders(std::slice::from_ref(folder), SourceKind::Files).unwrap();
    let info = set.runs()[0].info();
    (info.cost.clone(), info.rollout_statistics.clone())
}

#[test]
fn cost_files_round_trip_and_reach_the_run() {
    let folder = read(&files(&[
        (BILLING_FILE, BILLING),
        (ROLLOUT_STATISTICS_FILE, STATISTICS),
    ]))
    .unwrap();
    let Folder::Trajectory(run_folder) = &folder else {
        panic!("not a run folder");
    };
    let billing: BillingRunCost = decode(BILLING.as_bytes()).unwrap();
    let statistics: EvalRolloutStatistics = decode(STATISTICS.as_bytes()).unwrap();
    assert_eq!(run_folder.costs.billing.as_ref(), Some(&billing));
    assert_eq!(
        run_folder.costs.rollout_statistics.as_ref(),
        Some(&statistics)
    );

    let written = folder.to_files().unwrap();
    let names: Vec<&str> = written.iter().map(|f| f.name).collect();
    assert!(
        names.ends_with(&[BILLING_FILE, ROLLOUT_STATISTICS_FILE]),
        "{names:?}"
    );
    let again: HashMap<&str, Vec<u8>> = written.into_iter().map(|f| (f.name, f.bytes)).collect();
    let again = read(&again).unwrap();
    assert_eq!(again, folder);

    let (cost, read_statistics) = cost_of(&folder);
    let cents = cost.known().copied().unwrap();
    assert_eq!(
        (cents.total, cents.inference, cents.sandbox),
        (12.5, 10.0, 2.0)
    );
    assert_eq!(read_statistics, Lookup::Read(statistics));
}

#[test]
fn a_folder_without_cost_files_says_so_and_a_file_about_another_run_is_refused() {
    let folder = read(&files(&[])).unwrap();
    assert_eq!(
        cost_of(&folder),
        (
            RunCost::Unavailable(CostUnavailable::NotInFolder),
            Lookup::NotRead
        )
    );
    let other = BILLING.replace("\"er_1\"", "\"er_9\"");
    let error = read(&files(&[(BILLING_FILE, &other)])).unwrap_err();
    assert!(
        matches!(&error, RunFolderError::Inconsistent { file, .. } if file == BILLING_FILE),
        "{error:?}"
    );
    assert!(error.to_string().contains("er_9"), "{error}");
    let broken = read(&files(&[(ROLLOUT_STATISTICS_FILE, "{\"eval_run_id\": 3}")])).unwrap_err();
    assert!(
        matches!(&broken, RunFolderError::Decode { file, .. } if file == ROLLOUT_STATISTICS_FILE),
        "{broken:?}"
    );
    let negative = BILLING.replace("\"sandbox_cents\": 2", "\"sandbox_cents\": -2");
    let folder = read(&files(&[(BILLING_FILE, &negative)])).unwrap();
    assert!(matches!(
        cost_of(&folder).0,
        RunCost::Unavailable(CostUnavailable::Invalid(why)) if why.contains("sandbox_cents")
    ));
}
