//! The load engine against a scripted API: pages kept when one fails, Retry resuming from the
//! cursor without reading anything twice, an expired cursor starting over, tasks read once per
//! benchmark, Cancel, the refresh of a running run, the first failure for a caller that refuses
//! partial data, and a run set equal to the one built from the same data as run folders (the
//! store keeping packed items, the folders the API's records whole).

#![allow(clippy::unwrap_used)]

use std::cell::RefCell;

use eval_compare_core::large_list::{AsRewardFacts, PackedReward};
use eval_compare_core::load::{
    load_runs, refresh_running, BuildStep, ListForm, ListKind, LoadEvent, LoadFailure, LoadStore,
    Phase, RunSetBuild,
};
use eval_compare_core::model::{
    Resolution, RunIdx, SettingKey, SettingSource, SettingValue, SourceKind,
};
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::run_folder::run_set_from_folders;
use eval_compare_core::testing::bodies::{
    checkpoint_run_body, eval_options_body, page, reward_item, run_body, task_item,
    training_run_body, trajectory_item, EXPIRED_CURSOR, NOT_FOUND, SERVER_FAILURE,
};
use eval_compare_core::testing::scripted::{client_over, yield_now};
use eval_compare_core::testing::{ScriptedTransport, NEVER};
use futures::executor::block_on;
use futures::future::{select, Either};

/// Run `id` on benchmark `b_1`: rewards in two pages (the second from `second`), trajectories
/// and tasks in one.
fn script_run(transport: &ScriptedTransport, id: &str, second: Vec<(u16, String)>) {
    transport.route(&format!("/eval/{id}/trajectory-rewards?cursor=c2"), second);
    transport.route(
        &format!("/eval/{id}/trajectory-rewards"),
        vec![(
            200,
            page(
                id,
                &[reward_item("x1", "t1", 1.0), reward_item("x2", "t2", 0.0)],
                Some("c2"),
            ),
        )],
    );
    transport.route(
        &format!("eval_run_id={id}"),
        vec![(
            200,
            page(
                id,
                &[
                    trajectory_item("x1", "t1"),
                    trajectory_item("x2", "t2"),
                    trajectory_item("x3", "t3"),
                ],
                None,
            ),
        )],
    );
    transport.route(
        &format!("/eval/{id}"),
        vec![(200, run_body(id, "completed"))],
    );
}

/// Runs `er_1` and `er_2` on `b_1`, each with 3 rewards (in two pages) and 3 trajectories,
/// and the benchmark's tasks.
fn script_two_complete_runs(transport: &ScriptedTransport) {
    for id in ["er_1", "er_2"] {
        script_run(
            transport,
            id,
            vec![(200, page(id, &[reward_item("x3", "t3", 0.25)], None))],
        );
    }
    script_tasks(transport);
}

/// [`script_two_complete_runs`], read into a new store.
fn two_complete_runs_loaded() -> (ScriptedTransport, LoadStore) {
    two_complete_runs_loaded_into(LoadStore::new())
}

/// [`two_complete_runs_loaded`] into `store`, which keeps its lists in its own form.
fn two_complete_runs_loaded_into<F: ListForm>(
    store: LoadStore<F>,
) -> (ScriptedTransport, LoadStore<F>) {
    let transport = ScriptedTransport::default();
    script_two_complete_runs(&transport);
    let client = client_over(&transport);
    block_on(load_runs(&client, &store, &ids(&["er_1", "er_2"]), &quiet));
    drop(client);
    (transport, store)
}

/// The tasks of `b_1`, and its evaluation defaults (temperature 1.0).
fn script_tasks(transport: &ScriptedTransport) {
    transport.route(
        "/eval/options?bench_id=b_1",
        vec![(
            200,
            eval_options_body("b_1", "org/model", &[("temperature", 1.0)]),
        )],
    );
    transport.route(
        "/benchmarks/b_1/tasks",
        vec![(
            200,
            page(
                "b_1",
                &[task_item("t1"), task_item("t2"), task_item("t3")],
                None,
            ),
        )],
    );
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}

