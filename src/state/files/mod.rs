//! Run folders opened from disk: the files picked or dropped, read from the browser here,
//! grouped by folder and parsed by the core in [`grouping`] (pure, tested natively), and kept
//! for this page's life ([`FileRuns`]) so a report can be computed from them with no server at
//! all.
//!
//! A folder holds `run.json`, `trajectory-rewards.json`, `trajectories.json` and optionally
//! `tasks.json`. A folder that cannot be read is reported by folder, file and JSON path; the
//! other folders are kept.

pub mod grouping;
pub mod reading;
pub mod scorecard;

use std::sync::Arc;

use eval_compare_core::large_list::{PackedReward, PackedTrajectory};
use eval_compare_core::model::{ModelError, RunSet, SourceKind};
use eval_compare_core::run_folder::{FolderSetBuild, PackedFolder};
use js_sys::{Promise, Reflect};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    DataTransfer, File, FileList, FileSystemDirectoryEntry, FileSystemEntry, FileSystemFileEntry,
};

use self::grouping::{
    folders_of, group_paths, merge_runs, missing_runs, no_folder_issue, open_files_counted,
    FolderSelection,
};
pub use self::grouping::{issues_note, FileIssue, OpenedRun, PickedFile};
use self::reading::open_folder;
pub use self::reading::read_folder;
use super::run_set_build::{
    use_stepped_run_set, BuildStart, RunSetState, SteppedBuild, ITEMS_PER_STEP,
};
use super::shared::Shared;

/// Why the browser could not read a dropped folder or a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The entries of a dropped folder could not be listed (the browser's reason).
    #[error("the folder could not be read ({0})")]
    Folder(String),
    /// A file could not be read (the browser's reason).
    #[error("the file could not be read ({0})")]
    File(String),
}

/// How far a reading of picked files is.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadingProgress {
    /// The folder being read.
    pub folder: String,
    /// Its place among the folders picked (from 0).
    pub index: usize,
    /// The number of folders picked.
    pub count: usize,
    /// The share of its lists read and decoded, from 0 to 1 (`None` before the first slice
    /// ends).
    pub parsed: Option<f64>,
}

impl ReadingProgress {
    /// What the page says of it.
    pub fn label(&self) -> String {
        let place = match self.count {
            1 => String::new(),
            count => format!(" (folder {} of {count})", self.index + 1),
        };
        match self.parsed {
            None => format!("Reading {}{place}…", self.folder),
            Some(share) => format!(
                "Reading {}{place}: {}% read…",
                self.folder,
                (share * 100.0).floor()
            ),
        }
    }
}

/// The runs opened in this browser, shared by the files pages. `Copy`; provided as context.
#[derive(Debug, Clone, Copy)]
pub struct FileRuns {
    runs: RwSignal<Shared<Vec<OpenedRun>>>,
    issues: RwSignal<Vec<FileIssue>>,
    /// How many folders the last opening opened.
    opened_last: RwSignal<usize>,
    reading: RwSignal<Option<ReadingProgress>>,
}

impl Default for FileRuns {
    fn default() -> Self {
        Self::new()
    }
}

impl FileRuns {
    /// Nothing opened yet.
    pub fn new() -> Self {
        Self {
            runs: RwSignal::new(Shared::new(Vec::new())),
            issues: RwSignal::new(Vec::new()),
            opened_last: RwSignal::new(0),
            reading: RwSignal::new(None),
        }
    }

    /// The opened runs (tracked).
    pub fn runs(&self) -> Shared<Vec<OpenedRun>> {
        self.runs.get()
    }

    /// What could not be used in the files opened last (tracked).
    pub fn issues(&self) -> Vec<FileIssue> {
        self.issues.get()
    }

    /// How many folders the opening of [`Self::issues`] opened (tracked).
    pub fn opened_last(&self) -> usize {
        self.opened_last.get()
    }

    /// How far the reading of picked files is, while one is under way (tracked).
    pub fn reading(&self) -> Option<ReadingProgress> {
        self.reading.get()
    }

