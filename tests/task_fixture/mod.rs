//! Run sets and reports for the per-task table, drill-down and export tests, built with the
//! core's `RunSetBuilder` and `build_report` (no bootstrap, to stay fast).
#![allow(dead_code)] // Each test file uses a subset of these helpers.

use std::sync::Arc;

use eval_compare_core::model::{
    Category, CheckpointInfo, OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, TaskInput,
    TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, Report, ReportSettings};

/// One trajectory: task, class, reward, ending.
pub type Attempt = (
    &'static str,
    OutcomeClass,
    Option<f64>,
    Option<&'static str>,
);

/// A task: id, label, and (category id, category label).
type FixtureTask = (
    &'static str,
    Option<&'static str>,
    Option<(&'static str, &'static str)>,
);

const G: OutcomeClass = OutcomeClass::Graded;
const DONE: Option<&str> = Some("ENV_DONE");

/// A loaded set and its report.
pub struct Fixture {
    /// The runs.
    pub set: Arc<RunSet>,
    /// Baseline `eval_base` against the candidates, in order.
    pub report: Arc<Report>,
}

fn run_info(id: &str, name: &str, step: Option<i64>) -> RunInfo {
    RunInfo {
        id: id.to_owned(),
        display_name: Some(name.to_owned()),
        bench_id: Some("bench_fixture_v1".to_owned()),
        checkpoint: CheckpointInfo {
            step,
            training_run_id: step.map(|_| "train_fixture".to_owned()),
            parent_checkpoint_id: None,
        },
        status: Some("completed".to_owned()),
        source: eval_compare_core::model::SourceKind::Api,
        ..RunInfo::default()
    }
}

fn add_run(
    builder: &mut RunSetBuilder,
    id: &str,
    name: &str,
    step: Option<i64>,
    attempts: &[Attempt],
) -> RunIdx {
    let run = builder
        .add_run(run_info(id, name, step))
        .expect("a new run id");
    for (index, (task, class, reward, ending)) in attempts.iter().enumerate() {
        let trajectory_id = format!("{id}-{task}-{index}");
        builder
            .add_trajectory(
                run,
                TrajectoryInput {
                    id: &trajectory_id,
                    task: Some(task),
                    class: *class,
                    reward: *reward,
                    ending: *ending,
                    flags: TrajectoryFlags::default(),
                    created: None,
                    components: None,
                },
            )
            .expect("a valid trajectory");
    }
    run
}

fn settings() -> ReportSettings {
    ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    }
}

