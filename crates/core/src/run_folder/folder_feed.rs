//! A folder of either kind read a file at a time ([`FolderFeed`]): the one place the order of a
//! folder's reading is written, whoever does the IO. A Trajectory run folder is read as its
//! run record ([`parse_run_record`]), its trajectory rewards, its trajectories and its tasks
//! (the lists), its small optional files, then put together ([`finish_run_folder`]); a
//! Chronicle job folder as its job, its trials and its results
//! ([`ChronicleFolder::parse`]'s checks). The first error ends the read, naming its file.
//!
//! The feed says which file it wants next ([`FolderStep::Open`]) and is given that file's
//! bytes a chunk at a time ([`FolderFeed::push`], then [`FolderFeed::end`]), or all at once
//! ([`FolderFeed::whole`]), or told the folder has no such file ([`FolderFeed::absent`]). The
//! three lists of a Trajectory run are decoded as their chunks arrive ([`ListFeed`]), so a
//! reader never holds them whole (at 100,000 tasks × 8 samples, 250 MB a run); a list the feed
//! cannot read is asked for again, to be read whole and parsed at once ([`parse_list`]), whose
//! error is the answer. Given whole, a list is parsed at once: what [`Folder::read_as`] does
//! with contents already in memory. The other files are small and read whole.
//!
//! The CLI feeds it from disk (`folder_io.rs`), the viewer from the browser's files
//! (`state/files/reading.rs`), [`Folder::read_as`] from memory: each keeps only its IO loop.

use crate::api::{
    BenchmarkSpecTask, ChronicleJob, ChronicleTrial, EvalRun, EvalTrajectoryReward,
    TrajectoryMetadata,
};
use crate::large_list::PlainItem;

use super::chronicle::{ChronicleFolder, ChronicleFolderFiles, JOB_FILE, TRIALS_FILE};
use super::folder::{Folder, FolderKind, FOLDER_FILES};
use super::list::{parse_list, ParsedList};
use super::list_feed::{Feed, ListFeed};
use super::{
    finish_run_folder, parse_run_record, RunFolder, RunFolderError, RunFolderExtras,
    RunFolderFiles, REWARDS_FILE, RUN_FILE, TASKS_FILE, TRAJECTORIES_FILE,
};

/// The files decoded as their chunks arrive: a Trajectory run's lists.
const STREAMED: [&str; 3] = [REWARDS_FILE, TRAJECTORIES_FILE, TASKS_FILE];

/// What [`FolderFeed::advance`] ended with.
#[derive(Debug)]
pub enum FolderStep<R, T> {
    /// Open the file `name` and give its bytes from the start: a chunk at a time
    /// ([`FolderFeed::push`] on [`FolderStep::NeedMore`], then [`FolderFeed::end`]) or at once
    /// ([`FolderFeed::whole`]); or say the folder has none ([`FolderFeed::absent`]).
    /// `streamed`: a list decoded as its chunks arrive; else a file that is read whole (a small
    /// one, or a list asked for again, whose whole read gives its error).
    Open {
        /// The file's name in the folder.
        name: &'static str,
        /// Whether it is decoded as its chunks arrive.
        streamed: bool,
    },
    /// Every byte given is used: give the open file's next chunk, or end it.
    NeedMore,
    /// The budget is spent; more steps are needed.
    Working,
    /// The folder is read, or refused (the error names the file). The feed asks nothing more:
    /// its steps from then on are [`FolderStep::Working`] and do nothing.
    Done(Result<Folder<R, T>, RunFolderError>),
}

/// A list being decoded as its chunks arrive.
#[derive(Debug)]
enum OpenList<R, T> {
    Rewards(ListFeed<R>),
    Trajectories(ListFeed<T>),
    Tasks(ListFeed<BenchmarkSpecTask>),
}

/// The file the feed asked for.
#[derive(Debug)]
enum InFile<R, T> {
    /// None: the next one is asked for at the next step.
    None,
    /// A file read whole: its bytes so far, and whether they are all there. `again`: a list
    /// the feed could not read, asked for again.
    Whole {
        bytes: Vec<u8>,
        ended: bool,
        again: bool,
    },
    /// A list decoded as it arrives.
    List(OpenList<R, T>),
}

