//! A folder of either kind: told apart by its file names, read (by a
//! [`FolderFeed`](super::FolderFeed)), added to a run set and written back through one type, so
//! the viewer's Files page and the CLI open both the same way.

use serde::{Deserialize, Serialize};

use crate::api::{EvalTrajectoryReward, TrajectoryMetadata};
use crate::large_list::{AsRewardFacts, AsTrajectoryFacts, PackedReward, PackedTrajectory};
use crate::model::{
    ApiRunJoin, ModelError, PlatformSeries, RunIdx, RunSet, RunSetBuilder, SourceKind,
};

use super::chronicle::{ChronicleFolder, JOB_FILE, RESULTS_FILE, TRIALS_FILE};
use super::{
    FolderFile, RunFolder, RunFolderError, BILLING_FILE, EVAL_OPTIONS_FILE,
    PLATFORM_PROGRESSION_FILE, REWARDS_FILE, ROLLOUT_STATISTICS_FILE, RUN_FILE, TASKS_FILE,
    TRAINING_RUN_FILE, TRAJECTORIES_FILE,
};

/// Every file name a folder of either kind may hold (the only files worth reading): a
/// Trajectory run folder's, then a Chronicle job folder's, each kind's in the order they are
/// read ([`FolderKind::files`]).
pub const FOLDER_FILES: [&str; 12] = [
    RUN_FILE,
    REWARDS_FILE,
    TRAJECTORIES_FILE,
    TASKS_FILE,
    TRAINING_RUN_FILE,
    EVAL_OPTIONS_FILE,
    PLATFORM_PROGRESSION_FILE,
    BILLING_FILE,
    ROLLOUT_STATISTICS_FILE,
    JOB_FILE,
    TRIALS_FILE,
    RESULTS_FILE,
];

/// Whether a file of this name belongs in a folder of either kind.
pub fn is_folder_file(name: &str) -> bool {
    FOLDER_FILES.contains(&name)
}

/// The kind of a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FolderKind {
    /// A Trajectory evaluation run: `run.json`, `trajectory-rewards.json`, `trajectories.json`,
    /// optionally `tasks.json`, `training-run.json`, `eval-options.json`,
    /// `platform-progression.json`, `billing.json` and `rollout-statistics.json`.
    Trajectory,
    /// A Chronicle backtest job: `job.json`, `trials.json`, optionally `results.json`.
    Chronicle,
}

/// How many of [`FOLDER_FILES`] are a Trajectory run folder's (the first ones).
const RUN_FOLDER_FILES: usize = 9;

impl FolderKind {
    /// Every file a folder of this kind may hold, in the order they are read.
    pub fn files(self) -> &'static [&'static str] {
        let (run, job) = FOLDER_FILES.split_at(RUN_FOLDER_FILES);
        match self {
            FolderKind::Trajectory => run,
            FolderKind::Chronicle => job,
        }
    }

    /// The files a folder of this kind must hold; the first one names the kind.
    pub fn required_files(self) -> &'static [&'static str] {
        match self {
            FolderKind::Trajectory => &[RUN_FILE, REWARDS_FILE, TRAJECTORIES_FILE],
            FolderKind::Chronicle => &[JOB_FILE, TRIALS_FILE],
        }
    }

    /// The files a folder of this kind may also hold.
    pub fn optional_files(self) -> &'static [&'static str] {
        match self {
            FolderKind::Trajectory => &[TASKS_FILE, TRAINING_RUN_FILE, EVAL_OPTIONS_FILE],
            FolderKind::Chronicle => &[RESULTS_FILE],
        }
    }

    /// What a folder of this kind holds, for messages.
    pub fn holds(self) -> &'static str {
        match self {
            FolderKind::Trajectory => "a run folder holds run.json, trajectory-rewards.json and trajectories.json (and optionally tasks.json, training-run.json, eval-options.json and platform-progression.json)",
            FolderKind::Chronicle => {
                "a Chronicle job folder holds job.json and trials.json (and optionally results.json)"
            }
        }
    }

    /// The kind the present files make ([`Self::detect`]), once every file it needs is there;
    /// else which are missing. `has` says whether a file is present.
    pub fn of_files(has: impl Fn(&str) -> bool) -> Result<FolderKind, RunFolderError> {
        let kind = FolderKind::detect(&has)?;
        let missing: Vec<&'static str> = kind
            .required_files()
            .iter()
            .copied()
            .filter(|name| !has(name))
            .collect();
        match missing.is_empty() {
            true => Ok(kind),
            false => Err(RunFolderError::MissingFiles { kind, missing }),
        }
    }

    /// The kind the present files make: `run.json` makes a Trajectory folder, `job.json` a
    /// Chronicle one; both, or neither, is refused. `has` says whether a file is present.
    pub fn detect(has: impl Fn(&str) -> bool) -> Result<FolderKind, RunFolderError> {
        match (has(RUN_FILE), has(JOB_FILE)) {
            (true, false) => Ok(FolderKind::Trajectory),
            (false, true) => Ok(FolderKind::Chronicle),
            (true, true) => Err(RunFolderError::UnknownKind(format!(
                "both {RUN_FILE} and {JOB_FILE} here; a folder holds one run ({RUN_FILE}) or one Chronicle job ({JOB_FILE})"
            ))),
            (false, false) => Err(RunFolderError::UnknownKind(format!(
                "no {RUN_FILE} or {JOB_FILE} here; {}, and {}",
                FolderKind::Trajectory.holds(),
                FolderKind::Chronicle.holds()
            ))),
        }
    }
}

