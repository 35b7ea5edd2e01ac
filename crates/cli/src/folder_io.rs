//! Run folders on disk: reading one for a report, writing one for an export. Parsing and
//! encoding are the core's ([`eval_compare_core::run_folder`]); this module only does the IO.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use eval_compare_core::run_folder::{
    parse_run_folder, RunFolder, RunFolderFiles, REWARDS_FILE, RUN_FILE, TASKS_FILE,
    TRAJECTORIES_FILE,
};

use crate::error::CliError;

/// Reads and parses the run folder `dir` (`tasks.json` is optional).
pub fn read_run_folder(dir: &Path) -> Result<RunFolder, CliError> {
    match std::fs::metadata(dir) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => return Err(no_folder(dir, "is not a directory")),
        Err(error) if error.kind() == ErrorKind::NotFound => {
            return Err(no_folder(dir, "does not exist"))
        }
        Err(source) => {
            return Err(CliError::ReadFile {
                path: dir.to_owned(),
                source,
            })
        }
    }
    let run = read_file(&dir.join(RUN_FILE))?;
    let rewards = read_file(&dir.join(REWARDS_FILE))?;
    let trajectories = read_file(&dir.join(TRAJECTORIES_FILE))?;
    let tasks_path = dir.join(TASKS_FILE);
    let tasks = match std::fs::read(&tasks_path) {
        Ok(bytes) => Some(bytes),
        Err(error) if error.kind() == ErrorKind::NotFound => None,
        Err(source) => {
            return Err(CliError::ReadFile {
                path: tasks_path,
                source,
            })
        }
    };
    parse_run_folder(RunFolderFiles {
        run: &run,
        rewards: &rewards,
        trajectories: &trajectories,
        tasks: tasks.as_deref(),
    })
    .map_err(|source| CliError::Folder {
        folder: dir.to_owned(),
        source: Box::new(source),
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
    std::fs::create_dir_all(dir).map_err(|source| CliError::Write {
        what: dir.display().to_string(),
        source,
    })?;
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    for file in &files {
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

fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|source| CliError::ReadFile {
        path: path.to_owned(),
        source,
    })
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

    use crate::exit_code::Exit;

    const REAL: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/real-data/humaneval-10x/gpt-4"
    );

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