/// What a Trajectory run folder's files gave so far.
#[derive(Debug)]
struct RunParts<R, T> {
    run: Option<EvalRun>,
    rewards: Option<ParsedList<R>>,
    trajectories: Option<ParsedList<T>>,
    tasks: Option<ParsedList<BenchmarkSpecTask>>,
    /// The small optional files ([`RunFolderExtras::FILES`]), decoded when put together.
    extras: Vec<(&'static str, Vec<u8>)>,
}

/// What a Chronicle job folder's files gave so far.
#[derive(Debug, Default)]
struct JobParts {
    job: Option<ChronicleJob>,
    trials: Option<ParsedList<ChronicleTrial>>,
    results: Option<Vec<u8>>,
}

/// What the feed holds of the folder, by its kind.
#[derive(Debug)]
enum Parts<R, T> {
    Run(Box<RunParts<R, T>>),
    Job(Box<JobParts>),
}

/// Where a list being decoded stands.
enum ListStep {
    Working,
    NeedMore,
    Read,
    Unexpected,
}

/// A folder read a file at a time; see the module's documentation.
#[derive(Debug)]
pub struct FolderFeed<R, T> {
    /// The sizes of the files the folder holds (of those a folder of either kind may hold).
    sizes: Vec<(&'static str, u64)>,
    /// Its kind's files in the order they are read.
    order: &'static [&'static str],
    /// The file asked for, or the next one, in `order`.
    next: usize,
    file: InFile<R, T>,
    /// What its files gave so far; `None` once it ended.
    parts: Option<Parts<R, T>>,
    /// Why the folder is refused, until said.
    refused: Option<RunFolderError>,
    /// The bytes of the lists read so far, for progress.
    lists_read: u64,
    /// Whether a list's room is reserved for the items its file's size projects.
    reserve_by_size: bool,
}

impl<R: PlainItem, T: PlainItem> FolderFeed<R, T> {
    /// A feed for the folder whose files `size` gives, each's size in bytes by name (`None`
    /// for a file it does not hold). Its kind is told from them ([`FolderKind::of_files`]): a
    /// folder of no kind, or missing a file its kind needs, is refused at the first step.
    pub fn new(size: impl Fn(&str) -> Option<u64>) -> Self {
        let sizes: Vec<(&'static str, u64)> = FOLDER_FILES
            .iter()
            .filter_map(|&name| Some((name, size(name)?)))
            .collect();
        let kind = FolderKind::of_files(|name| sizes.iter().any(|(held, _)| *held == name));
        let (order, parts, refused): (&'static [&'static str], _, _) = match kind {
            Ok(FolderKind::Trajectory) => (
                FolderKind::Trajectory.files(),
                Some(Parts::Run(Box::new(RunParts {
                    run: None,
                    rewards: None,
                    trajectories: None,
                    tasks: None,
                    extras: Vec::new(),
                }))),
                None,
            ),
            Ok(FolderKind::Chronicle) => (
                FolderKind::Chronicle.files(),
                Some(Parts::Job(Box::default())),
                None,
            ),
            Err(error) => (&[], None, Some(error)),
        };
        Self {
            sizes,
            order,
            next: 0,
            file: InFile::None,
            parts,
            refused,
            lists_read: 0,
            reserve_by_size: false,
        }
    }

    /// The feed with each list's room reserved for the items its file's size projects
    /// ([`ListFeed::sized`]): a list of 800,000 items is then not copied as it grows, nor held
    /// twice while it is (what the CLI, reading each folder once, wants). Without it a list's
    /// room grows by doubling: a page that opens folders again and again then asks for blocks
    /// of the same sizes at each opening and reuses those an earlier one let go of.
    pub fn reserving_by_size(mut self) -> Self {
        self.reserve_by_size = true;
        self
    }

    /// The share of the lists' bytes decoded, from 0 to 1 (a job folder's files, small, are
    /// not counted).
    pub fn progress(&self) -> f64 {
        let total: u64 = STREAMED.iter().filter_map(|name| self.size(name)).sum();
        let reading = match &self.file {
            InFile::List(OpenList::Rewards(feed)) => feed.consumed(),
            InFile::List(OpenList::Trajectories(feed)) => feed.consumed(),
            InFile::List(OpenList::Tasks(feed)) => feed.consumed(),
            InFile::None | InFile::Whole { .. } => 0,
        };
        ((self.lists_read as f64 + reading as f64) / total.max(1) as f64).min(1.0)
    }