fn quiet(_: LoadEvent<'_>) {}

#[test]
fn a_failed_page_keeps_what_was_read_and_retry_resumes_from_its_cursor() {
    let transport = ScriptedTransport::default();
    script_run(
        &transport,
        "er_1",
        vec![
            (503, SERVER_FAILURE.to_owned()),
            (200, page("er_1", &[reward_item("x3", "t3", 1.0)], None)),
        ],
    );
    script_tasks(&transport);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    block_on(load_runs(&client, &store, &runs, &quiet));

    let progress = store.progress(&runs);
    let rewards = progress[0]
        .lists
        .iter()
        .find(|list| list.kind == ListKind::Rewards)
        .unwrap();
    assert!(matches!(rewards.phase, Phase::Failed(_)), "{rewards:?}");
    assert_eq!((rewards.pages, rewards.items), (1, 2), "page 1 is kept");
    assert_eq!(
        store
            .get("er_1")
            .unwrap()
            .rewards
            .borrow()
            .resume_cursor
            .as_deref(),
        Some("c2")
    );
    assert!(progress[0].is_settled() && progress[0].has_stopped());

    // A caller refusing partial data learns what stopped and how far it got.
    match store.first_failure(&runs) {
        Some(LoadFailure::List {
            kind: ListKind::Rewards,
            owner,
            pages_read: 1,
            items: 2,
            phase: Phase::Failed(_),
        }) => assert_eq!(owner, "er_1"),
        other => panic!("{other:?}"),
    }

    // The run set is built from what was read, and says what is missing.
    let set = store.run_set(&runs).unwrap().unwrap();
    let missing = set.runs()[0].info().incomplete_load.clone().unwrap();
    assert!(
        missing.starts_with("trajectory rewards: 1 page (2 items) read, then a page failed"),
        "{missing}"
    );

    // Retry: only the failed page is asked for.
    let before = transport.request_count();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let asked = transport.urls_since(before);
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].contains("/trajectory-rewards?cursor=c2&limit=200"),
        "{asked:?}"
    );
    let rewards = store.get("er_1").unwrap().rewards.borrow().clone();
    assert_eq!(rewards.phase, Phase::Complete);
    let read: Vec<&str> = rewards.items.iter().map(|r| r.trajectory_id()).collect();
    assert_eq!(read, ["x1", "x2", "x3"]);
    let set = store.run_set(&runs).unwrap().unwrap();
    assert_eq!(set.runs()[0].info().incomplete_load, None);
    assert_eq!(store.first_failure(&runs), None);
}

#[test]
fn an_expired_cursor_reads_the_list_again_from_the_start() {
    let transport = ScriptedTransport::default();
    script_run(
        &transport,
        "er_1",
        vec![
            (400, EXPIRED_CURSOR.to_owned()),
            (200, page("er_1", &[reward_item("x3", "t3", 1.0)], None)),
        ],
    );
    script_tasks(&transport);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    block_on(load_runs(&client, &store, &runs, &quiet));
    let before = transport.request_count();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let asked = transport.urls_since(before);
    assert!(
        asked[0].ends_with("/trajectory-rewards?limit=200"),
        "starts over: {asked:?}"
    );
    let rewards = store.get("er_1").unwrap().rewards.borrow().clone();
    assert_eq!(rewards.items.len(), 3, "no item twice");
    assert_eq!(rewards.phase, Phase::Complete);
}

#[test]
fn runs_load_concurrently_and_share_their_benchmark_tasks() {
    let transport = ScriptedTransport::default();
    for id in ["er_1", "er_2"] {
        script_run(&transport, id, vec![(200, page(id, &[], None))]);
    }
    script_tasks(&transport);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1", "er_2"]);
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(transport.count("/benchmarks/b_1/tasks"), 1);
    assert!(store.is_ready(&runs));
    for run in store.progress(&runs) {
        assert!(
            run.lists.iter().all(|list| list.phase == Phase::Complete),
            "{run:?}"
        );
    }
    // Both runs' first requests went out before either run finished.
    let urls = transport.urls();
    let first_of = |id: &str| {
        urls.iter()
            .position(|url| url.ends_with(&format!("/eval/{id}")))
    };
    assert_eq!(
        (first_of("er_1"), first_of("er_2")),
        (Some(0), Some(1)),
        "{urls:?}"
    );
}

