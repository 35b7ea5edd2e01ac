//! Trajectory API data (or a run folder) into the model: rewards joined with metadata.

use crate::api::{
    BenchmarkSpecTask, EvalRun, EvalTrajectoryReward, RecordedRunOptions, RunOptionsResponse,
    TrainingRun, TrajectoryMetadata, TrajectoryRewardComponent,
};
use crate::large_list::{AsRewardFacts, AsTrajectoryFacts, TrajectoryFacts};

use super::builder::RunSetBuilder;
use super::component::RewardComponent;
use super::error::ModelError;
use super::id_join::{IdJoin, IdJoinBuild};
use super::id_list::IdList;
use super::join::{JoinReport, TaskConflict, JOIN_EXAMPLES, REWARD_AGREEMENT};
use super::outcome::{
    classify_termination, classify_unended, rollout_status_is_active, trajectory_status_is_active,
    OutcomeClass,
};
use super::run::{CheckpointInfo, RunIdx, RunInfo, TaskSelection};
use super::run_options::RunOptions;
use super::setting_inputs::{EvaluationDefaults, Lookup, SettingInputs};
use super::source::SourceKind;
use super::task::{Category, TaskInput};
use super::timestamp::unix_seconds;
use super::trajectory::{TrajectoryFlags, TrajectoryInput};
use super::word_cmp::same_text;

/// One evaluation run as read from the Trajectory API or a run folder: its lists in the full
/// form (the defaults), the packed one ([`crate::large_list::PackedReward`],
/// [`crate::large_list::PackedTrajectory`]) or the lean one ([`crate::large_list::LeanReward`],
/// [`crate::large_list::LeanTrajectory`]).
#[derive(Debug, Clone)]
pub struct ApiRun<'a, R = EvalTrajectoryReward, T = TrajectoryMetadata> {
    /// The run (`GET /api/v1/eval/{run_id}`).
    pub run: &'a EvalRun,
    /// Its trajectory rewards (`/trajectory-rewards`): the effective rewards used.
    pub rewards: &'a [R],
    /// Its trajectories (`/trajectories?eval_run_id=`): endings, including unfinished and failed.
    pub trajectories: &'a [T],
    /// Where it was loaded from.
    pub source: SourceKind,
    /// What is missing when loading stopped early; `None` when complete.
    pub incomplete_load: Option<String>,
}

impl RunSetBuilder {
    /// Adds a benchmark's task list (labels, splits and categories).
    pub fn add_api_tasks(&mut self, tasks: &[BenchmarkSpecTask]) -> Result<(), ModelError> {
        for task in tasks {
            self.add_task(TaskInput {
                id: task.task_id.clone(),
                label: task.label.clone(),
                split: task.split.as_ref().map(|split| split.as_str().to_owned()),
                categories: task
                    .task_categories
                    .iter()
                    .map(|category| Category {
                        id: category.task_category_id.clone(),
                        label: category.label.clone(),
                    })
                    .collect(),
            })?;
        }
        Ok(())
    }

    /// Adds an evaluation run, joining its rewards with its metadata on `trajectory_id`.
    ///
    /// - The reward in trajectory rewards is the effective reward. A trajectory listed only in
    ///   metadata uses the metadata's reward when it has one (flagged), else has none.
    /// - A reward without metadata has no known ending: it is classed "other" (enters the
    ///   primary analysis with its reward, flagged).
    /// - When the two listings name different tasks, the reward's task is used (flagged).
    /// - A repeated trajectory id keeps its first item; a repeat with another reward is counted
    ///   as a conflict, with examples.
    ///
    /// Everything found is counted in the run's [`JoinReport`].
    pub fn add_api_run<R: AsRewardFacts, T: AsTrajectoryFacts>(
        &mut self,
        source: ApiRun<'_, R, T>,
    ) -> Result<RunIdx, ModelError> {
        let (rewards, trajectories) = (source.rewards, source.trajectories);
        let mut join = self.start_api_run(source)?;
        join.advance(self, rewards, trajectories, usize::MAX)?;
        join.finish(self)
    }

