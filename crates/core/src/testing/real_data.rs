//! The real run folders of `../shared/real-data` (beside the project root), parsed for tests.

use std::path::PathBuf;

use crate::run_folder::{parse_run_folder, RunFolder, RunFolderFiles};

/// The folder `../shared/real-data/{path}` from the project root.
pub fn real_data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/real-data")
        .join(path)
}

/// One HumanEval × 10 run folder (`humaneval-10x/{run}`), with its task list, parsed.
pub fn humaneval_folder(run: &str) -> RunFolder {
    let dir = real_data("humaneval-10x").join(run);
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    parse_run_folder(RunFolderFiles {
        run: &read("run.json"),
        rewards: &read("trajectory-rewards.json"),
        trajectories: &read("trajectories.json"),
        tasks: Some(&read("tasks.json")),
        training_run: None,
        eval_options: None,
        platform_series: None,
    })
    .unwrap()
}
