//! The run set of opened folders built a step at a time ([`FolderSetBuild`]), so the viewer
//! joins runs of a hundred thousand tasks in slices, painting between them. Run to its end it
//! gives the run set [`FolderSetBuilder`] gives adding the folders one at a time (and so
//! [`FolderSetBuilder::add_all`], which the CLI uses, joining them side by side on the cores).

use std::borrow::Borrow;
use std::marker::PhantomData;

use crate::large_list::{AsRewardFacts, AsTrajectoryFacts};
use crate::model::{ApiRunJoin, ModelError, RunSet, RunSetFinish, SourceKind};

use super::folder::{attach_platform_series, Folder, FolderSetBuilder};
use super::PlatformSeries;

/// Where a [`FolderSetBuild`] stands.
#[derive(Debug)]
enum Stage {
    /// Folder `folder` is next.
    Next { folder: usize },
    /// Joining folder `folder`'s run: its rewards with its trajectories.
    Join {
        folder: usize,
        join: Box<ApiRunJoin>,
    },
    /// Every folder added: grouping the runs by task, then attaching the platform's
    /// progressions.
    Grouping(Box<RunSetFinish>, Vec<(String, PlatformSeries)>),
    /// Built (or refused).
    Done,
}

/// What one [`FolderSetBuild::advance`] ended with: `None` while more steps are needed.
pub type FolderSetStep = Option<Result<RunSet, ModelError>>;

/// The run set of folders (each a `Folder` or anything that borrows one, e.g. an `Arc`) built
/// a step at a time; see the module's documentation.
#[derive(Debug)]
pub struct FolderSetBuild<F, R, T> {
    folders: Vec<F>,
    source: SourceKind,
    set: FolderSetBuilder,
    stage: Stage,
    /// Items walked so far and in all, for progress.
    walked: usize,
    total: usize,
    lists: PhantomData<fn() -> (R, T)>,
}

impl<F, R, T> FolderSetBuild<F, R, T>
where
    F: Borrow<Folder<R, T>>,
    R: AsRewardFacts,
    T: AsTrajectoryFacts,
{
    /// A build of the run set of `folders`, in order (their runs in the order
    /// [`Folder::run_ids`] gives), not started.
    pub fn new(folders: Vec<F>, source: SourceKind) -> Self {
        let total = folders
            .iter()
            .map(|folder| match folder.borrow() {
                Folder::Trajectory(run) => {
                    let items = run.rewards.len().max(run.trajectories.len());
                    ApiRunJoin::work(run.rewards.len(), run.trajectories.len()) + items
                }
                Folder::Chronicle(_) => 1,
            })
            .sum();
        Self {
            folders,
            source,
            set: FolderSetBuilder::new(),
            stage: Stage::Next { folder: 0 },
            walked: 0,
            total,
            lists: PhantomData,
        }
    }

    /// The share of the work done, from 0 to 1.
    pub fn progress(&self) -> f64 {
        match self.total {
            0 => 1.0,
            total => (self.walked as f64 / total as f64).min(1.0),
        }
    }

    /// Goes on for about `budget` items (trajectory items walked, rows grouped by task; a
    /// Chronicle folder, or a run's task list, is one step); `Some` once built or refused.
    pub fn advance(&mut self, budget: usize) -> FolderSetStep {
        match self.step(budget.max(1)) {
            Ok(None) => None,
            Ok(Some(set)) => {
                self.walked = self.total;
                Some(Ok(set))
            }
            Err(error) => {
                self.stage = Stage::Done;
                Some(Err(error))
            }
        }
    }

    fn step(&mut self, budget: usize) -> Result<Option<RunSet>, ModelError> {
        let mut left = budget;
        while left > 0 {
            match &mut self.stage {
                Stage::Next { folder } => {
                    let index = *folder;
                    let Some(next) = self.folders.get(index) else {
                        let set = std::mem::take(&mut self.set);
                        self.stage =
                            Stage::Grouping(Box::new(set.builder.finishing()), set.platform_series);
                        continue;
                    };
                    match next.borrow() {
                        Folder::Chronicle(_) => {
                            self.set.add(next.borrow(), self.source)?;
                            self.walked += 1;
                            self.stage = Stage::Next { folder: index + 1 };
                        }
                        Folder::Trajectory(run) => {
                            run.add_tasks(&mut self.set.builder)?;
                            let join = run.start_join(&mut self.set.builder, self.source)?;
                            self.stage = Stage::Join {
                                folder: index,
                                join: Box::new(join),
                            };
                        }
                    }
                    left -= 1;
                }
                Stage::Join { folder, join } => {
                    let index = *folder;
                    let Folder::Trajectory(run) = self.folders[index].borrow() else {
                        unreachable!("only a Trajectory folder's run is joined");
                    };
                    let before = join.progress().0;
                    let done =
                        join.advance(&mut self.set.builder, &run.rewards, &run.trajectories, left)?;
                    let walked = join.progress().0 - before;
                    self.walked += walked;
                    left = left.saturating_sub(walked.max(1));
                    if !done {
                        continue;
                    }
                    let Stage::Join { join, .. } =
                        std::mem::replace(&mut self.stage, Stage::Next { folder: index + 1 })
                    else {
                        unreachable!("the stage was matched as a join just above");
                    };
                    run.finish_join(&mut self.set.builder, *join)?;
                    self.set.keep_platform_series(run);
                }
                Stage::Grouping(finishing, _) => {
                    let before = finishing.rows_done();
                    let grouped = finishing.finish_step(left);
                    self.walked += finishing.rows_done().saturating_sub(before);
                    left = 0;
                    if !grouped {
                        continue;
                    }
                    let Stage::Grouping(finishing, platform_series) =
                        std::mem::replace(&mut self.stage, Stage::Done)
                    else {
                        unreachable!("the stage was matched as grouping just above");
                    };
                    return Ok(Some(attach_platform_series(
                        finishing.build(),
                        platform_series,
                    )));
                }
                Stage::Done => return Ok(None),
            }
        }
        Ok(None)
    }
}