#[test]
fn every_page_and_the_end_of_every_list_is_an_event() {
    let transport = ScriptedTransport::default();
    script_run(
        &transport,
        "er_1",
        vec![(200, page("er_1", &[reward_item("x3", "t3", 1.0)], None))],
    );
    script_tasks(&transport);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let seen = RefCell::new(Vec::new());
    let notify = |event: LoadEvent<'_>| {
        let line = match event {
            LoadEvent::Moved => return,
            LoadEvent::Record { run_id, phase } => format!("record {run_id} {phase:?}"),
            LoadEvent::Settings { what, owner, phase } => {
                format!("settings {what:?} {owner} {}", phase == &Phase::Complete)
            }
            LoadEvent::Page {
                kind,
                owner,
                pages,
                items,
                has_more,
            } => format!("page {kind:?} {owner} {pages} {items} {has_more}"),
            LoadEvent::ListEnded {
                kind,
                owner,
                pages,
                items,
                phase,
            } => format!("end {kind:?} {owner} {pages} {items} {phase:?}"),
            LoadEvent::Components { trajectory_id, ok } => {
                format!("components {trajectory_id} {ok}")
            }
            LoadEvent::Tokens { trajectory_id, ok } => format!("tokens {trajectory_id} {ok}"),
        };
        seen.borrow_mut().push(line);
    };
    block_on(load_runs(&client, &store, &ids(&["er_1"]), &notify));
    let mut seen = seen.into_inner();
    seen.sort();
    assert_eq!(
        seen,
        [
            "end Rewards er_1 2 3 Complete",
            "end Tasks b_1 1 3 Complete",
            "end Trajectories er_1 1 3 Complete",
            "page Rewards er_1 1 2 true",
            "page Rewards er_1 2 3 false",
            "page Tasks b_1 1 3 false",
            "page Trajectories er_1 1 3 false",
            "record er_1 Complete",
            "settings EvaluationDefaults b_1 true",
        ]
    );
}

