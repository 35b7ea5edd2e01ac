//! The runs a report compares, read from run folders, from the Trajectory API or from
//! Chronicle jobs, in argument order (the baseline first), as the core's run set.

use std::collections::HashMap;
use std::path::Path;

use eval_compare_core::client::{TrajectoryClient, Transport};
use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::run_folder::{run_set_from_folders, RunFolder};

use crate::api_load::{job_run_set, load_complete, load_jobs_complete, run_set};
use crate::args::ReportArgs;
use crate::connection;
use crate::error::CliError;
use crate::folder_io::read_run_folder;
use crate::progress::Progress;

/// Reads every run the arguments name into one run set, refusing a run given twice.
///
/// From the API the runs go into the run set the way the viewer's do (the core's load engine,
/// then [`LoadStore::run_set`](eval_compare_core::load::LoadStore::run_set)); from disk through
/// their run folders. With `--chronicle` the arguments are jobs: see [`chronicle_run_set`].
pub async fn load_run_set(args: &ReportArgs, progress: &Progress) -> Result<RunSet, CliError> {
    let arguments: Vec<&str> = std::iter::once(args.baseline.as_str())
        .chain(args.candidates.iter().map(String::as_str))
        .collect();
    match &args.server {
        Some(server) if args.chronicle => {
            let client = connection::client(server, &args.connection)?;
            let job_ids: Vec<String> = arguments.iter().map(|id| (*id).to_owned()).collect();
            chronicle_run_set(&client, &job_ids, progress).await
        }
        Some(server) => {
            check_distinct(
                "run",
                arguments.iter().copied().zip(arguments.iter().copied()),
            )?;
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
                "run",
                folders
                    .iter()
                    .map(|folder| folder.run.eval_run_id.as_str())
                    .zip(arguments.iter().copied()),
            )?;
            run_set_from_folders(&folders, SourceKind::Files).map_err(CliError::Model)
        }
    }
}

/// The run set of the Chronicle jobs `job_ids`: the jobs' agents as runs, in the order given,
/// the first the baseline (one compare-mode job gives its baseline and candidates; several
/// jobs on one suite, the first job's agent as baseline). Refuses a job given twice and a
/// comparison of a single agent.
pub async fn chronicle_run_set<T: Transport>(
    client: &TrajectoryClient<T>,
    job_ids: &[String],
    progress: &Progress,
) -> Result<RunSet, CliError> {
    check_distinct(
        "job",
        job_ids
            .iter()
            .map(String::as_str)
            .zip(job_ids.iter().map(String::as_str)),
    )?;
    let store = load_jobs_complete(client, job_ids, progress).await?;
    let set = job_run_set(&store, job_ids)?;
    if set.runs().len() < 2 {
        let agent = set.runs().first().map_or_else(
            || "no agent".to_owned(),
            |run| format!("run {}", run.info().id),
        );
        return Err(CliError::Usage(format!(
            "nothing to compare: {} gives one run ({agent}); give a compare-mode job, or several \
             jobs on one task suite (the first is the baseline)",
            if job_ids.len() == 1 {
                format!("job {}", job_ids.join(""))
            } else {
                format!("jobs {}", job_ids.join(", "))
            }
        )));
    }
    Ok(set)
}

/// Refuses a run (or job: `noun`) given twice (as baseline and candidate, or as two
/// candidates); takes each run's id with the argument that named it.
fn check_distinct<'a>(
    noun: &str,
    runs: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<(), CliError> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (id, argument) in runs {
        if let Some(first) = seen.insert(id, argument) {
            return Err(CliError::Usage(if id == first && id == argument {
                format!("{noun} {id} is given twice; compare distinct {noun}s")
            } else {
                format!(
                    "{noun} {id} is given twice ({first} and {argument}); compare distinct {noun}s"
                )
            }));
        }
    }
    Ok(())
}