    /// [`Self::add_api_run`] a step at a time: adds the run and matches the ids of its two
    /// listings; [`ApiRunJoin::advance`] then adds its trajectories, a number at a time, and
    /// [`ApiRunJoin::finish`] records what the join found. The result is the same.
    pub fn start_api_run<R: AsRewardFacts, T: AsTrajectoryFacts>(
        &mut self,
        source: ApiRun<'_, R, T>,
    ) -> Result<ApiRunJoin, ModelError> {
        let mut info = run_info_from_api(source.run, source.source);
        info.incomplete_load = source.incomplete_load;
        let run = self.add_run(info)?;
        let (rewards, trajectories) = (source.rewards, source.trajectories);
        let count = trajectories.len().max(rewards.len());
        let id_bytes = count.saturating_mul(id_length_estimate(rewards, trajectories));
        self.reserve_trajectories(run, count, id_bytes)?;
        let matching = IdJoinBuild::new(trajectories.len(), rewards.len())
            .ok_or(ModelError::TooMany("trajectories"))?;
        Ok(ApiRunJoin {
            run,
            matching: Box::new(matching),
            ids: IdJoin::default(),
            report: JoinReport {
                reward_items: rewards.len() as u64,
                metadata_items: trajectories.len() as u64,
                ..JoinReport::default()
            },
            matched: vec![false; trajectories.len()],
            stage: JoinStage::Matching,
            listings: (listing_of(rewards), listing_of(trajectories)),
        })
    }
}

/// Where an [`ApiRunJoin`] stands: the index of the next item of the listing it walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JoinStage {
    /// Matching the ids of the two listings ([`IdJoinBuild`]).
    Matching,
    /// Counting the metadata items that repeat an id.
    Repeats(usize),
    /// Adding the reward items, each with its metadata when there is one.
    Rewards(usize),
    /// Adding the metadata items no reward item matched.
    Unmatched(usize),
    /// Every item added.
    Done,
}

/// A run's join of rewards with metadata in progress ([`RunSetBuilder::start_api_run`]).
#[derive(Debug)]
pub struct ApiRunJoin {
    run: RunIdx,
    /// The matching of ids in progress; its result is `ids`.
    matching: Box<IdJoinBuild>,
    ids: IdJoin,
    report: JoinReport,
    /// Whether each listed trajectory was joined with its (first) reward item.
    matched: Vec<bool>,
    stage: JoinStage,
    /// The listings it was started with, rewards then trajectories ([`listing_of`]).
    listings: (Listing, Listing),
}

impl ApiRunJoin {
    /// The run being joined.
    pub fn run(&self) -> RunIdx {
        self.run
    }

    /// Items walked so far and in all ([`Self::work`]).
    pub fn progress(&self) -> (usize, usize) {
        let ((_, rewards), (_, trajectories)) = self.listings;
        // Matching passes each item twice (see `IdJoinBuild::progress`).
        let matching = 2 * (rewards + trajectories);
        let walked = match self.stage {
            JoinStage::Matching => self.matching.progress().0,
            JoinStage::Repeats(at) => matching + at,
            JoinStage::Rewards(at) => matching + trajectories + at,
            JoinStage::Unmatched(at) => matching + trajectories + rewards + at,
            JoinStage::Done => Self::work(rewards, trajectories),
        };
        (walked, Self::work(rewards, trajectories))
    }

    /// The items a join of `rewards` and `trajectories` items walks: matching the ids passes
    /// each item twice (hashing, then the walk), the join once more and the metadata again.
    pub fn work(rewards: usize, trajectories: usize) -> usize {
        3 * rewards + 4 * trajectories
    }

