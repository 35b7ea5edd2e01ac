//! The runs of a scorecard, read from the API (on the core's load engine: its sources, then
//! each compared run once) or from run folders (a folder per evaluation), and the run set of
//! each pair (baseline first), the same set `eval-compare report BASELINE CANDIDATE` builds.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use eval_compare_core::load::{load_scorecard_sources, LoadStore};
use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::parallel;
use eval_compare_core::run_folder::{Folder, FolderSetBuilder, PackedFolder};
use eval_compare_core::scorecard::{plan_scorecard, ListedRun, ScorecardPlan};
use eval_compare_core::text::visible;

use crate::api_load::{load_complete, run_set};
use crate::connection;
use crate::error::CliError;
use crate::folder_io::{read_packed_folder, run_folders_in};
use crate::progress::Progress;
use crate::scorecard_args::ScorecardArgs;

/// Where each pair's run set comes from.
pub enum PairSource {
    /// The store the API's runs were read into.
    Api(Box<LoadStore>),
    /// The run folders read, and each run's folder by id.
    Folders(Vec<PackedFolder>, HashMap<String, usize>),
}

impl PairSource {
    /// The run set of the baseline and the candidate, baseline first.
    pub fn pair_set(&self, baseline: &str, candidate: &str) -> Result<RunSet, String> {
        let ids = [baseline.to_owned(), candidate.to_owned()];
        match self {
            PairSource::Api(store) => run_set(store, &ids).map_err(|error| error.to_string()),
            PairSource::Folders(folders, by_id) => {
                let mut builder = FolderSetBuilder::new();
                for id in &ids {
                    let index = by_id
                        .get(id)
                        .ok_or_else(|| format!("no run folder holds run {}", visible(id)))?;
                    builder
                        .add(&folders[*index], SourceKind::Files)
                        .map_err(|error| error.to_string())?;
                }
                Ok(builder.build())
            }
        }
    }
}

/// Reads what the arguments name and plans the scorecard.
pub async fn load(
    args: &ScorecardArgs,
    progress: &Progress,
) -> Result<(ScorecardPlan, PairSource), CliError> {
    let by_hand: BTreeMap<String, String> = args.baseline.iter().cloned().collect();
    match (&args.server, &args.training_run) {
        (Some(server), Some(training_run)) => {
            let client = connection::client(server, &args.connection)?;
            let sources_store = LoadStore::new();
            let sources = load_scorecard_sources(&client, &sources_store, training_run, &|_| {})
                .await
                .map_err(|source| CliError::Api {
                    what: format!(
                        "could not list the evaluations of training run {}",
                        visible(training_run)
                    ),
                    source: Box::new(source),
                    key_set: client.config().api_key.is_some(),
                })?;
            drop(sources_store);
            let plan = checked_plan(training_run, &sources.listed, &by_hand, args)?;
            progress.note(&plan_note(&plan));
            let store = load_complete(&client, &plan.run_ids(), progress).await?;
            Ok((plan, PairSource::Api(Box::new(store))))
        }
        (Some(_), None) => Err(CliError::Usage(
            "give --training-run with --server".to_owned(),
        )),
        (None, training_run) => {
            let (folders, listed) = read_folders(&args.folders, progress)?;
            let training_run = match training_run {
                Some(id) => id.clone(),
                None => only_training_run(&listed)?,
            };
            let plan = checked_plan(&training_run, &listed, &by_hand, args)?;
            progress.note(&plan_note(&plan));
            let by_id = listed
                .iter()
                .enumerate()
                .map(|(index, run)| (run.id().to_owned(), index))
                .collect();
            Ok((plan, PairSource::Folders(folders, by_id)))
        }
    }
}

