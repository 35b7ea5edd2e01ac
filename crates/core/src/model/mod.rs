//! The comparison model: a source-neutral [`RunSet`] of runs, tasks and trajectories.
//!
//! Sources (the Trajectory API, run folders, Chronicle) are turned into [`TrajectoryInput`]s
//! with an [`OutcomeClass`] each and handed to a [`RunSetBuilder`]. The built set keeps every
//! trajectory (grouped by task, column by column) and per-task aggregates for both analyses,
//! from which [`RunSet::paired`] aligns two runs for the statistics engine.

mod aggregate;
mod as_of;
mod builder;
mod chronicle;
mod completion_order;
mod component;
mod component_means;
mod cost;
mod cut_text;
mod error;
mod from_api;
mod id_join;
mod id_list;
mod id_map;
mod join;
mod key_sort;
mod outcome;
mod paired;
mod platform_series;
mod run;
mod run_options;
mod run_set;
mod setting_inputs;
mod settings;
mod source;
mod task;
mod timestamp;
mod tokens;
mod trajectory;
mod trial_effort;
mod word_cmp;

pub use aggregate::{ClassCounts, RunTotals, SampleStats, TaskStats};
pub use as_of::AsOf;
pub use builder::{RunSetBuilder, RunSetFinish};
pub use chronicle::{
    chronicle_agents, chronicle_run_id, error_text, guide_pass_rate, guide_task_results,
    split_chronicle_run_id, threshold_met, GuideTaskResult, PassState,
};
pub use completion_order::{completion_order, paired_task_times};
pub use component::{effective_reward, RewardComponent};
pub use component_means::{components_count, ComponentTaskMeans};
pub use cost::{CostCents, CostUnavailable, RunCost};
pub use cut_text::{CutLabels, CutText, CUT_LABEL_EXAMPLES};
pub use error::ModelError;
pub use from_api::{
    classify_facts, classify_metadata, components_from_api, run_info_from_api, run_options,
    setting_inputs, ApiRun, ApiRunJoin,
};
pub(crate) use id_map::IdMap;
pub use join::{DuplicateConflict, JoinReport, TaskConflict, JOIN_EXAMPLES};
pub use outcome::{
    classify_termination, classify_unended, rollout_status_is_active, trajectory_status_is_active,
    Exclusion, OutcomeClass, PrimaryValue, RewardState, Scoring, REWARD_BOUNDS, REWARD_BOUND_SLACK,
};
pub use paired::{Analysis, LeftOutTask, PairedScores, SideCoverage};
pub use platform_series::PlatformSeries;
pub use run::{CheckpointInfo, ChronicleRunInfo, RunIdx, RunInfo, TaskScoring, TaskSelection};
pub use run_options::{Effective, EffectiveOptions, RunOptions};
pub use run_set::{Run, RunSet};
pub use setting_inputs::{EvaluationDefaults, ListedDefault, Lookup, SettingInputs};
pub use settings::{
    resolve, EffectiveSetting, Resolution, SettingKey, SettingSource, SettingValue, SETTINGS,
};
pub use source::SourceKind;
pub use task::{
    Category, CategoryIdx, Task, TaskIdx, TaskInput, TaskListConflicts, TASK_CONFLICT_EXAMPLES,
};
pub use timestamp::{rfc3339_utc, unix_seconds};
pub use tokens::{TokenCount, TokenMap, TokenState};
pub use trajectory::{Trajectory, TrajectoryFlags, TrajectoryInput};
pub use trial_effort::{TrialEffort, TrialRef, COUNTED_STEP_KINDS};
pub(crate) use word_cmp::{same_text, text_order};
