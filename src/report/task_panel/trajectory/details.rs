//! Details of single trajectories, fetched on demand with the core client: the recorded error
//! message and the reward components. Answers are cached per API and trajectory id for the
//! session; loads run a few at a time and are cancelled when the panel closes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::failure::{explain, Explanation};
use crate::transport::FetchTransport;
use eval_compare_core::api::Trajectory as ApiTrajectory;
use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::model::{components_from_api, RewardComponent};

use crate::report::task_panel::on_demand::{shown_base, Fetch, OnDemand};

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
pub type DetailState = Fetch<TrajectoryDetails, Explanation>;

thread_local! {
    /// Details fetched this session, by (API base URL, trajectory id).
    static CACHE: RefCell<HashMap<(String, String), Arc<TrajectoryDetails>>> =
        RefCell::new(HashMap::new());
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

/// The detail states of one open panel, and its loads in flight.
#[derive(Clone, Copy)]
pub struct DetailLoader(OnDemand<String, TrajectoryDetails, Explanation>);

impl DetailLoader {
    /// A loader whose loads are cancelled when the calling component is cleaned up.
    pub fn with_cleanup() -> Self {
        Self(OnDemand::with_cleanup(&CACHE))
    }

    /// The state of one trajectory's details, cached ones included (reactive).
    pub fn state(&self, config: Option<&ClientConfig>, trajectory_id: &str) -> Option<DetailState> {
        self.0.state(config, &trajectory_id.to_owned())
    }

    /// Loads the details of `ids` not loaded or loading yet, at most
    /// [`MAX_CONCURRENT_LOADS`] at a time.
    pub fn load(&self, config: ClientConfig, ids: Vec<String>) {
        self.0
            .load(config, ids, MAX_CONCURRENT_LOADS, |config, id| async move {
                fetch_details(&config, &id).await
            });
    }
}
