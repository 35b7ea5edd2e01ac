//! The runs of a scorecard, read from the API (on the core's load engine: its sources, then
//! each compared run once) or from run folders (a folder per evaluation, planned and paired by
//! the core's [`ScorecardFolders`], as the viewer's Files page does), and the run set of each
//! pair (baseline first), the same set `eval-compare report BASELINE CANDIDATE` builds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use eval_compare_core::load::LoadStore;
use eval_compare_core::model::RunSet;
use eval_compare_core::parallel;
use eval_compare_core::run_folder::{Folder, PackedFolder};
use eval_compare_core::scorecard::{
    plan_scorecard, FoldersError, ListedRun, ScorecardFolders, ScorecardPlan,
};
use eval_compare_core::text::visible;

use crate::api_load::run_set;
use crate::error::CliError;
use crate::folder_io::{read_packed_folder, run_folders_in};
use crate::progress::Progress;
use crate::scorecard_api::load_from_api;
use crate::scorecard_args::ScorecardArgs;

/// Where each pair's run set comes from.
pub enum PairSource {
    /// The store the API's runs were read into.
    Api(Box<LoadStore>),
    /// The run folders read (the core's one reading of them as a scorecard's source).
    Folders(ScorecardFolders<PackedFolder>),
}

impl PairSource {
    /// The run set of the baseline and the candidate, baseline first.
    pub fn pair_set(&self, baseline: &str, candidate: &str) -> Result<RunSet, String> {
        match self {
            PairSource::Api(store) => {
                let ids = [baseline.to_owned(), candidate.to_owned()];
                run_set(store, &ids).map_err(|error| error.to_string())
            }
            PairSource::Folders(folders) => folders.pair_set(baseline, candidate),
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
            let (plan, store) = load_from_api(server, training_run, args, progress, |listed| {
                let plan = checked_plan(training_run, listed, &by_hand, args)?;
                progress.note(&plan_note(&plan));
                Ok(plan)
            })
            .await?;
            Ok((plan, PairSource::Api(Box::new(store))))
        }
        (Some(_), None) => Err(CliError::Usage(
            "give --training-run with --server".to_owned(),
        )),
        (None, training_run) => {
            let folders = read_folders(&args.folders, progress)?;
            let plan =
                folders
                    .plan(training_run.as_deref(), &by_hand)
                    .map_err(|error| match error {
                        FoldersError::SeveralTrainingRuns(_) => {
                            CliError::Usage(format!("{error} with --training-run"))
                        }
                        other => CliError::Usage(other.to_string()),
                    })?;
            check_named(&plan, &by_hand, args)?;
            progress.note(&plan_note(&plan));
            Ok((plan, PairSource::Folders(folders)))
        }
    }
}

/// The plan, refused when it has nothing to compare or when a benchmark the arguments name
/// is none of its rows ([`check_named`]): before any run is read.
fn checked_plan(
    training_run: &str,
    listed: &[ListedRun],
    by_hand: &BTreeMap<String, String>,
    args: &ScorecardArgs,
) -> Result<ScorecardPlan, CliError> {
    let plan = plan_scorecard(training_run, listed, by_hand);
    if plan.cells.is_empty() {
        return Err(CliError::Usage(
            FoldersError::NoCheckpointOf(visible(training_run).into_owned()).to_string(),
        ));
    }
    check_named(&plan, by_hand, args)?;
    Ok(plan)
}

/// Refuses a benchmark the arguments name (a baseline chosen by hand, a primary, a guardrail)
/// that is none of the plan's rows.
fn check_named(
    plan: &ScorecardPlan,
    by_hand: &BTreeMap<String, String>,
    args: &ScorecardArgs,
) -> Result<(), CliError> {
    let training_run = plan.training_run_id.as_str();
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
    Ok(())
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

/// Reads every run folder (a parent directory stands for the run folders in it), as many at
/// once as there are cores; the core refuses a Chronicle folder and a run given twice.
fn read_folders(
    dirs: &[PathBuf],
    progress: &Progress,
) -> Result<ScorecardFolders<PackedFolder>, CliError> {
    let expanded: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|dir| run_folders_in(dir).unwrap_or_else(|| vec![dir.clone()]))
        .collect();
    let mut folders = Vec::with_capacity(expanded.len());
    for group in expanded.chunks(parallel::cores().max(1)) {
        let read =
            parallel::map_in_parallel(group, |dir: &PathBuf| read_packed_folder(Path::new(dir)));
        for (folder, dir) in read.into_iter().zip(group) {
            let folder = folder?;
            if let Folder::Trajectory(run) = &folder {
                if !run.truncated_files.is_empty() {
                    progress.warn(&format!(
                        "run folder {}: {} ended with a page saying more followed; the run is marked incomplete",
                        dir.display(),
                        run.truncated_files.join(", ")
                    ));
                }
            }
            folders.push((dir.display().to_string(), folder));
        }
    }
    ScorecardFolders::new(folders).map_err(|error| CliError::Usage(error.to_string()))
}
