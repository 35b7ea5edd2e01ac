//! Transcripts fetched on demand with the core client: the trajectory (for its `num_steps`),
//! then its last step, which holds the whole conversation. Cached per API and trajectory id for
//! the session; a couple at a time, cancelled when the panel closes (the panel's
//! [`OnDemand`] loader).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::transcript::Transcript;

use crate::failure::{explain, Explanation};
use crate::report::task_panel::on_demand::{shown_base, Fetch, OnDemand};
use crate::transport::FetchTransport;

/// Most transcript requests in flight at once (each is two requests: trajectory, last step).
pub const MAX_CONCURRENT_TRANSCRIPTS: usize = 2;

/// Where one trajectory's transcript stands.
pub type TranscriptState = Fetch<Transcript, Explanation>;

thread_local! {
    /// Transcripts read this session, by (API base URL, trajectory id).
    static CACHE: RefCell<HashMap<(String, String), Arc<Transcript>>> =
        RefCell::new(HashMap::new());
}

/// Reads one trajectory's transcript through the browser transport: its `num_steps` from the
/// trajectory, then its last step (none when it has no step).
pub async fn fetch_transcript(
    config: &ClientConfig,
    trajectory_id: &str,
) -> Result<Transcript, Explanation> {
    let client = TrajectoryClient::new(config.clone(), FetchTransport::default());
    let read = async {
        let trajectory = client.trajectory(trajectory_id, false).await?;
        let num_steps = trajectory
            .num_steps
            .and_then(|steps| u64::try_from(steps).ok())
            .unwrap_or(0);
        client.transcript(trajectory_id, num_steps).await
    };
    read.await
        .map_err(|error| explain(&error, &shown_base(config)))
}

/// The transcript states of one open panel, and its loads in flight.
#[derive(Clone, Copy)]
pub struct TranscriptLoader(OnDemand<String, Transcript, Explanation>);

impl TranscriptLoader {
    /// A loader whose loads are cancelled when the calling component is cleaned up.
    pub fn with_cleanup() -> Self {
        Self(OnDemand::with_cleanup(&CACHE))
    }

    /// The state of one trajectory's transcript, cached ones included (reactive).
    pub fn state(
        &self,
        config: Option<&ClientConfig>,
        trajectory_id: &str,
    ) -> Option<TranscriptState> {
        self.0.state(config, &trajectory_id.to_owned())
    }

    /// Reads the transcripts of `ids` not read or being read yet (again after a failure).
    pub fn load(&self, config: ClientConfig, ids: Vec<String>) {
        self.0.load(
            config,
            ids,
            MAX_CONCURRENT_TRANSCRIPTS,
            |config, id| async move { fetch_transcript(&config, &id).await },
        );
    }
}
