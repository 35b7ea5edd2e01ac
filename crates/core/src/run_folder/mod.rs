//! Run folders: a run's files, read from their contents (no file IO here) and written back.
//!
//! Two kinds ([`Folder`], detected from the file names by [`FolderKind::detect`]): a Trajectory
//! run folder, and a Chronicle job folder (`job.json`, `trials.json`, optionally
//! `results.json`: see [`ChronicleFolder`]).
//!
//! A Trajectory run folder holds `run.json` (the `EvalRun`), `trajectory-rewards.json`
//! (`EvalTrajectoryReward` items), `trajectories.json` (`TrajectoryMetadata` items) and
//! optionally `tasks.json` (`BenchmarkSpecTask` items), `training-run.json` (the `TrainingRun`
//! of a checkpoint evaluation, `GET /api/v1/train/{id}`) and `eval-options.json` (the
//! evaluation defaults of its benchmark version and model, `GET /api/v1/eval/options`'s
//! `RunOptionsResponse`): with those two a report from folders resolves each run's effective
//! settings like one from the API (without them they are "not read"); and
//! `platform-progression.json` (the platform's own progression of a checkpoint's training run,
//! `model::PlatformSeries`), which the report sets beside its progression; `billing.json` (the
//! run's row of `GET /api/v1/billing/usage/runs`, a `BillingRunCost`: its cost by kind; without
//! it the cost is unavailable, never 0) and `rollout-statistics.json` (the run's
//! `GET /api/v1/eval/{run_id}/rollout-statistics`). Each list file may be one JSON array of
//! items, a JSON array of the API's pages, or JSON Lines of pages (or of items); the layout is
//! detected from the contents. Every file may start with a UTF-8 byte order mark, which is
//! skipped. The run's id must be one a comparison can name
//! ([`check_id`](crate::view_state::check_id)): a folder that could be opened but not compared
//! is refused when it is read. A folder of either kind is read in one order by a [`FolderFeed`],
//! fed by the CLI from disk, by the viewer from dropped files, by [`Folder::read`] from memory.

mod chronicle;
mod folder;
mod folder_feed;
mod folder_set_build;
mod list;
mod list_feed;
mod page_shape;

use serde::Serialize;

use crate::api::{
    decode, BenchmarkSpecTask, BillingRunCost, DecodeError, EvalRolloutStatistics, EvalRun,
    EvalTrajectoryReward, RunOptionsResponse, TrainingRun, TrajectoryMetadata,
};
use crate::large_list::{AsRewardFacts, AsTrajectoryFacts, PackedReward, PackedTrajectory};
use crate::model::{
    setting_inputs, ApiRun, ApiRunJoin, CostUnavailable, Lookup, ModelError, PlatformSeries,
    RunCost, RunIdx, RunSet, RunSetBuilder, SourceKind,
};
use crate::text::visible;
use crate::view_state::check_id;

pub use chronicle::{ChronicleFolder, ChronicleFolderFiles, JOB_FILE, RESULTS_FILE, TRIALS_FILE};
pub use folder::{
    is_folder_file, run_set_from_any_folders, Folder, FolderKind, FolderSetBuilder, PackedFolder,
    FOLDER_FILES,
};
pub use folder_feed::{parse_run_folder, parse_run_folder_as, FolderFeed, FolderStep};
pub use folder_set_build::{FolderSetBuild, FolderSetStep};
pub use list::{parse_list, ListLayout, ParsedList};
pub use list_feed::{read_list, read_list_with, Feed, ListFeed};

/// File name of the run.
pub const RUN_FILE: &str = "run.json";
/// File name of the trajectory rewards.
pub const REWARDS_FILE: &str = "trajectory-rewards.json";
/// File name of the trajectory metadata.
pub const TRAJECTORIES_FILE: &str = "trajectories.json";
/// File name of the benchmark's tasks (optional).
pub const TASKS_FILE: &str = "tasks.json";
/// File name of a checkpoint evaluation's training run (optional).
pub const TRAINING_RUN_FILE: &str = "training-run.json";
/// File name of the evaluation defaults of the run's benchmark version and model (optional).
pub const EVAL_OPTIONS_FILE: &str = "eval-options.json";
/// File name of the platform's own progression of a checkpoint's training run (optional).
pub const PLATFORM_PROGRESSION_FILE: &str = "platform-progression.json";
/// File name of the run's billing row (optional).
pub const BILLING_FILE: &str = "billing.json";
/// File name of the run's rollout statistics (optional).
pub const ROLLOUT_STATISTICS_FILE: &str = "rollout-statistics.json";
/// How much of a refused run id an error quotes.
pub const SHOWN_ID_CHARS: usize = 64;