    /// Walks up to `budget` more items of the listings the join was started with (the same
    /// slices, passed again); true once every item was added.
    ///
    /// Other listings than those it was started with (another place or length: a list
    /// swapped or grown in between) are refused ([`ModelError::ListingsChanged`]): the join
    /// must start again.
    pub fn advance<R: AsRewardFacts, T: AsTrajectoryFacts>(
        &mut self,
        builder: &mut RunSetBuilder,
        rewards: &[R],
        trajectories: &[T],
        budget: usize,
    ) -> Result<bool, ModelError> {
        if self.listings != (listing_of(rewards), listing_of(trajectories)) {
            return Err(ModelError::ListingsChanged);
        }
        let mut left = budget;
        while left > 0 {
            let (next, walked) = match self.stage {
                JoinStage::Matching => {
                    let before = self.matching.progress().0;
                    let done = self.matching.advance(
                        &MetadataIds(trajectories),
                        &RewardIds(rewards),
                        left,
                    );
                    let walked = self.matching.progress().0 - before;
                    match self.matching.take_join().filter(|_| done) {
                        Some(ids) => {
                            self.ids = ids;
                            (JoinStage::Repeats(0), walked)
                        }
                        None => (JoinStage::Matching, walked),
                    }
                }
                JoinStage::Repeats(at) => {
                    let (chunk, last) = next_chunk(at, left, trajectories.len());
                    self.count_repeats(trajectories, chunk.clone());
                    let stage = if last {
                        JoinStage::Rewards(0)
                    } else {
                        JoinStage::Repeats(chunk.end)
                    };
                    (stage, chunk.len())
                }
                JoinStage::Rewards(at) => {
                    let (chunk, last) = next_chunk(at, left, rewards.len());
                    self.add_rewards(builder, rewards, trajectories, chunk.clone())?;
                    let stage = if last {
                        JoinStage::Unmatched(0)
                    } else {
                        JoinStage::Rewards(chunk.end)
                    };
                    (stage, chunk.len())
                }
                JoinStage::Unmatched(at) => {
                    let (chunk, last) = next_chunk(at, left, trajectories.len());
                    self.add_unmatched(builder, trajectories, chunk.clone())?;
                    let stage = if last {
                        JoinStage::Done
                    } else {
                        JoinStage::Unmatched(chunk.end)
                    };
                    (stage, chunk.len())
                }
                JoinStage::Done => return Ok(true),
            };
            self.stage = next;
            // A listing with no items left walks none: its stage still moves on.
            left = left.saturating_sub(walked.max(1));
        }
        Ok(self.stage == JoinStage::Done)
    }

    /// Matches the ids of the listings it was started with (the same slices) to the end, when
    /// not done yet: the part of the join that needs no builder, and most of its time, so
    /// several runs' can be matched at once, each on its own thread
    /// ([`crate::run_folder::FolderSetBuilder::add_all`]). [`Self::advance`] goes on from
    /// there; other listings are left to it to refuse.
    pub fn match_ids<R: AsRewardFacts, T: AsTrajectoryFacts>(
        &mut self,
        rewards: &[R],
        trajectories: &[T],
    ) {
        if self.stage != JoinStage::Matching
            || self.listings != (listing_of(rewards), listing_of(trajectories))
        {
            return;
        }
        let (metadata, rewards) = (MetadataIds(trajectories), RewardIds(rewards));
        while !self.matching.advance(&metadata, &rewards, usize::MAX) {}
        if let Some(ids) = self.matching.take_join() {
            self.ids = ids;
            self.stage = JoinStage::Repeats(0);
        }
    }

    /// Records what the join found; refused until [`Self::advance`] returned true.
    pub fn finish(self, builder: &mut RunSetBuilder) -> Result<RunIdx, ModelError> {
        if self.stage != JoinStage::Done {
            return Err(ModelError::JoinUnfinished);
        }
        builder.set_join_report(self.run, self.report)?;
        Ok(self.run)
    }

    fn count_repeats<T: AsTrajectoryFacts>(
        &mut self,
        trajectories: &[T],
        range: std::ops::Range<usize>,
    ) {
        for index in range {
            let Some(first) = self.ids.metadata_first(index) else {
                continue;
            };
            self.report.duplicate_metadata_items += 1;
            let kept = trajectories
                .get(first)
                .and_then(|first| first.listed_reward());
            let metadata = &trajectories[index];
            self.report.repeated(
                metadata.trajectory_id(),
                "trajectories",
                kept,
                metadata.listed_reward(),
            );
        }
    }

