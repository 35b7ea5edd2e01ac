//! The load engine reading the server's streamed lists against a scripted server: the same
//! items as paging, progress per page line; an error trailer keeps the pages read and a Retry
//! resumes at the next page's cursor; a body cut without its trailer is asked again from
//! there; a server that does not offer streams is paged as the contract says; a large list is
//! decoded in slices, the page getting a turn between them; a store told to names its later
//! runs once to a server that reads ahead.

#![allow(clippy::unwrap_used)]

use std::cell::RefCell;

use eval_compare_core::client::list_stream::{ListStreamEnd, StreamFailure};
use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::load::{
    choose_list_source, load_runs, ListKind, ListSource, LoadEvent, LoadStore, Phase,
    STREAM_SLICE_BYTES,
};
use eval_compare_core::testing::bodies::{page, reward_item, run_body, task_item, trajectory_item};
use eval_compare_core::testing::ScriptedTransport;
use futures::executor::block_on;

const CAPABILITIES: &str = r#"{"list_streams":1,"lists":["trajectory-rewards","trajectories","trials","tasks"],"cache":false}"#;

fn end(complete: bool, pages: u32, items: u64) -> String {
    ListStreamEnd {
        complete,
        pages_read: pages,
        items_read: items,
        failed_page: (!complete).then_some(pages + 1),
        failure: (!complete).then_some(StreamFailure::Http),
        status: (!complete).then_some(400),
        code: (!complete).then(|| "bad_request".to_owned()),
        message: (!complete).then(|| "the API refused page 2".to_owned()),
        retryable: false,
    }
    .to_line()
}

fn first_page() -> String {
    page(
        "er_1",
        &[reward_item("x1", "t1", 1.0), reward_item("x2", "t2", 0.0)],
        Some("c2"),
    ) + "\n"
}

fn second_page() -> String {
    page("er_1", &[reward_item("x3", "t3", 0.25)], None) + "\n"
}

/// Run `er_1` behind a streaming server: its rewards stream answers `rewards` (then
/// `resumed` when asked from cursor `c2`), its trajectories and tasks are whole.
fn script(transport: &ScriptedTransport, rewards: Vec<(u16, String)>, resumed: &str) {
    script_run(transport, &run_body("er_1", "completed"), rewards, resumed);
}