/// Six tasks, a baseline and two checkpoints:
///
/// | task | label | category | base | step 100 | Δ step 100 |
/// |---|---|---|---|---|---|
/// | t0 | Fix the parser | Parsing | 1, 1 | 0, 1 | −0.5 |
/// | t1 | Retry on timeout | Networking | 0 | 1 | +1 |
/// | t2 | Escape quotes | Parsing | 0.5, 0.5 | 0.5, 0.5 | 0 |
/// | t3 | Close the socket | Networking | 1 | failed, no reward | unpaired |
/// | t4 | Trim whitespace | Parsing | cut-off, no reward (0 by rule) | 1 | +1 |
/// | t5 | (no label) | — | 0.25 | unfinished | unpaired |
pub fn small() -> Fixture {
    let mut builder = RunSetBuilder::new();
    let tasks: [FixtureTask; 6] = [
        ("t0", Some("Fix the parser"), Some(("c_parse", "Parsing"))),
        (
            "t1",
            Some("Retry on timeout"),
            Some(("c_net", "Networking")),
        ),
        ("t2", Some("Escape quotes"), Some(("c_parse", "Parsing"))),
        (
            "t3",
            Some("Close the socket"),
            Some(("c_net", "Networking")),
        ),
        ("t4", Some("Trim whitespace"), Some(("c_parse", "Parsing"))),
        ("t5", None, None),
    ];
    for (id, label, category) in tasks {
        builder
            .add_task(TaskInput {
                id: id.to_owned(),
                label: label.map(str::to_owned),
                split: Some("test".to_owned()),
                categories: category
                    .map(|(id, label)| Category {
                        id: id.to_owned(),
                        label: label.to_owned(),
                    })
                    .into_iter()
                    .collect(),
            })
            .expect("a valid task");
    }
    let base = add_run(
        &mut builder,
        "eval_base",
        "Base model",
        None,
        &[
            ("t0", G, Some(1.0), DONE),
            ("t0", G, Some(1.0), DONE),
            ("t1", G, Some(0.0), DONE),
            ("t2", G, Some(0.5), DONE),
            ("t2", G, Some(0.5), DONE),
            ("t3", G, Some(1.0), DONE),
            ("t4", OutcomeClass::CutOff, None, Some("TRUNCATION")),
            ("t5", G, Some(0.25), DONE),
        ],
    );
    let step_100 = add_run(
        &mut builder,
        "eval_ck100",
        "Checkpoint 100",
        Some(100),
        &[
            ("t0", G, Some(0.0), DONE),
            ("t0", G, Some(1.0), DONE),
            ("t1", G, Some(1.0), DONE),
            ("t2", G, Some(0.5), DONE),
            ("t2", G, Some(0.5), DONE),
            ("t3", OutcomeClass::Failed, None, Some("SANDBOX_ERROR")),
            ("t4", G, Some(1.0), DONE),
            ("t5", OutcomeClass::Unfinished, None, None),
        ],
    );
    let step_200 = add_run(
        &mut builder,
        "eval_ck200",
        "Checkpoint 200",
        Some(200),
        &[
            ("t0", G, Some(1.0), DONE),
            ("t1", G, Some(0.0), DONE),
            ("t2", G, Some(1.0), DONE),
            ("t3", G, Some(0.0), DONE),
            ("t4", OutcomeClass::Other, Some(0.5), Some("GOLDEN_PATCH")),
            ("t5", G, Some(1.0), DONE),
        ],
    );
    let set = builder.build();
    let report =
        build_report(&set, base, &[step_100, step_200], &settings()).expect("a valid comparison");
    Fixture {
        set: Arc::new(set),
        report: Arc::new(report),
    }
}

/// Four tasks in two categories (one uncategorised), three 0/1 samples per task and run:
/// pass@k and pass^k apply for k = 1 (and nothing beyond 3 samples).
pub fn binary_samples() -> Fixture {
    let mut builder = RunSetBuilder::new();
    for (id, category) in [
        ("b0", Some(("c_a", "Alpha"))),
        ("b1", Some(("c_a", "Alpha"))),
        ("b2", Some(("c_b", "Beta"))),
        ("b3", None),
    ] {
        builder
            .add_task(TaskInput {
                id: id.to_owned(),
                label: None,
                split: Some("test".to_owned()),
                categories: category
                    .map(|(id, label)| Category {
                        id: id.to_owned(),
                        label: label.to_owned(),
                    })
                    .into_iter()
                    .collect(),
            })
            .expect("a valid task");
    }
    let samples = |task: &'static str, passes: [f64; 3]| -> Vec<Attempt> {
        passes.iter().map(|&r| (task, G, Some(r), DONE)).collect()
    };
    let runs = [
        [
            [1.0, 1.0, 0.0],
            [0.0, 0.0, 0.0],
            [1.0, 1.0, 1.0],
            [0.0, 1.0, 0.0],
        ],
        [
            [1.0, 1.0, 1.0],
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0],
            [1.0, 1.0, 1.0],
        ],
    ];
    let attempts = |run: &[[f64; 3]; 4]| -> Vec<Attempt> {
        ["b0", "b1", "b2", "b3"]
            .iter()
            .zip(run)
            .flat_map(|(task, passes)| samples(task, *passes))
            .collect()
    };
    let base = add_run(
        &mut builder,
        "eval_base",
        "Base model",
        None,
        &attempts(&runs[0]),
    );
    let cand = add_run(
        &mut builder,
        "eval_ck",
        "Checkpoint 300",
        Some(300),
        &attempts(&runs[1]),
    );
    let set = builder.build();
    let report = build_report(&set, base, &[cand], &settings()).expect("a valid comparison");
    Fixture {
        set: Arc::new(set),
        report: Arc::new(report),
    }
}

