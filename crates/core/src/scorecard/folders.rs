//! A scorecard from run folders (a folder per evaluation), with no API: which training runs the
//! folders can make a scorecard of ([`ScorecardFolders::offers`]), the plan of one
//! ([`ScorecardFolders::plan`]: the training run named, or the only one the folders hold), and
//! each pair's folders and run set (baseline first, as `eval-compare report BASELINE CANDIDATE`
//! reads them). One home for `eval-compare scorecard --folders` and the viewer's Files page, so
//! both plan the same scorecard from the same folders.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};

use crate::model::{RunSet, SourceKind};
use crate::run_folder::{Folder, FolderSetBuilder, PackedFolder};
use crate::text::visible;

use super::plan::{plan_scorecard, ScorecardPlan};
use super::source::ListedRun;

/// The viewer's path of a scorecard built from run folders (the files pages' own, as
/// `/files/compare` is for a comparison of folders).
pub const FOLDERS_SCORECARD_PAGE_PATH: &str = "/files/scorecard";

/// Why folders cannot be read as a scorecard's, or what they lack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FoldersError {
    /// A Chronicle job's folder among them.
    #[error("{folder} is a Chronicle job's folder; a scorecard reads evaluation run folders")]
    ChronicleFolder {
        /// The folder, as the caller names it.
        folder: String,
    },
    /// One run in two folders.
    #[error("run {run} is in two folders ({first} and {second})")]
    RunTwice {
        /// The run id (shown).
        run: String,
        /// The folder read first.
        first: String,
        /// The other.
        second: String,
    },
    /// No checkpoint evaluation with a training run and a step.
    #[error("no run folder holds a checkpoint evaluation with a training run and a step")]
    NoCheckpoint,
    /// Checkpoint evaluations of several training runs, and none named.
    #[error("the folders hold checkpoint evaluations of several training runs ({}); choose one", .0.join(", "))]
    SeveralTrainingRuns(Vec<String>),
    /// The training run named has no checkpoint evaluation among them.
    #[error("training run {0} has no checkpoint evaluations here")]
    NoCheckpointOf(String),
}

/// A training run whose checkpoint evaluations the folders hold: what its scorecard would
/// compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderOffer {
    /// The training run.
    pub training_run_id: String,
    /// The benchmark versions its checkpoints were evaluated on (the rows).
    pub benches: usize,
    /// Its checkpoint steps (the columns).
    pub steps: usize,
    /// The comparisons to make: evaluated cells of rows with a baseline.
    pub comparisons: usize,
    /// The benchmark versions with no base-model evaluation to compare against.
    pub without_baseline: Vec<String>,
}

/// Evaluation run folders as a scorecard's source: each folder with its run as listed.
#[derive(Debug, Clone)]
pub struct ScorecardFolders<F> {
    folders: Vec<F>,
    listed: Vec<ListedRun>,
    by_id: HashMap<String, usize>,
}

impl<F: Borrow<PackedFolder>> ScorecardFolders<F> {
    /// The folders, each named as the caller shows it (a path); refuses a Chronicle job's
    /// folder and a run in two folders.
    pub fn new(named: impl IntoIterator<Item = (String, F)>) -> Result<Self, FoldersError> {
        let mut folders = Vec::new();
        let mut listed: Vec<ListedRun> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        for (name, folder) in named {
            let Folder::Trajectory(run) = folder.borrow() else {
                return Err(FoldersError::ChronicleFolder { folder: name });
            };
            let entry = ListedRun::from_folder(run, SourceKind::Files);
            if let Some(&first) = by_id.get(entry.id()) {
                return Err(FoldersError::RunTwice {
                    run: visible(entry.id()).into_owned(),
                    first: names[first].clone(),
                    second: name,
                });
            }
            by_id.insert(entry.id().to_owned(), listed.len());
            listed.push(entry);
            names.push(name);
            folders.push(folder);
        }
        Ok(ScorecardFolders {
            folders,
            listed,
            by_id,
        })
    }

