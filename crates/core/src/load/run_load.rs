//! One run of a comparison as far as it was read ([`RunLoad`]), and the single reads made
//! beside its lists (its training run, evaluation defaults, platform progression): what the
//! [`LoadStore`](super::LoadStore) holds per run, and what the engine reads into.

use std::cell::RefCell;
use std::rc::Rc;

use crate::api::{EvalProgress, EvalRun, EvalRunStatus};
use crate::client::ApiError;

use super::forms::{ListForm, Packed};
use super::list::{ListLoad, Phase};

/// One request read once (not a list): what arrived and where it stands.
pub type SingleRead<T> = Rc<RefCell<(Option<T>, Phase)>>;

/// The key of an evaluation-defaults read: the benchmark version and the base model asked for.
pub type DefaultsKey = (String, Option<String>);

/// The evaluation-defaults key of a run: its benchmark version and base model.
pub fn defaults_key(run: &EvalRun) -> DefaultsKey {
    (run.bench_id.clone(), run.base_model_slug.clone())
}

/// A defaults key as an owner name in events: `bench_id`, or `bench_id/base_model_slug`.
pub fn defaults_owner(key: &DefaultsKey) -> String {
    match &key.1 {
        Some(model) => format!("{}/{model}", key.0),
        None => key.0.clone(),
    }
}

/// One run of the comparison as far as it was read, its lists in the form `F`.
#[derive(Debug)]
pub struct RunLoad<F: ListForm = Packed> {
    /// The run's id.
    pub run_id: String,
    /// The run record and where its request stands.
    pub record: RefCell<(Option<EvalRun>, Phase)>,
    /// Latest progress of a running run (its planned and finished rollouts).
    pub progress: RefCell<Option<EvalProgress>>,
    /// Its trajectory rewards.
    pub rewards: RefCell<ListLoad<F::Reward>>,
    /// Its trajectories.
    pub trajectories: RefCell<ListLoad<F::Trajectory>>,
    /// The last refresh of a running run that failed (the data shown stay the previous ones).
    pub refresh_error: RefCell<Option<ApiError>>,
}

impl<F: ListForm> RunLoad<F> {
    pub(super) fn new(run_id: &str) -> Self {
        Self {
            run_id: run_id.to_owned(),
            record: RefCell::new((None, Phase::Waiting)),
            progress: RefCell::new(None),
            rewards: RefCell::default(),
            trajectories: RefCell::default(),
            refresh_error: RefCell::new(None),
        }
    }

    /// The run's benchmark version, once its record is read.
    pub fn bench_id(&self) -> Option<String> {
        self.record
            .borrow()
            .0
            .as_ref()
            .map(|run| run.bench_id.clone())
    }

    /// Whether the run is still executing (latest progress first, else its record).
    pub fn is_running(&self) -> bool {
        let from_progress = self
            .progress
            .borrow()
            .as_ref()
            .and_then(|progress| progress.status.clone());
        let status = from_progress.or_else(|| {
            self.record
                .borrow()
                .0
                .as_ref()
                .and_then(|run| run.status.clone())
        });
        status == Some(EvalRunStatus::Running)
    }

    /// Whether the record and both lists were read completely.
    pub fn is_complete(&self) -> bool {
        self.record.borrow().1 == Phase::Complete
            && self.rewards.borrow().phase == Phase::Complete
            && self.trajectories.borrow().phase == Phase::Complete
    }
}