/// [`script`] with this record of run `er_1`.
fn script_run(
    transport: &ScriptedTransport,
    run: &str,
    rewards: Vec<(u16, String)>,
    resumed: &str,
) {
    transport.route("/stream/v1/capabilities", vec![(200, CAPABILITIES.into())]);
    transport.route(
        "/stream/v1/eval/er_1/trajectory-rewards?cursor=c2",
        vec![(200, resumed.to_owned())],
    );
    transport.route("/stream/v1/eval/er_1/trajectory-rewards", rewards);
    let trajectories = page(
        "er_1",
        &[
            trajectory_item("x1", "t1"),
            trajectory_item("x2", "t2"),
            trajectory_item("x3", "t3"),
        ],
        None,
    );
    transport.route(
        "/stream/v1/eval/er_1/trajectories",
        vec![(200, format!("{trajectories}\n{}", end(true, 1, 3)))],
    );
    transport.route("/eval/er_1", vec![(200, run.to_owned())]);
    let tasks = page(
        "b_1",
        &[task_item("t1"), task_item("t2"), task_item("t3")],
        None,
    );
    transport.route(
        "/stream/v1/benchmarks/b_1/tasks",
        vec![(200, format!("{tasks}\n{}", end(true, 1, 3)))],
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

fn load(transport: &ScriptedTransport, store: &LoadStore) -> Vec<(u32, usize)> {
    // The default retry policy (its waits do not take time here).
    let client = TrajectoryClient::new(
        ClientConfig::new("http://api.test").unwrap(),
        transport.clone(),
    );
    let pages = RefCell::new(Vec::new());
    let notify = |event: LoadEvent<'_>| {
        if let LoadEvent::Page {
            kind: ListKind::Rewards,
            pages: read,
            items,
            ..
        } = event
        {
            pages.borrow_mut().push((read, items));
        }
    };
    block_on(async {
        choose_list_source(&client, store).await;
        load_runs(&client, store, &["er_1".to_owned()], &notify).await;
    });
    pages.into_inner()
}

fn reward_ids(store: &LoadStore) -> Vec<String> {
    use eval_compare_core::large_list::AsRewardFacts;
    store
        .run("er_1")
        .rewards
        .borrow()
        .items
        .iter()
        .map(|item| item.trajectory_id().to_owned())
        .collect()
}

#[test]
fn a_streamed_list_lands_page_by_page_without_a_request_per_page() {
    let transport = ScriptedTransport::default();
    let body = format!("{}{}{}", first_page(), second_page(), end(true, 2, 3));
    script(&transport, vec![(200, body)], "");
    let store = LoadStore::new();
    let pages = load(&transport, &store);
    assert_eq!(store.list_source(), ListSource::ServerStream);
    assert_eq!(pages, [(1, 2), (2, 3)]);
    assert_eq!(reward_ids(&store), ["x1", "x2", "x3"]);
    assert!(store.run("er_1").is_complete());
    assert_eq!(store.tasks("b_1").borrow().items.len(), 3);
    assert_eq!(transport.count("/api/v1/eval/er_1/trajectory-rewards"), 0);
    assert_eq!(transport.count("/api/v1/benchmarks"), 0);
    assert_eq!(transport.count("/api/v1/trajectories"), 0);
}

#[test]
fn a_large_streamed_list_is_decoded_in_slices_with_the_page_getting_turns_between_them() {
    const PAGE_ITEMS: usize = 1000;
    let ids: Vec<String> = (0..40_000).map(|i| format!("x{i}")).collect();
    let pages: Vec<&[String]> = ids.chunks(PAGE_ITEMS).collect();
    let mut body = String::new();
    for (at, chunk) in pages.iter().enumerate() {
        let items: Vec<String> = chunk
            .iter()
            .map(|id| reward_item(id, &format!("t_{id}"), 1.0))
            .collect();
        let next = (at + 1 < pages.len()).then(|| format!("c{}", at + 2));
        body += &page("er_1", &items, next.as_deref());
        body.push('\n');
    }
    body += &end(true, pages.len() as u32, ids.len() as u64);
    assert!(body.len() > 2 * STREAM_SLICE_BYTES, "{} bytes", body.len());
    let transport = ScriptedTransport::default();
    let run = run_body("er_1", "completed").replace(
        "\"total_rollouts\":3",
        &format!("\"total_rollouts\":{}", ids.len()),
    );
    script_run(&transport, &run, vec![(200, body.clone())], "");
    let store = LoadStore::new();
    let progress = load(&transport, &store);
    assert_eq!(reward_ids(&store), ids);
    assert!(store.run("er_1").is_complete());
    assert_eq!(progress.len(), pages.len());
    assert_eq!(progress.last(), Some(&(pages.len() as u32, ids.len())));
    // The clock stands still here, so the slices are bounded by their bytes: the page got a
    // turn (a wait of 0 ms) about once per slice's worth of the body (the other waits are the
    // retries of the benchmark's options, which this script does not answer).
    let turns = transport.sleeps().iter().filter(|&&ms| ms == 0).count();
    let slices = body.len() / STREAM_SLICE_BYTES;
    assert!(
        (slices - 1..=slices + 1).contains(&turns),
        "{turns} turns for {} bytes",
        body.len()
    );
}

#[test]
fn an_error_trailer_keeps_the_pages_read_and_retry_resumes_at_the_cursor() {
    let transport = ScriptedTransport::default();
    let failed = format!("{}{}", first_page(), end(false, 1, 2));
    let rest = format!("{}{}", second_page(), end(true, 2, 3));
    script(&transport, vec![(200, failed)], &rest);
    let store = LoadStore::new();
    load(&transport, &store);
    {
        let run = store.run("er_1");
        let rewards = run.rewards.borrow();
        let Phase::Failed(error) = &rewards.phase else {
            panic!("{:?}", rewards.phase);
        };
        assert_eq!(error.status(), Some(400));
        assert!(error.to_string().contains("page 2"), "{error}");
        assert_eq!(rewards.items.len(), 2);
        assert_eq!(rewards.resume_cursor.as_deref(), Some("c2"));
    }
    load(&transport, &store);
    assert_eq!(reward_ids(&store), ["x1", "x2", "x3"]);
    assert!(store.run("er_1").is_complete());
    let resumed: Vec<String> = transport
        .urls()
        .into_iter()
        .filter(|url| url.contains("cursor=c2"))
        .collect();
    assert_eq!(resumed.len(), 1, "{resumed:?}");
    assert!(
        resumed[0].contains("pages_read=1&items_read=2"),
        "{resumed:?}"
    );
}

#[test]
fn a_stream_cut_without_its_trailer_is_asked_again_from_the_next_page() {
    let transport = ScriptedTransport::default();
    let rest = format!("{}{}", second_page(), end(true, 2, 3));
    script(&transport, vec![(200, first_page())], &rest);
    let store = LoadStore::new();
    load(&transport, &store);
    assert_eq!(reward_ids(&store), ["x1", "x2", "x3"]);
    assert!(store.run("er_1").is_complete());
    assert_eq!(transport.count("trajectory-rewards?cursor=c2"), 1);
}

#[test]
fn a_server_without_streams_is_paged_as_the_contract_says() {
    let transport = ScriptedTransport::default();
    transport.route("/stream/v1/capabilities", vec![(404, "{}".into())]);
    transport.route(
        "/eval/er_1/trajectory-rewards?cursor=c2",
        vec![(200, second_page())],
    );
    transport.route("/eval/er_1/trajectory-rewards", vec![(200, first_page())]);
    transport.route(
        "eval_run_id=er_1",
        vec![(
            200,
            page(
                "er_1",
                &[
                    trajectory_item("x1", "t1"),
                    trajectory_item("x2", "t2"),
                    trajectory_item("x3", "t3"),
                ],
                None,
            ),
        )],
    );
    transport.route("/eval/er_1", vec![(200, run_body("er_1", "completed"))]);
    let store = LoadStore::new();
    let pages = load(&transport, &store);
    assert_eq!(store.list_source(), ListSource::ContractPages);
    assert_eq!(pages, [(1, 2), (2, 3)]);
    assert_eq!(reward_ids(&store), ["x1", "x2", "x3"]);
    assert_eq!(transport.count("/stream/v1/eval"), 0);
    assert_eq!(transport.count("/stream/v1/capabilities"), 1);
}

#[test]
fn a_server_offering_the_kept_form_is_asked_for_it_on_every_stream() {
    let transport = ScriptedTransport::default();
    let offered = CAPABILITIES.replace(r#""cache":false"#, r#""cache":false,"forms":["kept"]"#);
    transport.route("/stream/v1/capabilities", vec![(200, offered)]);
    let body = format!("{}{}{}", first_page(), second_page(), end(true, 2, 3));
    script(&transport, vec![(200, body)], "");
    let store = LoadStore::new();
    let pages = load(&transport, &store);
    assert_eq!(store.list_source(), ListSource::KeptStream);
    assert_eq!(pages, [(1, 2), (2, 3)]);
    assert_eq!(reward_ids(&store), ["x1", "x2", "x3"]);
    let streams: Vec<String> = transport
        .urls()
        .into_iter()
        .filter(|url| url.contains("/stream/v1/") && !url.contains("capabilities"))
        .collect();
    assert!(streams.len() >= 3, "{streams:?}");
    assert!(
        streams.iter().all(|url| url.contains("form=kept")),
        "{streams:?}"
    );
}

/// Loads `runs` into `store` against `transport` (nothing noted).
fn load_all(transport: &ScriptedTransport, store: &LoadStore, runs: &[&str]) {
    let client = TrajectoryClient::new(
        ClientConfig::new("http://api.test").unwrap(),
        transport.clone(),
    );
    let runs: Vec<String> = runs.iter().map(|run| (*run).to_owned()).collect();
    block_on(async {
        choose_list_source(&client, store).await;
        load_runs(&client, store, &runs, &|_| {}).await;
    });
}

/// A scripted server streaming the kept form, offering to read ahead when `prefetch`; runs
/// `er_2`, `er_3` and `er_4` are not found.
fn reading_ahead(prefetch: bool) -> ScriptedTransport {
    let transport = ScriptedTransport::default();
    let offered = CAPABILITIES.replace(
        r#""cache":false"#,
        &format!(r#""cache":true,"forms":["kept"],"prefetch":{prefetch}"#),
    );
    transport.route("/stream/v1/capabilities", vec![(200, offered)]);
    transport.route("/stream/v1/prefetch", vec![(202, r#"{"runs":2}"#.into())]);
    for run in ["er_2", "er_3", "er_4"] {
        transport.route(&format!("/eval/{run}"), vec![(404, "{}".into())]);
    }
    let body = format!("{}{}{}", first_page(), second_page(), end(true, 2, 3));
    script(&transport, vec![(200, body)], "");
    transport
}

#[test]
fn a_store_told_to_names_the_later_runs_once_to_a_server_that_reads_ahead() {
    let transport = reading_ahead(true);
    let store = LoadStore::new();
    store.read_ahead_after(2);
    load_all(&transport, &store, &["er_1", "er_2", "er_3", "er_4"]);
    let named: Vec<String> = transport
        .urls()
        .into_iter()
        .filter(|url| url.contains("/stream/v1/prefetch"))
        .collect();
    assert_eq!(
        named,
        ["http://api.test/stream/v1/prefetch?run=er_3&run=er_4&form=kept"]
    );
    assert_eq!(
        reward_ids(&store),
        ["x1", "x2", "x3"],
        "the load is the same"
    );
    load_all(&transport, &store, &["er_1", "er_2", "er_3", "er_4"]);
    assert_eq!(
        transport.count("/stream/v1/prefetch"),
        1,
        "each run named once"
    );

    // Not told (the CLI), not offered, or no run after the first two: nothing named.
    for (told, offered, runs) in [
        (false, true, &["er_1", "er_2", "er_3"][..]),
        (true, false, &["er_1", "er_2", "er_3"][..]),
        (true, true, &["er_1", "er_2"][..]),
    ] {
        let transport = reading_ahead(offered);
        let store = LoadStore::new();
        if told {
            store.read_ahead_after(2);
        }
        load_all(&transport, &store, runs);
        assert_eq!(
            transport.count("/stream/v1/prefetch"),
            0,
            "{told} {offered} {runs:?}"
        );
    }
}