    /// The open file's next bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        match &mut self.file {
            InFile::Whole { bytes: held, .. } => held.extend_from_slice(bytes),
            InFile::List(OpenList::Rewards(feed)) => feed.push(bytes),
            InFile::List(OpenList::Trajectories(feed)) => feed.push(bytes),
            InFile::List(OpenList::Tasks(feed)) => feed.push(bytes),
            InFile::None => {}
        }
    }

    /// The open file ends with the bytes pushed.
    pub fn end(&mut self) {
        match &mut self.file {
            InFile::Whole { ended, .. } => *ended = true,
            InFile::List(OpenList::Rewards(feed)) => feed.end(),
            InFile::List(OpenList::Trajectories(feed)) => feed.end(),
            InFile::List(OpenList::Tasks(feed)) => feed.end(),
            InFile::None => {}
        }
    }

    /// The open file's whole contents at once, instead of [`Self::push`] and [`Self::end`]; a
    /// list then is parsed at once ([`parse_list`]).
    pub fn whole(&mut self, bytes: &[u8]) {
        match &mut self.file {
            InFile::None => {}
            // Some bytes were pushed already: these are the rest.
            InFile::Whole {
                bytes: held, ended, ..
            } if !held.is_empty() => {
                held.extend_from_slice(bytes);
                *ended = true;
            }
            InFile::Whole { .. } | InFile::List(_) => {
                self.file = InFile::None;
                self.take(bytes);
            }
        }
    }

    /// The folder has no file of the name asked for: an optional file is read as missing; a
    /// file its kind needs, or a list asked for again, refuses the folder.
    pub fn absent(&mut self) {
        let again = match &self.file {
            InFile::None => return,
            InFile::Whole { again, .. } => *again,
            InFile::List(_) => false,
        };
        self.file = InFile::None;
        let kind = match &self.parts {
            Some(Parts::Run(_)) => FolderKind::Trajectory,
            Some(Parts::Job(_)) => FolderKind::Chronicle,
            None => return,
        };
        let name = self.name();
        if again || kind.required_files().contains(&name) {
            self.refused = Some(RunFolderError::MissingFiles {
                kind,
                missing: vec![name],
            });
        } else {
            self.next += 1;
        }
    }

    /// Goes on for about `budget` bytes of a list's values (a small file is read in one step).
    pub fn advance(&mut self, budget: usize) -> FolderStep<R, T> {
        loop {
            if let Some(error) = self.refused.take() {
                self.parts = None;
                self.file = InFile::None;
                return FolderStep::Done(Err(error));
            }
            let Some(parts) = &mut self.parts else {
                return FolderStep::Working;
            };
            match &mut self.file {
                InFile::None => {
                    while self
                        .order
                        .get(self.next)
                        .is_some_and(|name| self.size(name).is_none())
                    {
                        self.next += 1;
                    }
                    if self.next < self.order.len() {
                        return self.open();
                    }
                    let read = match self.parts.take() {
                        Some(Parts::Run(parts)) => parts.put_together(),
                        Some(Parts::Job(parts)) => parts.put_together(),
                        None => continue,
                    };
                    return FolderStep::Done(read);
                }
                InFile::Whole { ended: false, .. } => return FolderStep::NeedMore,
                InFile::Whole { bytes, .. } => {
                    let bytes = std::mem::take(bytes);
                    self.file = InFile::None;
                    self.take(&bytes);
                }
                InFile::List(list) => match advance_list(list, parts, budget) {
                    ListStep::Working => return FolderStep::Working,
                    ListStep::NeedMore => return FolderStep::NeedMore,
                    ListStep::Read => {
                        self.lists_read += self.size(self.name()).unwrap_or_default();
                        self.file = InFile::None;
                        self.next += 1;
                    }
                    ListStep::Unexpected => {
                        self.file = InFile::Whole {
                            bytes: Vec::new(),
                            ended: false,
                            again: true,
                        };
                        return FolderStep::Open {
                            name: self.name(),
                            streamed: false,
                        };
                    }
                },
            }
        }
    }

    /// The name of the file asked for.
    fn name(&self) -> &'static str {
        self.order.get(self.next).copied().unwrap_or_default()
    }

    /// The size of the file `name`, when the folder holds it.
    fn size(&self, name: &str) -> Option<u64> {
        self.sizes
            .iter()
            .find(|(held, _)| *held == name)
            .map(|(_, size)| *size)
    }

    /// Asks for the next file: a Trajectory run's list decoded as it arrives, any other read
    /// whole.
    fn open(&mut self) -> FolderStep<R, T> {
        let name = self.name();
        let size = self.size(name).unwrap_or_default();
        let reserve = self.reserve_by_size;
        fn feed<I: PlainItem>(reserve: bool, size: u64) -> ListFeed<I> {
            match reserve {
                true => ListFeed::sized(size),
                false => ListFeed::new(),
            }
        }
        let list = match (&self.parts, name) {
            (Some(Parts::Run(_)), REWARDS_FILE) => Some(OpenList::Rewards(feed(reserve, size))),
            (Some(Parts::Run(_)), TRAJECTORIES_FILE) => {
                Some(OpenList::Trajectories(feed(reserve, size)))
            }
            (Some(Parts::Run(_)), TASKS_FILE) => Some(OpenList::Tasks(feed(reserve, size))),
            _ => None,
        };
        let streamed = list.is_some();
        self.file = match list {
            Some(list) => InFile::List(list),
            None => InFile::Whole {
                bytes: Vec::new(),
                ended: false,
                again: false,
            },
        };
        FolderStep::Open { name, streamed }
    }

    /// Takes the whole contents of the file asked for; the next file is asked for next.
    fn take(&mut self, bytes: &[u8]) {
        let name = self.name();
        self.next += 1;
        let taken = match &mut self.parts {
            Some(Parts::Run(parts)) => parts.take(name, bytes),
            Some(Parts::Job(parts)) => parts.take(name, bytes),
            None => Ok(()),
        };
        if let Err(error) = taken {
            self.refused = Some(error);
        }
    }
}

