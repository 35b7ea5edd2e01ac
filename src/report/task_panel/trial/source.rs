//! Where the panel finds Chronicle trials as the API listed them (their status, agent, error and
//! scores as given), beside the run set: by default the app's loader, which keeps the trial
//! lists it read.

use eval_compare_core::api::ChronicleTrial;
use leptos::prelude::*;

use crate::state::loader::Loader;

/// A lookup of a job's trial by (job id, trial id); reactive when the lookup reads signals.
#[derive(Clone, Copy)]
pub struct TrialSource(Callback<(String, String), Option<ChronicleTrial>>);

impl TrialSource {
    /// A source answering with `lookup(job_id, trial_id)`.
    pub fn new(
        lookup: impl Fn(&str, &str) -> Option<ChronicleTrial> + Send + Sync + 'static,
    ) -> Self {
        Self(Callback::new(move |(job, trial): (String, String)| {
            lookup(&job, &trial)
        }))
    }

    /// The trials the loader read (tracked: changes when its data change).
    pub fn from_loader(loader: Loader) -> Self {
        Self::new(move |job, trial| loader.chronicle_trial(job, trial))
    }

    /// The trial `trial_id` of the job `job_id`, if the source has it.
    pub fn trial(&self, job_id: &str, trial_id: &str) -> Option<ChronicleTrial> {
        self.0.run((job_id.to_owned(), trial_id.to_owned()))
    }
}