#[test]
fn a_missing_run_is_the_first_failure_and_its_lists_are_not_asked_for() {
    let transport = ScriptedTransport::default();
    transport.route(
        "/eval/er_9",
        vec![(
            404,
            eval_compare_core::testing::bodies::NOT_FOUND.to_owned(),
        )],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_9"]);
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(transport.request_count(), 1);
    match store.first_failure(&runs) {
        Some(LoadFailure::Record {
            run_id,
            phase: Phase::Failed(error),
        }) => {
            assert_eq!(run_id, "er_9");
            assert!(error.to_string().starts_with("not found"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        store.run_set(&runs).is_none(),
        "no run set without the record"
    );
}

#[test]
fn cancel_keeps_the_pages_read_and_retry_resumes() {
    let transport = ScriptedTransport::default();
    script_run(
        &transport,
        "er_1",
        vec![
            (NEVER, String::new()),
            (200, page("er_1", &[reward_item("x3", "t3", 1.0)], None)),
        ],
    );
    script_tasks(&transport);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    {
        // The second page never answers: the load is dropped once nothing else can move.
        let load = std::pin::pin!(load_runs(&client, &store, &runs, &quiet));
        let outcome = block_on(select(load, Box::pin(until_stuck(&transport, "cursor=c2"))));
        assert!(
            matches!(outcome, Either::Right(_)),
            "the second page never answers"
        );
    }
    store.mark_cancelled();
    let rewards = store.get("er_1").unwrap().rewards.borrow().clone();
    assert_eq!(rewards.phase, Phase::Cancelled);
    assert_eq!(rewards.items.len(), 2);
    assert_eq!(rewards.resume_cursor.as_deref(), Some("c2"));
    let missing = store.run_set(&runs).unwrap().unwrap().runs()[0]
        .info()
        .incomplete_load
        .clone()
        .unwrap_or_default();
    assert!(missing.contains("then loading was cancelled"), "{missing}");

    let before = transport.request_count();
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(transport.urls_since(before).len(), 1);
    assert_eq!(store.get("er_1").unwrap().rewards.borrow().items.len(), 3);
}

/// Resolves once the transport saw the never-answering request (its URL contains `pattern`)
/// and everything else settled: yields to the executor until the request count stops growing.
async fn until_stuck(transport: &ScriptedTransport, pattern: &str) {
    let mut last = usize::MAX;
    loop {
        for _ in 0..16 {
            yield_now().await;
        }
        let now = transport.request_count();
        if now == last && transport.count(pattern) > 0 {
            return;
        }
        last = now;
    }
}

#[test]
fn a_running_run_is_read_again_only_when_its_progress_moved() {
    let transport = ScriptedTransport::default();
    let progress = |done: u32| {
        format!(
            r#"{{"eval_run_id":"er_1","status":"running","terminal_rollouts":{done},"total_rollouts":3}}"#
        )
    };
    transport.route(
        "/eval/er_1/progress",
        vec![(200, progress(2)), (200, progress(2)), (200, progress(3))],
    );
    transport.route(
        "/eval/er_1/trajectory-rewards",
        vec![
            (200, page("er_1", &[reward_item("x1", "t1", 1.0)], None)),
            (
                200,
                page(
                    "er_1",
                    &[reward_item("x1", "t1", 1.0), reward_item("x2", "t2", 0.5)],
                    None,
                ),
            ),
        ],
    );
    transport.route(
        "eval_run_id=er_1",
        vec![(
            200,
            page(
                "er_1",
                &[trajectory_item("x1", "t1"), trajectory_item("x2", "t2")],
                None,
            ),
        )],
    );
    transport.route("/eval/er_1", vec![(200, run_body("er_1", "running"))]);
    script_tasks(&transport);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(store.progress(&runs)[0].rollouts, Some((2, 3)));
    assert!(store.needs_refresh(&runs));

    let before = transport.request_count();
    assert!(
        !block_on(refresh_running(&client, &store, &runs)),
        "no change"
    );
    assert_eq!(transport.urls_since(before).len(), 1, "only the progress");

    assert!(
        block_on(refresh_running(&client, &store, &runs)),
        "moved: read again"
    );
    let run = store.get("er_1").unwrap();
    assert_eq!(run.rewards.borrow().items.len(), 2);
    assert_eq!(store.progress(&runs)[0].rollouts, Some((3, 3)));
}

#[test]
fn the_run_set_equals_the_one_built_from_the_same_data_as_run_folders() {
    let (_transport, store) = two_complete_runs_loaded();
    let runs = ids(&["er_1", "er_2"]);
    assert!(!store.needs_refresh(&runs), "nothing is running");
    let loaded = store.run_set(&runs).unwrap().unwrap();

    let (_transport, whole) = two_complete_runs_loaded_into(LoadStore::with_full_records());
    let folders: Vec<_> = runs
        .iter()
        .map(|id| whole.take_run_folder(id).unwrap())
        .collect();
    assert_eq!(folders[1].rewards.len(), 3);
    assert_eq!(folders[1].tasks.as_ref().map(Vec::len), Some(3));
    let from_folders = run_set_from_folders(&folders, SourceKind::Api).unwrap();
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    // A folder keeps the evaluation defaults the engine read (`eval-options.json`): the
    // effective settings, and so the whole report, are the same.
    assert!(folders.iter().all(|f| f.eval_options.is_some()));
    let ours = build_report(&loaded, RunIdx(0), &[RunIdx(1)], &settings).unwrap();
    let theirs = build_report(&from_folders, RunIdx(0), &[RunIdx(1)], &settings).unwrap();
    let temperature = |report: &eval_compare_core::report::Report| {
        report.audit.settings[1].settings[0].resolution.clone()
    };
    assert_eq!(temperature(&ours).value(), Some(&SettingValue::Number(1.0)));
    assert_eq!(temperature(&theirs), temperature(&ours));
    assert_eq!(ours, theirs);
    assert_eq!(ours.sources, [SourceKind::Api]);
}

/// Drives `build` with steps of `budget` items to its end; the steps taken and the set.
fn build_in_steps(
    store: &LoadStore,
    build: &mut RunSetBuild,
    budget: usize,
    mut between: impl FnMut(usize),
) -> (usize, eval_compare_core::model::RunSet) {
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 1_000, "the build never ends");
        match build.advance(store, budget) {
            BuildStep::Working => {}
            BuildStep::Built(set) => return (steps, set.unwrap()),
            BuildStep::NotReady => panic!("the runs are loaded"),
        }
        assert!(
            (0.0..=1.0).contains(&build.progress()),
            "progress {} out of range",
            build.progress()
        );
        between(steps);
    }
}

#[test]
fn the_run_set_built_a_few_items_at_a_time_equals_the_one_built_at_once() {
    let (_transport, store) = two_complete_runs_loaded();
    let runs = ids(&["er_1", "er_2"]);
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    let report = |set: &eval_compare_core::model::RunSet| {
        build_report(set, RunIdx(0), &[RunIdx(1)], &settings).unwrap()
    };
    let at_once = report(&store.run_set(&runs).unwrap().unwrap());
    for budget in [1, 2, 5, 1_000] {
        let mut build = store.start_run_set(&runs).unwrap();
        assert_eq!(build.progress(), 0.0);
        let (steps, set) = build_in_steps(&store, &mut build, budget, |_| {});
        assert_eq!(build.progress(), 1.0);
        if budget == 1 {
            // 3 tasks, 3 rewards and 3 trajectories walked twice, per run, then the grouping.
            assert!(steps > 20, "{steps} steps of one item");
        }
        assert_eq!(report(&set), at_once, "budget {budget}");
    }

    // A list that changes between steps (a refresh swapped it) starts the build over: the set
    // is that of the store as it is now.
    let mut build = store.start_run_set(&runs).unwrap();
    let (_, set) = build_in_steps(&store, &mut build, 2, |step| {
        if step == 6 {
            let run = store.run("er_2");
            run.rewards.borrow_mut().items.truncate(2);
        }
    });
    let now = store.run_set(&runs).unwrap().unwrap();
    assert_eq!(now.runs()[1].totals().trajectories, 3);
    assert_eq!(report(&set), report(&now));
    assert_ne!(report(&set), at_once, "the change shows");

    // A list swapped for another of the same length (read again, one reward changed) starts
    // it over too.
    let before = report(&now);
    let mut build = store.start_run_set(&runs).unwrap();
    let (_, set) = build_in_steps(&store, &mut build, 2, |step| {
        if step == 6 {
            let run = store.run("er_1");
            let mut items = run.rewards.borrow().items.clone();
            let (id, task) = (items[0].trajectory_id(), items[0].task_id());
            let changed = serde_json::json!({"trajectory_id": id, "reward": 0.5, "task_id": task});
            items[0] = serde_json::from_value::<PackedReward>(changed).unwrap();
            run.rewards.borrow_mut().items = items;
        }
    });
    let now = store.run_set(&runs).unwrap().unwrap();
    assert_eq!(report(&set), report(&now));
    assert_ne!(report(&set), before, "the swapped list's reward shows");
    assert!(
        store.start_run_set(&ids(&["er_1", "er_9"])).is_none(),
        "er_9 was never read"
    );
}

#[test]
fn releasing_the_other_runs_forgets_their_lists_and_they_are_read_again_when_asked() {
    let (transport, store) = two_complete_runs_loaded();
    let client = client_over(&transport);
    let both = ids(&["er_1", "er_2"]);
    // Per run 3 rewards and 3 trajectories; the benchmark's 3 tasks once.
    assert_eq!(store.held_items(), 15);

    let first = ids(&["er_1"]);
    assert_eq!(store.release_except(&first, &[]), 6);
    assert_eq!(store.held_items(), 9);
    assert!(store.is_ready(&first), "the run kept is still loaded");
    assert!(store.get("er_2").is_none());
    assert!(!store.is_ready(&both));

    // Nothing kept: the benchmark's tasks go too.
    assert_eq!(store.release_except(&[], &[]), 9);
    assert_eq!(store.held_items(), 0);

    // Asked for again, a released run is read from the API again.
    let requests = transport.requests().len();
    block_on(load_runs(&client, &store, &both, &quiet));
    assert!(transport.requests().len() > requests);
    assert!(store.is_ready(&both));
    assert_eq!(store.held_items(), 15);
}

/// Pages of 200 (the last one shorter) of `items` numbered items made by `item`, with a new
/// cursor on each but the last; `forever` gives every page a next cursor.
fn numbered_pages(
    owner: &str,
    items: usize,
    forever: bool,
    item: impl Fn(&str) -> String,
) -> Vec<(u16, String)> {
    let pages = items.div_ceil(200);
    (0..pages)
        .map(|index| {
            let size = (items - index * 200).min(200);
            let page_items: Vec<String> =
                (0..size).map(|n| item(&format!("p{index}-{n}"))).collect();
            let next = (forever || index + 1 < pages).then(|| format!("c{index}"));
            (200, page(owner, &page_items, next.as_deref()))
        })
        .collect()
}

/// Run `er_1` on `b_1` planning 1,000 rollouts, with these rewards and trajectories pages.
fn script_planned_run(
    transport: &ScriptedTransport,
    rewards: Vec<(u16, String)>,
    trajectories: Vec<(u16, String)>,
) {
    transport.route("/eval/er_1/trajectory-rewards", rewards);
    transport.route("eval_run_id=er_1", trajectories);
    transport.route(
        "/eval/er_1",
        vec![(
            200,
            run_body("er_1", "completed")
                .replace("\"total_rollouts\":3", "\"total_rollouts\":1000"),
        )],
    );
    script_tasks(transport);
}

#[test]
fn a_list_that_never_ends_fails_at_the_cap_from_total_rollouts_keeping_its_pages() {
    let transport = ScriptedTransport::default();
    // Rewards: a new cursor on every page, has_more forever. Trajectories: 1,300 for 1,000
    // planned rollouts, within the headroom.
    script_planned_run(
        &transport,
        numbered_pages("er_1", 200 * 30, true, |id| reward_item(id, "t1", 1.0)),
        numbered_pages("er_1", 1_300, false, |id| trajectory_item(id, "t1")),
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    let events = RefCell::new(0);
    block_on(load_runs(&client, &store, &runs, &|_| {
        *events.borrow_mut() += 1;
    }));
    assert!(*events.borrow() > 0);

    // 1,000 planned rollouts in pages of 200: 5 pages + 1 (10%) + 2 of headroom.
    assert_eq!(transport.count("/trajectory-rewards"), 8);
    let run = store.get("er_1").unwrap();
    let rewards = run.rewards.borrow().clone();
    assert_eq!((rewards.pages_read, rewards.items.len()), (8, 1_600));
    let Phase::Failed(error) = &rewards.phase else {
        panic!("{:?}", rewards.phase);
    };
    let text = error.to_string();
    assert!(
        text.contains("the list /api/v1/eval/er_1/trajectory-rewards does not end: more pages are announced beyond the cap of 8 pages, derived from run er_1's total_rollouts (1,000 items expected, in pages of 200, with 10% + 2 pages of headroom); stopped after 8 pages and 1,600 items read"),
        "{text}"
    );
    let trajectories = run.trajectories.borrow();
    assert_eq!(trajectories.phase, Phase::Complete);
    assert_eq!(trajectories.items.len(), 1_300);
    match store.first_failure(&runs) {
        Some(LoadFailure::List {
            kind: ListKind::Rewards,
            pages_read: 8,
            items: 1_600,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_long_list_of_the_planned_length_ends_without_a_false_alarm() {
    let transport = ScriptedTransport::default();
    script_planned_run(
        &transport,
        numbered_pages("er_1", 1_000, false, |id| reward_item(id, "t1", 1.0)),
        numbered_pages("er_1", 1_000, false, |id| trajectory_item(id, "t1")),
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(store.first_failure(&runs), None);
    let run = store.get("er_1").unwrap();
    assert_eq!(run.rewards.borrow().items.len(), 1_000);
    assert_eq!(run.rewards.borrow().pages_read, 5);
    // Room for the 1,000 planned rollouts was made before the first page: the lists never
    // grew by copying themselves (a doubling would have left 1,024 or more).
    assert_eq!(run.rewards.borrow().items.capacity(), 1_000);
    assert_eq!(run.trajectories.borrow().items.capacity(), 1_000);
}

#[test]
fn a_cursor_cycle_in_the_task_list_fails_it_naming_the_cycle() {
    let transport = ScriptedTransport::default();
    transport.route(
        "/benchmarks/b_1/tasks?cursor=B",
        vec![(
            200,
            page("b_1", &[task_item("t3"), task_item("t4")], Some("A")),
        )],
    );
    transport.route(
        "/benchmarks/b_1/tasks?cursor=A",
        vec![(
            200,
            page("b_1", &[task_item("t2"), task_item("t5")], Some("B")),
        )],
    );
    transport.route(
        "/benchmarks/b_1/tasks",
        vec![(
            200,
            page("b_1", &[task_item("t1"), task_item("t6")], Some("A")),
        )],
    );
    script_run(
        &transport,
        "er_1",
        vec![(200, page("er_1", &[reward_item("x3", "t3", 1.0)], None))],
    );
    transport.route(
        "/eval/options",
        vec![(200, eval_options_body("b_1", "org/model", &[]))],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(transport.count("/tasks"), 3);
    let tasks = store.tasks("b_1");
    let tasks = tasks.borrow();
    assert_eq!((tasks.pages_read, tasks.items.len()), (2, 4));
    let missing = tasks.missing(ListKind::Tasks).unwrap();
    assert!(
        missing.contains("the list /api/v1/benchmarks/b_1/tasks does not end: page 3 gives as next_cursor \"A\", the cursor page 2 was read with (a cycle)"),
        "{missing}"
    );
    drop(tasks);

    // Retry asks for the refused page only: the cycle is still recognised, nothing is read twice.
    let before = transport.request_count();
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(transport.urls_since(before).len(), 1);
    let tasks = store.tasks("b_1");
    let tasks = tasks.borrow();
    assert_eq!((tasks.pages_read, tasks.items.len()), (2, 4));
    assert!(matches!(tasks.phase, Phase::Failed(_)));
}

/// Checkpoint evaluation `id` of training run `tr_1` recording `options`, with the lists of
/// [`script_run`].
fn script_checkpoint(transport: &ScriptedTransport, id: &str, options: &str) {
    transport.route(
        &format!("/eval/{id}/trajectory-rewards"),
        vec![(200, page(id, &[reward_item("x1", "t1", 1.0)], None))],
    );
    transport.route(
        &format!("eval_run_id={id}"),
        vec![(200, page(id, &[trajectory_item("x1", "t1")], None))],
    );
    transport.route(
        &format!("/eval/{id}"),
        vec![(200, checkpoint_run_body(id, "tr_1", options))],
    );
}

fn resolution_of(store: &LoadStore, runs: &[String], run: usize, key: SettingKey) -> Resolution {
    let set = store.run_set(runs).unwrap().unwrap();
    resolution(&set, run, key)
}

fn resolution(set: &eval_compare_core::model::RunSet, run: usize, key: SettingKey) -> Resolution {
    set.runs()[run]
        .info()
        .effective_settings()
        .into_iter()
        .find(|s| s.setting == key)
        .unwrap()
        .resolution
}

#[test]
fn settings_are_read_once_per_training_run_and_defaults_key_concurrently() {
    let transport = ScriptedTransport::default();
    script_checkpoint(&transport, "ck_1", "{}");
    script_checkpoint(&transport, "ck_2", r#"{"temperature": 0.2}"#);
    transport.route(
        "/eval/options?bench_id=b_1&base_model_slug=org%2Fmodel",
        vec![(
            200,
            eval_options_body("b_1", "org/model", &[("top_p", 0.9)]),
        )],
    );
    script_tasks(&transport);
    transport.route(
        "/train/tr_1",
        vec![(
            200,
            training_run_body(
                "tr_1",
                r#"{"temperature": 1.0, "evaluation_temperature": 0.6}"#,
            ),
        )],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["ck_1", "ck_2"]);
    block_on(load_runs(&client, &store, &runs, &quiet));
    assert_eq!(transport.count("/train/tr_1"), 1, "{:?}", transport.urls());
    assert_eq!(
        transport.count("/eval/options"),
        1,
        "{:?}",
        transport.urls()
    );
    // Both went out before the lists' first pages came back: read alongside them.
    let urls = transport.urls();
    let first_page = urls
        .iter()
        .position(|u| u.contains("trajectory-rewards"))
        .unwrap();
    let settings_reads = urls
        .iter()
        .position(|u| u.contains("/eval/options"))
        .max(urls.iter().position(|u| u.contains("/train/tr_1")))
        .unwrap();
    assert!(settings_reads < first_page + 6, "{urls:?}");
    // The training run, the evaluation defaults and the platform's progression of the training
    // run (checkpoints of an agent), the last read once for both checkpoints too.
    assert!(store
        .progress(&runs)
        .iter()
        .all(|run| run.settings_reads.len() == 3));
    assert_eq!(
        transport.count("/evaluation-series"),
        1,
        "{:?}",
        transport.urls()
    );

    let set = store.run_set(&runs).unwrap().unwrap();
    assert_eq!(
        resolution(&set, 0, SettingKey::Temperature),
        Resolution::Resolved {
            value: SettingValue::Number(0.6),
            source: SettingSource::TrainingRun,
            option: "evaluation_temperature".to_owned()
        }
    );
    assert_eq!(
        resolution(&set, 1, SettingKey::Temperature),
        Resolution::Resolved {
            value: SettingValue::Number(0.2),
            source: SettingSource::Recorded,
            option: "temperature".to_owned()
        }
    );
    assert_eq!(
        resolution(&set, 1, SettingKey::TopP),
        Resolution::Resolved {
            value: SettingValue::Number(0.9),
            source: SettingSource::EvaluationDefault,
            option: "top_p".to_owned()
        }
    );
}

#[test]
fn a_settings_read_that_fails_keeps_the_run_and_retry_reads_it_again() {
    let transport = ScriptedTransport::default();
    script_checkpoint(&transport, "ck_1", "{}");
    script_tasks(&transport);
    transport.route(
        "/train/tr_1",
        vec![
            (404, NOT_FOUND.to_owned()),
            (
                200,
                training_run_body("tr_1", r#"{"evaluation_temperature": 0.6}"#),
            ),
        ],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["ck_1"]);
    let seen = RefCell::new(Vec::new());
    let notify = |event: LoadEvent<'_>| {
        if let LoadEvent::Settings { what, owner, phase } = event {
            seen.borrow_mut().push(format!(
                "{what:?} {owner} {}",
                matches!(phase, Phase::Failed(_))
            ));
        }
    };
    block_on(load_runs(&client, &store, &runs, &notify));
    let mut seen = seen.into_inner();
    seen.sort();
    assert_eq!(
        seen,
        [
            "EvaluationDefaults b_1/org/model false",
            "PlatformProgression tr_1 true",
            "TrainingRun tr_1 true"
        ]
    );
    // The run is whole: nothing counts as a failure, the setting is unresolved with the reason.
    assert_eq!(store.first_failure(&runs), None);
    assert!(!store.progress(&runs)[0].has_stopped());
    match resolution_of(&store, &runs, 0, SettingKey::Temperature) {
        Resolution::Unresolved { reason } => assert!(
            reason.starts_with("not recorded, and the training run's options could not be read: ")
                && reason.contains("no such run"),
            "{reason}"
        ),
        other => panic!("{other:?}"),
    }

    // Loading again reads only what failed: the training run, and the platform's progression
    // (unscripted here, so it fails again); it resolves the setting.
    let before = transport.request_count();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let asked = transport.urls_since(before);
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked[0].ends_with("/api/v1/train/tr_1"), "{asked:?}");
    assert!(asked[1].contains("/evaluation-series"), "{asked:?}");
    assert_eq!(
        resolution_of(&store, &runs, 0, SettingKey::Temperature).value(),
        Some(&SettingValue::Number(0.6))
    );
}

#[test]
fn a_settings_read_cancelled_is_read_on_the_next_load() {
    let transport = ScriptedTransport::default();
    script_checkpoint(&transport, "ck_1", "{}");
    script_tasks(&transport);
    transport.route(
        "/train/tr_1",
        vec![
            (NEVER, String::new()),
            (200, training_run_body("tr_1", "{}")),
        ],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let runs = ids(&["ck_1"]);
    {
        let load = std::pin::pin!(load_runs(&client, &store, &runs, &quiet));
        let outcome = block_on(select(
            load,
            Box::pin(until_stuck(&transport, "/train/tr_1")),
        ));
        assert!(
            matches!(outcome, Either::Right(_)),
            "the training run never answers"
        );
    }
    assert!(
        !store.is_ready(&runs),
        "no run set while a settings read is pending"
    );
    store.mark_cancelled();
    assert!(store.is_ready(&runs));
    match resolution_of(&store, &runs, 0, SettingKey::Temperature) {
        Resolution::Unresolved { reason } => {
            assert!(reason.ends_with("loading was cancelled"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    let before = transport.request_count();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let asked = transport.urls_since(before);
    // The training run again, and the platform's progression (unscripted here: it fails, and a
    // failed read is tried again on the next load).
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked[0].ends_with("/train/tr_1"), "{asked:?}");
    assert!(asked[1].contains("/evaluation-series"), "{asked:?}");
    assert_eq!(
        resolution_of(&store, &runs, 0, SettingKey::Temperature).value(),
        Some(&SettingValue::Number(1.0)),
        "the default, now that the training run is known to set none"
    );
}