/// Why a run folder could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunFolderError {
    /// A file's JSON does not decode; `source` names the JSON path.
    #[error("{file}{}: {source}", line.map_or_else(String::new, |line| format!(" (value starting on line {line})")))]
    Decode {
        /// The file.
        file: String,
        /// For JSON Lines, the line the failing value starts on.
        line: Option<usize>,
        /// What failed, and where in the value.
        source: DecodeError,
    },
    /// A file is empty (or only whitespace).
    #[error("{file} is empty")]
    Empty {
        /// The file.
        file: String,
    },
    /// A file is not laid out as any supported list.
    #[error("{file}: {message}")]
    Layout {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The run's id breaks the rule every compared id follows
    /// ([`check_id`](crate::view_state::check_id)).
    #[error("{file}{}: the run id `{id}` cannot be compared: {reason}", path.as_ref().map_or_else(String::new, |path| format!(" at `{path}`")))]
    RunId {
        /// The file.
        file: String,
        /// The JSON path of the value the id comes from, when it is not the file's own id
        /// (a Chronicle job's `agents[1]`).
        path: Option<String>,
        /// The id, its hidden characters made visible, cut to [`SHOWN_ID_CHARS`] characters.
        id: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A file contradicts another file of the folder.
    #[error("{file} at `{path}`: {message}")]
    Inconsistent {
        /// The file.
        file: String,
        /// The JSON path of the contradicting value.
        path: String,
        /// What contradicts what.
        message: String,
    },
    /// Files a folder of its kind needs are missing.
    #[error("no {} here; {}", missing.join(", "), kind.holds())]
    MissingFiles {
        /// The kind of folder the files present make it (its first required file is there).
        kind: FolderKind,
        /// The missing files.
        missing: Vec<&'static str>,
    },
    /// The files are of no kind of folder, or of both.
    #[error("{0}")]
    UnknownKind(String),
    /// A file could not be written.
    #[error("could not write {file}: {message}")]
    Encode {
        /// The file.
        file: String,
        /// What failed.
        message: String,
    },
}

/// The contents of a run folder's files.
#[derive(Debug, Clone, Copy)]
pub struct RunFolderFiles<'a> {
    /// `run.json`.
    pub run: &'a [u8],
    /// `trajectory-rewards.json`.
    pub rewards: &'a [u8],
    /// `trajectories.json`.
    pub trajectories: &'a [u8],
    /// `tasks.json`, when the folder has one.
    pub tasks: Option<&'a [u8]>,
    /// `training-run.json`, when the folder has one.
    pub training_run: Option<&'a [u8]>,
    /// `eval-options.json`, when the folder has one.
    pub eval_options: Option<&'a [u8]>,
    /// `platform-progression.json`, when the folder has one.
    pub platform_series: Option<&'a [u8]>,
}

impl<'a> RunFolderFiles<'a> {
    /// The contents of the file `name`, when the folder has it.
    pub fn file(&self, name: &str) -> Option<&'a [u8]> {
        match name {
            RUN_FILE => Some(self.run),
            REWARDS_FILE => Some(self.rewards),
            TRAJECTORIES_FILE => Some(self.trajectories),
            TASKS_FILE => self.tasks,
            TRAINING_RUN_FILE => self.training_run,
            EVAL_OPTIONS_FILE => self.eval_options,
            PLATFORM_PROGRESSION_FILE => self.platform_series,
            _ => None,
        }
    }
}

/// A parsed run folder: its lists in the full form (the defaults, what an export writes back)
/// or the packed one ([`PackedRunFolder`], for a report).
#[derive(Debug, Clone, PartialEq)]
pub struct RunFolder<R = EvalTrajectoryReward, T = TrajectoryMetadata> {
    /// The run.
    pub run: EvalRun,
    /// Its trajectory rewards.
    pub rewards: Vec<R>,
    /// Its trajectory metadata.
    pub trajectories: Vec<T>,
    /// The benchmark's tasks, when the folder has them.
    pub tasks: Option<Vec<BenchmarkSpecTask>>,
    /// The training run of a checkpoint evaluation, when the folder has it.
    pub training_run: Option<TrainingRun>,
    /// The evaluation defaults of the run's benchmark version and model, when the folder has
    /// them.
    pub eval_options: Option<RunOptionsResponse>,
    /// The platform's own progression of a checkpoint's training run (its evaluation series
    /// and held-out reward by step), when the folder has it.
    pub platform_series: Option<PlatformSeries>,
    /// Files whose last page said more followed (the export stopped early).
    pub truncated_files: Vec<String>,
    /// The run's billing row and rollout statistics, when the folder has them.
    pub costs: FolderCosts,
}

