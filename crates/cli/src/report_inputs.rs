//! The runs a report compares, read from run folders or from the API, in argument order
//! (the baseline first).

use std::collections::HashMap;
use std::path::Path;

use eval_compare_core::run_folder::RunFolder;

use crate::api_load::ApiLoader;
use crate::args::ReportArgs;
use crate::connection;
use crate::error::CliError;
use crate::folder_io::read_run_folder;
use crate::progress::Progress;

/// Source label of runs read from run folders.
pub const FILES_SOURCE: &str = "files";
/// Source label of runs read from the API.
pub const API_SOURCE: &str = "api";

/// The loaded runs, baseline first, and where they came from.
#[derive(Debug)]
pub struct Inputs {
    /// One folder per argument, in order.
    pub folders: Vec<RunFolder>,
    /// [`FILES_SOURCE`] or [`API_SOURCE`].
    pub source: &'static str,
}

/// Reads every run the arguments name, then checks no run is given twice.
pub async fn load_inputs(args: &ReportArgs, progress: &Progress) -> Result<Inputs, CliError> {
    let arguments: Vec<&str> = std::iter::once(args.baseline.as_str())
        .chain(args.candidates.iter().map(String::as_str))
        .collect();
    let inputs = match &args.server {
        Some(server) => {
            let client = connection::client(server, &args.connection)?;
            let mut loader = ApiLoader::new(client, progress);
            let mut folders = Vec::with_capacity(arguments.len());
            for run_id in &arguments {
                folders.push(loader.load_run(run_id).await?);
            }
            Inputs {
                folders,
                source: API_SOURCE,
            }
        }
        None => {
            let mut folders = Vec::with_capacity(arguments.len());
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
            Inputs {
                folders,
                source: FILES_SOURCE,
            }
        }
    };
    check_distinct(&inputs.folders, &arguments)?;
    Ok(inputs)
}

/// Refuses a run given twice (as baseline and candidate, or as two candidates).
fn check_distinct(folders: &[RunFolder], arguments: &[&str]) -> Result<(), CliError> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (folder, argument) in folders.iter().zip(arguments) {
        let id = folder.run.eval_run_id.as_str();
        if let Some(first) = seen.insert(id, argument) {
            return Err(CliError::Usage(format!(
                "run {id} is given twice ({first} and {argument}); compare distinct runs"
            )));
        }
    }
    Ok(())
}
