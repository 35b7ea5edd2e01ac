//! The runs a report compares, read from run folders, from the Trajectory API or from
//! Chronicle jobs, in argument order (the baseline first), as the core's run set.

use std::collections::HashMap;
use std::path::Path;

use eval_compare_core::client::{TrajectoryClient, Transport};
use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::run_folder::FolderSetBuilder;

use crate::api_load::{
    job_run_set, load_complete, load_components_complete, load_jobs_complete, run_set,
};
use crate::args::ReportArgs;
use crate::connection::{self, CliTransport};
use crate::error::CliError;
use crate::folder_io::{read_packed_folder, run_folders_in};
use crate::progress::Progress;
use eval_compare_core::parallel;

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
            let client = connection::client_keeping(server, &args.connection, Some(&args.cache))?;
            let job_ids: Vec<String> = arguments.iter().map(|id| (*id).to_owned()).collect();
            let set = chronicle_run_set(&client, &job_ids, progress).await;
            note_cache(&client, progress);
            match set {
                Ok(mut set) if args.trial_details => {
                    crate::trial_details::read_trial_details(&client, &mut set, progress).await?;
                    Ok(set)
                }
                other => other,
            }
        }
        Some(_) if args.candidates.is_empty() => Err(CliError::Usage(
            "give at least one candidate run id after the baseline's (or --chronicle with job ids)"
                .to_owned(),
        )),
        Some(server) => {
            check_distinct(
                "run",
                arguments.iter().copied().zip(arguments.iter().copied()),
            )?;
            let client = connection::client_keeping(server, &args.connection, Some(&args.cache))?;
            let run_ids: Vec<String> = arguments.iter().map(|id| (*id).to_owned()).collect();
            let store = load_complete(&client, &run_ids, progress).await;
            note_cache(&client, progress);
            let store = store?;
            if args.components {
                load_components_complete(&client, &store, &run_ids, progress).await?;
            }
            let mut set = run_set(&store, &run_ids)?;
            if args.tokens {
                crate::token_reads::read_tokens(&client, &store, &mut set, progress).await?;
            }
            Ok(set)
        }
        None => {
            // A folder of run folders stands for its run folders, in name order (as the
            // viewer opens it).
            let expanded: Vec<String> = arguments
                .iter()
                .flat_map(|dir| match run_folders_in(Path::new(dir)) {
                    Some(inside) => inside
                        .iter()
                        .map(|path| path.to_string_lossy().into_owned())
                        .collect(),
                    None => vec![(*dir).to_owned()],
                })
                .collect();
            let arguments: Vec<&str> = expanded.iter().map(String::as_str).collect();
            // The folders read and decoded packed (only what the report reads, the lists as
            // they are read) as many at once as there are cores, their runs joined at once
            // too, added in argument order and dropped.
            let mut builder = FolderSetBuilder::new();
            let mut run_ids: Vec<(String, &str)> = Vec::new();
            for group in arguments.chunks(parallel::cores()) {
                let folders =
                    parallel::map_in_parallel(group, |dir| read_packed_folder(Path::new(dir)));
                let folders = folders.into_iter().collect::<Result<Vec<_>, _>>()?;
                for (folder, dir) in folders.iter().zip(group) {
                    if !folder.truncated_files().is_empty() {
                        progress.warn(&format!(
                            "run folder {dir}: {} ended with a page saying more followed; the run is marked incomplete",
                            folder.truncated_files().join(", ")
                        ));
                    }
                    run_ids.extend(folder.run_ids().into_iter().map(|id| (id, *dir)));
                    check_distinct("run", run_ids.iter().map(|(id, dir)| (id.as_str(), *dir)))?;
                }
                builder
                    .add_all(folders, SourceKind::Files)
                    .map_err(CliError::Model)?;
            }
            let set = builder.build();
            if set.runs().len() < 2 {
                return Err(CliError::Usage(format!(
                    "nothing to compare: {} holds one run; give a baseline folder and candidate folders, or a compare-mode job's folder",
                    arguments.join(", ")
                )));
            }
            Ok(set)
        }
    }
}