/// What a run folder keeps of the run's cost and effort as the platform reports them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FolderCosts {
    /// `billing.json`: the run's billing row.
    pub billing: Option<BillingRunCost>,
    /// `rollout-statistics.json`: the run's rollout statistics.
    pub rollout_statistics: Option<EvalRolloutStatistics>,
}

impl FolderCosts {
    /// The run's cost as the model takes it: the row's, else unavailable (never 0).
    pub fn cost(&self) -> RunCost {
        self.billing.as_ref().map_or(
            RunCost::Unavailable(CostUnavailable::NotInFolder),
            RunCost::from_billing,
        )
    }

    /// The rollout statistics as the model takes them (not read when absent).
    pub fn statistics(&self) -> Lookup<EvalRolloutStatistics> {
        self.rollout_statistics
            .clone()
            .map_or(Lookup::NotRead, Lookup::Read)
    }
}

/// A run folder decoded to what a report reads, each listed item's texts in one allocation
/// (what the load engine keeps, [`PackedTrajectory`], [`PackedReward`]): the same files
/// accepted and refused as [`RunFolder`], in less memory, and nothing borrowed from the files'
/// contents, so they can be dropped once parsed.
pub type PackedRunFolder = RunFolder<PackedReward, PackedTrajectory>;

/// One file of a run folder, ready to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderFile {
    /// File name inside the folder.
    pub name: &'static str,
    /// Its contents (pretty JSON).
    pub bytes: Vec<u8>,
}

/// The small optional files of a run folder, read whole by [`finish_run_folder`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RunFolderExtras<'a> {
    /// `training-run.json`, when the folder has one.
    pub training_run: Option<&'a [u8]>,
    /// `eval-options.json`, when the folder has one.
    pub eval_options: Option<&'a [u8]>,
    /// `platform-progression.json`, when the folder has one.
    pub platform_series: Option<&'a [u8]>,
    /// `billing.json`, when the folder has one.
    pub billing: Option<&'a [u8]>,
    /// `rollout-statistics.json`, when the folder has one.
    pub rollout_statistics: Option<&'a [u8]>,
}

impl<'a> RunFolderExtras<'a> {
    /// Those of the files `file` gives by name.
    pub fn from_files(file: impl Fn(&str) -> Option<&'a [u8]>) -> Self {
        Self {
            training_run: file(TRAINING_RUN_FILE),
            eval_options: file(EVAL_OPTIONS_FILE),
            platform_series: file(PLATFORM_PROGRESSION_FILE),
            billing: file(BILLING_FILE),
            rollout_statistics: file(ROLLOUT_STATISTICS_FILE),
        }
    }
}

/// `run.json`: the run, its id one a comparison can name. The first file a [`FolderFeed`]
/// reads of a run folder; its lists come next, then [`finish_run_folder`].
pub fn parse_run_record(bytes: &[u8]) -> Result<EvalRun, RunFolderError> {
    let run: EvalRun = decode(list::strip_bom(bytes)).map_err(|source| RunFolderError::Decode {
        file: RUN_FILE.to_owned(),
        line: None,
        source,
    })?;
    if let Err(reason) = check_id(&run.eval_run_id) {
        return Err(RunFolderError::RunId {
            file: RUN_FILE.to_owned(),
            path: None,
            id: shown_id(&run.eval_run_id),
            reason,
        });
    }
    Ok(run)
}