    /// Groups, parses at once and adds files already read into memory; the issues replace the
    /// previous ones. (The page reads what is picked with [`Self::read_and_add`].)
    pub fn add_files(&self, files: Vec<PickedFile>) {
        let mut runs: Vec<OpenedRun> = self.runs.with_untracked(|runs| runs.to_vec());
        let (issues, opened) = open_files_counted(&mut runs, files);
        self.runs.set(Shared::new(runs));
        self.issues.set(issues);
        self.opened_last.set(opened);
    }

    /// Reads browser files, then adds them; `earlier` are issues met while finding them (a
    /// dropped folder that could not be read). [`Self::reading`] says how far it is meanwhile.
    ///
    /// One folder at a time ([`reading::open_folder`]: its large lists read from disk a few
    /// megabytes at a time and decoded as they arrive, in slices of about
    /// [`SLICE_MS`](super::report::SLICE_MS), the page painting and handling input in between;
    /// the tab never holds a whole list file). Each folder's runs are added as soon as it is
    /// read: a run opened again replaces the earlier one then, before the next folder is read,
    /// and only once its new folder was read without error.
    pub async fn read_and_add(&self, files: Vec<(String, File)>, earlier: Vec<FileIssue>) {
        let groups = group_paths(files);
        let count = groups.len();
        let mut issues = earlier;
        let mut opened_count = 0;
        for (index, group) in groups.iter().enumerate() {
            let progress = ReadingProgress {
                folder: group.folder.clone(),
                index,
                count,
                parsed: None,
            };
            self.reading.set(Some(progress.clone()));
            let reading = self.reading;
            let opened = open_folder(group, move |share| {
                reading.set(Some(ReadingProgress {
                    parsed: Some(share),
                    ..progress.clone()
                }));
            })
            .await;
            match opened {
                // Added at once: a run it opens again is let go before the next folder is read.
                Ok(run) => {
                    opened_count += 1;
                    self.merge(vec![run], &mut issues);
                }
                Err(failed) => issues.extend(failed),
            }
        }
        if count == 0 {
            issues.push(no_folder_issue());
        }
        self.issues.set(issues);
        self.opened_last.set(opened_count);
        self.reading.set(None);
    }

    /// Adds `opened` to the opened runs ([`merge_runs`]: one opened again replaces its
    /// earlier folder, with an issue saying so).
    fn merge(&self, opened: Vec<OpenedRun>, issues: &mut Vec<FileIssue>) {
        let mut runs: Vec<OpenedRun> = self.runs.with_untracked(|runs| runs.to_vec());
        merge_runs(&mut runs, opened, issues);
        self.runs.set(Shared::new(runs));
    }

    /// Forgets every opened run.
    pub fn clear(&self) {
        self.runs.set(Shared::new(Vec::new()));
        self.issues.set(Vec::new());
    }

    /// The run set of the runs `run_ids` names, built a slice at a time whenever they or the
    /// opened folders change (see [`use_stepped_run_set`]).
    pub fn use_run_set(&self, run_ids: Memo<Option<Vec<String>>>) -> RunSetState {
        let runs = self.runs;
        let selection = Memo::new(move |_| {
            let ids = run_ids.get()?;
            runs.with(|runs| folders_of(runs, &ids))
        });
        use_stepped_run_set(selection, |selection: &FolderSelection| {
            BuildStart::Steps(FolderBuild(FolderSetBuild::new(
                selection.0.clone(),
                SourceKind::Files,
            )))
        })
    }

    /// The ids of `run_ids` not open (tracked).
    pub fn missing(&self, run_ids: &[String]) -> Vec<String> {
        self.runs.with(|runs| missing_runs(runs, run_ids))
    }
}

/// The run set of opened folders, a step at a time.
struct FolderBuild(FolderSetBuild<Arc<PackedFolder>, PackedReward, PackedTrajectory>);

impl SteppedBuild for FolderBuild {
    fn step(&mut self) -> Option<Option<Result<RunSet, ModelError>>> {
        self.0.advance(ITEMS_PER_STEP).map(Some)
    }

    fn progress(&self) -> f64 {
        self.0.progress()
    }
}