/// Says on stderr what `--cache` did, when it was given.
pub fn note_cache(client: &TrajectoryClient<CliTransport>, progress: &Progress) {
    if let Some(summary) = client.transport().summary() {
        progress.note(&summary);
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

#[cfg(test)]
mod tests {
    use super::*;

    use clap::Parser;
    use eval_compare_core::api::{ChronicleJob, ChronicleTrial};
    use eval_compare_core::testing::bodies::{chronicle_job_body, chronicle_trial_item};

    use crate::args::{Cli, Command};
    use crate::exit_code::Exit;
    use eval_compare_core::run_folder::ChronicleFolder;

    use crate::job_folder::write_job_folder;

    const REAL: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/real-data/humaneval-10x/gpt-4"
    );

    fn report_args(argv: &[&str]) -> ReportArgs {
        let argv = ["eval-compare", "report"]
            .into_iter()
            .chain(argv.iter().copied());
        match Cli::try_parse_from(argv).unwrap().command {
            Command::Report(args) => args,
            other => panic!("not a report: {other:?}"),
        }
    }

    fn read(args: &ReportArgs) -> Result<RunSet, CliError> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(load_run_set(args, &Progress::silent()))
    }

    #[test]
    fn a_compare_jobs_folder_alone_is_a_comparison() {
        let dir = tempfile::tempdir().unwrap();
        let job: ChronicleJob = serde_json::from_str(&chronicle_job_body(
            "job_1",
            "succeeded",
            &["coder@1", "coder@2"],
            2,
            2,
        ))
        .unwrap();
        let trials: Vec<ChronicleTrial> = [
            chronicle_trial_item("a", "coder@1", "t1", true),
            chronicle_trial_item("b", "coder@2", "t1", false),
        ]
        .iter()
        .map(|item| serde_json::from_str(item).unwrap())
        .collect();
        let folder = ChronicleFolder {
            job,
            trials,
            results: None,
            truncated_files: Vec::new(),
        };
        write_job_folder(dir.path(), &folder).unwrap();
        let path = dir.path().to_str().unwrap();
        let set = read(&report_args(&[path])).unwrap();
        let ids: Vec<&str> = set
            .runs()
            .iter()
            .map(|run| run.info().id.as_str())
            .collect();
        assert_eq!(ids, ["job_1/coder@1", "job_1/coder@2"]);
        assert!(set
            .runs()
            .iter()
            .all(|run| run.info().source == SourceKind::Files));

        let twice = read(&report_args(&[path, path])).unwrap_err();
        assert_eq!(twice.exit(), Exit::Usage);
        assert!(
            twice.to_string().contains("job_1/coder@1 is given twice"),
            "{twice}"
        );
    }

    #[test]
    fn a_folder_of_run_folders_is_its_runs_in_name_order() {
        let parent = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/real-data/humaneval-10x"
        );
        let set = read(&report_args(&[parent])).unwrap();
        let names: Vec<&str> = set.runs().iter().map(|run| run.info().name()).collect();
        assert_eq!(names, ["codellama-34b-instruct", "gpt-3.5-turbo", "gpt-4"]);
    }

    #[test]
    fn one_run_alone_is_nothing_to_compare() {
        let error = read(&report_args(&[REAL])).unwrap_err();
        assert_eq!(error.exit(), Exit::Usage);
        assert!(
            error.to_string().starts_with("nothing to compare"),
            "{error}"
        );
        let error = read(&report_args(&["--server", "http://api.test", "run_a"])).unwrap_err();
        assert_eq!(error.exit(), Exit::Usage);
        assert!(
            error.to_string().contains("at least one candidate"),
            "{error}"
        );
    }
}