/// A run folder from its run and lists, read (by [`parse_run_record`] and [`parse_list`] or
/// [`ListFeed`]), and its optional files, read here: the last part of a [`FolderFeed`]'s read
/// of a run folder, whose errors come in this order.
pub fn finish_run_folder<R, T>(
    files: RunFolderExtras<'_>,
    run: EvalRun,
    rewards: ParsedList<R>,
    trajectories: ParsedList<T>,
    tasks: Option<ParsedList<BenchmarkSpecTask>>,
) -> Result<RunFolder<R, T>, RunFolderError> {
    let training_run = files
        .training_run
        .map(|bytes| decode_object::<TrainingRun>(TRAINING_RUN_FILE, bytes))
        .transpose()?;
    let eval_options = files
        .eval_options
        .map(|bytes| decode_object::<RunOptionsResponse>(EVAL_OPTIONS_FILE, bytes))
        .transpose()?;
    let platform_series = files
        .platform_series
        .map(|bytes| decode_object::<PlatformSeries>(PLATFORM_PROGRESSION_FILE, bytes))
        .transpose()?;
    let costs = folder_costs(&run, files)?;
    let mut truncated_files = Vec::new();
    for (name, truncated) in [
        (REWARDS_FILE, rewards.truncated),
        (TRAJECTORIES_FILE, trajectories.truncated),
        (
            TASKS_FILE,
            tasks.as_ref().is_some_and(|tasks| tasks.truncated),
        ),
    ] {
        if truncated {
            truncated_files.push(name.to_owned());
        }
    }
    Ok(RunFolder {
        run,
        rewards: rewards.items,
        trajectories: trajectories.items,
        tasks: tasks.map(|tasks| tasks.items),
        training_run,
        eval_options,
        platform_series,
        truncated_files,
        costs,
    })
}

/// `billing.json` and `rollout-statistics.json`, each about the folder's run (a file about
/// another run contradicts `run.json`).
fn folder_costs(run: &EvalRun, files: RunFolderExtras<'_>) -> Result<FolderCosts, RunFolderError> {
    let billing = files
        .billing
        .map(|bytes| decode_object::<BillingRunCost>(BILLING_FILE, bytes))
        .transpose()?;
    let rollout_statistics = files
        .rollout_statistics
        .map(|bytes| decode_object::<EvalRolloutStatistics>(ROLLOUT_STATISTICS_FILE, bytes))
        .transpose()?;
    let other = |file: &str, path: &str, id: &str| RunFolderError::Inconsistent {
        file: file.to_owned(),
        path: path.to_owned(),
        message: format!(
            "is about run `{}`, not the folder's run `{}` ({RUN_FILE})",
            shown_id(id),
            shown_id(&run.eval_run_id)
        ),
    };
    if let Some(row) = billing.as_ref().filter(|r| r.run_id != run.eval_run_id) {
        return Err(other(BILLING_FILE, "run_id", &row.run_id));
    }
    if let Some(stats) = rollout_statistics
        .as_ref()
        .filter(|s| s.eval_run_id != run.eval_run_id)
    {
        return Err(other(
            ROLLOUT_STATISTICS_FILE,
            "eval_run_id",
            &stats.eval_run_id,
        ));
    }
    Ok(FolderCosts {
        billing,
        rollout_statistics,
    })
}

/// One JSON object file (after a byte order mark).
fn decode_object<T: serde::de::DeserializeOwned>(
    file: &str,
    bytes: &[u8],
) -> Result<T, RunFolderError> {
    decode(list::strip_bom(bytes)).map_err(|source| RunFolderError::Decode {
        file: file.to_owned(),
        line: None,
        source,
    })
}

impl RunFolder {
    /// The folder's files as pretty JSON: `run.json` an object, the lists plain arrays of items.
    pub fn to_files(&self) -> Result<Vec<FolderFile>, RunFolderError> {
        let mut files = vec![
            encode(RUN_FILE, &self.run)?,
            encode(REWARDS_FILE, &self.rewards)?,
            encode(TRAJECTORIES_FILE, &self.trajectories)?,
        ];
        if let Some(tasks) = &self.tasks {
            files.push(encode(TASKS_FILE, tasks)?);
        }
        if let Some(training_run) = &self.training_run {
            files.push(encode(TRAINING_RUN_FILE, training_run)?);
        }
        if let Some(eval_options) = &self.eval_options {
            files.push(encode(EVAL_OPTIONS_FILE, eval_options)?);
        }
        if let Some(series) = &self.platform_series {
            files.push(encode(PLATFORM_PROGRESSION_FILE, series)?);
        }
        if let Some(row) = &self.costs.billing {
            files.push(encode(BILLING_FILE, row)?);
        }
        if let Some(statistics) = &self.costs.rollout_statistics {
            files.push(encode(ROLLOUT_STATISTICS_FILE, statistics)?);
        }
        Ok(files)
    }
}

