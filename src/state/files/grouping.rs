//! The pure half of opening run folders: the files read from disk grouped into folders by their
//! paths, each folder's run-folder files parsed by the core ([`parse_run_folder`]), newly opened
//! runs merged with those already open, and the run set of a comparison built from them. No
//! browser API here: [`super`] reads the files and keeps the result in the page's state.
//!
//! It stays in the viewer rather than the core: the CLI is given each folder's path and reads it
//! ([`run_folder`](eval_compare_core::run_folder) parses it for both); only a browser hands over
//! a flat list of picked or dropped files to sort into folders, and keeps runs open across
//! several openings.

use std::collections::BTreeMap;

use eval_compare_core::model::{ModelError, RunSet, SourceKind};
use eval_compare_core::run_folder::{
    parse_run_folder, run_set_from_folders, RunFolder, RunFolderFiles, REWARDS_FILE, RUN_FILE,
    TASKS_FILE, TRAJECTORIES_FILE,
};

/// The folder name given to files picked one by one, outside any folder.
pub const LOOSE_FILES: &str = "(picked files)";

/// One file read from disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickedFile {
    /// Its path relative to what was opened, e.g. `runs/base/run.json`, or just its name.
    pub path: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// The run-folder files of one folder.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FolderFiles {
    /// The folder's path (or [`LOOSE_FILES`]).
    pub folder: String,
    /// Contents by file name (only the run-folder names).
    pub files: BTreeMap<String, Vec<u8>>,
}

/// A run opened from a folder.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedRun {
    /// The folder it came from.
    pub folder: String,
    /// Its parsed files.
    pub run: RunFolder,
}

/// A folder (or file) that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIssue {
    /// The folder.
    pub folder: String,
    /// What is wrong, naming the file and the JSON path when it is a parse error.
    pub message: String,
}

/// Whether a file of this name belongs in a run folder (the only files worth reading).
pub fn is_run_folder_file(name: &str) -> bool {
    [RUN_FILE, REWARDS_FILE, TRAJECTORIES_FILE, TASKS_FILE].contains(&name)
}

/// Groups files by their folder, keeping the run-folder files only. Folders without any are
/// left out (parents of run folders, unrelated files).
pub fn group_by_folder(files: Vec<PickedFile>) -> Vec<FolderFiles> {
    let mut groups: BTreeMap<String, FolderFiles> = BTreeMap::new();
    for file in files {
        let path = file.path.trim_start_matches('/');
        let (folder, name) = match path.rsplit_once('/') {
            Some((folder, name)) => (folder.to_owned(), name),
            None => (LOOSE_FILES.to_owned(), path),
        };
        if !is_run_folder_file(name) {
            continue;
        }
        let group = groups.entry(folder.clone()).or_insert_with(|| FolderFiles {
            folder,
            files: BTreeMap::new(),
        });
        group.files.insert(name.to_owned(), file.bytes);
    }
    groups.into_values().collect()
}

/// Parses each folder with the core; a folder that fails is reported and the others kept.
pub fn parse_folders(groups: &[FolderFiles]) -> (Vec<OpenedRun>, Vec<FileIssue>) {
    let mut runs = Vec::new();
    let mut issues = Vec::new();
    for group in groups {
        let file = |name: &str| group.files.get(name).map(Vec::as_slice);
        let missing: Vec<&str> = [RUN_FILE, REWARDS_FILE, TRAJECTORIES_FILE]
            .into_iter()
            .filter(|name| file(name).is_none())
            .collect();
        let (Some(run), Some(rewards), Some(trajectories)) =
            (file(RUN_FILE), file(REWARDS_FILE), file(TRAJECTORIES_FILE))
        else {
            issues.push(FileIssue {
                folder: group.folder.clone(),
                message: format!(
                    "no {} here; a run folder holds {RUN_FILE}, {REWARDS_FILE} and {TRAJECTORIES_FILE} (and optionally {TASKS_FILE})",
                    missing.join(", ")
                ),
            });
            continue;
        };
        let parsed = parse_run_folder(RunFolderFiles {
            run,
            rewards,
            trajectories,
            tasks: file(TASKS_FILE),
        });
        match parsed {
            Ok(run) => runs.push(OpenedRun {
                folder: group.folder.clone(),
                run,
            }),
            Err(error) => issues.push(FileIssue {
                folder: group.folder.clone(),
                message: error.to_string(),
            }),
        }
    }
    (runs, issues)
}

/// Adds `opened` to `runs`: a run id already open is replaced by the newer folder (with an issue
/// saying so).
pub fn merge_runs(runs: &mut Vec<OpenedRun>, opened: Vec<OpenedRun>, issues: &mut Vec<FileIssue>) {
    for run in opened {
        let id = run.run.run.eval_run_id.clone();
        match runs
            .iter_mut()
            .find(|known| known.run.run.eval_run_id == id)
        {
            Some(known) => {
                issues.push(FileIssue {
                    folder: run.folder.clone(),
                    message: format!(
                        "run {id} was already open from {}; this folder replaces it",
                        known.folder
                    ),
                });
                *known = run;
            }
            None => runs.push(run),
        }
    }
}

/// Opens `files` beside `runs`: groups them, parses the folders and merges the runs into
/// `runs`. Returns what could not be used, including that none of the files is a run-folder
/// file.
pub fn open_files(runs: &mut Vec<OpenedRun>, files: Vec<PickedFile>) -> Vec<FileIssue> {
    let groups = group_by_folder(files);
    let (opened, mut issues) = parse_folders(&groups);
    if groups.is_empty() {
        issues.push(FileIssue {
            folder: LOOSE_FILES.to_owned(),
            message: format!(
                "none of these files is a run-folder file ({RUN_FILE}, {REWARDS_FILE}, {TRAJECTORIES_FILE}, {TASKS_FILE})"
            ),
        });
    }
    merge_runs(runs, opened, &mut issues);
    issues
}

/// The run set of `run_ids` (baseline first) from opened runs, built as the CLI builds it from
/// folders; `None` when a run is not open.
pub fn run_set_of(runs: &[OpenedRun], run_ids: &[String]) -> Option<Result<RunSet, ModelError>> {
    let folders: Vec<RunFolder> = run_ids
        .iter()
        .map(|id| {
            runs.iter()
                .find(|opened| &opened.run.run.eval_run_id == id)
                .map(|opened| opened.run.clone())
        })
        .collect::<Option<_>>()?;
    Some(run_set_from_folders(&folders, SourceKind::Files))
}

/// The ids of `run_ids` that are not open, in order.
pub fn missing_runs(runs: &[OpenedRun], run_ids: &[String]) -> Vec<String> {
    run_ids
        .iter()
        .filter(|id| !runs.iter().any(|opened| &opened.run.run.eval_run_id == *id))
        .cloned()
        .collect()
}