    fn add_rewards<R: AsRewardFacts, T: AsTrajectoryFacts>(
        &mut self,
        builder: &mut RunSetBuilder,
        rewards: &[R],
        trajectories: &[T],
        range: std::ops::Range<usize>,
    ) -> Result<(), ModelError> {
        let metadata_ids = MetadataIds(trajectories);
        let mut found = [None; CONFIRM_BLOCK];
        let mut start = range.start;
        while start < range.end {
            let block = start..range.end.min(start + CONFIRM_BLOCK);
            // A block's pairs confirmed first, in a short loop: it reads the block's
            // trajectories, at random places of their listing, many at once rather than one at
            // a time between the builder's work; they are then at hand to add.
            for (slot, index) in found.iter_mut().zip(block.clone()) {
                let id = rewards[index].trajectory_id();
                *slot = self.ids.reward_metadata(index, id, &metadata_ids);
            }
            for (&metadata, index) in found.iter().zip(block.clone()) {
                self.add_reward(builder, rewards, trajectories, index, metadata)?;
            }
            start = block.end;
        }
        Ok(())
    }

    /// Adds reward item `index`, matched to metadata item `metadata` (an index into
    /// `trajectories`, confirmed by [`IdJoin::reward_metadata`]) when it has one.
    fn add_reward<R: AsRewardFacts, T: AsTrajectoryFacts>(
        &mut self,
        builder: &mut RunSetBuilder,
        rewards: &[R],
        trajectories: &[T],
        index: usize,
        metadata: Option<usize>,
    ) -> Result<(), ModelError> {
        let (run, report) = (self.run, &mut self.report);
        let reward = &rewards[index];
        let id = reward.trajectory_id();
        if let Some(first) = self.ids.reward_first(index) {
            report.duplicate_reward_items += 1;
            let kept = rewards.get(first).map(|first| first.reward());
            report.repeated(id, "trajectory-rewards", kept, Some(reward.reward()));
            return Ok(());
        }
        match metadata {
            Some(index) => {
                self.matched[index] = true;
                report.matched += 1;
                let facts = trajectories[index].facts();
                let steps = facts.num_steps;
                builder.add_trajectory_with_steps(run, joined(reward, facts, report), steps)?;
            }
            None => {
                report.rewards_without_metadata += 1;
                builder.add_trajectory(
                    run,
                    TrajectoryInput {
                        id,
                        task: reward.task_id(),
                        class: OutcomeClass::Other,
                        reward: Some(reward.reward()),
                        ending: None,
                        flags: TrajectoryFlags::REWARD_WITHOUT_METADATA,
                        created: None,
                        components: None,
                    },
                )?;
            }
        }
        Ok(())
    }

    fn add_unmatched<T: AsTrajectoryFacts>(
        &mut self,
        builder: &mut RunSetBuilder,
        trajectories: &[T],
        range: std::ops::Range<usize>,
    ) -> Result<(), ModelError> {
        for index in range {
            if self.matched[index] || self.ids.metadata_first(index).is_some() {
                continue;
            }
            let metadata = trajectories[index].facts();
            self.report.metadata_without_reward += 1;
            let mut flags = TrajectoryFlags::NONE;
            if metadata.reward.is_some() {
                self.report.reward_from_metadata += 1;
                flags.insert(TrajectoryFlags::REWARD_FROM_METADATA);
            }
            let (class, ending) = classify_facts(&metadata, metadata.reward.is_some());
            builder.add_trajectory_with_steps(
                self.run,
                TrajectoryInput {
                    id: metadata.id,
                    task: metadata.task,
                    class,
                    reward: metadata.reward,
                    ending,
                    flags,
                    created: unix_seconds(metadata.created_at),
                    components: None,
                },
                metadata.num_steps,
            )?;
        }
        Ok(())
    }
}

