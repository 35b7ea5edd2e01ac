//! Run folders on disk — a Trajectory run's or a Chronicle job's — reading one for a report,
//! writing one for an export. Parsing and encoding are the core's
//! ([`eval_compare_core::run_folder`]); this module only does the IO.
//!
//! Only regular files are read (a symbolic link is followed first): a FIFO would block the read
//! forever and a device such as `/dev/zero` never ends. Each file is read up to
//! [`MAX_FILE_BYTES`] and no further.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

#[cfg(test)]
use std::collections::BTreeMap;

use eval_compare_core::large_list::{PackedReward, PackedTrajectory};
use eval_compare_core::run_folder::{
    FolderFeed, FolderFile, FolderKind, FolderStep, PackedFolder, RunFolder,
};
#[cfg(test)]
use eval_compare_core::{
    large_list::PlainItem,
    run_folder::{Folder, FOLDER_FILES},
};

use crate::error::CliError;

/// Largest run folder file read: 2 GiB. A larger file is refused before it is read; the real
/// exports are far smaller (a 100,000-task run's trajectories are about 100 MB).
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// The contents of a folder's files, by name, as read from disk whole: the reading
/// [`read_packed_folder`] is checked against.
#[cfg(test)]
#[derive(Debug)]
pub struct FolderBytes {
    dir: PathBuf,
    files: BTreeMap<&'static str, Vec<u8>>,
}

#[cfg(test)]
impl FolderBytes {
    /// Parses the folder, its lists in the form asked for: the full one to write it back, the
    /// packed one ([`PackedFolder`]) for a report.
    pub fn parse<R: PlainItem, T: PlainItem>(&self) -> Result<Folder<R, T>, CliError> {
        Folder::read_as(|name| self.files.get(name).map(Vec::as_slice)).map_err(|source| {
            CliError::Folder {
                folder: self.dir.clone(),
                source: Box::new(source),
            }
        })
    }
}

/// How many bytes of a list file are read and decoded at a time by [`read_packed_folder`].
const LIST_CHUNK_BYTES: usize = 8 << 20;

/// Reads the folder `dir` for a report, its runs' lists packed ([`PackedFolder`]), as the core's
/// [`FolderFeed`] asks for its files: a Trajectory run's lists (trajectory rewards,
/// trajectories, tasks) decoded as they are read, a few megabytes at a time, so the files'
/// contents are never held whole (at 100,000 tasks × 8 samples that is 250 MB a run not read
/// into memory); the other files, and a list the feed cannot read (for its error), read whole
/// ([`read_input`]). The same folder as reading every file whole and parsing it at once, and
/// the same error for a fault (of a folder with several, the first met reading its files in
/// the feed's order).
pub fn read_packed_folder(dir: &Path) -> Result<PackedFolder, CliError> {
    check_folder(dir)?;
    // Present as reading a file finds it: all but those not found.
    let size = |name: &str| match std::fs::metadata(dir.join(name)) {
        Ok(metadata) => Some(metadata.len()),
        Err(error) => (error.kind() != ErrorKind::NotFound).then_some(0),
    };
    let mut feed = FolderFeed::<PackedReward, PackedTrajectory>::new(size).reserving_by_size();
    let mut open: Option<(PathBuf, std::io::Take<File>)> = None;
    let mut buffer = Vec::new();
    loop {
        match feed.advance(usize::MAX) {
            FolderStep::Open { name, streamed } => {
                let path = dir.join(name);
                open = None;
                let opened = match streamed {
                    true => open_input(&path, MAX_FILE_BYTES).map(|(file, _)| {
                        open = Some((path, file.take(MAX_FILE_BYTES.saturating_add(1))));
                    }),
                    false => read_input(&path, MAX_FILE_BYTES).map(|bytes| feed.whole(&bytes)),
                };
                match opened {
                    Ok(()) => {}
                    Err(CliError::ReadFile { source, .. })
                        if source.kind() == ErrorKind::NotFound =>
                    {
                        feed.absent()
                    }
                    Err(error) => return Err(error),
                }
            }
            FolderStep::NeedMore => {
                let Some((path, file)) = open.as_mut() else {
                    feed.end();
                    continue;
                };
                buffer.resize(LIST_CHUNK_BYTES, 0);
                match file.read(&mut buffer) {
                    Ok(0) => feed.end(),
                    Ok(_) if file.limit() == 0 => return Err(grew_too_large(path, MAX_FILE_BYTES)),
                    Ok(read) => feed.push(&buffer[..read]),
                    Err(error) if error.kind() == ErrorKind::Interrupted => {}
                    Err(source) => {
                        return Err(CliError::ReadFile {
                            path: path.clone(),
                            source,
                        })
                    }
                }
            }
            FolderStep::Working => {}
            FolderStep::Done(read) => {
                return read.map_err(|source| CliError::Folder {
                    folder: dir.to_owned(),
                    source: Box::new(source),
                })
            }
        }
    }
}

