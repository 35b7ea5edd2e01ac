//! What the engine tells its caller: an event for every request that ended, and the progress of
//! each run for display.

use crate::client::ApiError;

use super::list::{ListKind, Phase};

/// What is read besides a run's record and lists to resolve its settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SettingsRead {
    /// `GET /api/v1/train/{training_run_id}`: the options of a checkpoint's training run.
    TrainingRun,
    /// `GET /api/v1/eval/options?bench_id=&base_model_slug=`: the evaluation defaults.
    EvaluationDefaults,
    /// The platform's own progression of a checkpoint's training run: its evaluation series
    /// and its held-out reward by step.
    PlatformProgression,
}

impl SettingsRead {
    /// What was read, for people.
    pub fn label(self) -> &'static str {
        match self {
            SettingsRead::TrainingRun => "training run options",
            SettingsRead::EvaluationDefaults => "evaluation defaults",
            SettingsRead::PlatformProgression => "the platform's progression",
        }
    }
}

/// A request of the load ended; the store already holds what it brought.
#[derive(Debug, Clone, Copy)]
pub enum LoadEvent<'a> {
    /// Something started or stopped without a page (a list starts, a load is cancelled): only
    /// the progress moved.
    Moved,
    /// A run's record was read (`GET /api/v1/eval/{run_id}`) or failed.
    Record {
        /// The run.
        run_id: &'a str,
        /// Complete or failed.
        phase: &'a Phase,
    },
    /// A read for resolving settings ended (complete or failed; a failure leaves the settings
    /// it would have given unresolved, never the run unloaded).
    Settings {
        /// Which read.
        what: SettingsRead,
        /// Whose: the training run id, or `bench_id` (with `/base_model_slug` when one is asked).
        owner: &'a str,
        /// Complete or failed.
        phase: &'a Phase,
    },
    /// A page of a list was read.
    Page {
        /// Which list.
        kind: ListKind,
        /// Whose list: the run id (rewards, trajectories) or the benchmark id (tasks).
        owner: &'a str,
        /// Pages read so far.
        pages: u32,
        /// Items read so far.
        items: usize,
        /// Whether more pages follow.
        has_more: bool,
    },
    /// A trajectory's reward components were read, or the read failed (see
    /// [`super::load_components`]).
    Components {
        /// The trajectory.
        trajectory_id: &'a str,
        /// Whether they were read.
        ok: bool,
    },
    /// A trajectory's token count was read, or the read failed (see [`super::load_tokens`]).
    Tokens {
        /// The trajectory.
        trajectory_id: &'a str,
        /// Whether it was read.
        ok: bool,
    },
    /// A list ended: complete, failed or refused before its first page.
    ListEnded {
        /// Which list.
        kind: ListKind,
        /// Whose list (as in [`LoadEvent::Page`]).
        owner: &'a str,
        /// Pages read.
        pages: u32,
        /// Items read.
        items: usize,
        /// Complete or failed.
        phase: &'a Phase,
    },
}

/// Progress of one list, for display.
#[derive(Debug, Clone, PartialEq)]
pub struct ListProgress {
    /// Which list.
    pub kind: ListKind,
    /// Pages read.
    pub pages: u32,
    /// Items read.
    pub items: usize,
    /// How many items there are at most, when known (planned rollouts of the run).
    pub total: Option<u64>,
    /// Where it stands.
    pub phase: Phase,
}

/// Progress of one run, for display.
#[derive(Debug, Clone, PartialEq)]
pub struct RunProgress {
    /// The run's id.
    pub run_id: String,
    /// Its display name, once its record is read.
    pub name: Option<String>,
    /// Where reading its record stands.
    pub record: Phase,
    /// Whether it is still executing.
    pub running: bool,
    /// Finished and planned rollouts of a running run.
    pub rollouts: Option<(i64, i64)>,
    /// Its lists, and its benchmark's task list.
    pub lists: Vec<ListProgress>,
    /// The reads that resolve its settings, once its record is read (a failure there leaves
    /// settings unresolved but does not count as stopped: see [`Self::has_stopped`]).
    pub settings_reads: Vec<(SettingsRead, Phase)>,
    /// The last failed refresh of a running run.
    pub refresh_error: Option<ApiError>,
}

impl RunProgress {
    /// Whether everything of this run is read or stopped.
    pub fn is_settled(&self) -> bool {
        self.record.is_settled()
            && self.lists.iter().all(|list| list.phase.is_settled())
            && self
                .settings_reads
                .iter()
                .all(|(_, phase)| phase.is_settled())
    }

    /// Whether the run's record or a list stopped early (a settings read that failed does not:
    /// the run is whole, only settings are unresolved).
    pub fn has_stopped(&self) -> bool {
        self.record.is_stopped() || self.lists.iter().any(|list| list.phase.is_stopped())
    }
}
