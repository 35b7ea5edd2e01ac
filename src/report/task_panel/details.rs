//! Details of single trajectories, fetched on demand with the core client: the recorded error
//! message and the reward components. Answers are cached per API and trajectory id for the
//! session; loads run a few at a time and are cancelled when the panel closes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use eval_compare_core::api::Trajectory as ApiTrajectory;
use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::model::{components_from_api, RewardComponent};
use futures::future::{AbortHandle, Abortable};
use futures::StreamExt;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::failure::{explain, Explanation};
use crate::transport::FetchTransport;

/// Most detail requests in flight at once for one "Load all".
pub const MAX_CONCURRENT_LOADS: usize = 3;

/// What the drill-down shows of one trajectory beyond the loaded run set.
#[derive(Debug, Clone, PartialEq)]
pub struct TrajectoryDetails {
    /// The error recorded with the trajectory, if any.
    pub error: Option<String>,
    /// Reward components in logged order.
    pub components: Vec<RewardComponent>,
}

impl TrajectoryDetails {
    /// The details of an API trajectory.
    pub fn from_api(trajectory: &ApiTrajectory) -> Self {
        Self {
            error: trajectory
                .error
                .clone()
                .filter(|error| !error.trim().is_empty()),
            components: components_from_api(&trajectory.reward_components),
        }
    }
}

/// Where one trajectory's details stand.
#[derive(Debug, Clone, PartialEq)]
pub enum DetailState {
    /// A request is in flight.
    Loading,
    /// The details arrived (or were cached).
    Loaded(Arc<TrajectoryDetails>),
    /// The request failed; explained for people.
    Failed(Explanation),
}

thread_local! {
    /// Details fetched this session, by (API base URL, trajectory id).
    static CACHE: RefCell<HashMap<(String, String), Arc<TrajectoryDetails>>> =
        RefCell::new(HashMap::new());
}

/// The cached details of a trajectory read from `base_url`, if fetched this session.
pub fn cached(base_url: &str, trajectory_id: &str) -> Option<Arc<TrajectoryDetails>> {
    CACHE.with(|cache| {
        cache
            .borrow()
            .get(&(base_url.to_owned(), trajectory_id.to_owned()))
            .cloned()
    })
}

fn remember(base_url: &str, trajectory_id: &str, details: Arc<TrajectoryDetails>) {
    CACHE.with(|cache| {
        cache
            .borrow_mut()
            .insert((base_url.to_owned(), trajectory_id.to_owned()), details);
    });
}

/// Fetches one trajectory with its reward components through the browser transport.
pub async fn fetch_details(
    config: &ClientConfig,
    trajectory_id: &str,
) -> Result<TrajectoryDetails, Explanation> {
    let client = TrajectoryClient::new(config.clone(), FetchTransport::default());
    match client.trajectory(trajectory_id, true).await {
        Ok(trajectory) => Ok(TrajectoryDetails::from_api(&trajectory)),
        Err(error) => Err(explain(&error, &shown_base(config))),
    }
}

/// The API address as people should read it: the page's origin when the base URL is relative.
pub fn shown_base(config: &ClientConfig) -> String {
    if config.base_url.starts_with("http://") || config.base_url.starts_with("https://") {
        config.base_url.clone()
    } else {
        let origin = web_sys::window()
            .and_then(|window| window.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", config.base_url)
    }
}

/// The detail states of one open panel, and its loads in flight.
#[derive(Clone, Copy)]
pub struct DetailLoader {
    states: RwSignal<HashMap<String, DetailState>>,
    in_flight: StoredValue<Arc<Mutex<Vec<AbortHandle>>>>,
}

impl DetailLoader {
    /// A loader whose loads are cancelled when the calling component is cleaned up.
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

    /// The state of one trajectory's details, cached ones included (reactive).
    pub fn state(&self, config: Option<&ClientConfig>, trajectory_id: &str) -> Option<DetailState> {
        let current = self
            .states
            .with(|states| states.get(trajectory_id).cloned());
        current.or_else(|| {
            config
                .and_then(|config| cached(&config.base_url, trajectory_id))
                .map(DetailState::Loaded)
        })
    }

    /// Loads the details of `ids` not loaded or loading yet, at most
    /// [`MAX_CONCURRENT_LOADS`] at a time.
    pub fn load(&self, config: ClientConfig, ids: Vec<String>) {
        let states = self.states;
        let mut wanted = Vec::new();
        for id in ids {
            if let Some(details) = cached(&config.base_url, &id) {
                states.update(|s| {
                    s.insert(id, DetailState::Loaded(details));
                });
                continue;
            }
            let busy = states.with_untracked(|s| {
                matches!(
                    s.get(&id),
                    Some(DetailState::Loading | DetailState::Loaded(_))
                )
            });
            if !busy {
                wanted.push(id);
            }
        }
        if wanted.is_empty() {
            return;
        }
        states.update(|s| {
            for id in &wanted {
                s.insert(id.clone(), DetailState::Loading);
            }
        });
        let (handle, registration) = AbortHandle::new_pair();
        if let Some(in_flight) = self.in_flight.try_get_value() {
            if let Ok(mut handles) = in_flight.lock() {
                handles.retain(|handle| !handle.is_aborted());
                handles.push(handle);
            }
        }
        let work =
            futures::stream::iter(wanted).for_each_concurrent(MAX_CONCURRENT_LOADS, move |id| {
                let config = config.clone();
                async move {
                    let state = match fetch_details(&config, &id).await {
                        Ok(details) => {
                            let details = Arc::new(details);
                            remember(&config.base_url, &id, Arc::clone(&details));
                            DetailState::Loaded(details)
                        }
                        Err(explanation) => DetailState::Failed(explanation),
                    };
                    states.try_update(|s| {
                        s.insert(id, state);
                    });
                }
            });
        spawn_local(async move {
            // Aborted when the panel closes: the pending requests are dropped and cancelled.
            let _ = Abortable::new(work, registration).await;
        });
    }
}
