//! Token counts of a comparison's trajectories, read on request: the lists carry none, and the
//! cheapest request that gives a whole conversation's counts is its last step (each step holds
//! the conversation so far: `GET /api/v1/trajectories/{id}/steps?start_step_index={n-1}&limit=1`,
//! [`TrajectoryClient::transcript`]). Read per counted trajectory on the engine the reward
//! components use ([`super::per_trajectory`]): the same limits, progress, Cancel and resume.
//!
//! A trajectory's count is the sum of `prompt_tokens` and `completion_tokens` over its messages
//! when every model call (assistant message) records both; otherwise it has no count (never 0,
//! never estimated). A trajectory with no step made no model call: 0 tokens, read without a
//! request. One without a step count (`num_steps`) cannot be asked for its last step: it is
//! left out, and counted.

use std::collections::{HashMap, HashSet};

use crate::client::{TrajectoryClient, Transport};
use crate::model::{RunSet, TokenCount};
use crate::transcript::Transcript;

use super::component_stop::{ComponentReadLimits, ComponentStop};
use super::components::{ComponentProgress, ReadOffer};
use super::forms::ListForm;
use super::per_trajectory::{read_each, ReadKind};
use super::progress::LoadEvent;
use super::store::LoadStore;

/// The trajectories whose tokens would be read: every counted trajectory (with a task and a
/// primary value: those the effort's turns count) of every run, each id once, with its step
/// count.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TokenTargets {
    /// Their ids, every run in order.
    pub ids: Vec<String>,
    /// Their step counts, by id.
    steps: HashMap<String, u64>,
    /// Counted trajectories without a (valid) step count: their last step cannot be asked for.
    pub without_steps: usize,
}

impl TokenTargets {
    /// Requests reading every target takes: one per trajectory with a step (one with none is
    /// read without a request).
    pub fn requests(&self) -> usize {
        self.steps.values().filter(|&&steps| steps > 0).count()
    }
}

/// The trajectories of `set` whose tokens would be read (see [`TokenTargets`]).
pub fn token_targets(set: &RunSet) -> TokenTargets {
    let mut targets = TokenTargets::default();
    let mut seen = HashSet::new();
    for run in set.runs() {
        for trajectory in run.trajectories() {
            if trajectory.task.is_none() || trajectory.scoring().primary.value().is_none() {
                continue;
            }
            match trajectory.steps.and_then(|steps| u64::try_from(steps).ok()) {
                Some(steps) if seen.insert(trajectory.id) => {
                    targets.ids.push(trajectory.id.to_owned());
                    targets.steps.insert(trajectory.id.to_owned(), steps);
                }
                Some(_) => {}
                None => targets.without_steps += 1,
            }
        }
    }
    targets
}

/// What reading the tokens of a run set takes ([`token_offer`]).
pub type TokenOffer = ReadOffer<TokenTargets>;

/// What reading the tokens of `set` takes, reading at most `limit` trajectories: each run's
/// counted trajectories with a step count, counted before any is gathered ([`ReadOffer::of`]).
pub fn token_offer(set: &RunSet, limit: usize) -> TokenOffer {
    let counted: usize = set
        .runs()
        .iter()
        .map(|run| {
            run.trajectories()
                .filter(|trajectory| {
                    trajectory.task.is_some()
                        && trajectory.scoring().primary.value().is_some()
                        && trajectory.steps.is_some_and(|steps| steps >= 0)
                })
                .count()
        })
        .sum();
    ReadOffer::of(counted, limit, || {
        let targets = token_targets(set);
        let wanted = targets.ids.len();
        (targets, wanted)
    })
}

/// The token count of a transcript: the sums of its messages' counts when every model call
/// records both counts, 0 when it has no step, `None` otherwise ("no count").
pub fn token_count_of(transcript: &Transcript) -> Option<TokenCount> {
    if transcript.failed_before_first_call() {
        return Some(TokenCount::default());
    }
    let mut calls = transcript.assistant_turns().peekable();
    calls.peek()?;
    if !calls.all(|turn| turn.prompt_tokens.is_some() && turn.completion_tokens.is_some()) {
        return None;
    }
    let mut count = TokenCount::default();
    for turn in &transcript.turns {
        let prompt = u64::try_from(turn.prompt_tokens.unwrap_or(0)).ok()?;
        let completion = u64::try_from(turn.completion_tokens.unwrap_or(0)).ok()?;
        count.prompt = count.prompt.saturating_add(prompt);
        count.completion = count.completion.saturating_add(completion);
    }
    Some(count)
}

impl<F: ListForm> LoadStore<F> {
    /// Where reading the tokens of `trajectory_ids` stands.
    pub fn token_progress(&self, trajectory_ids: &[String]) -> ComponentProgress {
        self.tokens.progress(trajectory_ids)
    }

    /// Attaches every token count read to `set`; returns how many.
    pub fn attach_tokens(&self, set: &mut RunSet) -> usize {
        set.attach_token_counts(&self.tokens.read.borrow())
    }

    /// Forgets the token reads in progress (their future was dropped): they count as not read,
    /// and the next [`load_tokens`] asks for them again.
    pub fn cancel_token_reads(&self) {
        self.tokens.cancel();
    }
}

/// Reads the token counts of `targets` not read yet (again those that failed), from each one's
/// last step, within `limits`, telling `notify` after each ([`LoadEvent::Tokens`]); gives up
/// as [`super::load_components`] does and says why.
pub async fn load_tokens<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    targets: &TokenTargets,
    limits: &ComponentReadLimits,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Option<ComponentStop> {
    let kind = ReadKind {
        fetch: |id: &str| {
            let id = id.to_owned();
            let steps = targets.steps.get(&id).copied().unwrap_or(0);
            async move {
                let transcript = client.transcript(&id, steps).await?;
                Ok(token_count_of(&transcript))
            }
        },
        event: &|trajectory_id, ok| LoadEvent::Tokens { trajectory_id, ok },
    };
    read_each(
        client.transport(),
        &store.tokens,
        &targets.ids,
        limits,
        notify,
        kind,
    )
    .await
}
