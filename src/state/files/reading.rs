//! Reading one picked folder from disk in the browser ([`open_folder`]): the IO of the core's
//! [`FolderFeed`], which asks for the folder's files in its order. Its small files are read
//! whole; its large lists (rewards, trajectories, tasks) are read a few megabytes at a time and
//! decoded as they arrive, in slices of about [`SLICE_MS`] with the page painting and handling
//! input in between. The tab never holds a whole list file: at 100,000 tasks × 8 samples that is
//! 250 MB per run it does not need, and no block of memory that size to find. The folder and its
//! errors are those of [`Folder::read_as`](eval_compare_core::run_folder::Folder::read_as) on
//! the whole files.

use eval_compare_core::large_list::{PackedReward, PackedTrajectory};
use eval_compare_core::run_folder::{FolderFeed, FolderStep, PackedFolder, RunFolderError};
use js_sys::Uint8Array;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use super::grouping::{FileIssue, FolderFiles, OpenedRun};
use super::{js_error_text, ReadError};
use crate::state::report::{now_ms, SLICE_MS};
use crate::yield_to_page::yield_to_page;

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

/// Reads and parses one picked folder; `progress` is told the share of its lists decoded
/// (from 0 to 1) between slices. What could not be used comes back as issues naming the
/// folder (and the file, for a file the browser could not read).
pub async fn open_folder(
    group: &FolderFiles<File>,
    mut progress: impl FnMut(f64),
) -> Result<OpenedRun, Vec<FileIssue>> {
    let read = match read_packed(group, &mut progress).await {
        Ok(folder) => Ok(folder),
        Err(OpenError::Parse(error)) => Err(error),
        Err(OpenError::Read { file, error }) => {
            return Err(vec![FileIssue {
                folder: format!("{}/{file}", group.folder),
                message: error.to_string(),
            }])
        }
    };
    group.opened(read).map_err(|issue| vec![issue])
}

/// A folder read as its [`FolderFeed`] asks: each file it wants opened, a list read from disk
/// a chunk at a time and decoded as it arrives, any other file read whole; `progress` is told
/// the share of the lists decoded between slices. Not
/// [`reserving_by_size`](FolderFeed::reserving_by_size): a list's room, projected anew at each
/// opening, is of another size each time, and the blocks an earlier opening let go of did not
/// fit it (the tab grew from 576 to 623 and 671 MB over three openings of 2 x 100k x 8). Grown
/// by doubling, the lists ask for the same sizes at each opening and reuse those blocks.
async fn read_packed(
    group: &FolderFiles<File>,
    progress: &mut impl FnMut(f64),
) -> Result<PackedFolder, OpenError> {
    let file = |name: &str| group.files.get(name);
    let mut feed = FolderFeed::<PackedReward, PackedTrajectory>::new(|name| {
        file(name).map(|handle| handle.size() as u64)
    });
    // The list being read: its file, its name, and where its next chunk starts.
    let mut open: Option<(&File, &'static str, f64)> = None;
    let mut chunk = Vec::new();
    let mut slice_started = now_ms();
    loop {
        match feed.advance(BYTES_PER_STEP) {
            FolderStep::Open { name, streamed } => {
                open = None;
                match file(name) {
                    None => feed.absent(),
                    Some(handle) if streamed => open = Some((handle, name, 0.0)),
                    Some(handle) => feed.whole(&read_file(handle).await.map_err(read_error(name))?),
                }
                slice_started = now_ms();
            }
            FolderStep::NeedMore => match &mut open {
                Some((handle, name, start)) if *start < handle.size() => {
                    let end = (*start + FILE_CHUNK_BYTES).min(handle.size());
                    read_chunk(handle, *start, end, &mut chunk)
                        .await
                        .map_err(read_error(name))?;
                    feed.push(&chunk);
                    *start = end;
                    slice_started = now_ms();
                }
                _ => feed.end(),
            },
            FolderStep::Working => {
                if now_ms() - slice_started >= SLICE_MS {
                    progress(feed.progress());
                    // Let the page paint and handle input before the next slice.
                    yield_to_page().await;
                    slice_started = now_ms();
                }
            }
            FolderStep::Done(read) => return read.map_err(OpenError::Parse),
        }
    }
}

/// The error of the file `name` the browser could not read.
fn read_error(name: &str) -> impl Fn(ReadError) -> OpenError + '_ {
    move |error| OpenError::Read {
        file: name.to_owned(),
        error,
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