/// A parsed folder of either kind; a Trajectory run's lists in the full form (the defaults) or
/// the packed one ([`PackedFolder`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Folder<R = EvalTrajectoryReward, T = TrajectoryMetadata> {
    /// A Trajectory evaluation run (boxed, as the other: a folder is large and moved around).
    Trajectory(Box<RunFolder<R, T>>),
    /// A Chronicle backtest job (one run per agent version).
    Chronicle(Box<ChronicleFolder>),
}

/// A folder decoded to what a report reads (see [`super::PackedRunFolder`]).
pub type PackedFolder = Folder<PackedReward, PackedTrajectory>;

impl<R, T> Folder<R, T> {
    /// Its kind.
    pub fn kind(&self) -> FolderKind {
        match self {
            Folder::Trajectory(_) => FolderKind::Trajectory,
            Folder::Chronicle(_) => FolderKind::Chronicle,
        }
    }

    /// The ids of the runs it holds, in the order [`Self::add_to`] adds them: a Trajectory
    /// folder's one run, a Chronicle job's agent versions.
    pub fn run_ids(&self) -> Vec<String> {
        match self {
            Folder::Trajectory(folder) => vec![folder.run.eval_run_id.clone()],
            Folder::Chronicle(folder) => folder.run_ids(),
        }
    }

    /// Files whose last page said more followed (the export stopped early).
    pub fn truncated_files(&self) -> &[String] {
        match self {
            Folder::Trajectory(folder) => &folder.truncated_files,
            Folder::Chronicle(folder) => &folder.truncated_files,
        }
    }
}

impl<R: AsRewardFacts, T: AsTrajectoryFacts> Folder<R, T> {
    /// Adds its runs (and a Trajectory folder's tasks) to a builder; returns them in order.
    pub fn add_to(
        &self,
        builder: &mut RunSetBuilder,
        source: SourceKind,
    ) -> Result<Vec<RunIdx>, ModelError> {
        match self {
            Folder::Trajectory(folder) => folder.add_to(builder, source).map(|run| vec![run]),
            Folder::Chronicle(folder) => folder.add_to(builder, source),
        }
    }
}

impl Folder {
    /// Its files as pretty JSON, ready to write.
    pub fn to_files(&self) -> Result<Vec<FolderFile>, RunFolderError> {
        match self {
            Folder::Trajectory(folder) => folder.to_files(),
            Folder::Chronicle(folder) => folder.to_files(),
        }
    }
}

/// Builds a run set from folders of either kind, in order (their runs in the order
/// [`Folder::run_ids`] gives; the first is usually the baseline).
pub fn run_set_from_any_folders(
    folders: &[Folder],
    source: SourceKind,
) -> Result<RunSet, ModelError> {
    let mut builder = FolderSetBuilder::new();
    for folder in folders {
        builder.add(folder, source)?;
    }
    Ok(builder.build())
}

/// A Trajectory folder's run built apart ([`FolderSetBuilder::add_all`]): its builder, holding
/// only this run, and the join until it is made.
struct RunApart<R, T> {
    folder: Box<RunFolder<R, T>>,
    builder: RunSetBuilder,
    /// The join, started, until it is made.
    join: Option<ApiRunJoin>,
    /// The run in `builder` once its join is made, or why it could not be.
    run: Option<Result<RunIdx, ModelError>>,
}