/// `tasks` tasks in five categories, a baseline and one checkpoint with one graded
/// trajectory each; rewards from a fixed linear congruential sequence.
pub fn large(tasks: usize) -> Fixture {
    let mut builder = RunSetBuilder::new();
    let categories: Vec<Category> = (0..5)
        .map(|c| Category {
            id: format!("c{c}"),
            label: format!("Category {c}"),
        })
        .collect();
    for index in 0..tasks {
        builder
            .add_task(TaskInput {
                id: format!("task-{index:06}"),
                label: Some(format!("Task {index}")),
                split: None,
                categories: vec![categories[index % 5].clone()],
            })
            .expect("a valid task");
    }
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next_reward = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % 5) as f64 / 4.0
    };
    let mut runs = Vec::new();
    for (id, step) in [("eval_big_base", None), ("eval_big_ck", Some(500))] {
        let run = builder
            .add_run(run_info(id, id, step))
            .expect("a new run id");
        builder
            .reserve_trajectories(run, tasks, tasks * (id.len() + 8))
            .expect("the run exists");
        for index in 0..tasks {
            let task = format!("task-{index:06}");
            let trajectory = format!("{id}-{index}");
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &trajectory,
                        task: Some(&task),
                        class: G,
                        reward: Some(next_reward()),
                        ending: DONE,
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .expect("a valid trajectory");
        }
        runs.push(run);
    }
    let set = builder.build();
    let report = build_report(&set, runs[0], &runs[1..], &settings()).expect("a valid comparison");
    Fixture {
        set: Arc::new(set),
        report: Arc::new(report),
    }
}

/// DOM events as a user's actions raise them.
pub mod events {
    use js_sys::{Array, Function, Object, Reflect};
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{Element, Event};

    /// A bubbling, cancelable event of `constructor` (`Event`, `KeyboardEvent`, …) with extra
    /// init fields.
    fn event(constructor: &str, kind: &str, fields: &[(&str, JsValue)]) -> Event {
        let init = Object::new();
        Reflect::set(&init, &"bubbles".into(), &JsValue::TRUE).expect("a plain object");
        Reflect::set(&init, &"cancelable".into(), &JsValue::TRUE).expect("a plain object");
        for (name, value) in fields {
            Reflect::set(&init, &(*name).into(), value).expect("a plain object");
        }
        let global = js_sys::global();
        let class = Reflect::get(&global, &constructor.into())
            .expect("the browser has the event class")
            .dyn_into::<Function>()
            .expect("an event class is a function");
        Reflect::construct(&class, &Array::of2(&kind.into(), &init))
            .expect("the event can be made")
            .unchecked_into::<Event>()
    }

    /// Presses `key` on `target` (a `keydown` event).
    pub fn press(target: &Element, key: &str) {
        let event = event("KeyboardEvent", "keydown", &[("key", key.into())]);
        target
            .dispatch_event(&event)
            .expect("the event is dispatched");
    }

    /// Fires a plain event such as `input`, `change` or `scroll`.
    pub fn fire(target: &Element, kind: &str) {
        target
            .dispatch_event(&event("Event", kind, &[]))
            .expect("the event is dispatched");
    }
}

/// Adds the app's stylesheets to the test page once, so layout (fixed row heights, the scroll
/// container) is as in the app.
pub fn install_styles() {
    let document = web_sys::window()
        .and_then(|window| window.document())
        .expect("the test page has a document");
    if document
        .query_selector("style[data-eval-compare]")
        .ok()
        .flatten()
        .is_some()
    {
        return;
    }
    let style = document
        .create_element("style")
        .expect("a <style> can be created");
    style
        .set_attribute("data-eval-compare", "")
        .expect("an attribute can be set");
    style.set_text_content(Some(concat!(
        include_str!("../../style/main.css"),
        include_str!("../../style/table.css")
    )));
    document
        .head()
        .expect("the test page has a head")
        .append_child(&style)
        .expect("the style can be added");
}
