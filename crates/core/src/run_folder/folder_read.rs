//! A folder read a step at a time ([`FolderRead`], [`RunFolderRead`]), so the viewer reads a
//! folder of hundreds of megabytes in slices, painting between them; run to their end in one
//! step they are [`Folder::read_as`] and [`parse_run_folder_as`](super::parse_run_folder_as).
//!
//! A Trajectory run folder's `run.json` is read first, at once, then its lists one after
//! another, each a step at a time ([`ListSteps`]), then its small optional files at once: the
//! same order, so the same first error, as a read at once. A Chronicle job folder (trials by
//! the thousand at most) is read in one step.

use serde::Deserialize;

use crate::api::{BenchmarkSpecTask, EvalRun};

use super::chronicle::{
    ChronicleFolder, ChronicleFolderFiles, JOB_FILE, RESULTS_FILE, TRIALS_FILE,
};
use super::folder::{Folder, FolderKind};
use super::list_steps::{list_work, ListSteps};
use super::{
    finish_run_folder, parse_run_record, ParsedList, RunFolder, RunFolderError, RunFolderFiles,
    EVAL_OPTIONS_FILE, PLATFORM_PROGRESSION_FILE, REWARDS_FILE, RUN_FILE, TASKS_FILE,
    TRAINING_RUN_FILE, TRAJECTORIES_FILE,
};

