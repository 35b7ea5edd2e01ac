//! Reading one picked folder from disk in the browser ([`open_folder`]): its small files read
//! whole, its large lists (rewards, trajectories, tasks) read a few megabytes at a time and fed
//! to the core's [`ListFeed`] as they arrive, decoded in slices of about [`SLICE_MS`] with the
//! page painting and handling input in between. The tab never holds a whole list file: at
//! 100,000 tasks × 8 samples that is 250 MB per run it does not need, and no block of memory
//! that size to find. The folder is put together as [`Folder::read_as`] puts it together from
//! whole files ([`parse_run_record`], the lists, [`finish_run_folder`]), with the same errors in
//! the same order; a list the feed cannot read (it ended unexpectedly) is read whole and parsed
//! at once by [`parse_list`] for its error.

use std::cell::Cell;
use std::collections::BTreeMap;

use eval_compare_core::api::{BenchmarkSpecTask, PackedReward, PackedTrajectory, PlainItem};
use eval_compare_core::run_folder::{
    finish_run_folder, parse_list, parse_run_record, Feed, Folder, FolderKind, ListFeed,
    PackedFolder, ParsedList, RunFolderError, RunFolderExtras, REWARDS_FILE, RUN_FILE, TASKS_FILE,
    TRAJECTORIES_FILE,
};
use gloo_timers::future::TimeoutFuture;
use js_sys::Uint8Array;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use super::grouping::{FileIssue, FolderFiles, OpenedRun};
use super::{js_error_text, ReadError};
use crate::state::report::{now_ms, SLICE_MS};

/// Bytes of a file read from disk and copied into memory at a time: a copy of a few
/// milliseconds, where one of a 250 MB file at once blocked the page for over 100 ms.
const FILE_CHUNK_BYTES: f64 = 8.0 * 1024.0 * 1024.0;

/// Bytes of a list decoded between clock readings: a millisecond's worth or so.
const BYTES_PER_STEP: usize = 256 * 1024;

/// Why a folder could not be opened: a file the browser could not read, or one that does not
/// parse.
enum OpenError {
    Read { file: String, error: ReadError },
    Parse(RunFolderError),
}

impl From<RunFolderError> for OpenError {
    fn from(error: RunFolderError) -> Self {
        OpenError::Parse(error)
    }
}

/// Reads and parses one picked folder; `progress` is told the share of its lists decoded
/// (from 0 to 1) between slices. What could not be used comes back as issues naming the
/// folder (and the file, for a file the browser could not read).
pub async fn open_folder(
    group: &FolderFiles<File>,
    mut progress: impl FnMut(f64),
) -> Result<OpenedRun, Vec<FileIssue>> {
    let read = match FolderKind::of_files(|name| group.files.contains_key(name)) {
        Err(error) => Err(error),
        Ok(FolderKind::Chronicle) => {
            // A job's trials come by the thousand at most: read whole, parsed at once.
            return match read_folder(group).await {
                (Some(read), _) => read.opened(read.parse()).map_err(|issue| vec![issue]),
                (None, failed) => Err(failed),
            };
        }
        Ok(FolderKind::Trajectory) => match open_run_folder(group, &mut progress).await {
            Ok(folder) => Ok(folder),
            Err(OpenError::Parse(error)) => Err(error),
            Err(OpenError::Read { file, error }) => {
                return Err(vec![FileIssue {
                    folder: format!("{}/{file}", group.folder),
                    message: error.to_string(),
                }])
            }
        },
    };
    group.opened(read).map_err(|issue| vec![issue])
}

/// A Trajectory run folder, its files read in [`parse_run_folder_as`]'s order.
///
/// [`parse_run_folder_as`]: eval_compare_core::run_folder::parse_run_folder_as
async fn open_run_folder(
    group: &FolderFiles<File>,
    progress: &mut impl FnMut(f64),
) -> Result<PackedFolder, OpenError> {
    let file = |name: &str| group.files.get(name);
    let whole = |name: &'static str| async move {
        match file(name) {
            Some(handle) => read_file(handle)
                .await
                .map(Some)
                .map_err(|error| OpenError::Read {
                    file: name.to_owned(),
                    error,
                }),
            None => Ok(None),
        }
    };
    // The folder's kind was told from its files: its required ones are there.
    let required = |name: &'static str| {
        file(name).ok_or(OpenError::Parse(RunFolderError::MissingFiles {
            kind: FolderKind::Trajectory,
            missing: vec![name],
        }))
    };
    let run = parse_run_record(&whole(RUN_FILE).await?.unwrap_or_default())?;
    // Progress: the bytes of the lists decoded, against all their bytes.
    let size = |name: &str| file(name).map_or(0.0, |handle| handle.size());
    let total = [REWARDS_FILE, TRAJECTORIES_FILE, TASKS_FILE]
        .iter()
        .map(|name| size(name))
        .sum::<f64>()
        .max(1.0);
    let before = Cell::new(0.0);
    let mut share = |done: f64| progress(((before.get() + done) / total).min(1.0));
    let rewards: ParsedList<PackedReward> =
        stream_list(required(REWARDS_FILE)?, REWARDS_FILE, &mut share).await?;
    before.set(size(REWARDS_FILE));
    let trajectories: ParsedList<PackedTrajectory> =
        stream_list(required(TRAJECTORIES_FILE)?, TRAJECTORIES_FILE, &mut share).await?;
    before.set(size(REWARDS_FILE) + size(TRAJECTORIES_FILE));
    let tasks: Option<ParsedList<BenchmarkSpecTask>> = match file(TASKS_FILE) {
        Some(handle) => Some(stream_list(handle, TASKS_FILE, &mut share).await?),
        None => None,
    };
    let mut extras = BTreeMap::new();
    for name in RunFolderExtras::FILES {
        if let Some(bytes) = whole(name).await? {
            extras.insert(name, bytes);
        }
    }
    let folder = finish_run_folder(
        RunFolderExtras::from_files(|name| extras.get(name).map(Vec::as_slice)),
        run,
        rewards,
        trajectories,
        tasks,
    )?;
    Ok(Folder::Trajectory(Box::new(folder)))
}