/// Rewards whose matches are confirmed together before they are added (see
/// [`ApiRunJoin::add_rewards`]): their trajectories, a few hundred bytes each, stay in the
/// cache until added.
const CONFIRM_BLOCK: usize = 256;

/// The next at most `left` items of a listing of `len` from `at`, and whether they end it.
fn next_chunk(at: usize, left: usize, len: usize) -> (std::ops::Range<usize>, bool) {
    let end = at.saturating_add(left).min(len);
    (at..end, end == len)
}

/// Where a listing is and how long: a list swapped for another (read again) is elsewhere in
/// memory, since the new one was filled while the old one was still kept, and a list that
/// grew is longer.
type Listing = (usize, usize);

/// Items looked at to estimate a listing's mean id length.
const ID_SAMPLES: usize = 64;

/// The longest an id counts for in that estimate: one huge id sampled (from a hostile or
/// broken source) does not make the run reserve room for a million more like it.
const ID_SAMPLE_LENGTH_AT_MOST: usize = 256;

/// The mean length of the listings' trajectory ids, from up to [`ID_SAMPLES`] items spread
/// over the longer listing, and a sixteenth more: the room reserved for the run's ids, so
/// that their buffer is not copied as it grows (ids of a run are usually of one length).
fn id_length_estimate<R: AsRewardFacts, T: AsTrajectoryFacts>(
    rewards: &[R],
    trajectories: &[T],
) -> usize {
    let sampled = |count: usize, length: &dyn Fn(usize) -> usize| {
        let step = count.div_ceil(ID_SAMPLES).max(1);
        let (total, seen) = (0..count)
            .step_by(step)
            .fold((0, 0), |(total, seen), index| {
                (
                    total + length(index).min(ID_SAMPLE_LENGTH_AT_MOST),
                    seen + 1,
                )
            });
        (total * 17).div_ceil(16 * seen.max(1))
    };
    if rewards.len() >= trajectories.len() {
        sampled(rewards.len(), &|index| rewards[index].trajectory_id().len())
    } else {
        sampled(trajectories.len(), &|index| {
            trajectories[index].trajectory_id().len()
        })
    }
}

fn listing_of<T>(items: &[T]) -> Listing {
    (items.as_ptr() as usize, items.len())
}

/// The trajectory ids of a metadata listing.
struct MetadataIds<'a, T>(&'a [T]);

impl<T: AsTrajectoryFacts> IdList for MetadataIds<'_, T> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn id(&self, index: usize) -> &str {
        self.0[index].trajectory_id()
    }
}

/// The trajectory ids of a reward listing.
struct RewardIds<'a, R>(&'a [R]);

impl<R: AsRewardFacts> IdList for RewardIds<'_, R> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn id(&self, index: usize) -> &str {
        self.0[index].trajectory_id()
    }
}

/// A trajectory listed in both: the reward item's reward and task, the metadata's ending.
fn joined<'a, R: AsRewardFacts>(
    reward: &'a R,
    metadata: TrajectoryFacts<'a>,
    report: &mut JoinReport,
) -> TrajectoryInput<'a> {
    let mut flags = TrajectoryFlags::NONE;
    let task = match (reward.task_id(), metadata.task) {
        (Some(from_reward), Some(from_metadata)) if !same_text(from_reward, from_metadata) => {
            flags.insert(TrajectoryFlags::TASK_CONFLICT);
            report.task_conflicts += 1;
            if report.task_conflict_examples.len() < JOIN_EXAMPLES {
                report.task_conflict_examples.push(TaskConflict {
                    trajectory_id: reward.trajectory_id().to_owned(),
                    reward_task: Some(from_reward.to_owned()),
                    metadata_task: Some(from_metadata.to_owned()),
                });
            }
            Some(from_reward)
        }
        (from_reward, from_metadata) => from_reward.or(from_metadata),
    };
    if let Some(recorded) = metadata.reward {
        let agree = (recorded - reward.reward()).abs() <= REWARD_AGREEMENT;
        if !agree {
            flags.insert(TrajectoryFlags::REWARD_MISMATCH);
            report.reward_mismatches += 1;
        }
    }
    let (class, ending) = classify_facts(&metadata, true);
    TrajectoryInput {
        id: reward.trajectory_id(),
        task,
        class,
        reward: Some(reward.reward()),
        ending,
        flags,
        created: unix_seconds(metadata.created_at),
        components: None,
    }
}

