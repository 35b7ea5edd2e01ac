//! What a training run's scorecard loads, on this one engine: first its sources (the training
//! run, for its agent; the agent's evaluation runs of the training run; the agent's evaluation
//! runs of each benchmark version they cover, for the base-model baselines; the evaluation
//! defaults of each benchmark version and model, for every listed run's effective settings),
//! then the plan's runs ([`ScorecardPlan::run_ids`]: each once, a baseline shared by cells read
//! once) through [`load_runs`], their records, lists and settings only: a scorecard shows no
//! costs nor the platform's progression, so they are not read ([`BesideRuns::NONE`]). Each
//! pair's run set is then [`LoadStore::run_set`] of its two runs, baseline first. The training
//! run and the defaults land in the store's single reads, which the runs' load then finds
//! complete and does not read again.
//!
//! A page building the scorecard again after a running evaluation refreshed makes again only
//! the comparisons of runs whose [`RunVersion`] moved ([`run_versions`], then
//! [`crate::scorecard::ScorecardBuild::keeping`]).

use std::collections::BTreeMap;

use futures::future::join_all;

use crate::api::{EvalRun, EvalRunStatus};
use crate::client::{AgentRunFilter, ApiError, TrajectoryClient, Transport};
use crate::model::SourceKind;
use crate::scorecard::{plan_scorecard, ListedRun, ScorecardPlan};

use super::engine::{load_runs, read_once};
use super::forms::ListForm;
use super::list::{ListLoad, Phase};
use super::progress::{LoadEvent, SettingsRead};
use super::run_load::{defaults_key, defaults_owner};
use super::store::{BesideRuns, LoadStore};
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

/// A run's data in the store as far as its comparisons read them: its record's status and
/// `updated_at`, its latest progress, and how far each list was read. Every read that changes
/// what a comparison of the run gives moves it: a load or a resumed load reads more items or
/// settles a list, and a running run's refresh replaces its record, progress and lists only
/// when its progress moved (its finished rollouts or its status).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunVersion {
    record: Option<(Option<EvalRunStatus>, String)>,
    progress: Option<(Option<EvalRunStatus>, i64, i64)>,
    rewards: ListVersion,
    trajectories: ListVersion,
}

/// How far a list was read: items, pages, and whether it is complete.
type ListVersion = (usize, u32, bool);

fn list_version<T>(list: &ListLoad<T>) -> ListVersion {
    (
        list.items.len(),
        list.pages_read,
        matches!(list.phase, Phase::Complete),
    )
}

/// The [`RunVersion`] of each of `run_ids` the store holds.
pub fn run_versions<F: ListForm>(
    store: &LoadStore<F>,
    run_ids: &[String],
) -> BTreeMap<String, RunVersion> {
    run_ids
        .iter()
        .filter_map(|id| {
            let run = store.get(id)?;
            let version = RunVersion {
                record: run
                    .record
                    .borrow()
                    .0
                    .as_ref()
                    .map(|record| (record.status.clone(), record.updated_at.clone())),
                progress: run.progress.borrow().as_ref().map(|progress| {
                    (
                        progress.status.clone(),
                        progress.terminal_rollouts,
                        progress.total_rollouts,
                    )
                }),
                rewards: list_version(&run.rewards.borrow()),
                trajectories: list_version(&run.trajectories.borrow()),
            };
            Some((id.clone(), version))
        })
        .collect()
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
/// (our server's streams, or the API's pages). A scorecard shows neither costs nor the
/// platform's progression, so nothing beside the runs is read ([`BesideRuns::NONE`]; a
/// comparison of the same store turns them on and reads only them). A run's failure is left
/// in the store ([`LoadStore::first_failure`] of [`ScorecardPlan::run_ids`]), as for a
/// comparison.
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
    store.set_reads_beside(BesideRuns::NONE);
    load_runs(client, store, &plan.run_ids(), notify).await;
    Ok(plan)
}
