//! The load engine reading the server's streams in the packed form against a scripted server
//! that packs its page lines into frames (as the server does on `?form=packed`): the same items
//! in the same lists as the kept stream, whatever the chunks; a frame cut short at the body's
//! end is a cut stream, asked again from the next page; a frame's wrong head stops the list with
//! a clear error, keeping what was read; a store of the API's records whole is never asked for
//! frames.

#![allow(clippy::unwrap_used)]

use std::cell::Cell;
use std::rc::Rc;

use eval_compare_core::client::list_stream::ListStreamEnd;
use eval_compare_core::client::{
    ClientConfig, HttpRequest, HttpResponse, TrajectoryClient, Transport, TransportError,
};
use eval_compare_core::large_list::{
    encode_reward_page, encode_trajectory_page, is_frame_start, AsRewardFacts,
};
use eval_compare_core::load::{
    choose_list_source, load_runs, ListForm, ListSource, LoadStore, Packed, Phase,
};
use eval_compare_core::testing::bodies::{page, reward_item, run_body, task_item, trajectory_item};
use eval_compare_core::testing::scripted::yield_now;
use eval_compare_core::testing::ScriptedTransport;
use futures::executor::block_on;

const KEPT: &str = r#"{"list_streams":1,"lists":["trajectory-rewards","trajectories","trials","tasks"],"cache":false,"forms":["kept"]}"#;
const PACKED: &str = r#"{"list_streams":1,"lists":["trajectory-rewards","trajectories","trials","tasks"],"cache":false,"forms":["kept","packed"]}"#;

/// A scripted server whose streams asked for the packed form send each page line the codec
/// packs as its frame, handed over in chunks of `chunk` bytes; the first such stream of rewards
/// may be cut `cut` bytes short, or get a frame head saying too long a body after its first
/// frame.
#[derive(Clone)]
struct Packing {
    inner: ScriptedTransport,
    chunk: usize,
    cut: Rc<Cell<usize>>,
    wrong_head: Rc<Cell<bool>>,
    frames: Rc<Cell<usize>>,
}

impl Packing {
    fn new(inner: ScriptedTransport, chunk: usize) -> Self {
        Self {
            inner,
            chunk,
            cut: Rc::default(),
            wrong_head: Rc::default(),
            frames: Rc::default(),
        }
    }

    /// `body`'s page lines packed (those of trajectories when `trajectories`).
    fn pack(&self, body: &[u8], trajectories: bool) -> Vec<u8> {
        let mut packed = Vec::new();
        for line in body.split_inclusive(|&b| b == b'\n') {
            let frame = if ListStreamEnd::parse(line).is_some() {
                None
            } else if trajectories {
                encode_trajectory_page(line)
            } else {
                encode_reward_page(line)
            };
            match frame {
                Some(frame) => {
                    assert!(is_frame_start(frame[0]));
                    self.frames.set(self.frames.get() + 1);
                    packed.extend_from_slice(&frame);
                    if !trajectories && self.wrong_head.take() {
                        packed.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0x7F]);
                    }
                }
                None => packed.extend_from_slice(line),
            }
        }
        if !trajectories {
            let cut = self.cut.take();
            packed.truncate(packed.len() - cut);
        }
        packed
    }
}

impl Transport for Packing {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.inner.send(request).await
    }

    async fn send_streaming(
        &self,
        request: HttpRequest,
        on_chunk: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<HttpResponse, TransportError> {
        let packed = request.url.contains("form=packed");
        let trajectories = request.url.contains("/trajectories");
        let mut body = Vec::new();
        let answer = self
            .inner
            .send_streaming(request, &mut |chunk| {
                body.extend_from_slice(chunk);
                true
            })
            .await?;
        let body = if packed {
            self.pack(&body, trajectories)
        } else {
            body
        };
        for chunk in body.chunks(self.chunk) {
            if !on_chunk(chunk) {
                break;
            }
            yield_now().await;
        }
        Ok(answer)
    }

    async fn sleep(&self, ms: u64) {
        self.inner.sleep(ms).await;
    }

    fn now_unix_ms(&self) -> u64 {
        self.inner.now_unix_ms()
    }
}