/// The class of a listed trajectory and the name its ending is kept by.
///
/// The trajectory's termination reason, else its rollout's, decides through
/// [`classify_termination`]. Without a reason, a trajectory or rollout still active is
/// unfinished and anything else is "other" ([`classify_unended`]); the ending is then kept as
/// the trajectory's status (else the rollout's).
pub fn classify_metadata(
    metadata: &TrajectoryMetadata,
    has_reward: bool,
) -> (OutcomeClass, Option<&str>) {
    classify_facts(&metadata.facts(), has_reward)
}

/// [`classify_metadata`] on what the model reads of a listed trajectory, in either form.
pub fn classify_facts<'a>(
    metadata: &TrajectoryFacts<'a>,
    has_reward: bool,
) -> (OutcomeClass, Option<&'a str>) {
    let reason = metadata
        .termination_reason
        .or(metadata.rollout_termination_reason);
    if let Some(reason) = reason {
        return (classify_termination(reason, has_reward), Some(reason));
    }
    let status = metadata.status;
    let rollout_status = metadata.rollout_status;
    let active = status.is_some_and(trajectory_status_is_active)
        || rollout_status.is_some_and(rollout_status_is_active);
    (classify_unended(!active), status.or(rollout_status))
}

/// The model's view of an `EvalRun`.
pub fn run_info_from_api(run: &EvalRun, source: SourceKind) -> RunInfo {
    let mut cut_texts = Vec::new();
    RunInfo {
        id: run.eval_run_id.clone(),
        display_name: super::cut_text::copied_display_name(
            run.display_name.as_deref(),
            &mut cut_texts,
        ),
        base_model: run.base_model_slug.clone(),
        checkpoint: CheckpointInfo {
            step: run.step,
            training_run_id: run.training_run_id.clone(),
            parent_checkpoint_id: run.parent_checkpoint_id.clone(),
        },
        bench_id: Some(run.bench_id.clone()),
        settings_inputs: SettingInputs {
            training_run: if run.step.is_some()
                || run.training_run_id.is_some()
                || run.parent_checkpoint_id.is_some()
            {
                Lookup::NotRead
            } else {
                Lookup::NotApplicable
            },
            defaults: Lookup::NotRead,
        },
        options: run_options(&run.options),
        task_selection: run.task_selection.as_ref().map(|selection| TaskSelection {
            split: selection.split.as_str().to_owned(),
            available: selection.available_task_count,
            selected: selection.selected_task_count,
            max_samples: selection
                .max_samples
                .and_then(|max| u64::try_from(max).ok()),
        }),
        status: run.status.as_ref().map(|status| status.as_str().to_owned()),
        failure: run
            .failure
            .as_ref()
            .map(|failure| format!("{}: {}", failure.code, failure.message)),
        platform_reward_mean: run.reward_mean,
        total_rollouts: run
            .total_rollouts
            .and_then(|total| u64::try_from(total).ok()),
        source,
        incomplete_load: None,
        task_scoring: super::run::TaskScoring::MeanOfSamples,
        chronicle: None,
        cut_texts,
        cost: super::RunCost::default(),
        rollout_statistics: super::Lookup::NotRead,
    }
}

