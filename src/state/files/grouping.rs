//! The pure half of opening run folders: the files picked grouped into folders by their
//! paths, each folder parsed by the core ([`Folder::read_as`] here, at once; the browser
//! reads large lists as they arrive, [`super::reading`]; a Trajectory run's lists packed as
//! the CLI reads them: [`PackedFolder`]; a Trajectory run's folder or a Chronicle job's, told
//! apart by its files), newly opened folders merged with those already open, and the run set
//! of a comparison built from them. No browser API here: [`super`] reads
//! the files and keeps the result in the page's state.
//!
//! It stays in the viewer rather than the core: the CLI is given each folder's path and reads it
//! ([`run_folder`](eval_compare_core::run_folder) parses it for both); only a browser hands over
//! a flat list of picked or dropped files to sort into folders, and keeps runs open across
//! several openings.

use std::collections::BTreeMap;
use std::sync::Arc;

use eval_compare_core::model::{ModelError, RunSet, SourceKind};
use eval_compare_core::run_folder::{
    is_folder_file, Folder, FolderKind, FolderSetBuild, PackedFolder, RunFolderError,
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

/// The run-folder files of one folder: their contents (the default), or the browser's handles
/// to them before they are read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FolderFiles<C = Vec<u8>> {
    /// The folder's path (or [`LOOSE_FILES`]).
    pub folder: String,
    /// Contents (or handles) by file name (only the run-folder names).
    pub files: BTreeMap<String, C>,
}

impl FolderFiles {
    /// The folder parsed by the core at once, a Trajectory run's lists packed as the CLI
    /// reads them.
    pub fn parse(&self) -> Result<PackedFolder, RunFolderError> {
        Folder::read_as(|name| self.files.get(name).map(Vec::as_slice))
    }
}

impl<C> FolderFiles<C> {
    /// What its read ended with, as an opened run or an issue naming the folder.
    pub fn opened(
        &self,
        read: Result<PackedFolder, RunFolderError>,
    ) -> Result<OpenedRun, FileIssue> {
        read.map(|folder| OpenedRun::new(self.folder.clone(), folder))
            .map_err(|error| FileIssue {
                folder: self.folder.clone(),
                message: error.to_string(),
            })
    }
}

/// A folder opened from disk: one Trajectory run, or a Chronicle job (one run per agent).
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedRun {
    /// The folder it came from.
    pub folder: String,
    /// Its parsed files: what a report reads of its lists (each item's texts in one allocation;
    /// the files' contents are not kept), shared by every copy of the list of opened runs.
    pub run: Arc<PackedFolder>,
    /// The ids of the runs it holds (see [`Folder::run_ids`]).
    pub run_ids: Vec<String>,
}

impl OpenedRun {
    /// A parsed folder from `folder`.
    pub fn new(folder: String, run: PackedFolder) -> Self {
        let run_ids = run.run_ids();
        Self {
            folder,
            run: Arc::new(run),
            run_ids,
        }
    }

    /// Whether it holds the run `run_id`.
    pub fn holds(&self, run_id: &str) -> bool {
        self.run_ids.iter().any(|id| id == run_id)
    }
}

/// A folder (or file) that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIssue {
    /// The folder.
    pub folder: String,
    /// What is wrong, naming the file and the JSON path when it is a parse error.
    pub message: String,
}

/// Groups files by their folder, keeping the run-folder files only. Folders without any are
/// left out (parents of run folders, unrelated files).
pub fn group_by_folder(files: Vec<PickedFile>) -> Vec<FolderFiles> {
    group_paths(files.into_iter().map(|file| (file.path, file.bytes)))
}

/// [`group_by_folder`] of anything under a path: contents, or the browser's handles to files
/// not read yet.
pub fn group_paths<C>(files: impl IntoIterator<Item = (String, C)>) -> Vec<FolderFiles<C>> {
    let mut groups: BTreeMap<String, FolderFiles<C>> = BTreeMap::new();
    for (path, contents) in files {
        let path = path.trim_start_matches('/');
        let (folder, name) = match path.rsplit_once('/') {
            Some((folder, name)) => (folder.to_owned(), name),
            None => (LOOSE_FILES.to_owned(), path),
        };
        if !is_folder_file(name) {
            continue;
        }
        let group = groups.entry(folder.clone()).or_insert_with(|| FolderFiles {
            folder,
            files: BTreeMap::new(),
        });
        group.files.insert(name.to_owned(), contents);
    }
    groups.into_values().collect()
}