impl<R: PlainItem, T: PlainItem> RunParts<R, T> {
    /// Takes a file's whole contents: the run record and the lists parsed at once, the small
    /// optional files kept for [`Self::put_together`].
    fn take(&mut self, name: &'static str, bytes: &[u8]) -> Result<(), RunFolderError> {
        match name {
            RUN_FILE => self.run = Some(parse_run_record(bytes)?),
            REWARDS_FILE => self.rewards = Some(parse_list(name, bytes)?),
            TRAJECTORIES_FILE => self.trajectories = Some(parse_list(name, bytes)?),
            TASKS_FILE => self.tasks = Some(parse_list(name, bytes)?),
            _ => self.extras.push((name, bytes.to_vec())),
        }
        Ok(())
    }

    /// The run folder, its small optional files read last ([`finish_run_folder`]).
    fn put_together(self: Box<Self>) -> Result<Folder<R, T>, RunFolderError> {
        let RunParts {
            run,
            rewards,
            trajectories,
            tasks,
            extras,
        } = *self;
        let (Some(run), Some(rewards), Some(trajectories)) = (run, rewards, trajectories) else {
            // Not met: they are read first, and the folder is refused without them.
            return Err(RunFolderError::MissingFiles {
                kind: FolderKind::Trajectory,
                missing: FolderKind::Trajectory.required_files().to_vec(),
            });
        };
        let extra = |name: &str| {
            extras
                .iter()
                .find(|(held, _)| *held == name)
                .map(|(_, bytes)| bytes.as_slice())
        };
        let folder = finish_run_folder(
            RunFolderExtras::from_files(extra),
            run,
            rewards,
            trajectories,
            tasks,
        )?;
        Ok(Folder::Trajectory(Box::new(folder)))
    }
}

impl JobParts {
    /// Takes a file's whole contents: the job and its trials parsed at once, the results kept
    /// for [`Self::put_together`].
    fn take(&mut self, name: &'static str, bytes: &[u8]) -> Result<(), RunFolderError> {
        match name {
            JOB_FILE => self.job = Some(ChronicleFolder::parse_job(bytes)?),
            TRIALS_FILE => self.trials = Some(parse_list(name, bytes)?),
            _ => self.results = Some(bytes.to_vec()),
        }
        Ok(())
    }

    /// The job folder: its ids checked, then its results read ([`ChronicleFolder::put_together`]).
    fn put_together<R, T>(self: Box<Self>) -> Result<Folder<R, T>, RunFolderError> {
        let JobParts {
            job,
            trials,
            results,
        } = *self;
        let (Some(job), Some(trials)) = (job, trials) else {
            // Not met, as for a run folder.
            return Err(RunFolderError::MissingFiles {
                kind: FolderKind::Chronicle,
                missing: FolderKind::Chronicle.required_files().to_vec(),
            });
        };
        let folder = ChronicleFolder::put_together(job, trials, results.as_deref())?;
        Ok(Folder::Chronicle(Box::new(folder)))
    }
}

