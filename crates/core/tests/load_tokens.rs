//! Reading token counts per trajectory on request, from each one's last step (the whole
//! conversation): only counted trajectories with a step count are asked for (one without steps
//! is 0 without a request), a transcript without counts on every model call is "no count"
//! (never 0), a failed read is read again on the next call while what was read is not, a read
//! gives up after failures in a row keeping what arrived, and the report's tokens cover what
//! was read and say how much.

#![allow(clippy::unwrap_used)]

use eval_compare_core::load::{
    load_runs, load_tokens, token_offer, token_targets, ComponentReadLimits, ComponentStopCause,
    LoadEvent, LoadStore, TokenOffer,
};
use eval_compare_core::model::{RunIdx, TokenCount, TokenState};
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::testing::bodies::{page, reward_item, run_body, task_item, trajectory_item};
use eval_compare_core::testing::scripted::client_over;
use eval_compare_core::testing::ScriptedTransport;
use futures::executor::block_on;
use serde_json::json;

/// Runs `base` and `cand` on tasks t1–t4, one trajectory per task (`{run}_t{n}`) with `n`
/// steps; `base_t3` failed (not counted); `cand_t4` has no step count; `base_t4` no step.
fn script(transport: &ScriptedTransport) {
    for run in ["base", "cand"] {
        let trajectories: Vec<String> = (1..=4)
            .map(|n| {
                let item = trajectory_item(&format!("{run}_t{n}"), &format!("t{n}"));
                let steps = match (run, n) {
                    ("cand", 4) => return item,
                    ("base", 4) => 0,
                    _ => n,
                };
                let item =
                    item.replace("\"task_id\"", &format!("\"num_steps\":{steps},\"task_id\""));
                if run == "base" && n == 3 {
                    item.replace(r#""status":"completed""#, r#""status":"failed""#)
                        .replace("ENV_DONE", "ERROR")
                } else {
                    item
                }
            })
            .collect();
        let rewards: Vec<String> = (1..=4)
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
    let tasks: Vec<String> = (1..=4).map(|n| task_item(&format!("t{n}"))).collect();
    transport.route(
        "/benchmarks/b_1/tasks",
        vec![(200, page("b_1", &tasks, None))],
    );
}

/// The last step of a trajectory of `calls` model calls, each `(prompt, completion)` tokens
/// (`None`: the call records no count).
fn last_step(calls: &[Option<(i64, i64)>]) -> String {
    let mut messages = vec![json!({"message_id": 1, "role": "system", "content": "Fix it."})];
    for (k, call) in calls.iter().enumerate() {
        let mut message = json!({"message_id": 2 + 2 * k, "role": "assistant", "content": "ok"});
        if let Some((prompt, completion)) = call {
            message["prompt_tokens"] = json!(prompt);
            message["completion_tokens"] = json!(completion);
        }
        messages.push(message);
        messages.push(json!({"message_id": 3 + 2 * k, "role": "tool", "tool_response": "done"}));
    }
    let step = json!({"step_index": calls.len() - 1, "reward": null, "has_error": false,
        "messages": messages});
    json!({"items": [step], "next_cursor": null, "has_more": false}).to_string()
}

fn steps_route(transport: &ScriptedTransport, id: &str, answers: Vec<(u16, String)>) {
    transport.route(&format!("/trajectories/{id}/steps"), answers);
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}

fn quiet(_: LoadEvent<'_>) {}

fn limits() -> ComponentReadLimits {
    ComponentReadLimits {
        concurrency: 2,
        ..ComponentReadLimits::for_reads(8)
    }
}

const FAILURE: &str = r#"{"detail":"unavailable"}"#;

#[test]
fn tokens_are_read_from_last_steps_resumed_after_a_failure_and_cover_the_report() {
    let transport = ScriptedTransport::default();
    script(&transport);
    let runs = ids(&["base", "cand"]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let set = store.run_set(&runs).unwrap().unwrap();
    let targets = token_targets(&set);
    assert_eq!(
        targets.ids,
        ids(&["base_t1", "base_t2", "base_t4", "cand_t1", "cand_t2", "cand_t3"]),
        "the failed attempt is not asked for; the one without a step count cannot be"
    );
    assert_eq!(targets.without_steps, 1);
    assert_eq!(targets.requests(), 5, "base_t4 has no step: no request");

    steps_route(
        &transport,
        "base_t1",
        vec![(200, last_step(&[Some((100, 10))]))],
    );
    steps_route(
        &transport,
        "base_t2",
        vec![
            (503, FAILURE.to_owned()),
            (200, last_step(&[Some((100, 10)), Some((200, 20))])),
        ],
    );
    steps_route(
        &transport,
        "cand_t1",
        vec![(200, last_step(&[Some((150, 15))]))],
    );
    // One model call without counts: no count for the whole trajectory, never a partial sum.
    steps_route(
        &transport,
        "cand_t2",
        vec![(200, last_step(&[Some((100, 10)), None]))],
    );
    steps_route(
        &transport,
        "cand_t3",
        vec![(200, last_step(&[Some((1, 1)), Some((2, 2)), Some((3, 3))]))],
    );
    let events = std::cell::RefCell::new(Vec::new());
    let record = |event: LoadEvent<'_>| {
        if let LoadEvent::Tokens { trajectory_id, ok } = event {
            events.borrow_mut().push((trajectory_id.to_owned(), ok));
        }
    };
    assert_eq!(
        block_on(load_tokens(&client, &store, &targets, &limits(), &record)),
        None
    );
    assert_eq!(events.borrow().len(), 6);
    let standing = store.token_progress(&targets.ids);
    assert_eq!((standing.read, standing.failed), (5, 1));
    assert_eq!(standing.first_error.as_ref().unwrap().0, "base_t2");
    let step_requests = |transport: &ScriptedTransport| {
        transport
            .urls()
            .iter()
            .filter(|url| url.contains("/steps"))
            .count()
    };
    assert_eq!(step_requests(&transport), 5);
    assert!(transport
        .urls()
        .iter()
        .any(|url| url.ends_with("/trajectories/cand_t3/steps?start_step_index=2&limit=1")));

    // Reading again asks only for what failed.
    block_on(load_tokens(&client, &store, &targets, &limits(), &quiet));
    assert_eq!(step_requests(&transport), 6);
    assert!(store.token_progress(&targets.ids).is_complete());

    let set = store.run_set(&runs).unwrap().unwrap();
    assert_eq!(
        set.token_state("base_t2"),
        TokenState::Counted(TokenCount {
            prompt: 300,
            completion: 30
        })
    );
    assert_eq!(
        set.token_state("base_t4"),
        TokenState::Counted(TokenCount::default())
    );
    assert_eq!(set.token_state("cand_t2"), TokenState::NoCount);
    assert_eq!(set.token_state("cand_t4"), TokenState::NotRead);

    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings).unwrap();
    let tokens = report.effort.as_ref().unwrap().tokens.as_ref().unwrap();
    let (base, cand) = (&tokens.runs[0], &tokens.runs[1]);
    assert_eq!(
        (base.counted, base.with_count, base.no_count, base.not_read),
        (3, 3, 0, 0)
    );
    assert_eq!(
        (cand.counted, cand.with_count, cand.no_count, cand.not_read),
        (4, 2, 1, 1)
    );
    let candidate = &tokens.candidates[0];
    // Paired: t1 only (base t2 vs cand t2 has no count; t3 failed in the base; t4 unread).
    assert_eq!(candidate.n, 1);
    assert_eq!(candidate.tasks_without_tokens, 2, "t2 and t4");
    let total = candidate.total.as_ref().unwrap();
    assert_eq!((total.baseline_mean, total.candidate_mean), (110.0, 165.0));
    let json = serde_json::to_string(&report).unwrap();
    assert!(
        json.contains("\"tokens\":{"),
        "the JSON carries the tokens once read"
    );
}

#[test]
fn a_read_that_keeps_failing_gives_up_keeping_what_arrived_and_the_report_has_no_tokens_before() {
    let transport = ScriptedTransport::default();
    script(&transport);
    let runs = ids(&["base", "cand"]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let set = store.run_set(&runs).unwrap().unwrap();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let before = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings).unwrap();
    assert!(before.effort.as_ref().unwrap().tokens.is_none());
    assert!(!serde_json::to_string(&before)
        .unwrap()
        .contains("\"tokens\""));

    let targets = token_targets(&set);
    for id in ["base_t1", "base_t2", "cand_t1", "cand_t2", "cand_t3"] {
        steps_route(&transport, id, vec![(503, FAILURE.to_owned())]);
    }
    let limits = ComponentReadLimits {
        concurrency: 1,
        failures_in_a_row: 2,
        ..ComponentReadLimits::for_reads(8)
    };
    let stop = block_on(load_tokens(&client, &store, &targets, &limits, &quiet)).unwrap();
    assert!(matches!(
        stop.cause,
        ComponentStopCause::FailuresInARow(2, _)
    ));
    let standing = store.token_progress(&targets.ids);
    assert_eq!(standing.stopped, Some(stop));
    assert!(standing.read < targets.ids.len());
    assert_eq!(standing.pending, 0, "nothing is left claimed");
}

#[test]
fn the_offer_counts_before_gathering_and_says_too_many_past_its_limit() {
    let transport = ScriptedTransport::default();
    script(&transport);
    let runs = ids(&["base", "cand"]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    block_on(load_runs(&client, &store, &runs, &quiet));
    let set = store.run_set(&runs).unwrap().unwrap();
    // Six counted trajectories with a step count.
    match token_offer(&set, 6) {
        TokenOffer::Targets(targets) => assert_eq!(targets, token_targets(&set)),
        other => panic!("within the limit the targets are gathered: {other:?}"),
    }
    // Past the limit but within twice it, the count is checked by gathering: still exact.
    assert_eq!(token_offer(&set, 5), TokenOffer::TooMany(6));
    // Past twice the limit it is said as counted, nothing gathered.
    assert_eq!(token_offer(&set, 2), TokenOffer::TooMany(6));
}