/// The opened runs in context, or a new empty set when the view is mounted alone.
pub fn use_file_runs() -> FileRuns {
    use_context::<FileRuns>().unwrap_or_default()
}

/// A browser file's path within what was opened: `webkitRelativePath` when the browser gives
/// one (folder pickers), else its name.
fn relative_path(file: &File) -> String {
    Reflect::get(file, &JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|value| value.as_string())
        .filter(|path| !path.is_empty())
        .unwrap_or_else(|| file.name())
}

/// The files of an `<input type=file>`, with their paths.
pub fn files_of_list(list: &FileList) -> Vec<(String, File)> {
    (0..list.length())
        .filter_map(|index| list.item(index))
        .map(|file| (relative_path(&file), file))
        .collect()
}

/// What a drop carries: its entries (folders are walked later) and plain files. Must be called
/// during the drop event: the browser empties the data transfer afterwards.
pub fn drop_entries(data: &DataTransfer) -> (Vec<FileSystemEntry>, Vec<(String, File)>) {
    let items = data.items();
    let mut entries = Vec::new();
    let mut files = Vec::new();
    for index in 0..items.length() {
        let Some(item) = items.get(index) else {
            continue;
        };
        if item.kind() != "file" {
            continue;
        }
        match item.webkit_get_as_entry() {
            Ok(Some(entry)) => entries.push(entry),
            _ => {
                if let Ok(Some(file)) = item.get_as_file() {
                    files.push((relative_path(&file), file));
                }
            }
        }
    }
    (entries, files)
}

/// Every file under dropped entries (folders walked recursively), with paths relative to the
/// drop. Entries that cannot be read are reported.
pub async fn walk_entries(entries: Vec<FileSystemEntry>) -> (Vec<(String, File)>, Vec<FileIssue>) {
    let mut files = Vec::new();
    let mut issues = Vec::new();
    let mut stack = entries;
    while let Some(entry) = stack.pop() {
        let path = entry.full_path().trim_start_matches('/').to_owned();
        if entry.is_directory() {
            let directory: FileSystemDirectoryEntry = entry.unchecked_into();
            match read_directory(&directory).await {
                Ok(children) => stack.extend(children),
                Err(why) => issues.push(FileIssue {
                    folder: path,
                    message: why.to_string(),
                }),
            }
        } else if entry.is_file() {
            let file_entry: FileSystemFileEntry = entry.unchecked_into();
            match entry_file(&file_entry).await {
                Ok(file) => files.push((path, file)),
                Err(why) => issues.push(FileIssue {
                    folder: path,
                    message: why.to_string(),
                }),
            }
        }
    }
    (files, issues)
}

/// The words of a browser error.
pub(crate) fn js_error_text(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|error| String::from(error.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the browser refused".to_owned())
}

/// Every entry of a dropped folder (`readEntries` answers in batches until an empty one).
async fn read_directory(
    directory: &FileSystemDirectoryEntry,
) -> Result<Vec<FileSystemEntry>, ReadError> {
    let reader = directory.create_reader();
    let mut all = Vec::new();
    loop {
        let batch = Promise::new(&mut |resolve, reject| {
            if let Err(error) = reader.read_entries_with_callback_and_callback(&resolve, &reject) {
                let _ = reject.call1(&JsValue::NULL, &error);
            }
        });
        let batch = JsFuture::from(batch)
            .await
            .map_err(|error| ReadError::Folder(js_error_text(&error)))?;
        let batch: js_sys::Array = batch.unchecked_into();
        if batch.length() == 0 {
            return Ok(all);
        }
        all.extend(batch.iter().map(JsCast::unchecked_into::<FileSystemEntry>));
    }
}

/// The file of a dropped file entry.
async fn entry_file(entry: &FileSystemFileEntry) -> Result<File, ReadError> {
    let promise = Promise::new(&mut |resolve, reject| {
        entry.file_with_callback_and_callback(&resolve, &reject);
    });
    JsFuture::from(promise)
        .await
        .map(JsCast::unchecked_into::<File>)
        .map_err(|error| ReadError::File(js_error_text(&error)))
}
