//! Reading reward components per trajectory on request: only the trajectories whose values
//! count, a bounded number at a time, a failure kept and read again on the next call (what was
//! read is not read twice), Cancel keeping what arrived, and the run set — hence the report's
//! per-component deltas — covering what was read.

#![allow(clippy::unwrap_used)]

use eval_compare_core::load::{
    component_offer, component_targets, load_components, load_runs, ComponentReadLimits, LoadEvent,
    LoadStore, ReadOffer,
};
use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, ComponentDelta, ReportSettings};
use eval_compare_core::testing::bodies::{
    page, reward_item, run_body, task_item, trajectory_detail_body, trajectory_item, SERVER_FAILURE,
};
use eval_compare_core::testing::scripted::{client_over, yield_now};
use eval_compare_core::testing::{ScriptedTransport, NEVER};
use futures::executor::block_on;
use futures::future::{select, Either};

/// Runs `base` and `cand` on tasks t1–t3, one trajectory per task (`{run}_t{n}`); `base_t3`
/// failed, so its components would not count.
fn script(transport: &ScriptedTransport) {
    for run in ["base", "cand"] {
        let trajectories: Vec<String> = (1..=3)
            .map(|n| {
                let item = trajectory_item(&format!("{run}_t{n}"), &format!("t{n}"));
                if run == "base" && n == 3 {
                    item.replace(r#""status":"completed""#, r#""status":"failed""#)
                        .replace("ENV_DONE", "ERROR")
                } else {
                    item
                }
            })
            .collect();
        let rewards: Vec<String> = (1..=3)
            .map(|n| reward_item(&format!("{run}_t{n}"), &format!("t{n}"), 1.0))
            .collect();
        transport.route(
            &format!("/eval/{run}/trajectory-rewards"),
            vec![(200, page(run, &rewards, None))],
        );
        transport.route(
            &format!("eval_run_id={run}"),
            vec![(200, page(run, &trajectories, None))],
        );
        transport.route(
            &format!("/eval/{run}"),
            vec![(200, run_body(run, "completed"))],
        );
    }
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

fn detail(transport: &ScriptedTransport, id: &str, task: &str, tests: f64, answers: Vec<u16>) {
    let body = trajectory_detail_body(id, task, &[("tests", tests, 1.0), ("lint", 5.0, 0.0)]);
    transport.route(
        &format!("/trajectories/{id}?include_reward_components=true"),
        answers
            .into_iter()
            .map(|status| match status {
                200 => (200, body.clone()),
                other => (other, SERVER_FAILURE.to_owned()),
            })
            .collect(),
    );
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}

fn quiet(_: LoadEvent<'_>) {}

/// The default limits with this concurrency.
fn limits(concurrency: usize) -> ComponentReadLimits {
    ComponentReadLimits {
        concurrency,
        ..ComponentReadLimits::for_reads(5)
    }
}

/// The candidate's component deltas in the report of the store's run set (no bootstrap).
fn component_deltas_of(store: &LoadStore, runs: &[String]) -> Vec<ComponentDelta> {
    let set = store.run_set(runs).unwrap().unwrap();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings).unwrap();
    report.candidates[0].components.clone()
}

#[test]
fn components_are_read_for_counted_trajectories_resumed_after_a_failure_and_attached() {
    let transport = ScriptedTransport::default();
    script(&transport);
    let runs = ids(&["base", "cand"]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let set = store.run_set(&runs).unwrap().unwrap();
    let targets = component_targets(&set);
    // The failed baseline attempt is not asked for.
    assert_eq!(
        targets,
        ids(&["base_t1", "base_t2", "cand_t1", "cand_t2", "cand_t3"])
    );
    assert_eq!(
        component_offer(&set, 5),
        ReadOffer::Targets(targets.clone())
    );
    assert_eq!(
        component_offer(&set, 4),
        ReadOffer::TooMany(5),
        "counted, then checked"
    );
    assert_eq!(
        component_offer(&set, 2),
        ReadOffer::TooMany(5),
        "counted only"
    );

    detail(&transport, "base_t1", "t1", 4.0, vec![200]);
    detail(&transport, "base_t2", "t2", 6.0, vec![200]);
    detail(&transport, "cand_t1", "t1", 7.0, vec![200]);
    // Retries are off in this client: the first read of cand_t2 fails, the second succeeds.
    detail(&transport, "cand_t2", "t2", 9.0, vec![503, 200]);
    detail(&transport, "cand_t3", "t3", 1.0, vec![200]);
    let events = std::cell::RefCell::new(Vec::new());
    let record = |event: LoadEvent<'_>| {
        if let LoadEvent::Components { trajectory_id, ok } = event {
            events.borrow_mut().push((trajectory_id.to_owned(), ok));
        }
    };
    block_on(load_components(
        &client,
        &store,
        &targets,
        &limits(2),
        &record,
    ));
    let progress = store.component_progress(&targets);
    assert_eq!(
        (
            progress.wanted,
            progress.read,
            progress.failed,
            progress.pending
        ),
        (5, 4, 1, 0)
    );
    assert!(!progress.is_complete());
    assert_eq!(progress.first_error.as_ref().unwrap().0, "cand_t2");
    assert_eq!(events.borrow().len(), 5);
    assert!(events.borrow().contains(&("cand_t2".to_owned(), false)));

    // Reading again asks only for what failed.
    let before = transport.request_count();
    block_on(load_components(
        &client,
        &store,
        &targets,
        &limits(2),
        &quiet,
    ));
    assert_eq!(
        transport.urls_since(before),
        vec!["http://api.test/api/v1/trajectories/cand_t2?include_reward_components=true"]
    );
    let progress = store.component_progress(&targets);
    assert!(progress.is_complete() && progress.first_error.is_none());

    // The run set carries them: the report pairs each component per task.
    let set = store.run_set(&runs).unwrap().unwrap();
    assert_eq!(
        component_targets(&set),
        targets,
        "what is asked for stays the same"
    );
    let components = component_deltas_of(&store, &runs);
    let names: Vec<&str> = components.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["tests", "lint"]);
    let tests = components[0].estimate.as_ref().unwrap();
    // Paired on t1 and t2 (the baseline's t3 failed): (7 − 4 + 9 − 6) / 2 = 3.
    assert_eq!((tests.n, tests.delta), (2, 3.0));
    assert_eq!(components[0].weight, Some(1.0));
    assert!(!components[0].is_informative());
    assert!(
        components[1].is_informative(),
        "weight 0 does not enter the reward"
    );
}

#[test]
fn reads_are_bounded_and_a_cancel_keeps_what_arrived() {
    let transport = ScriptedTransport::default();
    script(&transport);
    let runs = ids(&["base", "cand"]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let targets = component_targets(&store.run_set(&runs).unwrap().unwrap());
    detail(&transport, "base_t1", "t1", 4.0, vec![200]);
    for (id, task) in [
        ("base_t2", "t2"),
        ("cand_t1", "t1"),
        ("cand_t2", "t2"),
        ("cand_t3", "t3"),
    ] {
        detail(&transport, id, task, 1.0, vec![NEVER]);
    }
    let before = transport.request_count();
    {
        let three = limits(3);
        let load = std::pin::pin!(load_components(&client, &store, &targets, &three, &quiet));
        let stuck = async {
            for _ in 0..64 {
                yield_now().await;
            }
        };
        let outcome = block_on(select(load, Box::pin(stuck)));
        assert!(
            matches!(outcome, Either::Right(_)),
            "four reads never answer"
        );
        // base_t1 answered; three reads hang at once, the fifth never went out.
        assert_eq!(transport.request_count() - before, 4);
        let progress = store.component_progress(&targets);
        assert_eq!((progress.read, progress.pending), (1, 4));
    }
    store.cancel_component_reads();
    let progress = store.component_progress(&targets);
    assert_eq!(
        (progress.read, progress.pending, progress.not_read()),
        (1, 0, 4)
    );
    // What arrived is attached; the rest is simply not covered.
    let tests = &component_deltas_of(&store, &runs)[0];
    assert_eq!((tests.baseline_tasks, tests.candidate_tasks), (1, 0));
}