/// The list a [`RunFolderRead`] is reading.
#[derive(Debug)]
enum RunStage<'a, R, T> {
    /// `run.json`, next.
    Record,
    Rewards(ListSteps<'a, R>),
    Trajectories(ListSteps<'a, T>),
    Tasks(ListSteps<'a, BenchmarkSpecTask>),
    /// The optional files, next; then the folder is put together.
    Rest,
    /// Read (or refused).
    Done,
}

/// A Trajectory run folder read a step at a time; see the module's documentation.
#[derive(Debug)]
pub struct RunFolderRead<'a, R, T> {
    files: RunFolderFiles<'a>,
    stage: RunStage<'a, R, T>,
    run: Option<EvalRun>,
    rewards: Option<ParsedList<R>>,
    trajectories: Option<ParsedList<T>>,
    tasks: Option<ParsedList<BenchmarkSpecTask>>,
    /// Work of the lists already read.
    done_before: usize,
}

impl<'a, R: Deserialize<'a>, T: Deserialize<'a>> RunFolderRead<'a, R, T> {
    /// A read of the folder's files, not started.
    pub fn new(files: RunFolderFiles<'a>) -> Self {
        Self {
            files,
            stage: RunStage::Record,
            run: None,
            rewards: None,
            trajectories: None,
            tasks: None,
            done_before: 0,
        }
    }

    /// The work of the whole read, in the units of [`Self::advance`]'s budget (about a byte of
    /// the lists each).
    pub fn work(&self) -> usize {
        list_work(self.files.rewards)
            + list_work(self.files.trajectories)
            + self.files.tasks.map_or(0, list_work)
    }

    /// The work done so far, from 0 to [`Self::work`].
    pub fn done(&self) -> usize {
        self.done_before
            + match &self.stage {
                RunStage::Rewards(steps) => steps.done(),
                RunStage::Trajectories(steps) => steps.done(),
                RunStage::Tasks(steps) => steps.done(),
                RunStage::Record | RunStage::Rest | RunStage::Done => 0,
            }
    }

    /// Goes on for about `budget` units of work; `Some` when the folder is read or refused.
    pub fn advance(&mut self, budget: usize) -> Option<Result<RunFolder<R, T>, RunFolderError>> {
        match self.step(budget.max(1)) {
            Ok(Some(folder)) => Some(Ok(folder)),
            Ok(None) => None,
            Err(error) => {
                self.stage = RunStage::Done;
                Some(Err(error))
            }
        }
    }

    fn step(&mut self, budget: usize) -> Result<Option<RunFolder<R, T>>, RunFolderError> {
        let mut left = budget;
        loop {
            let before = self.done();
            match &mut self.stage {
                RunStage::Record => {
                    self.run = Some(parse_run_record(self.files.run)?);
                    self.stage =
                        RunStage::Rewards(ListSteps::new(REWARDS_FILE, self.files.rewards));
                }
                RunStage::Rewards(steps) => {
                    if let Some(list) = steps.advance(left) {
                        self.done_before += steps.work();
                        self.rewards = Some(list?);
                        self.stage = RunStage::Trajectories(ListSteps::new(
                            TRAJECTORIES_FILE,
                            self.files.trajectories,
                        ));
                    }
                }
                RunStage::Trajectories(steps) => {
                    if let Some(list) = steps.advance(left) {
                        self.done_before += steps.work();
                        self.trajectories = Some(list?);
                        self.stage = match self.files.tasks {
                            Some(bytes) => RunStage::Tasks(ListSteps::new(TASKS_FILE, bytes)),
                            None => RunStage::Rest,
                        };
                    }
                }
                RunStage::Tasks(steps) => {
                    if let Some(list) = steps.advance(left) {
                        self.done_before += steps.work();
                        self.tasks = Some(list?);
                        self.stage = RunStage::Rest;
                    }
                }
                RunStage::Rest => {
                    self.stage = RunStage::Done;
                    let (Some(run), Some(rewards), Some(trajectories)) = (
                        self.run.take(),
                        self.rewards.take(),
                        self.trajectories.take(),
                    ) else {
                        unreachable!("the record and both lists are read before the rest");
                    };
                    return finish_run_folder(
                        self.files,
                        run,
                        rewards,
                        trajectories,
                        self.tasks.take(),
                    )
                    .map(Some);
                }
                RunStage::Done => return Ok(None),
            }
            left = left.saturating_sub((self.done() - before).max(1));
            if left == 0 {
                return Ok(None);
            }
        }
    }

    /// The whole read at once.
    pub fn to_end(mut self) -> Result<RunFolder<R, T>, RunFolderError> {
        loop {
            if let Some(result) = self.advance(usize::MAX) {
                return result;
            }
        }
    }
}

/// Where a [`FolderRead`] stands.
#[derive(Debug)]
enum FolderStage<'a, R, T> {
    /// Refused before any file was read (its kind, or missing files).
    Refused(Option<RunFolderError>),
    Run(Box<RunFolderRead<'a, R, T>>),
    Chronicle(Option<ChronicleFolderFiles<'a>>),
}

/// A folder of either kind read a step at a time; see the module's documentation.
#[derive(Debug)]
pub struct FolderRead<'a, R, T> {
    stage: FolderStage<'a, R, T>,
}

impl<'a, R: Deserialize<'a>, T: Deserialize<'a>> FolderRead<'a, R, T> {
    /// A read of a folder's files, not started: `file` gives a file's contents by name
    /// (`None` when the folder has no such file). The kind is detected
    /// ([`FolderKind::detect`]); a missing required file is refused, naming it.
    pub fn new(file: impl Fn(&str) -> Option<&'a [u8]>) -> Self {
        let stage = match Self::kind(&file) {
            Err(error) => FolderStage::Refused(Some(error)),
            Ok(FolderKind::Trajectory) => {
                FolderStage::Run(Box::new(RunFolderRead::new(RunFolderFiles {
                    run: file(RUN_FILE).unwrap_or_default(),
                    rewards: file(REWARDS_FILE).unwrap_or_default(),
                    trajectories: file(TRAJECTORIES_FILE).unwrap_or_default(),
                    tasks: file(TASKS_FILE),
                    training_run: file(TRAINING_RUN_FILE),
                    eval_options: file(EVAL_OPTIONS_FILE),
                    platform_series: file(PLATFORM_PROGRESSION_FILE),
                })))
            }
            Ok(FolderKind::Chronicle) => FolderStage::Chronicle(Some(ChronicleFolderFiles {
                job: file(JOB_FILE).unwrap_or_default(),
                trials: file(TRIALS_FILE).unwrap_or_default(),
                results: file(RESULTS_FILE),
            })),
        };
        Self { stage }
    }

    /// The folder's kind, once its required files are all there.
    fn kind(file: &impl Fn(&str) -> Option<&'a [u8]>) -> Result<FolderKind, RunFolderError> {
        let kind = FolderKind::detect(|name| file(name).is_some())?;
        let missing: Vec<&'static str> = kind
            .required_files()
            .iter()
            .copied()
            .filter(|name| file(name).is_none())
            .collect();
        match missing.is_empty() {
            true => Ok(kind),
            false => Err(RunFolderError::MissingFiles { kind, missing }),
        }
    }

    /// The work of the whole read (see [`RunFolderRead::work`]; a Chronicle folder is one
    /// unit).
    pub fn work(&self) -> usize {
        match &self.stage {
            FolderStage::Run(read) => read.work(),
            FolderStage::Refused(_) | FolderStage::Chronicle(_) => 1,
        }
    }

    /// The work done so far, from 0 to [`Self::work`].
    pub fn done(&self) -> usize {
        match &self.stage {
            FolderStage::Run(read) => read.done(),
            FolderStage::Refused(error) => usize::from(error.is_none()),
            FolderStage::Chronicle(files) => usize::from(files.is_none()),
        }
    }

    /// Goes on for about `budget` units of work; `Some` when the folder is read or refused
    /// (once: later calls give `None`).
    pub fn advance(&mut self, budget: usize) -> Option<Result<Folder<R, T>, RunFolderError>> {
        match &mut self.stage {
            FolderStage::Refused(error) => error.take().map(Err),
            FolderStage::Run(read) => read
                .advance(budget)
                .map(|read| read.map(|folder| Folder::Trajectory(Box::new(folder)))),
            FolderStage::Chronicle(files) => files.take().map(|files| {
                ChronicleFolder::parse(files).map(|folder| Folder::Chronicle(Box::new(folder)))
            }),
        }
    }

    /// The whole read at once.
    pub fn to_end(mut self) -> Result<Folder<R, T>, RunFolderError> {
        loop {
            if let Some(result) = self.advance(usize::MAX) {
                return result;
            }
        }
    }
}