fn end(pages: u32, items: u64) -> String {
    ListStreamEnd::complete(pages, items).to_line()
}

/// Run `er_1`'s rewards in pages of 3 (`x0`… with varied rewards, one task id with an
/// escape, which the plain scanner leaves to serde), each page a line.
fn reward_pages(from: usize) -> Vec<String> {
    let items: Vec<String> = (0..9)
        .map(|i| {
            let task = if i == 4 {
                "t\\u00e94".to_owned()
            } else {
                format!("t{i}")
            };
            reward_item(&format!("x{i}"), &task, f64::from(i as u8) / 8.0)
        })
        .collect();
    items
        .chunks(3)
        .enumerate()
        .skip(from)
        .map(|(at, chunk)| {
            let next = (at < 2).then(|| format!("c{}", at + 2));
            page("er_1", chunk, next.as_deref()) + "\n"
        })
        .collect()
}

/// Run `er_1` behind a streaming server offering `capabilities`; its rewards stream answers
/// `rewards`, and from cursor `c2` the pages after the first.
fn script(capabilities: &str, rewards: String) -> ScriptedTransport {
    let transport = ScriptedTransport::default();
    transport.route("/stream/v1/capabilities", vec![(200, capabilities.into())]);
    let rest = reward_pages(1).concat() + &end(3, 9);
    transport.route(
        "/stream/v1/eval/er_1/trajectory-rewards?cursor=c2",
        vec![(200, rest)],
    );
    transport.route(
        "/stream/v1/eval/er_1/trajectory-rewards",
        vec![(200, rewards)],
    );
    let first: Vec<String> = (0..5)
        .map(|i| trajectory_item(&format!("x{i}"), &format!("t{i}")))
        .collect();
    let second: Vec<String> = (5..9)
        .map(|i| trajectory_item(&format!("x{i}"), &format!("t{i}")))
        .collect();
    let trajectories = format!(
        "{}\n{}\n{}",
        page("er_1", &first, Some("d2")),
        page("er_1", &second, None),
        end(2, 9)
    );
    transport.route(
        "/stream/v1/eval/er_1/trajectories",
        vec![(200, trajectories)],
    );
    let run = run_body("er_1", "completed").replace("\"total_rollouts\":3", "\"total_rollouts\":9");
    transport.route("/eval/er_1", vec![(200, run)]);
    let tasks: Vec<String> = (0..9).map(|i| task_item(&format!("t{i}"))).collect();
    transport.route(
        "/stream/v1/benchmarks/b_1/tasks",
        vec![(200, format!("{}\n{}", page("b_1", &tasks, None), end(1, 9)))],
    );
    transport
}

fn whole_rewards() -> String {
    reward_pages(0).concat() + &end(3, 9)
}

fn load<F: ListForm>(transport: &Packing, store: &LoadStore<F>) {
    let client = TrajectoryClient::new(
        ClientConfig::new("http://api.test").unwrap(),
        transport.clone(),
    );
    block_on(async {
        choose_list_source(&client, store).await;
        load_runs(&client, store, &["er_1".to_owned()], &|_| {}).await;
    });
}

/// The run's two lists as read, to compare.
fn lists(store: &LoadStore<Packed>) -> String {
    let run = store.run("er_1");
    let rewards = run.rewards.borrow();
    let trajectories = run.trajectories.borrow();
    format!(
        "{:?}\n{:?}\n{:?} {:?}",
        rewards.items, trajectories.items, rewards.phase, trajectories.phase
    )
}