/// One step of the list being decoded; once read, it is kept in `parts`.
fn advance_list<R: PlainItem, T: PlainItem>(
    list: &mut OpenList<R, T>,
    parts: &mut Parts<R, T>,
    budget: usize,
) -> ListStep {
    let Parts::Run(parts) = parts else {
        return ListStep::Unexpected;
    };
    match list {
        OpenList::Rewards(feed) => keep(feed.advance(budget), &mut parts.rewards),
        OpenList::Trajectories(feed) => keep(feed.advance(budget), &mut parts.trajectories),
        OpenList::Tasks(feed) => keep(feed.advance(budget), &mut parts.tasks),
    }
}

/// A list feed's step, the list kept in `slot` once read.
fn keep<I>(step: Feed<I>, slot: &mut Option<ParsedList<I>>) -> ListStep {
    match step {
        Feed::Working => ListStep::Working,
        Feed::NeedMore => ListStep::NeedMore,
        Feed::Unexpected => ListStep::Unexpected,
        Feed::Read(list) => {
            *slot = Some(list);
            ListStep::Read
        }
    }
}

/// A folder read from contents in memory, each file given whole: `file` gives a file's
/// contents by name (`None` when the folder has no such file).
fn read_whole<'a, R: PlainItem, T: PlainItem>(
    file: impl Fn(&str) -> Option<&'a [u8]>,
) -> Result<Folder<R, T>, RunFolderError> {
    let mut feed = FolderFeed::new(|name| file(name).map(|bytes| bytes.len() as u64));
    loop {
        match feed.advance(usize::MAX) {
            FolderStep::Open { name, .. } => match file(name) {
                Some(bytes) => feed.whole(bytes),
                None => feed.absent(),
            },
            FolderStep::NeedMore => feed.end(),
            FolderStep::Working => {}
            FolderStep::Done(read) => return read,
        }
    }
}

impl Folder {
    /// Reads a folder from its files: `file` gives a file's contents by name (`None` when the
    /// folder has no such file). The kind is detected ([`FolderKind::detect`]); a missing
    /// required file is refused, naming it.
    pub fn read<'a>(file: impl Fn(&str) -> Option<&'a [u8]>) -> Result<Folder, RunFolderError> {
        Folder::read_as(file)
    }
}

impl<R: PlainItem, T: PlainItem> Folder<R, T> {
    /// [`Folder::read`] with a Trajectory run's lists in the form asked for (e.g.
    /// [`PackedFolder`](super::PackedFolder)): a [`FolderFeed`] given each file whole.
    pub fn read_as<'a>(
        file: impl Fn(&str) -> Option<&'a [u8]>,
    ) -> Result<Folder<R, T>, RunFolderError> {
        read_whole(file)
    }
}

/// Parses a run folder from its files' contents.
pub fn parse_run_folder(files: RunFolderFiles<'_>) -> Result<RunFolder, RunFolderError> {
    parse_run_folder_as(files)
}

/// [`parse_run_folder`] with the lists in the form asked for (e.g.
/// [`PackedRunFolder`](super::PackedRunFolder)): [`Folder::read_as`] of a Trajectory run.
pub fn parse_run_folder_as<R: PlainItem, T: PlainItem>(
    files: RunFolderFiles<'_>,
) -> Result<RunFolder<R, T>, RunFolderError> {
    match read_whole(|name| files.file(name))? {
        Folder::Trajectory(folder) => Ok(*folder),
        // Never met: given only a run's files, the feed reads a run.
        Folder::Chronicle(_) => Err(RunFolderError::Layout {
            file: super::JOB_FILE.to_owned(),
            message: "a Chronicle job's folder where a run's was expected".to_owned(),
        }),
    }
}

impl ChronicleFolder {
    /// Parses a Chronicle job folder from its files' contents: [`Folder::read_as`] of a job.
    pub fn parse(files: ChronicleFolderFiles<'_>) -> Result<ChronicleFolder, RunFolderError> {
        match read_whole::<EvalTrajectoryReward, TrajectoryMetadata>(|name| files.file(name))? {
            Folder::Chronicle(folder) => Ok(*folder),
            // Never met: given only a job's files, the feed reads a job.
            Folder::Trajectory(_) => Err(RunFolderError::Layout {
                file: super::RUN_FILE.to_owned(),
                message: "a run's folder where a Chronicle job's was expected".to_owned(),
            }),
        }
    }
}
