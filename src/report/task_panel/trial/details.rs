//! The detail of single Chronicle trials (instruction, steps, artifacts), fetched on demand with
//! the core client (`GET /v1/backtests/jobs/{job}/trials/{trial}`). Answers are cached per API,
//! job and trial for the session; requests are cancelled when the panel closes or shows another
//! task.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use eval_compare_core::api::ChronicleTrialDetail;
use eval_compare_core::client::{ApiError, ClientConfig, TrajectoryClient};

use crate::transport::FetchTransport;

use crate::report::task_panel::on_demand::{Fetch, OnDemand};

/// Where one trial's detail stands.
pub type TrialDetailState = Fetch<ChronicleTrialDetail, ApiError>;

/// A trial of a job: (job id, trial id).
type TrialKey = (String, String);

thread_local! {
    /// Details fetched this session, by (API base URL, (job id, trial id)).
    static CACHE: RefCell<HashMap<(String, TrialKey), Arc<ChronicleTrialDetail>>> =
        RefCell::new(HashMap::new());
}

/// The detail states of one open panel, and its requests in flight.
#[derive(Clone, Copy)]
pub struct TrialDetailLoader(OnDemand<TrialKey, ChronicleTrialDetail, ApiError>);

impl TrialDetailLoader {
    /// A loader whose requests are cancelled when the calling component is cleaned up.
    pub fn with_cleanup() -> Self {
        Self(OnDemand::with_cleanup(&CACHE))
    }

    /// The state of one trial's detail, a cached one included (reactive).
    pub fn state(
        &self,
        config: Option<&ClientConfig>,
        job_id: &str,
        trial_id: &str,
    ) -> Option<TrialDetailState> {
        self.0
            .state(config, &(job_id.to_owned(), trial_id.to_owned()))
    }

    /// Fetches one trial's detail unless it is loaded or loading (again after a failure).
    pub fn load(&self, config: ClientConfig, job_id: String, trial_id: String) {
        self.0.load(
            config,
            vec![(job_id, trial_id)],
            1,
            |config, (job, trial)| async move {
                let client = TrajectoryClient::new(config, FetchTransport::default());
                client.chronicle_trial(&job, &trial).await
            },
        );
    }
}