/// The run folders (or job folders) directly inside `dir`, in name order, when `dir` is no
/// folder of either kind itself but holds some: a folder of runs, opened as its runs as the
/// viewer opens it. `None` for a run folder, or anything else (read as given, for its error).
pub fn run_folders_in(dir: &Path) -> Option<Vec<PathBuf>> {
    let is_folder = |dir: &Path| FolderKind::detect(|name: &str| dir.join(name).is_file()).is_ok();
    if !dir.is_dir() || is_folder(dir) {
        return None;
    }
    let mut inside: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.is_dir() && is_folder(path))
        .collect();
    inside.sort();
    (!inside.is_empty()).then_some(inside)
}

/// Refuses `dir` when it is not a directory that can be read.
fn check_folder(dir: &Path) -> Result<(), CliError> {
    match std::fs::metadata(dir) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => Err(no_folder(dir, "is not a directory")),
        Err(error) if error.kind() == ErrorKind::NotFound => Err(no_folder(dir, "does not exist")),
        Err(source) => Err(CliError::ReadFile {
            path: dir.to_owned(),
            source,
        }),
    }
}

/// Reads the files of the folder `dir` that a folder of either kind may hold, whole, to parse
/// with [`FolderBytes::parse`]: a Trajectory run's (`run.json`, `trajectory-rewards.json`,
/// `trajectories.json`, optionally `tasks.json`, …) or a Chronicle job's (`job.json`,
/// `trials.json`, optionally `results.json`), told apart by the files present.
#[cfg(test)]
pub fn read_folder_bytes(dir: &Path) -> Result<FolderBytes, CliError> {
    check_folder(dir)?;
    let mut files: BTreeMap<&'static str, Vec<u8>> = BTreeMap::new();
    for name in FOLDER_FILES {
        match read_input(&dir.join(name), MAX_FILE_BYTES) {
            Ok(bytes) => {
                files.insert(name, bytes);
            }
            Err(CliError::ReadFile { source, .. }) if source.kind() == ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
    }
    Ok(FolderBytes {
        dir: dir.to_owned(),
        files,
    })
}

/// Writes `folder` into `dir` (created if missing), replacing files of the same names.
///
/// Every file is first written beside its final name and only renamed once all were written,
/// so a failure leaves the folder as it was. Returns the paths written.
pub fn write_run_folder(dir: &Path, folder: &RunFolder) -> Result<Vec<PathBuf>, CliError> {
    let files = folder.to_files().map_err(|error| CliError::Write {
        what: dir.display().to_string(),
        source: std::io::Error::other(error.to_string()),
    })?;
    write_folder_files(dir, &files)
}

/// Writes `files` into `dir` (created if missing), replacing files of the same names, the way
/// [`write_run_folder`] does: all staged first, renamed only once all were written. Returns
/// the paths written.
pub fn write_folder_files(dir: &Path, files: &[FolderFile]) -> Result<Vec<PathBuf>, CliError> {
    std::fs::create_dir_all(dir).map_err(|source| CliError::Write {
        what: dir.display().to_string(),
        source,
    })?;
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    for file in files {
        let partial = dir.join(format!(".{}.partial", file.name));
        if let Err(source) = std::fs::write(&partial, &file.bytes) {
            staged.push((partial.clone(), partial));
            discard(&staged);
            return Err(CliError::Write {
                what: dir.join(file.name).display().to_string(),
                source,
            });
        }
        staged.push((partial, dir.join(file.name)));
    }
    for (index, (partial, target)) in staged.iter().enumerate() {
        if let Err(source) = std::fs::rename(partial, target) {
            discard(staged.get(index..).unwrap_or_default());
            return Err(CliError::Write {
                what: target.display().to_string(),
                source,
            });
        }
    }
    Ok(staged.into_iter().map(|(_, target)| target).collect())
}

/// Reads the regular file at `path` (after following links), refusing anything else and any
/// file over `cap` bytes, without reading past the cap.
fn read_input(path: &Path, cap: u64) -> Result<Vec<u8>, CliError> {
    let (file, size) = open_input(path, cap)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or_default());
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| CliError::ReadFile {
            path: path.to_owned(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(grew_too_large(path, cap));
    }
    Ok(bytes)
}

/// Opens the regular file `path` of at most `cap` bytes, with its size as opened, or says why
/// it is refused.
fn open_input(path: &Path, cap: u64) -> Result<(File, u64), CliError> {
    let io_error = |source| CliError::ReadFile {
        path: path.to_owned(),
        source,
    };
    let refused = |why: String| CliError::InputFile {
        path: path.to_owned(),
        why,
    };
    // Checked before opening: opening a FIFO blocks until something writes to it.
    let metadata = std::fs::metadata(path).map_err(io_error)?;
    if !metadata.is_file() {
        return Err(refused(format!(
            "not a regular file ({}); a run folder holds plain files",
            kind_of(&metadata.file_type())
        )));
    }
    if metadata.len() > cap {
        return Err(refused(format!(
            "{} is over the limit of {} for a run folder file",
            bytes_text(metadata.len()),
            bytes_text(cap)
        )));
    }
    let file = File::open(path).map_err(io_error)?;
    // The file opened may not be the one checked (replaced in between): check it again.
    let opened = file.metadata().map_err(io_error)?;
    if !opened.is_file() {
        return Err(refused("not a regular file".to_owned()));
    }
    Ok((file, opened.len()))
}

/// The refusal of a file that grew past `cap` bytes while it was read.
fn grew_too_large(path: &Path, cap: u64) -> CliError {
    CliError::InputFile {
        path: path.to_owned(),
        why: format!(
            "it grew past the limit of {} for a run folder file while being read",
            bytes_text(cap)
        ),
    }
}

/// What a file that is not a regular file is, in words.
fn kind_of(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "something other than a file"
    }
}