impl<R: AsRewardFacts, T: AsTrajectoryFacts> RunFolder<R, T> {
    /// Adds the folder's tasks and run to a builder, its settings resolved with the folder's
    /// training run and evaluation defaults when it has them; a truncated file marks the run's
    /// load as incomplete. `source` labels where it came from (usually [`SourceKind::Files`]).
    pub fn add_to(
        &self,
        builder: &mut RunSetBuilder,
        source: SourceKind,
    ) -> Result<RunIdx, ModelError> {
        self.add_tasks(builder)?;
        let join = self.start_join(builder, source)?;
        self.finish_join(builder, join)
    }

    /// Adds the folder's task list, when it has one.
    pub(crate) fn add_tasks(&self, builder: &mut RunSetBuilder) -> Result<(), ModelError> {
        match &self.tasks {
            Some(tasks) => builder.add_api_tasks(tasks),
            None => Ok(()),
        }
    }

    /// [`Self::add_to`] in two parts: this adds the run and starts the join of its listings,
    /// whose ids can then be matched on another thread ([`ApiRunJoin::match_ids`]);
    /// [`Self::add_tasks`] and [`Self::finish_join`] add the tasks and trajectories.
    pub(crate) fn start_join(
        &self,
        builder: &mut RunSetBuilder,
        source: SourceKind,
    ) -> Result<ApiRunJoin, ModelError> {
        let incomplete_load = (!self.truncated_files.is_empty()).then(|| {
            format!(
                "{} ended with a page saying more followed",
                self.truncated_files.join(", ")
            )
        });
        builder.start_api_run(ApiRun {
            run: &self.run,
            rewards: &self.rewards,
            trajectories: &self.trajectories,
            source,
            incomplete_load,
        })
    }

    /// Adds the trajectories of the join [`Self::start_join`] started (after the folder's
    /// tasks, [`Self::add_tasks`]), and the run's settings.
    pub(crate) fn finish_join(
        &self,
        builder: &mut RunSetBuilder,
        mut join: ApiRunJoin,
    ) -> Result<RunIdx, ModelError> {
        join.advance(builder, &self.rewards, &self.trajectories, usize::MAX)?;
        let run = join.finish(builder)?;
        let training = self
            .training_run
            .as_ref()
            .map_or(Lookup::NotRead, Lookup::Read);
        let defaults = self
            .eval_options
            .as_ref()
            .map_or(Lookup::NotRead, Lookup::Read);
        builder.set_setting_inputs(run, setting_inputs(&self.run, training, defaults))?;
        builder.set_cost(run, self.costs.cost(), self.costs.statistics())?;
        Ok(run)
    }
}

/// Builds a run set from run folders, in order (the first is usually the baseline).
pub fn run_set_from_folders<R: AsRewardFacts, T: AsTrajectoryFacts>(
    folders: &[RunFolder<R, T>],
    source: SourceKind,
) -> Result<RunSet, ModelError> {
    let mut builder = RunSetBuilder::new();
    for folder in folders {
        folder.add_to(&mut builder, source)?;
    }
    let mut set = builder.build();
    attach_platform_series(&mut set, folders.iter());
    Ok(set)
}

/// Attaches the platform's progression each folder of a checkpoint evaluation holds to the
/// run set, by its training run (as the load engine attaches what it read).
pub fn attach_platform_series<'a, R: 'a, T: 'a>(
    set: &mut RunSet,
    folders: impl Iterator<Item = &'a RunFolder<R, T>>,
) {
    for folder in folders {
        if let (Some(series), Some(training_run_id)) =
            (&folder.platform_series, &folder.run.training_run_id)
        {
            set.attach_platform_series(training_run_id, Ok(series.clone()));
        }
    }
}

/// A run id for an error message: hidden characters visible, long ids cut with `…`.
pub(super) fn shown_id(id: &str) -> String {
    let shown = visible(id);
    if shown.chars().count() > SHOWN_ID_CHARS {
        let cut: String = shown.chars().take(SHOWN_ID_CHARS).collect();
        format!("{cut}…")
    } else {
        shown.into_owned()
    }
}

pub(super) fn encode<T: Serialize + ?Sized>(
    file: &'static str,
    value: &T,
) -> Result<FolderFile, RunFolderError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|error| RunFolderError::Encode {
        file: file.to_owned(),
        message: error.to_string(),
    })?;
    bytes.push(b'\n');
    Ok(FolderFile { name: file, bytes })
}