#[test]
fn a_packed_stream_loads_the_items_of_the_kept_stream_whatever_the_chunks() {
    let kept_transport = Packing::new(script(KEPT, whole_rewards()), 64);
    let kept = LoadStore::new();
    load(&kept_transport, &kept);
    assert_eq!(kept.list_source(), ListSource::KeptStream);
    assert!(kept.run("er_1").is_complete());
    assert_eq!(kept_transport.frames.get(), 0);
    let expected = lists(&kept);
    assert_eq!(kept.run("er_1").rewards.borrow().items.len(), 9);
    for chunk in [1, 2, 5, 7, 64, 1 << 20] {
        let transport = Packing::new(script(PACKED, whole_rewards()), chunk);
        let store = LoadStore::new();
        load(&transport, &store);
        assert_eq!(store.list_source(), ListSource::PackedStream);
        assert_eq!(
            store.list_source().describe(),
            "streamed whole by the server, packed"
        );
        assert!(store.run("er_1").is_complete(), "{chunk}");
        assert_eq!(lists(&store), expected, "{chunk}");
        assert_eq!(transport.frames.get(), 5, "every page a frame");
        let streams: Vec<String> = transport
            .inner
            .urls()
            .into_iter()
            .filter(|url| url.contains("/stream/v1/") && !url.contains("capabilities"))
            .collect();
        assert_eq!(streams.len(), 3, "{streams:?}");
        for url in streams {
            let form = if url.contains("/tasks") {
                "form=kept"
            } else {
                "form=packed"
            };
            assert!(url.contains(form), "{url}");
        }
    }
}

#[test]
fn a_frame_cut_short_at_the_end_is_a_cut_stream_asked_again_from_the_next_page() {
    // The first page whole, the second cut inside its frame, no trailer.
    let body = reward_pages(0)[..2].concat();
    let transport = Packing::new(script(PACKED, body), 7);
    transport.cut.set(9);
    let store = LoadStore::new();
    load(&transport, &store);
    assert!(store.run("er_1").is_complete());
    let ids: Vec<String> = store
        .run("er_1")
        .rewards
        .borrow()
        .items
        .iter()
        .map(|item| item.trajectory_id().to_owned())
        .collect();
    assert_eq!(ids, (0..9).map(|i| format!("x{i}")).collect::<Vec<_>>());
    assert_eq!(transport.inner.count("trajectory-rewards?cursor=c2"), 1);
}

#[test]
fn a_frame_head_saying_too_long_a_body_stops_the_list_with_a_clear_error() {
    let transport = Packing::new(script(PACKED, whole_rewards()), 7);
    transport.wrong_head.set(true);
    let store = LoadStore::new();
    load(&transport, &store);
    let run = store.run("er_1");
    let rewards = run.rewards.borrow();
    let Phase::Failed(error) = &rewards.phase else {
        panic!("{:?}", rewards.phase);
    };
    let message = error.to_string();
    assert!(message.contains("larger than 64 MiB"), "{message}");
    assert!(message.contains("trajectory-rewards"), "{message}");
    assert_eq!(rewards.items.len(), 3, "the first page is kept");
    assert_eq!(rewards.resume_cursor.as_deref(), Some("c2"));
    assert_eq!(
        transport.inner.count("trajectory-rewards"),
        1,
        "not asked again"
    );
}

#[test]
fn a_store_of_the_records_whole_reads_the_api_form() {
    // A run folder keeps every field: neither the kept nor the packed form, which leave out
    // the optional fields the model does not read.
    let transport = Packing::new(script(PACKED, whole_rewards()), 64);
    let store = LoadStore::with_full_records();
    load(&transport, &store);
    assert_eq!(store.list_source(), ListSource::ServerStream);
    assert!(
        transport
            .inner
            .requests()
            .iter()
            .filter(|request| request.url.contains("/stream/v1/eval/"))
            .all(|request| !request.url.contains("form=")),
        "the API's own form is asked for"
    );
    assert!(store.run("er_1").is_complete());
    assert_eq!(transport.frames.get(), 0);
    assert_eq!(store.run("er_1").rewards.borrow().items.len(), 9);
}