    /// Every run, as listed, in the folders' order.
    pub fn listed(&self) -> &[ListedRun] {
        &self.listed
    }

    /// The folder of run `run_id`.
    pub fn folder(&self, run_id: &str) -> Option<&F> {
        self.by_id.get(run_id).map(|&index| &self.folders[index])
    }

    /// The training runs with a checkpoint evaluation at a known step, by id.
    pub fn training_runs(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .listed
            .iter()
            .filter(|run| run.info.checkpoint.step.is_some())
            .filter_map(|run| run.info.checkpoint.training_run_id.clone())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// What the scorecard of each training run would compare (baselines chosen automatically).
    pub fn offers(&self) -> Vec<FolderOffer> {
        self.training_runs()
            .into_iter()
            .map(|training_run_id| {
                let plan = plan_scorecard(&training_run_id, &self.listed, &BTreeMap::new());
                FolderOffer {
                    benches: plan.rows.len(),
                    steps: plan.steps.len(),
                    comparisons: plan.pairs().len(),
                    without_baseline: plan
                        .rows
                        .iter()
                        .filter(|row| row.baseline.run_id.is_none())
                        .map(|row| row.bench_id.clone())
                        .collect(),
                    training_run_id,
                }
            })
            .collect()
    }

    /// The plan of `training_run_id`'s scorecard (or, when `None`, of the only training run the
    /// folders hold checkpoint evaluations of), with the baselines chosen by hand; refused when
    /// it has no checkpoint evaluation here.
    pub fn plan(
        &self,
        training_run_id: Option<&str>,
        by_hand: &BTreeMap<String, String>,
    ) -> Result<ScorecardPlan, FoldersError> {
        let training = match training_run_id {
            Some(id) => id.to_owned(),
            None => {
                let mut ids = self.training_runs();
                match ids.len() {
                    0 => return Err(FoldersError::NoCheckpoint),
                    1 => ids.remove(0),
                    _ => {
                        return Err(FoldersError::SeveralTrainingRuns(
                            ids.iter().map(|id| visible(id).into_owned()).collect(),
                        ))
                    }
                }
            }
        };
        let plan = plan_scorecard(&training, &self.listed, by_hand);
        if plan.cells.is_empty() {
            return Err(FoldersError::NoCheckpointOf(
                visible(&training).into_owned(),
            ));
        }
        Ok(plan)
    }

    /// Whether run `run_id` is read from the very same folder here and in `other` (the same
    /// opening, not merely an equal one): a comparison of two such runs made over `other`
    /// holds here, so a page that opens one more folder keeps the cells already made.
    pub fn same_folder(&self, other: &Self, run_id: &str) -> bool {
        match (self.folder(run_id), other.folder(run_id)) {
            (Some(mine), Some(theirs)) => std::ptr::eq(mine.borrow(), theirs.borrow()),
            _ => false,
        }
    }

    /// The runs `plan` compares that no folder holds (a baseline chosen by hand), in order.
    pub fn missing(&self, plan: &ScorecardPlan) -> Vec<String> {
        plan.run_ids()
            .into_iter()
            .filter(|id| !self.by_id.contains_key(id))
            .collect()
    }

    /// The folders of a pair, baseline first; an error names a run no folder holds.
    pub fn pair_folders(&self, baseline: &str, candidate: &str) -> Result<[&F; 2], String> {
        let folder = |id: &str| {
            self.folder(id)
                .ok_or_else(|| format!("no run folder holds run {}", visible(id)))
        };
        Ok([folder(baseline)?, folder(candidate)?])
    }

    /// The run set of a pair, baseline first: the set `eval-compare report BASELINE CANDIDATE`
    /// builds from their two folders.
    pub fn pair_set(&self, baseline: &str, candidate: &str) -> Result<RunSet, String> {
        let mut builder = FolderSetBuilder::new();
        for folder in self.pair_folders(baseline, candidate)? {
            builder
                .add(folder.borrow(), SourceKind::Files)
                .map_err(|error| error.to_string())?;
        }
        Ok(builder.build())
    }
}