/// What resolves `run`'s settings besides its own options, as the model takes it: its training
/// run's options (`GET /api/v1/train/{id}`; checkpoint evaluations only) and the evaluation
/// defaults of its benchmark version and model (`GET /api/v1/eval/options`), each as read
/// (`Lookup::Read`), not read, or failed with why. One rule for the load engine and run
/// folders.
pub fn setting_inputs(
    run: &EvalRun,
    training: Lookup<&TrainingRun>,
    defaults: Lookup<&RunOptionsResponse>,
) -> SettingInputs {
    let is_checkpoint =
        run.step.is_some() || run.training_run_id.is_some() || run.parent_checkpoint_id.is_some();
    let training_run = if !is_checkpoint {
        Lookup::NotApplicable
    } else if run.training_run_id.is_none() {
        Lookup::Failed("the run names no training run".to_owned())
    } else {
        match training {
            Lookup::Read(training) => Lookup::Read(run_options(&training.options)),
            Lookup::NotApplicable => Lookup::NotApplicable,
            Lookup::NotRead => Lookup::NotRead,
            Lookup::Failed(why) => Lookup::Failed(why),
        }
    };
    let defaults = match defaults {
        Lookup::Read(response) => {
            match EvaluationDefaults::from_api(response, run.base_model_slug.as_deref()) {
                Ok(defaults) => Lookup::Read(defaults),
                Err(why) => Lookup::Failed(why),
            }
        }
        Lookup::NotApplicable => Lookup::NotApplicable,
        Lookup::NotRead => Lookup::NotRead,
        Lookup::Failed(why) => Lookup::Failed(why),
    };
    SettingInputs {
        training_run,
        defaults,
    }
}

/// The model's view of recorded options (an evaluation run's or a training run's).
pub fn run_options(options: &RecordedRunOptions) -> RunOptions {
    RunOptions {
        temperature: options.temperature,
        evaluation_temperature: options.evaluation_temperature,
        top_p: options.top_p,
        evaluation_top_p: options.evaluation_top_p,
        top_k: options.top_k,
        evaluation_top_k: options.evaluation_top_k,
        reasoning_effort: options
            .reasoning_effort
            .as_ref()
            .map(|effort| effort.as_str().to_owned()),
        evaluation_reasoning_effort: options
            .evaluation_reasoning_effort
            .as_ref()
            .map(|effort| effort.as_str().to_owned()),
        samples_per_task: options.evaluation_samples_per_task,
        max_tasks: options.evaluation_max_samples,
        max_output_tokens_per_step: options.max_output_tokens_per_step,
        max_total_tokens_per_trajectory: options.max_total_tokens_per_trajectory,
        max_turns_per_trajectory: options.max_turns_per_trajectory,
        execution_timeout_seconds: options.execution_timeout_seconds,
        evaluation_collection_timeout_seconds: options.evaluation_collection_timeout_seconds,
    }
}

/// The model's view of a trajectory's logged reward components.
pub fn components_from_api(components: &[TrajectoryRewardComponent]) -> Vec<RewardComponent> {
    components
        .iter()
        .map(|component| RewardComponent {
            name: component.name.clone(),
            value: Some(component.value),
            scaled_value: Some(component.scaled_value),
            weight: Some(component.weight),
            score_range: Some((component.score_range_min, component.score_range_max)),
            threshold: None,
            passed: None,
            explanation: component.explanation.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{EvalTrajectoryReward, TrajectoryMetadata};

    fn rewards(ids: impl Iterator<Item = String>) -> Vec<EvalTrajectoryReward> {
        ids.map(|trajectory_id| EvalTrajectoryReward {
            trajectory_id,
            reward: 1.0,
            task_id: None,
        })
        .collect()
    }

    /// The room for a run's ids is their mean length (and a sixteenth) from items spread over
    /// the listing; one huge id among short ones counts for no more than 256 bytes.
    #[test]
    fn ids_are_estimated_from_a_sample_one_huge_id_counting_little() {
        let none: [TrajectoryMetadata; 0] = [];
        let even = rewards((0..10_000).map(|index| format!("traj-{index:06}")));
        assert_eq!(id_length_estimate(&even, &none), 12);
        assert_eq!(id_length_estimate::<EvalTrajectoryReward, _>(&[], &none), 0);
        let mut one_huge = even.clone();
        one_huge[0].trajectory_id = "x".repeat(50 << 20);
        let estimate = id_length_estimate(&one_huge, &none);
        assert!((12..=20).contains(&estimate), "{estimate} bytes an id");
    }
}