/// Parses each folder with the core; a folder that fails is reported and the others kept.
pub fn parse_folders(groups: &[FolderFiles]) -> (Vec<OpenedRun>, Vec<FileIssue>) {
    let mut runs = Vec::new();
    let mut issues = Vec::new();
    for group in groups {
        match group.opened(group.parse()) {
            Ok(run) => runs.push(run),
            Err(issue) => issues.push(issue),
        }
    }
    (runs, issues)
}

/// Adds `opened` to `runs`: a folder holding a run already open replaces the folder it was
/// open from (with an issue saying so).
pub fn merge_runs(runs: &mut Vec<OpenedRun>, opened: Vec<OpenedRun>, issues: &mut Vec<FileIssue>) {
    for run in opened {
        let known = runs
            .iter()
            .position(|known| run.run_ids.iter().any(|id| known.holds(id)));
        match known {
            Some(index) => {
                let id = run
                    .run_ids
                    .iter()
                    .find(|id| runs[index].holds(id))
                    .cloned()
                    .unwrap_or_default();
                issues.push(FileIssue {
                    folder: run.folder.clone(),
                    message: format!(
                        "run {id} was already open from {}; this folder replaces it",
                        runs[index].folder
                    ),
                });
                runs[index] = run;
            }
            None => runs.push(run),
        }
    }
}

/// Opens `files` beside `runs`: groups them, parses the folders and merges the runs into
/// `runs`. Returns what could not be used, including that none of the files is a run-folder
/// file.
pub fn open_files(runs: &mut Vec<OpenedRun>, files: Vec<PickedFile>) -> Vec<FileIssue> {
    open_files_counted(runs, files).0
}

/// [`open_files`], with how many folders it opened.
pub fn open_files_counted(
    runs: &mut Vec<OpenedRun>,
    files: Vec<PickedFile>,
) -> (Vec<FileIssue>, usize) {
    let groups = group_by_folder(files);
    let (opened, mut issues) = parse_folders(&groups);
    if groups.is_empty() {
        issues.push(no_folder_issue());
    }
    let count = opened.len();
    merge_runs(runs, opened, &mut issues);
    (issues, count)
}

/// What the list of issues of an opening ends with: whether the other folders were opened.
pub fn issues_note(opened: usize) -> &'static str {
    match opened {
        0 => "No folder was opened.",
        _ => "Every other folder was opened.",
    }
}

/// What an opening in which none of the files is a run-folder file says.
pub fn no_folder_issue() -> FileIssue {
    FileIssue {
        folder: LOOSE_FILES.to_owned(),
        message: format!(
            "none of these files is a run-folder file: {}; {}",
            FolderKind::Trajectory.holds(),
            FolderKind::Chronicle.holds()
        ),
    }
}

/// The folders a comparison reads, in order; equal when they are the same folders (the same
/// opening), not merely equal ones.
#[derive(Debug, Clone)]
pub struct FolderSelection(pub Vec<Arc<PackedFolder>>);

impl PartialEq for FolderSelection {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|(one, other)| Arc::ptr_eq(one, other))
    }
}

/// The folders of `run_ids` (baseline first), in the order the CLI reads them: each folder
/// holding one of them, in the order its first run is named (a job's folder brings all its
/// agents); `None` when a run is not open.
pub fn folders_of(runs: &[OpenedRun], run_ids: &[String]) -> Option<FolderSelection> {
    let mut folders: Vec<&OpenedRun> = Vec::new();
    for id in run_ids {
        let opened = runs.iter().find(|opened| opened.holds(id))?;
        if !folders.iter().any(|known| std::ptr::eq(*known, opened)) {
            folders.push(opened);
        }
    }
    Some(FolderSelection(
        folders
            .iter()
            .map(|opened| Arc::clone(&opened.run))
            .collect(),
    ))
}

/// The run set of `run_ids` from opened folders ([`folders_of`]), built at once: what the
/// page's build a slice at a time ends with ([`FolderSetBuild`]); `None` when a run is not open.
pub fn run_set_of(runs: &[OpenedRun], run_ids: &[String]) -> Option<Result<RunSet, ModelError>> {
    let mut build = FolderSetBuild::new(folders_of(runs, run_ids)?.0, SourceKind::Files);
    loop {
        if let Some(built) = build.advance(usize::MAX) {
            return Some(built);
        }
    }
}

/// The ids of `run_ids` that are not open, in order.
pub fn missing_runs(runs: &[OpenedRun], run_ids: &[String]) -> Vec<String> {
    run_ids
        .iter()
        .filter(|id| !runs.iter().any(|opened| opened.holds(id)))
        .cloned()
        .collect()
}
