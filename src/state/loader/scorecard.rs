//! What a training run's scorecard reads beside its runs: its sources (the training run, the
//! agent's evaluations of it and the base-model evaluations of their benchmark versions, the
//! evaluation defaults), through the core's [`load_scorecard_sources`] into the loader's own
//! store, so the runs' load that follows ([`Loader::ensure`] with the plan's run ids) finds the
//! training run and the defaults already read. Also when the loaded data last settled, which a
//! scorecard's build follows, and each run's version, by which it makes again only the
//! comparisons of runs that changed.

use eval_compare_core::client::{ApiError, ClientConfig, TrajectoryClient};
use std::collections::BTreeMap;

use eval_compare_core::load::{load_scorecard_sources, run_versions, RunVersion, ScorecardSources};
use leptos::prelude::*;

use super::{LoadPlan, Loader};
use crate::transport::FetchTransport;

impl Loader {
    /// Reads the sources of `training_run_id`'s scorecard with `config` (the store is reset
    /// first when the configuration changed, as [`Loader::ensure`] does).
    pub async fn scorecard_sources(
        &self,
        config: ClientConfig,
        training_run_id: String,
    ) -> Result<ScorecardSources, ApiError> {
        // Nothing to read yet: this only switches the store to `config`.
        self.ensure(&config, &LoadPlan::ScorecardRuns(Vec::new()));
        let store = self.store.get_value();
        let client = TrajectoryClient::new(config, FetchTransport::default());
        let tick = self.tick;
        let notify = move |_: eval_compare_core::load::LoadEvent<'_>| {
            tick.try_update(|t| *t += 1);
        };
        load_scorecard_sources(&client, &store, &training_run_id, &notify).await
    }

    /// How many times the loaded data settled or changed (tracked): a build over the store
    /// starts again when it moves.
    pub fn settled(&self) -> u64 {
        self.generation.get()
    }

    /// The version of each of `run_ids`' data in the store (not tracked; see
    /// [`RunVersion`]).
    pub fn run_versions(&self, run_ids: &[String]) -> BTreeMap<String, RunVersion> {
        run_versions(&self.store.get_value(), run_ids)
    }
}
