//! The real run folders of `../shared/real-data` (beside the project root), parsed for tests.

use std::path::PathBuf;

use crate::run_folder::{
    parse_run_folder, RunFolder, RunFolderFiles, REWARDS_FILE, RUN_FILE, TASKS_FILE,
    TRAJECTORIES_FILE,
};

/// The folder `../shared/real-data/{path}` from the project root.
pub fn real_data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/real-data")
        .join(path)
}

/// The run folder `{benchmark}/{run}` of `../shared/real-data`, parsed (its task list when it
/// has one); a file that cannot be read or parsed panics naming it.
pub fn run_folder(benchmark: &str, run: &str) -> RunFolder {
    let dir = real_data(benchmark).join(run);
    let read = |name: &str| {
        std::fs::read(dir.join(name))
            .unwrap_or_else(|error| panic!("{}: {error}", dir.join(name).display()))
    };
    let tasks = dir.join(TASKS_FILE).exists().then(|| read(TASKS_FILE));
    parse_run_folder(RunFolderFiles {
        run: &read(RUN_FILE),
        rewards: &read(REWARDS_FILE),
        trajectories: &read(TRAJECTORIES_FILE),
        tasks: tasks.as_deref(),
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap_or_else(|error| panic!("{benchmark}/{run}: {error}"))
}

/// One HumanEval × 10 run folder (`humaneval-10x/{run}`), with its task list, parsed.
pub fn humaneval_folder(run: &str) -> RunFolder {
    run_folder("humaneval-10x", run)
}
