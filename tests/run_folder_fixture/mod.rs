//! Run folders as the files a browser hands over: the JSON of `run.json`,
//! `trajectory-rewards.json` and `trajectories.json` for a run with given rewards, one task per
//! reward. Shared by the native tests of the grouping and the browser tests of reading files.
#![allow(dead_code)] // Each test file uses a subset of these helpers.

use eval_compare_viewer::state::files::PickedFile;

/// A file read from disk at `path`.
pub fn file(path: &str, body: &str) -> PickedFile {
    PickedFile {
        path: path.to_owned(),
        bytes: body.as_bytes().to_vec(),
    }
}

/// `run.json` of run `id`.
pub fn run_json(id: &str) -> String {
    format!(
        r#"{{"eval_run_id":"{id}","bench_id":"b_1","options":{{}},"status":"completed","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#
    )
}

/// `trajectory-rewards.json`: trajectory `{id}-{i}` on task `t{i}` has reward `rewards[i]`.
pub fn rewards_json(id: &str, rewards: &[f64]) -> String {
    let items: Vec<String> = rewards
        .iter()
        .enumerate()
        .map(|(i, r)| format!(r#"{{"trajectory_id":"{id}-{i}","reward":{r},"task_id":"t{i}"}}"#))
        .collect();
    format!("[{}]", items.join(","))
}

/// `trajectories.json`: `count` completed trajectories `{id}-{i}` on tasks `t{i}`.
pub fn trajectories_json(id: &str, count: usize) -> String {
    let items: Vec<String> = (0..count)
        .map(|i| {
            format!(
                r#"{{"trajectory_id":"{id}-{i}","organization_id":"org","source":"eval","status":"completed","termination_reason":"ENV_DONE","created_at":"2026-01-01T00:00:00Z","task_id":"t{i}"}}"#
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The three files of run `id`'s folder `dir`.
pub fn run_folder(dir: &str, id: &str, rewards: &[f64]) -> Vec<PickedFile> {
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
