//! What the parts of one task's panel share: the client, the on-demand loaders and the attempts
//! kept in the link, passed down as one value.

use eval_compare_core::client::ClientConfig;
use leptos::prelude::*;

use super::trajectory::details::DetailLoader;
use super::transcript::loader::TranscriptLoader;
use super::trial::details::TrialDetailLoader;
use super::trial::source::TrialSource;

/// What every part of one task's panel reads on request, and the attempts it keeps in the link.
#[derive(Clone, Copy)]
pub struct PanelState {
    /// Where to fetch details, transcripts and trials; `None` hides the actions that would.
    pub client: Signal<Option<ClientConfig>>,
    /// The organization URL key for platform links; `None` shows no link.
    pub org_key: Signal<Option<String>>,
    /// The trajectories' details.
    pub details: DetailLoader,
    /// The Chronicle trials' details.
    pub trial_details: TrialDetailLoader,
    /// The Chronicle trials as the API listed them.
    pub trials: TrialSource,
    /// The trajectories' transcripts.
    pub transcripts: TranscriptLoader,
    /// The open trajectories (the link's `attempts`).
    pub attempts: Signal<Vec<String>>,
    /// Called with the trajectories opened or chosen.
    pub on_attempts: Callback<Vec<String>>,
}
