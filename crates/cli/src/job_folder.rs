//! A Chronicle job's folder as `export --chronicle` writes it: `job.json` (the job as read),
//! `trials.json` (its trials, one JSON array) and `results.json` (the platform's pass/fail per
//! task, only when the platform lists results for the job), pretty JSON like a run folder's.

use std::path::{Path, PathBuf};

use eval_compare_core::api::{ChronicleJob, ChronicleTrial, SuiteEvalRun};
use eval_compare_core::run_folder::FolderFile;
use serde::Serialize;

use crate::error::CliError;
use crate::folder_io::write_folder_files;

/// File name of the job.
pub const JOB_FILE: &str = "job.json";
/// File name of the job's trials.
pub const TRIALS_FILE: &str = "trials.json";
/// File name of the platform's results of the job (optional).
pub const RESULTS_FILE: &str = "results.json";

/// Writes the job's folder into `dir` (created if missing), replacing files of the same names;
/// a `results.json` left by an earlier export is removed when the platform lists no results
/// now, so the folder never pairs this job with older results. Returns the paths written.
pub fn write_job_folder(
    dir: &Path,
    job: &ChronicleJob,
    trials: &[ChronicleTrial],
    results: Option<&SuiteEvalRun>,
) -> Result<Vec<PathBuf>, CliError> {
    let mut files = vec![
        encode(dir, JOB_FILE, job)?,
        encode(dir, TRIALS_FILE, trials)?,
    ];
    if let Some(results) = results {
        files.push(encode(dir, RESULTS_FILE, results)?);
    }
    let written = write_folder_files(dir, &files)?;
    if results.is_none() {
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

/// One file as pretty JSON with a final newline.
fn encode<T: Serialize + ?Sized>(
    dir: &Path,
    name: &'static str,
    value: &T,
) -> Result<FolderFile, CliError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|error| CliError::Write {
        what: dir.join(name).display().to_string(),
        source: std::io::Error::other(error.to_string()),
    })?;
    bytes.push(b'\n');
    Ok(FolderFile { name, bytes })
}