/// A list file read from disk a chunk at a time and decoded as it arrives ([`ListFeed`]), in
/// slices of about [`SLICE_MS`]; `progress` is told the bytes decoded between slices. A file
/// the feed cannot read is read whole and parsed by [`parse_list`], whose error is the answer.
async fn stream_list<T: PlainItem>(
    handle: &File,
    name: &'static str,
    progress: &mut impl FnMut(f64),
) -> Result<ParsedList<T>, OpenError> {
    let read_error = |error| OpenError::Read {
        file: name.to_owned(),
        error,
    };
    let size = handle.size();
    // Not `ListFeed::sized`: its room, projected anew at each opening, is of another size
    // each time, and the blocks an earlier opening let go of did not fit it (the tab grew
    // from 576 to 623 and 671 MB over three openings of 2 x 100k x 8). Grown by doubling,
    // the lists ask for the same sizes at each opening and reuse those blocks.
    let mut feed = ListFeed::<T>::new();
    let mut chunk = Vec::new();
    let mut start = 0.0;
    let mut slice_started = now_ms();
    loop {
        match feed.advance(BYTES_PER_STEP) {
            Feed::Working => {
                if now_ms() - slice_started >= SLICE_MS {
                    progress(feed.consumed() as f64);
                    // Let the page paint and handle input before the next slice.
                    TimeoutFuture::new(0).await;
                    slice_started = now_ms();
                }
            }
            Feed::NeedMore if start < size => {
                let end = (start + FILE_CHUNK_BYTES).min(size);
                read_chunk(handle, start, end, &mut chunk)
                    .await
                    .map_err(read_error)?;
                feed.push(&chunk);
                start = end;
                slice_started = now_ms();
            }
            Feed::NeedMore => feed.end(),
            Feed::Read(list) => return Ok(list),
            Feed::Unexpected => {
                drop(feed);
                let bytes = read_file(handle).await.map_err(read_error)?;
                return Ok(parse_list(name, &bytes)?);
            }
        }
    }
}

/// Reads a folder's files whole into memory; `None` (with the issues) when one cannot be read.
pub async fn read_folder(group: &FolderFiles<File>) -> (Option<FolderFiles>, Vec<FileIssue>) {
    let mut read = FolderFiles {
        folder: group.folder.clone(),
        files: Default::default(),
    };
    let mut issues = Vec::new();
    for (name, file) in &group.files {
        match read_file(file).await {
            Ok(bytes) => {
                read.files.insert(name.clone(), bytes);
            }
            Err(error) => issues.push(FileIssue {
                folder: format!("{}/{name}", group.folder),
                message: error.to_string(),
            }),
        }
    }
    (issues.is_empty().then_some(read), issues)
}

/// A file's contents, read [`FILE_CHUNK_BYTES`] at a time into one buffer of its size.
async fn read_file(file: &File) -> Result<Vec<u8>, ReadError> {
    let size = file.size();
    let mut bytes = Vec::with_capacity(size as usize);
    let mut chunk = Vec::new();
    let mut start = 0.0;
    while start < size {
        let end = (start + FILE_CHUNK_BYTES).min(size);
        read_chunk(file, start, end, &mut chunk).await?;
        bytes.extend_from_slice(&chunk);
        start = end;
    }
    Ok(bytes)
}

/// The bytes of `file` from `start` to `end`, into `chunk` (its allocation reused).
async fn read_chunk(
    file: &File,
    start: f64,
    end: f64,
    chunk: &mut Vec<u8>,
) -> Result<(), ReadError> {
    let blob = file
        .slice_with_f64_and_f64(start, end)
        .map_err(|error| ReadError::File(js_error_text(&error)))?;
    let buffer = JsFuture::from(blob.array_buffer())
        .await
        .map_err(|error| ReadError::File(js_error_text(&error)))?;
    let view = Uint8Array::new(&buffer);
    chunk.clear();
    chunk.resize(view.length() as usize, 0);
    view.copy_to(chunk);
    Ok(())
}
