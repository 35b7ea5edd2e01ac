//! The detail of single Chronicle trials (instruction, steps, artifacts), fetched on demand with
//! the core client (`GET /v1/backtests/jobs/{job}/trials/{trial}`). Answers are cached per API,
//! job and trial for the session; requests are cancelled when the panel closes or shows another
//! task.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use eval_compare_core::api::ChronicleTrialDetail;
use eval_compare_core::client::{ApiError, ClientConfig, TrajectoryClient};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::transport::FetchTransport;

/// Where one trial's detail stands.
#[derive(Debug, Clone, PartialEq)]
pub enum TrialDetailState {
    /// The request is in flight.
    Loading,
    /// The detail arrived (or was cached).
    Loaded(Arc<ChronicleTrialDetail>),
    /// The request failed.
    Failed(ApiError),
}

/// A trial of a job: (job id, trial id).
type TrialKey = (String, String);

thread_local! {
    /// Details fetched this session, by (API base URL, job id, trial id).
    static CACHE: RefCell<HashMap<(String, TrialKey), Arc<ChronicleTrialDetail>>> =
        RefCell::new(HashMap::new());
}

/// The cached detail of a trial read from `base_url`, if fetched this session.
pub fn cached(base_url: &str, job_id: &str, trial_id: &str) -> Option<Arc<ChronicleTrialDetail>> {
    CACHE.with(|cache| {
        cache
            .borrow()
            .get(&(base_url.to_owned(), key(job_id, trial_id)))
            .cloned()
    })
}

fn remember(base_url: &str, job_id: &str, trial_id: &str, detail: Arc<ChronicleTrialDetail>) {
    CACHE.with(|cache| {
        cache
            .borrow_mut()
            .insert((base_url.to_owned(), key(job_id, trial_id)), detail);
    });
}

fn key(job_id: &str, trial_id: &str) -> TrialKey {
    (job_id.to_owned(), trial_id.to_owned())
}

/// The detail states of one open panel, and its requests in flight.
#[derive(Clone, Copy)]
pub struct TrialDetailLoader {
    states: RwSignal<HashMap<TrialKey, TrialDetailState>>,
    in_flight: StoredValue<Arc<Mutex<Vec<AbortHandle>>>>,
}

impl TrialDetailLoader {
    /// A loader whose requests are cancelled when the calling component is cleaned up.
    pub fn with_cleanup() -> Self {
        let in_flight: Arc<Mutex<Vec<AbortHandle>>> = Arc::default();
        let on_close = Arc::clone(&in_flight);
        on_cleanup(move || {
            if let Ok(mut handles) = on_close.lock() {
                for handle in handles.drain(..) {
                    handle.abort();
                }
            }
        });
        Self {
            states: RwSignal::new(HashMap::new()),
            in_flight: StoredValue::new(in_flight),
        }
    }

    /// The state of one trial's detail, a cached one included (reactive).
    pub fn state(
        &self,
        config: Option<&ClientConfig>,
        job_id: &str,
        trial_id: &str,
    ) -> Option<TrialDetailState> {
        let current = self
            .states
            .with(|states| states.get(&key(job_id, trial_id)).cloned());
        current.or_else(|| {
            config
                .and_then(|config| cached(&config.base_url, job_id, trial_id))
                .map(TrialDetailState::Loaded)
        })
    }

    /// Fetches one trial's detail unless it is loaded or loading (again after a failure).
    pub fn load(&self, config: ClientConfig, job_id: String, trial_id: String) {
        let states = self.states;
        let trial = key(&job_id, &trial_id);
        if let Some(detail) = cached(&config.base_url, &job_id, &trial_id) {
            states.update(|s| {
                s.insert(trial, TrialDetailState::Loaded(detail));
            });
            return;
        }
        let busy = states.with_untracked(|s| {
            matches!(
                s.get(&trial),
                Some(TrialDetailState::Loading | TrialDetailState::Loaded(_))
            )
        });
        if busy {
            return;
        }
        states.update(|s| {
            s.insert(trial.clone(), TrialDetailState::Loading);
        });
        let (handle, registration) = AbortHandle::new_pair();
        if let Some(in_flight) = self.in_flight.try_get_value() {
            if let Ok(mut handles) = in_flight.lock() {
                handles.retain(|handle| !handle.is_aborted());
                handles.push(handle);
            }
        }
        let work = async move {
            let client = TrajectoryClient::new(config.clone(), FetchTransport::default());
            let state = match client.chronicle_trial(&job_id, &trial_id).await {
                Ok(detail) => {
                    let detail = Arc::new(detail);
                    remember(&config.base_url, &job_id, &trial_id, Arc::clone(&detail));
                    TrialDetailState::Loaded(detail)
                }
                Err(error) => TrialDetailState::Failed(error),
            };
            states.try_update(|s| {
                s.insert(trial, state);
            });
        };
        spawn_local(async move {
            // Aborted when the panel closes: the pending request is dropped and cancelled.
            let _ = Abortable::new(work, registration).await;
        });
    }
}
