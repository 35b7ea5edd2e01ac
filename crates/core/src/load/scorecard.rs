//! What a training run's scorecard loads, on this one engine: first its sources (the training
//! run, for its agent; the agent's evaluation runs of the training run; the agent's evaluation
//! runs of each benchmark version they cover, for the base-model baselines; the evaluation
//! defaults of each benchmark version and model, for every listed run's effective settings),
//! then the plan's runs ([`ScorecardPlan::run_ids`]: each once, a baseline shared by cells read
//! once) through [`load_runs`]. Each pair's run set is then [`LoadStore::run_set`] of its two
//! runs, baseline first. The training run and the defaults land in the store's single reads,
//! which the runs' load then finds complete and does not read again.

use std::collections::BTreeMap;

use futures::future::join_all;

use crate::api::EvalRun;
use crate::client::{AgentRunFilter, ApiError, TrajectoryClient, Transport};
use crate::model::SourceKind;
use crate::scorecard::{plan_scorecard, ListedRun, ScorecardPlan};

use super::engine::{load_runs, read_once};
use super::forms::ListForm;
use super::list::Phase;
use super::progress::{LoadEvent, SettingsRead};
use super::run_load::{defaults_key, defaults_owner};
use super::store::LoadStore;
use super::stream_source::choose_list_source;

/// A scorecard's sources: the training run's agent and every run listed.
#[derive(Debug, Clone, PartialEq)]
pub struct ScorecardSources {
    /// The agent the training run belongs to.
    pub agent_id: String,
    /// The checkpoint evaluations of the training run and the base-model evaluations of their
    /// benchmark versions, with their settings inputs.
    pub listed: Vec<ListedRun>,
}

/// Reads a scorecard's sources (see the module doc) into `store` and returns them; fails on
/// the first read that fails (the training run, or a page of a list).
pub async fn load_scorecard_sources<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    training_run_id: &str,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Result<ScorecardSources, ApiError> {
    let read = store.training_run(training_run_id);
    read_once(
        SettingsRead::TrainingRun,
        training_run_id,
        &read,
        client.training_run(training_run_id),
        notify,
    )
    .await;
    let agent_id = {
        let state = read.borrow();
        match &*state {
            (Some(training), Phase::Complete) => training.agent_id.clone().ok_or_else(|| {
                ApiError::InvalidArgument(format!(
                    "training run {training_run_id} names no agent, so its evaluations cannot be listed"
                ))
            })?,
            (_, Phase::Failed(error)) => return Err(error.clone()),
            _ => {
                return Err(ApiError::InvalidArgument(format!(
                    "training run {training_run_id} was not read"
                )))
            }
        }
    };
    let checkpoints = list_all(
        client,
        &agent_id,
        AgentRunFilter {
            training_run_id: Some(training_run_id.to_owned()),
            ..AgentRunFilter::default()
        },
    )
    .await?;
    notify(LoadEvent::Moved);
    let mut benches: Vec<String> = checkpoints.iter().map(|run| run.bench_id.clone()).collect();
    benches.sort();
    benches.dedup();
    let mut records = checkpoints;
    for bench_id in &benches {
        let of_bench = list_all(
            client,
            &agent_id,
            AgentRunFilter {
                bench_id: Some(bench_id.clone()),
                ..AgentRunFilter::default()
            },
        )
        .await?;
        records.extend(of_bench.into_iter().filter(|run| {
            run.step.is_none()
                && run.training_run_id.is_none()
                && run.parent_checkpoint_id.is_none()
        }));
        notify(LoadEvent::Moved);
    }
    let mut keys: Vec<_> = records.iter().map(defaults_key).collect();
    keys.sort();
    keys.dedup();
    join_all(keys.iter().map(|key| async {
        let read = store.eval_options(key);
        read_once(
            SettingsRead::EvaluationDefaults,
            &defaults_owner(key),
            &read,
            client.eval_options(&key.0, key.1.as_deref()),
            notify,
        )
        .await;
    }))
    .await;
    let listed = records
        .iter()
        .map(|run| ListedRun::from_api(run, store.setting_inputs(run), SourceKind::Api))
        .collect();
    Ok(ScorecardSources { agent_id, listed })
}

/// Every page of an agent's evaluation runs under `filter`; the first failure fails it.
async fn list_all<T: Transport>(
    client: &TrajectoryClient<T>,
    agent_id: &str,
    filter: AgentRunFilter,
) -> Result<Vec<EvalRun>, ApiError> {
    let list = client
        .eval_runs_of_agent(agent_id, &filter)?
        .collect_all(|_, _| {})
        .await;
    match list.error {
        Some(error) => Err(error),
        None => Ok(list.items),
    }
}

/// Reads the sources of `training_run_id`'s scorecard, plans it (with the baselines chosen by
/// hand) and loads the plan's runs, each once, from the source [`choose_list_source`] picks
/// (our server's streams, or the API's pages). A run's failure is left in the store
/// ([`LoadStore::first_failure`] of [`ScorecardPlan::run_ids`]), as for a comparison.
pub async fn load_scorecard<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    training_run_id: &str,
    by_hand: &BTreeMap<String, String>,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Result<ScorecardPlan, ApiError> {
    let sources = load_scorecard_sources(client, store, training_run_id, notify).await?;
    let plan = plan_scorecard(training_run_id, &sources.listed, by_hand);
    // The runs' lists streamed by our server when it offers them, as for a comparison.
    choose_list_source(client, store).await;
    load_runs(client, store, &plan.run_ids(), notify).await;
    Ok(plan)
}
