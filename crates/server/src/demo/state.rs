//! The demo's shared state: the generated dataset and the clock of the running evaluation.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::dataset::live::{running_progress, Progress};
use crate::dataset::scale::DemoScale;
use crate::dataset::Dataset;

/// State shared by every demo handler.
#[derive(Debug, Clone)]
pub struct DemoState {
    /// The dataset, generated once at start-up.
    pub data: Arc<Dataset>,
    /// When the server started.
    pub started: Instant,
    /// How long the running evaluation takes to finish its remaining attempts.
    pub running_duration: Duration,
}

impl DemoState {
    /// Generates the default-sized dataset of `seed` and starts the running evaluation's clock.
    pub fn new(seed: u64, running_duration: Duration) -> Self {
        Self::scaled(seed, DemoScale::DEFAULT, running_duration)
    }

    /// Generates the dataset of `seed` at `scale` and starts the running evaluation's clock
    /// (once the dataset is ready).
    pub fn scaled(seed: u64, scale: DemoScale, running_duration: Duration) -> Self {
        let data = Arc::new(Dataset::generate_scaled(seed, scale));
        Self {
            data,
            started: Instant::now(),
            running_duration,
        }
    }

    /// Where the running evaluation stands now.
    pub fn progress(&self) -> Progress {
        running_progress(self.started.elapsed(), self.running_duration)
    }
}