/// The plan, refused when it has nothing to compare or when a benchmark the arguments name
/// (a baseline chosen by hand, a primary, a guardrail) is none of its rows: before any run is
/// read.
fn checked_plan(
    training_run: &str,
    listed: &[ListedRun],
    by_hand: &BTreeMap<String, String>,
    args: &ScorecardArgs,
) -> Result<ScorecardPlan, CliError> {
    let plan = plan_scorecard(training_run, listed, by_hand);
    if plan.cells.is_empty() {
        return Err(CliError::Usage(format!(
            "training run {} has no checkpoint evaluations here",
            visible(training_run)
        )));
    }
    let named = by_hand
        .keys()
        .map(|bench| ("--baseline", bench))
        .chain(args.primary.iter().map(|bench| ("--primary", bench)))
        .chain(
            args.guardrail
                .iter()
                .map(|(bench, _)| ("--guardrail", bench)),
        );
    for (flag, bench) in named {
        if !plan.rows.iter().any(|row| row.bench_id == *bench) {
            let rows: Vec<&str> = plan.rows.iter().map(|row| row.bench_id.as_str()).collect();
            return Err(CliError::Usage(format!(
                "{flag} {}: training run {} has no evaluation on that benchmark version (its rows: {})",
                visible(bench),
                visible(training_run),
                rows.join(", ")
            )));
        }
    }
    Ok(plan)
}

fn plan_note(plan: &ScorecardPlan) -> String {
    format!(
        "scorecard: {} benchmark versions × {} checkpoint steps, {} comparisons, {} runs to read",
        plan.rows.len(),
        plan.steps.len(),
        plan.pairs().len(),
        plan.run_ids().len()
    )
}

/// The one training run the folders' checkpoint evaluations belong to.
fn only_training_run(listed: &[ListedRun]) -> Result<String, CliError> {
    let mut ids: Vec<&str> = listed
        .iter()
        .filter(|run| run.info.checkpoint.step.is_some())
        .filter_map(|run| run.info.checkpoint.training_run_id.as_deref())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    match ids.as_slice() {
        [one] => Ok((*one).to_owned()),
        [] => Err(CliError::Usage(
            "no run folder holds a checkpoint evaluation with a training run and a step".to_owned(),
        )),
        many => Err(CliError::Usage(format!(
            "the folders hold checkpoint evaluations of several training runs ({}); choose one with --training-run",
            many.iter().map(|id| visible(id).into_owned()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// Reads every run folder (a parent directory stands for the run folders in it), as many at
/// once as there are cores; refuses a Chronicle folder and a run given twice.
fn read_folders(
    dirs: &[PathBuf],
    progress: &Progress,
) -> Result<(Vec<PackedFolder>, Vec<ListedRun>), CliError> {
    let expanded: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|dir| run_folders_in(dir).unwrap_or_else(|| vec![dir.clone()]))
        .collect();
    let mut folders = Vec::with_capacity(expanded.len());
    let mut listed: Vec<ListedRun> = Vec::with_capacity(expanded.len());
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    for group in expanded.chunks(parallel::cores().max(1)) {
        let read =
            parallel::map_in_parallel(group, |dir: &PathBuf| read_packed_folder(Path::new(dir)));
        for (folder, dir) in read.into_iter().zip(group) {
            let folder = folder?;
            let Folder::Trajectory(run) = &folder else {
                return Err(CliError::Usage(format!(
                    "{} is a Chronicle job's folder; a scorecard reads evaluation run folders",
                    dir.display()
                )));
            };
            if !run.truncated_files.is_empty() {
                progress.warn(&format!(
                    "run folder {}: {} ended with a page saying more followed; the run is marked incomplete",
                    dir.display(),
                    run.truncated_files.join(", ")
                ));
            }
            let entry = ListedRun::from_folder(run, SourceKind::Files);
            if let Some(first) = seen.insert(entry.id().to_owned(), dir.clone()) {
                return Err(CliError::Usage(format!(
                    "run {} is in two folders ({} and {})",
                    visible(entry.id()),
                    first.display(),
                    dir.display()
                )));
            }
            listed.push(entry);
            folders.push(folder);
        }
    }
    Ok((folders, listed))
}
