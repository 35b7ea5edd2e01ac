//! A Chronicle job's folder as `export --chronicle` writes it: `job.json` (the job as read),
//! `trials.json` (its trials, one JSON array) and `results.json` (the platform's pass/fail per
//! task, only when the platform lists results for the job), encoded by the core's
//! [`ChronicleFolder`] as a run folder's files are.

use std::path::{Path, PathBuf};

use eval_compare_core::run_folder::{ChronicleFolder, RESULTS_FILE};

use crate::error::CliError;
use crate::folder_io::write_folder_files;

/// Writes the job's folder into `dir` (created if missing), replacing files of the same names;
/// a `results.json` left by an earlier export is removed when the platform lists no results
/// now, so the folder never pairs this job with older results. Returns the paths written.
pub fn write_job_folder(dir: &Path, folder: &ChronicleFolder) -> Result<Vec<PathBuf>, CliError> {
    let files = folder.to_files().map_err(|error| CliError::Write {
        what: dir.display().to_string(),
        source: std::io::Error::other(error.to_string()),
    })?;
    let written = write_folder_files(dir, &files)?;
    if folder.results.is_none() {
        let stale = dir.join(RESULTS_FILE);
        match std::fs::remove_file(&stale) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(CliError::Write {
                    what: format!("{} (an older export's, to remove)", stale.display()),
                    source,
                })
            }
        }
    }
    Ok(written)
}