/// Builds a run set from folders added one at a time, so that each folder (and the contents a
/// lean one borrows from) can be dropped once added: what [`run_set_from_any_folders`] does,
/// in the memory of one folder at a time.
#[derive(Debug, Default)]
pub struct FolderSetBuilder {
    pub(super) builder: RunSetBuilder,
    /// The platform's progression each Trajectory folder held, by training run, in order.
    pub(super) platform_series: Vec<(String, PlatformSeries)>,
}

impl FolderSetBuilder {
    /// No folder yet.
    pub fn new() -> Self {
        FolderSetBuilder::default()
    }

    /// Adds a folder's runs (see [`Folder::add_to`]); returns them in order.
    pub fn add<R: AsRewardFacts, T: AsTrajectoryFacts>(
        &mut self,
        folder: &Folder<R, T>,
        source: SourceKind,
    ) -> Result<Vec<RunIdx>, ModelError> {
        let runs = folder.add_to(&mut self.builder, source)?;
        if let Folder::Trajectory(run) = folder {
            self.keep_platform_series(run);
        }
        Ok(runs)
    }

    /// [`Self::add`] for each of `folders`, in order, with the same result, each folder
    /// dropped once added (with the lists it decoded). When all are Trajectory folders, each
    /// run's join (its ids matched, its trajectories added) is made apart, in a builder of its
    /// own, on the machine's cores ([`crate::parallel`]); the runs are then added in order, each
    /// after its folder's task list, their tasks interned as they would have been one at a time
    /// ([`RunSetBuilder::absorb_runs`]).
    pub fn add_all<R: AsRewardFacts + Send + Sync, T: AsTrajectoryFacts + Send + Sync>(
        &mut self,
        folders: Vec<Folder<R, T>>,
        source: SourceKind,
    ) -> Result<Vec<RunIdx>, ModelError> {
        let all_runs = folders.len() > 1
            && folders
                .iter()
                .all(|folder| matches!(folder, Folder::Trajectory(_)));
        let mut added = Vec::with_capacity(folders.len());
        if !all_runs {
            for folder in folders {
                added.extend(self.add(&folder, source)?);
            }
            return Ok(added);
        }
        let mut apart: Vec<RunApart<R, T>> = Vec::with_capacity(folders.len());
        for folder in folders {
            if let Folder::Trajectory(run) = folder {
                // Refused here, as adding the runs one at a time refuses a second run of an id
                // before adding anything of it.
                self.builder.check_new_run(&run.run.eval_run_id)?;
                if let Some(earlier) = apart
                    .iter()
                    .find(|earlier| earlier.folder.run.eval_run_id == run.run.eval_run_id)
                {
                    return Err(ModelError::DuplicateRun(
                        earlier.folder.run.eval_run_id.clone(),
                    ));
                }
                let mut builder = RunSetBuilder::new();
                let join = run.start_join(&mut builder, source)?;
                apart.push(RunApart {
                    folder: run,
                    builder,
                    join: Some(join),
                    run: None,
                });
            }
        }
        crate::parallel::for_each_in_parallel(&mut apart, |part| {
            if let Some(mut join) = part.join.take() {
                join.match_ids(&part.folder.rewards, &part.folder.trajectories);
                part.run = Some(part.folder.finish_join(&mut part.builder, join));
                // The lists are in the run now: let go of them here, side by side, rather
                // than one folder after another below (a million small blocks each).
                part.folder.rewards = Vec::new();
                part.folder.trajectories = Vec::new();
            }
        });
        for part in apart {
            part.folder.add_tasks(&mut self.builder)?;
            part.run.unwrap_or(Err(ModelError::JoinUnfinished))?;
            added.extend(self.builder.absorb_runs(part.builder)?);
            self.keep_platform_series(&part.folder);
        }
        Ok(added)
    }

    /// Keeps the platform's progression a Trajectory folder holds, by its training run.
    pub(super) fn keep_platform_series<R, T>(&mut self, run: &RunFolder<R, T>) {
        if let (Some(series), Some(training_run_id)) =
            (&run.platform_series, &run.run.training_run_id)
        {
            self.platform_series
                .push((training_run_id.clone(), series.clone()));
        }
    }

    /// The run set, with the platform's progression of each folder's training run attached.
    pub fn build(self) -> RunSet {
        attach_platform_series(self.builder.build(), self.platform_series)
    }
}

/// `set` with the platform's progression of each folder's training run attached.
pub(super) fn attach_platform_series(
    mut set: RunSet,
    platform_series: Vec<(String, PlatformSeries)>,
) -> RunSet {
    for (training_run_id, series) in platform_series {
        set.attach_platform_series(&training_run_id, Ok(series));
    }
    set
}
