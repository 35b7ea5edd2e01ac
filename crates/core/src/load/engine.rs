//! The async part: reading lists, loading runs, refreshing running runs.

use std::cell::RefCell;

use std::future::Future;

use crate::large_list::PlainItem;
use futures::future::{join, join3, join_all};

use crate::api::{CursorPage, EvalRun, EvalTaskSplit};
use crate::client::{ApiError, PageCap, Paginator, TrajectoryClient, Transport};
use crate::model::PlatformSeries;

use super::forms::ListForm;
use super::list::{ListKind, ListLoad, Phase, PAGE_LIMIT};
use super::progress::{LoadEvent, SettingsRead};
use super::run_load::{defaults_key, defaults_owner, RunLoad, SingleRead};
use super::store::LoadStore;
use super::stream_source::read_list_from;

/// Reads the list `kind` of `owner` into `list`, page by page, from where it stopped, within
/// `cap` pages (counting those read before); tells `notify` after each page and when it ends.
/// A list already complete (or being read) is left alone; one whose cursor the API refused as
/// expired starts over. A list that would never end fails, keeping its pages.
pub async fn read_list<T, P>(
    kind: ListKind,
    owner: &str,
    paginator: Result<Paginator<'_, T, P>, ApiError>,
    cap: PageCap,
    list: &RefCell<ListLoad<P::Item>>,
    notify: &dyn Fn(LoadEvent<'_>),
) where
    T: Transport,
    P: CursorPage + PlainItem,
{
    let (start, pages_before, items_before, followed) = {
        let mut list = list.borrow_mut();
        match &list.phase {
            Phase::Complete | Phase::Loading => return,
            Phase::Failed(error) if error.is_invalid_cursor() => *list = ListLoad::default(),
            _ => {}
        }
        list.phase = Phase::Loading;
        let followed = std::mem::take(&mut list.followed);
        (
            list.resume_cursor.clone(),
            list.pages_read,
            list.items.len(),
            followed,
        )
    };
    notify(LoadEvent::Moved);
    list.borrow_mut().reserve_expected(cap.expected_items());
    let paginator = paginator.and_then(|paginator| {
        let limit = PAGE_LIMIT.min(paginator.max_limit());
        paginator.with_limit(limit)
    });
    let mut paginator = match paginator {
        Ok(paginator) => paginator
            .with_cap(cap)
            .continuing(start, pages_before, items_before)
            .with_guard(followed),
        Err(error) => {
            list.borrow_mut().phase = Phase::Failed(error);
            ended(kind, owner, list, notify);
            return;
        }
    };
    loop {
        let page = paginator.next_page().await;
        let (pages, items) = {
            let mut list = list.borrow_mut();
            match page {
                None => {
                    list.phase = Phase::Complete;
                    list.resume_cursor = None;
                }
                Some(Ok(page)) => {
                    list.pages_read += 1;
                    list.items.extend(page.into_items());
                    list.resume_cursor = paginator.cursor().map(str::to_owned);
                }
                Some(Err(error)) => {
                    list.phase = Phase::Failed(error);
                    list.followed = paginator.take_guard();
                }
            }
            (list.pages_read, list.items.len())
        };
        if list.borrow().phase != Phase::Loading {
            ended(kind, owner, list, notify);
            return;
        }
        notify(LoadEvent::Page {
            kind,
            owner,
            pages,
            items,
            has_more: !paginator.is_finished(),
        });
    }
}

fn ended<T>(
    kind: ListKind,
    owner: &str,
    list: &RefCell<ListLoad<T>>,
    notify: &dyn Fn(LoadEvent<'_>),
) {
    let list = list.borrow();
    notify(LoadEvent::ListEnded {
        kind,
        owner,
        pages: list.pages_read,
        items: list.items.len(),
        phase: &list.phase,
    });
}

/// Loads the runs `run_ids` concurrently into `store`, resuming whatever stopped and leaving
/// alone what is complete, with what the store's [`BesideRuns`](super::BesideRuns) names beside
/// them (costs, the platform's progression), having the server read the later runs ahead when
/// the store says so ([`super::read_ahead`]); tells `notify` whenever something arrived.
pub async fn load_runs<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    run_ids: &[String],
    notify: &dyn Fn(LoadEvent<'_>),
) {
    // The read-ahead request goes out first, before the runs' own requests take the
    // connections.
    let ahead = super::read_ahead::read_ahead(client, store, run_ids);
    let runs = join_all(run_ids.iter().map(|id| load_run(client, store, id, notify)));
    let costs = super::billing::load_costs(client, store.cost_reads(), run_ids, notify);
    join3(ahead, runs, costs).await;
}

async fn load_run<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    run_id: &str,
    notify: &dyn Fn(LoadEvent<'_>),
) {
    let run = store.run(run_id);
    let needs_record = run.record.borrow().1 != Phase::Complete;
    if needs_record {
        run.record.borrow_mut().1 = Phase::Loading;
        notify(LoadEvent::Moved);
        let outcome = client.eval_run(run_id).await;
        let phase = match outcome {
            Ok(eval_run) => {
                *run.record.borrow_mut() = (Some(eval_run), Phase::Complete);
                Phase::Complete
            }
            Err(error) => {
                run.record.borrow_mut().1 = Phase::Failed(error);
                run.record.borrow().1.clone()
            }
        };
        notify(LoadEvent::Record {
            run_id,
            phase: &phase,
        });
        if phase != Phase::Complete {
            return;
        }
    }
    let Some(record) = run.record.borrow().0.clone() else {
        return;
    };
    let bench_id = record.bench_id.clone();
    let tasks = store.tasks(&bench_id);
    let progress = async {
        if run.is_running() && run.progress.borrow().is_none() {
            // Only for the totals shown: a failure here leaves the planned rollouts as the total.
            if let Ok(progress) = client.eval_progress(run_id).await {
                *run.progress.borrow_mut() = Some(progress);
                notify(LoadEvent::Moved);
            }
        }
    };
    let training_run = async {
        if let Some(id) = &record.training_run_id {
            let read = store.training_run(id);
            let platform = async {
                let wanted = store.reads_beside().platform_progression;
                if let Some(agent_id) = record.agent_id.as_ref().filter(|_| wanted) {
                    let read = store.platform_series(id);
                    read_once(
                        SettingsRead::PlatformProgression,
                        id,
                        &read,
                        platform_series(client, agent_id, id),
                        notify,
                    )
                    .await;
                }
            };
            join(
                read_once(
                    SettingsRead::TrainingRun,
                    id,
                    &read,
                    client.training_run(id),
                    notify,
                ),
                platform,
            )
            .await;
        }
    };
    let defaults = async {
        let key = defaults_key(&record);
        let read = store.eval_options(&key);
        let request = client.eval_options(&key.0, key.1.as_deref());
        let owner = defaults_owner(&key);
        read_once(
            SettingsRead::EvaluationDefaults,
            &owner,
            &read,
            request,
            notify,
        )
        .await;
    };
    join(
        join3(
            read_list_from(
                store.list_source(),
                client,
                ListKind::Rewards,
                run_id,
                client
                    .trajectory_rewards(run_id)
                    .map(Paginator::decoding::<F::RewardsPage>),
                rollouts_cap(&record),
                &run.rewards,
                notify,
            ),
            read_list_from(
                store.list_source(),
                client,
                ListKind::Trajectories,
                run_id,
                client
                    .trajectories_of_run(run_id)
                    .map(Paginator::decoding::<F::TrajectoryPage>),
                rollouts_cap(&record),
                &run.trajectories,
                notify,
            ),
            read_list_from(
                store.list_source(),
                client,
                ListKind::Tasks,
                &bench_id,
                client.benchmark_tasks(&bench_id, None),
                tasks_cap(&record),
                &tasks,
                notify,
            ),
        ),
        join3(progress, training_run, defaults),
    )
    .await;
}

/// The platform's own progression of training run `training_run_id` of `agent_id`: every page
/// of its evaluation series and of its held-out reward by step (the first failure fails it).
async fn platform_series<T: Transport>(
    client: &TrajectoryClient<T>,
    agent_id: &str,
    training_run_id: &str,
) -> Result<PlatformSeries, ApiError> {
    let evaluation = client
        .evaluation_series(agent_id, training_run_id)?
        .collect_all(|_, _| {})
        .await;
    if let Some(error) = evaluation.error {
        return Err(error);
    }
    let held_out = client
        .held_out_reward_by_step(training_run_id)?
        .collect_all(|_, _| {})
        .await;
    if let Some(error) = held_out.error {
        return Err(error);
    }
    Ok(PlatformSeries {
        evaluation: evaluation.items,
        held_out: held_out.items,
    })
}

/// Reads one request into `read` unless it is complete or already being read (by another run
/// with the same key); a failed or cancelled read is tried again. Tells `notify` when it ends.
pub(super) async fn read_once<R>(
    what: SettingsRead,
    owner: &str,
    read: &SingleRead<R>,
    request: impl Future<Output = Result<R, ApiError>>,
    notify: &dyn Fn(LoadEvent<'_>),
) {
    {
        let mut read = read.borrow_mut();
        if matches!(read.1, Phase::Complete | Phase::Loading) {
            return;
        }
        read.1 = Phase::Loading;
    }
    notify(LoadEvent::Moved);
    let phase = match request.await {
        Ok(value) => {
            *read.borrow_mut() = (Some(value), Phase::Complete);
            Phase::Complete
        }
        Err(error) => {
            read.borrow_mut().1 = Phase::Failed(error);
            read.borrow().1.clone()
        }
    };
    notify(LoadEvent::Settings {
        what,
        owner,
        phase: &phase,
    });
}

/// Reads the progress of each complete running run of `run_ids`; when it moved, reads the run
/// and its lists again and swaps them in once complete (a failure keeps the previous data and
/// is kept as the run's `refresh_error`). Returns whether any run changed.
pub async fn refresh_running<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    run_ids: &[String],
) -> bool {
    let mut changed = false;
    for id in run_ids {
        let Some(run) = store.get(id) else {
            continue;
        };
        if !(run.is_running() && run.is_complete()) {
            continue;
        }
        match refresh_run(client, &run).await {
            Ok(updated) => {
                *run.refresh_error.borrow_mut() = None;
                changed |= updated;
            }
            Err(error) => *run.refresh_error.borrow_mut() = Some(error),
        }
    }
    changed
}

async fn refresh_run<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    run: &RunLoad<F>,
) -> Result<bool, ApiError> {
    let progress = client.eval_progress(&run.run_id).await?;
    let moved = run.progress.borrow().as_ref().is_none_or(|known| {
        known.terminal_rollouts != progress.terminal_rollouts || known.status != progress.status
    });
    if !moved {
        return Ok(false);
    }
    let record = client.eval_run(&run.run_id).await?;
    let rewards = RefCell::new(ListLoad::default());
    let trajectories = RefCell::new(ListLoad::default());
    let quiet = |_: LoadEvent<'_>| {};
    join(
        read_list(
            ListKind::Rewards,
            &run.run_id,
            client
                .trajectory_rewards(&run.run_id)
                .map(Paginator::decoding::<F::RewardsPage>),
            rollouts_cap(&record),
            &rewards,
            &quiet,
        ),
        read_list(
            ListKind::Trajectories,
            &run.run_id,
            client
                .trajectories_of_run(&run.run_id)
                .map(Paginator::decoding::<F::TrajectoryPage>),
            rollouts_cap(&record),
            &trajectories,
            &quiet,
        ),
    )
    .await;
    for list in [&rewards.borrow().phase, &trajectories.borrow().phase] {
        if let Phase::Failed(error) = list {
            return Err(error.clone());
        }
    }
    *run.record.borrow_mut() = (Some(record), Phase::Complete);
    *run.progress.borrow_mut() = Some(progress);
    *run.rewards.borrow_mut() = rewards.into_inner();
    *run.trajectories.borrow_mut() = trajectories.into_inner();
    Ok(true)
}

/// The page cap of a run's rewards and trajectories: one item per planned rollout
/// (`total_rollouts`), when the run says how many.
fn rollouts_cap(run: &EvalRun) -> PageCap {
    match run
        .total_rollouts
        .and_then(|total| u64::try_from(total).ok())
    {
        Some(total) => {
            PageCap::expected(total, format!("run {}'s total_rollouts", run.eval_run_id))
        }
        None => PageCap::unknown(),
    }
}

/// The page cap of a benchmark's task list as far as a run tells: a run on every task
/// (`task_selection.split` = `all`) names how many the benchmark had at launch
/// (`available_task_count`). A run on the test split says nothing about the other tasks
/// listed, so the cap is then the fixed one.
fn tasks_cap(run: &EvalRun) -> PageCap {
    match &run.task_selection {
        Some(selection) if selection.split == EvalTaskSplit::All => PageCap::expected(
            selection
                .available_task_count
                .max(selection.selected_task_count),
            format!(
                "run {}'s task_selection.available_task_count",
                run.eval_run_id
            ),
        ),
        _ => PageCap::unknown(),
    }
}
