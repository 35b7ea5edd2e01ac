//! What the server runs: the demo or a proxy, where the viewer is, and injected faults.

use std::path::PathBuf;
use std::time::Duration;

use crate::dataset::scale::DemoScale;
use crate::demo_key::ApiKey;
use crate::faults::FaultSpec;
use crate::proxy::ProxyLimits;

/// The demo's settings.
#[derive(Debug, Clone)]
pub struct DemoConfig {
    /// Seed of the dataset.
    pub seed: u64,
    /// Size of the dataset (test tasks per benchmark version, samples per task).
    pub scale: DemoScale,
    /// The API key the demo requires, if any.
    pub key: Option<ApiKey>,
    /// A second key the demo accepts that may not read billing (needs `key`).
    pub key_without_billing: Option<ApiKey>,
    /// Wall-clock time the running evaluation takes to finish its remaining attempts.
    pub running_duration: Duration,
}

/// Where API requests are answered.
#[derive(Debug, Clone)]
pub enum Mode {
    /// By the demo, from the generated dataset.
    Demo(DemoConfig),
    /// By the upstream API at this URL.
    Proxy {
        /// Upstream base URL.
        upstream: String,
        /// Size and time limits of the upstream's answers.
        limits: ProxyLimits,
    },
}

/// Everything [`crate::app`] needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Demo or proxy.
    pub mode: Mode,
    /// The built viewer.
    pub dist: PathBuf,
    /// Injected faults (none by default).
    pub faults: Vec<FaultSpec>,
}
