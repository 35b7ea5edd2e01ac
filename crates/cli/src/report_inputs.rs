//! The runs a report compares, read from run folders or from the API, in argument order
//! (the baseline first), as the core's run set.

use std::collections::HashMap;
use std::path::Path;

use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::run_folder::{run_set_from_folders, RunFolder};

use crate::api_load::{load_complete, run_set};
use crate::args::ReportArgs;
use crate::connection;
use crate::error::CliError;
use crate::folder_io::read_run_folder;
use crate::progress::Progress;

/// Reads every run the arguments name into one run set, refusing a run given twice.
///
/// From the API the runs go into the run set the way the viewer's do (the core's load engine,
/// then [`LoadStore::run_set`](eval_compare_core::load::LoadStore::run_set)); from disk through
/// their run folders.
pub async fn load_run_set(args: &ReportArgs, progress: &Progress) -> Result<RunSet, CliError> {
    let arguments: Vec<&str> = std::iter::once(args.baseline.as_str())
        .chain(args.candidates.iter().map(String::as_str))
        .collect();
    match &args.server {
        Some(server) => {
            check_distinct(arguments.iter().copied().zip(arguments.iter().copied()))?;
            let client = connection::client(server, &args.connection)?;
            let run_ids: Vec<String> = arguments.iter().map(|id| (*id).to_owned()).collect();
            let store = load_complete(&client, &run_ids, progress).await?;
            run_set(&store, &run_ids)
        }
        None => {
            let mut folders: Vec<RunFolder> = Vec::with_capacity(arguments.len());
            for dir in &arguments {
                let folder = read_run_folder(Path::new(dir))?;
                if !folder.truncated_files.is_empty() {
                    progress.warn(&format!(
                        "run folder {dir}: {} ended with a page saying more followed; the run is marked incomplete",
                        folder.truncated_files.join(", ")
                    ));
                }
                folders.push(folder);
            }
            check_distinct(
                folders
                    .iter()
                    .map(|folder| folder.run.eval_run_id.as_str())
                    .zip(arguments.iter().copied()),
            )?;
            run_set_from_folders(&folders, SourceKind::Files).map_err(CliError::Model)
        }
    }
}

/// Refuses a run given twice (as baseline and candidate, or as two candidates); takes each
/// run's id with the argument that named it.
fn check_distinct<'a>(runs: impl Iterator<Item = (&'a str, &'a str)>) -> Result<(), CliError> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (id, argument) in runs {
        if let Some(first) = seen.insert(id, argument) {
            return Err(CliError::Usage(format!(
                "run {id} is given twice ({first} and {argument}); compare distinct runs"
            )));
        }
    }
    Ok(())
}
