//! A scorecard's runs from the API, each read once on the core's one load engine: its sources
//! (the training run, the agent's evaluations, the evaluation defaults: core's
//! `load_scorecard_sources`), then the plan's runs into the same store, so the runs' load finds
//! the training run and the defaults complete and does not read them again (core's
//! `load_scorecard`, with the plan checked in between: a plan the arguments cannot use is
//! refused before any run is read).

use eval_compare_core::load::{load_scorecard_sources, BesideRuns, LoadEvent, LoadStore};
use eval_compare_core::scorecard::{ListedRun, ScorecardPlan};
use eval_compare_core::text::visible;

use crate::api_load::{load_complete_into, report_run_event};
use crate::connection;
use crate::error::CliError;
use crate::progress::Progress;
use crate::report_inputs::note_cache;
use crate::scorecard_args::ScorecardArgs;

/// Reads the sources of `training_run`'s scorecard from `server`, plans it with `plan` (which
/// refuses what the arguments cannot use), then reads every run of the plan completely.
pub async fn load_from_api(
    server: &str,
    training_run: &str,
    args: &ScorecardArgs,
    progress: &Progress,
    plan: impl FnOnce(&[ListedRun]) -> Result<ScorecardPlan, CliError>,
) -> Result<(ScorecardPlan, LoadStore), CliError> {
    let client = connection::client_keeping(server, &args.connection, Some(&args.cache))?;
    let store = LoadStore::new();
    // A scorecard shows neither costs nor the platform's progression: read neither.
    store.set_reads_beside(BesideRuns::NONE);
    let notify = |event: LoadEvent<'_>| report_run_event(progress, event);
    let sources = load_scorecard_sources(&client, &store, training_run, &notify)
        .await
        .map_err(|source| CliError::Api {
            what: format!(
                "could not list the evaluations of training run {}",
                visible(training_run)
            ),
            source: Box::new(source),
            key_set: client.config().api_key.is_some(),
        })?;
    let plan = plan(&sources.listed)?;
    let loaded = load_complete_into(&client, &store, &plan.run_ids(), progress).await;
    note_cache(&client, progress);
    loaded?;
    Ok((plan, store))
}