/// A size in bytes for a message, e.g. `2 GiB` or `3,000 bytes`.
fn bytes_text(bytes: u64) -> String {
    const GIB: u64 = 1024 * 1024 * 1024;
    if bytes >= GIB && bytes.is_multiple_of(GIB) {
        format!("{} GiB", bytes / GIB)
    } else {
        format!("{} bytes", eval_compare_core::text::count(bytes))
    }
}

fn no_folder(dir: &Path, why: &str) -> CliError {
    CliError::NoFolder {
        folder: dir.to_owned(),
        why: why.to_owned(),
    }
}

/// Removes staged files after a failure (best effort: the error being reported matters more).
fn discard(staged: &[(PathBuf, PathBuf)]) {
    for (partial, _) in staged {
        let _ = std::fs::remove_file(partial);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use eval_compare_core::run_folder::{REWARDS_FILE, RUN_FILE, TASKS_FILE, TRAJECTORIES_FILE};

    use crate::exit_code::Exit;

    /// Reads `dir` as a Trajectory run folder.
    fn read_run_folder(dir: &Path) -> Result<RunFolder, CliError> {
        match read_folder_bytes(dir)?.parse()? {
            Folder::Trajectory(folder) => Ok(*folder),
            Folder::Chronicle(folder) => panic!("{} is a job's folder", folder.job.id),
        }
    }

    const REAL: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/real-data/humaneval-10x/gpt-4"
    );

    /// `dir` read for a report as it streams, and as read whole then parsed: the same folder,
    /// or the same error.
    fn assert_read_alike(dir: &Path) {
        let streamed = read_packed_folder(dir).map_err(|error| error.to_string());
        let whole = read_folder_bytes(dir)
            .and_then(|bytes| bytes.parse::<PackedReward, PackedTrajectory>())
            .map_err(|error| error.to_string());
        assert_eq!(streamed, whole, "{}", dir.display());
    }

    #[test]
    fn a_folder_read_as_it_streams_is_the_folder_read_whole() {
        let temp = tempfile::tempdir().unwrap();
        let copy = |name: &str| {
            let dir = temp.path().join(name);
            std::fs::create_dir_all(&dir).unwrap();
            for file in [RUN_FILE, REWARDS_FILE, TRAJECTORIES_FILE, TASKS_FILE] {
                std::fs::copy(Path::new(REAL).join(file), dir.join(file)).unwrap();
            }
            dir
        };
        let valid = copy("valid");
        let read = read_packed_folder(&valid).unwrap();
        assert!(matches!(&read, Folder::Trajectory(folder) if folder.trajectories.len() > 1000));
        assert_read_alike(&valid);
        // Broken in the middle of a list, of the tasks, of the run record; a list cut short.
        let trajectories = std::fs::read(valid.join(TRAJECTORIES_FILE)).unwrap();
        let middle = trajectories.len() / 2;
        for (name, file, bytes) in [
            ("broken", TRAJECTORIES_FILE, {
                let mut bytes = trajectories.clone();
                bytes[middle] = b'}';
                bytes
            }),
            ("cut", TRAJECTORIES_FILE, trajectories[..middle].to_vec()),
            ("tasks", TASKS_FILE, b"[{\"task_id\": 7}]".to_vec()),
            ("record", RUN_FILE, b"{\"eval_run_id\":".to_vec()),
            ("empty", REWARDS_FILE, Vec::new()),
        ] {
            let dir = copy(name);
            std::fs::write(dir.join(file), bytes).unwrap();
            assert_read_alike(&dir);
            assert!(read_packed_folder(&dir).is_err(), "{name}");
        }
        // Missing a list; a list that is a directory; no folder at all; a job's folder.
        let missing = copy("missing");
        std::fs::remove_file(missing.join(REWARDS_FILE)).unwrap();
        assert_read_alike(&missing);
        let directory = copy("directory");
        std::fs::remove_file(directory.join(TRAJECTORIES_FILE)).unwrap();
        std::fs::create_dir(directory.join(TRAJECTORIES_FILE)).unwrap();
        assert_read_alike(&directory);
        assert!(read_packed_folder(&directory)
            .unwrap_err()
            .to_string()
            .contains("not a regular file"));
        assert_read_alike(&temp.path().join("nowhere"));
        let job = temp.path().join("job");
        std::fs::create_dir(&job).unwrap();
        std::fs::write(job.join("job.json"), b"{}").unwrap();
        std::fs::write(job.join("trials.json"), b"[]").unwrap();
        assert_read_alike(&job);
    }

    #[test]
    fn a_written_folder_reads_back_equal() {
        let folder = read_run_folder(Path::new(REAL)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("nested/gpt-4");
        let written = write_run_folder(&target, &folder).unwrap();
        assert_eq!(written.len(), 4);
        assert_eq!(read_run_folder(&target).unwrap(), folder);
        let mut names: Vec<String> = std::fs::read_dir(&target)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [RUN_FILE, TASKS_FILE, TRAJECTORIES_FILE, REWARDS_FILE]
        );
    }

    #[test]
    fn missing_folders_and_files_are_unreadable_input_named_by_path() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        let error = read_run_folder(&missing).unwrap_err();
        assert_eq!(error.exit(), Exit::UnreadableInput);
        assert!(error.to_string().contains("nope: does not exist"));

        std::fs::write(dir.path().join(RUN_FILE), "{}").unwrap();
        let error = read_run_folder(dir.path()).unwrap_err();
        assert_eq!(error.exit(), Exit::UnreadableInput);
        assert!(error.to_string().contains(REWARDS_FILE), "{error}");
    }

    /// Reads `dir` on a thread, failing the test after 10 s instead of hanging on a read that
    /// never ends.
    fn read_within_seconds(dir: &Path) -> CliError {
        let dir = dir.to_owned();
        let (sent, received) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sent.send(read_run_folder(&dir));
        });
        received
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the read did not end")
            .unwrap_err()
    }

    /// A folder with the real run's files, `run.json` left out.
    fn folder_without_run_json() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in [REWARDS_FILE, TRAJECTORIES_FILE] {
            std::fs::copy(Path::new(REAL).join(name), dir.path().join(name)).unwrap();
        }
        dir
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = folder_without_run_json();
        let fifo = dir.path().join(RUN_FILE);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let error = read_within_seconds(dir.path());
        assert_eq!(error.exit(), Exit::UnreadableInput);
        let text = error.to_string();
        assert!(
            text.contains("run.json: not a regular file (a FIFO)"),
            "{text}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_link_to_a_device_is_refused_without_reading() {
        let dir = folder_without_run_json();
        std::fs::copy(Path::new(REAL).join(RUN_FILE), dir.path().join(RUN_FILE)).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.path().join(TASKS_FILE)).unwrap();
        let error = read_within_seconds(dir.path());
        assert_eq!(error.exit(), Exit::UnreadableInput);
        let text = error.to_string();
        assert!(
            text.contains("tasks.json: not a regular file (a character device)"),
            "{text}"
        );
    }

    #[test]
    fn a_directory_in_place_of_a_file_is_refused() {
        let dir = folder_without_run_json();
        std::fs::create_dir(dir.path().join(RUN_FILE)).unwrap();
        let error = read_run_folder(dir.path()).unwrap_err();
        assert_eq!(error.exit(), Exit::UnreadableInput);
        assert!(error.to_string().contains("(a directory)"), "{error}");
    }

    #[test]
    fn a_file_over_the_cap_is_refused_before_it_is_read() {
        let dir = folder_without_run_json();
        // Sparse: the size is on record, no byte is on disk.
        let file = File::create(dir.path().join(RUN_FILE)).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let error = read_run_folder(dir.path()).unwrap_err();
        assert_eq!(error.exit(), Exit::UnreadableInput);
        let text = error.to_string();
        assert!(
            text.contains("run.json: 2,147,483,649 bytes is over the limit of 2 GiB"),
            "{text}"
        );
    }

    #[test]
    fn reading_stops_at_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("list.json");
        std::fs::write(&path, b"[1,2,3]").unwrap();
        assert_eq!(read_input(&path, 7).unwrap(), b"[1,2,3]");
        let error = read_input(&path, 6).unwrap_err();
        assert!(
            error.to_string().contains("over the limit of 6 bytes"),
            "{error}"
        );
    }

    #[test]
    fn a_bad_file_is_named_with_its_json_path() {
        let dir = tempfile::tempdir().unwrap();
        let source = Path::new(REAL);
        for name in [RUN_FILE, TRAJECTORIES_FILE] {
            std::fs::copy(source.join(name), dir.path().join(name)).unwrap();
        }
        std::fs::write(
            dir.path().join(REWARDS_FILE),
            r#"[{"trajectory_id":"a","reward":"high"}]"#,
        )
        .unwrap();
        let error = read_run_folder(dir.path()).unwrap_err();
        assert_eq!(error.exit(), Exit::UnreadableInput);
        let text = error.to_string();
        assert!(text.contains(REWARDS_FILE), "{text}");
        assert!(text.contains("[0].reward"), "{text}");
    }
}
