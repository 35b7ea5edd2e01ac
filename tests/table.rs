//! The per-task table in a real browser: rows from the core's `visible_rows`, filters, sort,
//! search, selection, keyboard navigation and virtualization of 100,000 tasks.
#![cfg(target_arch = "wasm32")]

mod support;
mod task_fixture;

use std::sync::Arc;

use eval_compare_core::report::{visible_rows, Report};
use eval_compare_core::view_state::{RowFilter, Sort, SortKey, ViewState};
use eval_compare_viewer::report::table::window::ROW_HEIGHT_PX;
use eval_compare_viewer::report::table::TaskTable;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::{mount_point, select_all, text, wait_for};
use task_fixture::events::{fire, press};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A mounted table whose `on_change` records every view and applies it, as the report page does.
struct Mounted {
    root: HtmlElement,
    view: RwSignal<ViewState>,
    changes: RwSignal<Vec<ViewState>>,
    _handle: leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

fn mount_table(report: Arc<Report>, initial: ViewState) -> Mounted {
    task_fixture::install_styles();
    let root = mount_point();
    let view = RwSignal::new(initial);
    let changes = RwSignal::new(Vec::<ViewState>::new());
    let report = Signal::stored(report);
    let on_change = Callback::new(move |next: ViewState| {
        changes.update(|all| all.push(next.clone()));
        view.set(next);
    });
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <TaskTable report view=view.into() on_change/> }.into_any()
    });
    Mounted {
        root,
        view,
        changes,
        _handle: handle,
    }
}

/// Lets effects and the browser's layout run.
async fn settle() {
    TimeoutFuture::new(30).await;
}

fn shown_task_ids(root: &Element) -> Vec<String> {
    select_all(root, "tr.task-row")
        .iter()
        .filter_map(|row| row.get_attribute("data-task-id"))
        .collect()
}

fn expected_task_ids(report: &Report, view: &ViewState) -> Vec<String> {
    visible_rows(report, view)
        .into_iter()
        .map(|index| report.tasks[index].task_id.clone())
        .collect()
}

fn click(element: &Element) {
    element
        .clone()
        .dyn_into::<HtmlElement>()
        .expect("an HTML element")
        .click();
}

fn only(root: &Element, selector: &str) -> Element {
    let mut found = select_all(root, selector);
    assert_eq!(found.len(), 1, "one {selector} in {}", root.inner_html());
    found.remove(0)
}

#[wasm_bindgen_test]
async fn rows_are_the_cores_visible_rows_with_means_counts_badges_and_deltas() {
    let fixture = task_fixture::small();
    let view = ViewState::default();
    let mounted = mount_table(fixture.report.clone(), view.clone());
    settle().await;
    let root = &mounted.root;

    assert_eq!(
        shown_task_ids(root),
        expected_task_ids(&fixture.report, &view)
    );
    assert_eq!(text(&only(root, ".task-count")), "6 of 6 tasks");
    let table = only(root, "table.tasks");
    assert_eq!(table.get_attribute("aria-rowcount").as_deref(), Some("7"));

    // Headers: task, category, three runs, the focused candidate's turns and ending, delta;
    // each a column header.
    let headers = select_all(root, "thead th");
    assert_eq!(headers.len(), 8);
    assert!(headers
        .iter()
        .all(|th| th.get_attribute("scope").as_deref() == Some("col")));
    // Sorted by ascending delta by default.
    let sorted: Vec<_> = select_all(root, "thead th[aria-sort]");
    assert_eq!(sorted.len(), 1);
    assert_eq!(
        sorted[0].get_attribute("data-sort-key").as_deref(),
        Some("delta")
    );
    assert_eq!(
        sorted[0].get_attribute("aria-sort").as_deref(),
        Some("ascending")
    );

    let row = |task: &str| only(root, &format!("tr[data-task-id=\"{task}\"]"));
    let cells =
        |task: &str| -> Vec<String> { select_all(&row(task), "th, td").iter().map(text).collect() };
    assert_eq!(
        cells("t0"),
        [
            "Fix the parser t0",
            "Parsing",
            "1.000 2/2",
            "0.500 2/2",
            "1.000 1/1",
            "— base —",
            "ENV_DONE",
            "\u{2212}50.0"
        ]
    );
    // The other rows' run and Δ cells (their effort cells are the core's words, as t0's).
    let cells = |task: &str| -> Vec<String> {
        let mut all = cells(task);
        all.drain(5..7);
        all
    };
    assert_eq!(
        cells("t3"),
        [
            "Close the socket t3",
            "Networking",
            "1.000 1/1",
            "— 0/1 1 failed",
            "0.000 1/1",
            "unpaired"
        ]
    );
    assert_eq!(
        cells("t4"),
        [
            "Trim whitespace t4",
            "Parsing",
            "0.000 1/1 1 cut-off 1 0 by rule",
            "1.000 1/1",
            "0.500 1/1 1 other",
            "+100.0"
        ]
    );
    assert_eq!(cells("t5")[0], "t5", "no label: the id alone");
    assert_eq!(cells("t5")[3], "— 0/1 1 unfinished");

    let delta = |task: &str| {
        select_all(&row(task), "td")
            .pop()
            .expect("a delta cell")
            .class_name()
    };
    assert_eq!(delta("t0"), "delta delta-down");
    assert_eq!(delta("t1"), "delta delta-up");
    assert_eq!(delta("t2"), "delta delta-zero");
    assert_eq!(delta("t3"), "delta delta-unpaired");

    // Rows have the fixed height the virtual window counts on.
    let height = f64::from(
        row("t0")
            .dyn_into::<HtmlElement>()
            .expect("a row is an HTML element")
            .offset_height(),
    );
    assert_eq!(height, ROW_HEIGHT_PX);
}

#[wasm_bindgen_test]
async fn filter_buttons_change_the_view_and_the_rows_follow() {
    let fixture = task_fixture::small();
    let mounted = mount_table(fixture.report.clone(), ViewState::default());
    settle().await;
    let root = &mounted.root;

    for (filter, expected_count) in [
        (RowFilter::Regressions, 1),
        (RowFilter::Improvements, 2),
        (RowFilter::Unpaired, 2),
        (RowFilter::Failed, 1),
        (RowFilter::Flaky, 1),
        (RowFilter::All, 6),
    ] {
        click(&only(
            root,
            &format!("button[data-filter=\"{}\"]", filter.as_str()),
        ));
        settle().await;
        let last = mounted
            .changes
            .with_untracked(|all| all.last().cloned())
            .expect("a change");
        assert_eq!(
            last,
            ViewState {
                filter,
                ..ViewState::default()
            }
        );
        let view = mounted.view.get_untracked();
        let expected = expected_task_ids(&fixture.report, &view);
        assert_eq!(expected.len(), expected_count, "{filter:?}");
        assert_eq!(shown_task_ids(root), expected, "{filter:?}");
        assert_eq!(
            text(&only(root, ".task-count")),
            format!("{expected_count} of 6 tasks")
        );
        let pressed: Vec<_> = select_all(root, "button[aria-pressed=\"true\"]")
            .iter()
            .filter_map(|b| b.get_attribute("data-filter"))
            .collect();
        assert_eq!(pressed, [filter.as_str()]);
    }
    // Clicking the active filter again changes nothing.
    let before = mounted.changes.with_untracked(Vec::len);
    click(&only(root, "button[data-filter=\"all\"]"));
    settle().await;
    assert_eq!(mounted.changes.with_untracked(Vec::len), before);
}

#[wasm_bindgen_test]
async fn category_focus_and_an_empty_result() {
    let fixture = task_fixture::small();
    let mounted = mount_table(fixture.report.clone(), ViewState::default());
    settle().await;
    let root = &mounted.root;

    let selects = select_all(root, "select.filter-select");
    assert_eq!(selects.len(), 2, "category and focus (two candidates)");
    let category = selects[0]
        .clone()
        .dyn_into::<HtmlSelectElement>()
        .expect("a select");
    let options: Vec<String> = select_all(&category, "option").iter().map(text).collect();
    assert_eq!(options, ["All categories", "Parsing", "Networking"]);
    category.set_value("Networking");
    fire(&category, "change");
    settle().await;
    assert_eq!(
        mounted.view.get_untracked().category.as_deref(),
        Some("Networking")
    );
    assert_eq!(
        shown_task_ids(root),
        expected_task_ids(&fixture.report, &mounted.view.get_untracked())
    );
    assert_eq!(text(&only(root, ".task-count")), "2 of 6 tasks");

    // Δ of the second candidate: the delta column follows.
    let focus = selects[1]
        .clone()
        .dyn_into::<HtmlSelectElement>()
        .expect("a select");
    focus.set_value("1");
    fire(&focus, "change");
    settle().await;
    assert_eq!(mounted.view.get_untracked().focus, 1);
    let delta_head = only(root, "th[data-sort-key=\"delta\"]");
    assert!(
        text(&delta_head).contains("Step 200"),
        "{}",
        text(&delta_head)
    );
    let t3 = only(root, "tr[data-task-id=\"t3\"]");
    assert_eq!(
        text(&select_all(&t3, "td").pop().expect("a delta")),
        "\u{2212}100.0"
    );

    // Improvements among Networking tasks of step 200: none.
    click(&only(root, "button[data-filter=\"improvements\"]"));
    settle().await;
    assert_eq!(text(&only(root, ".task-count")), "0 of 6 tasks");
    assert_eq!(
        text(&only(root, ".task-empty")),
        "No task matches these filters."
    );
}

#[wasm_bindgen_test]
async fn clicking_headers_sorts_through_the_view() {
    let fixture = task_fixture::small();
    let mounted = mount_table(fixture.report.clone(), ViewState::default());
    settle().await;
    let root = &mounted.root;
    let sort_button = |key: &str| only(root, &format!("th[data-sort-key=\"{key}\"] button"));

    click(&sort_button("task"));
    settle().await;
    assert_eq!(
        mounted.view.get_untracked().sort,
        Sort {
            key: SortKey::Task,
            descending: false
        }
    );
    assert_eq!(
        only(root, "th[data-sort-key=\"task\"]")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("ascending")
    );
    assert_eq!(
        shown_task_ids(root),
        ["t3", "t2", "t0", "t1", "t4", "t5"],
        "by label (or id), as the core sorts"
    );

    click(&sort_button("task"));
    settle().await;
    assert!(mounted.view.get_untracked().sort.descending);
    assert_eq!(
        only(root, "th[data-sort-key=\"task\"]")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("descending")
    );
    assert_eq!(
        shown_task_ids(root),
        expected_task_ids(&fixture.report, &mounted.view.get_untracked())
    );

    // Keyboard: the header is a button, so Enter activates it like a click.
    let baseline = sort_button("baseline");
    baseline
        .clone()
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .focus()
        .expect("focusable");
    click(&baseline);
    settle().await;
    assert_eq!(mounted.view.get_untracked().sort.key, SortKey::Baseline);
    assert_eq!(select_all(root, "thead th[aria-sort]").len(), 1);
    // The second candidate's column is not sortable (the core sorts by the focused one).
    let unsortable = select_all(root, "thead th:not([data-sort-key])");
    assert_eq!(unsortable.len(), 1);
    assert!(text(&unsortable[0]).contains("Step 200"));
}

#[wasm_bindgen_test]
async fn search_is_debounced_and_enter_applies_it_at_once() {
    let fixture = task_fixture::small();
    let mounted = mount_table(fixture.report.clone(), ViewState::default());
    settle().await;
    let root = &mounted.root;
    let input = only(root, "input[type=search]")
        .dyn_into::<HtmlInputElement>()
        .expect("an input");

    input.set_value("pars");
    fire(&input, "input");
    TimeoutFuture::new(60).await;
    assert!(
        mounted.changes.with_untracked(Vec::is_empty),
        "no change while typing"
    );
    input.set_value("PARSER");
    fire(&input, "input");
    TimeoutFuture::new(350).await;
    assert_eq!(
        mounted.changes.with_untracked(Vec::clone),
        [ViewState {
            search: Some("PARSER".to_owned()),
            ..ViewState::default()
        }],
        "one change, with the last text"
    );
    assert_eq!(shown_task_ids(root), ["t0"]);

    input.set_value("");
    fire(&input, "input");
    press(&input, "Enter");
    settle().await;
    assert_eq!(mounted.view.get_untracked().search, None);
    assert_eq!(mounted.changes.with_untracked(Vec::len), 2);
    assert_eq!(shown_task_ids(root).len(), 6);

    // A search set elsewhere (a shared link, the back button) shows in the box.
    mounted.view.set(ViewState {
        search: Some("socket".to_owned()),
        ..ViewState::default()
    });
    settle().await;
    assert_eq!(input.value(), "socket");
    assert_eq!(shown_task_ids(root), ["t3"]);
}

#[wasm_bindgen_test]
async fn rows_select_by_click_and_keyboard() {
    let fixture = task_fixture::small();
    let mounted = mount_table(fixture.report.clone(), ViewState::default());
    settle().await;
    let root = &mounted.root;

    click(&only(root, "tr[data-task-id=\"t2\"]"));
    settle().await;
    assert_eq!(mounted.view.get_untracked().task.as_deref(), Some("t2"));
    let selected = only(root, "tr.selected");
    assert_eq!(
        selected.get_attribute("data-task-id").as_deref(),
        Some("t2")
    );
    assert_eq!(
        selected.get_attribute("aria-current").as_deref(),
        Some("true")
    );

    // One Tab stop among the rows: the active one.
    let tabbable = only(root, "tr.task-row[tabindex=\"0\"]");
    assert_eq!(
        tabbable.get_attribute("data-task-id").as_deref(),
        Some("t2")
    );

    let order = shown_task_ids(root);
    let first = only(root, "tr[data-pos=\"0\"]");
    first
        .clone()
        .dyn_into::<HtmlElement>()
        .expect("a row")
        .focus()
        .expect("focusable");
    press(&first, "ArrowDown");
    TimeoutFuture::new(80).await;
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .expect("something has focus");
    assert_eq!(focused.get_attribute("data-pos").as_deref(), Some("1"));
    press(&focused, "Enter");
    settle().await;
    assert_eq!(
        mounted.view.get_untracked().task.as_deref(),
        Some(order[1].as_str())
    );
    press(&focused, "End");
    TimeoutFuture::new(80).await;
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .expect("something has focus");
    assert_eq!(focused.get_attribute("data-pos").as_deref(), Some("5"));
    press(&focused, " ");
    settle().await;
    assert_eq!(
        mounted.view.get_untracked().task.as_deref(),
        Some(order[5].as_str())
    );
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

#[wasm_bindgen_test]
async fn a_hundred_thousand_tasks_render_only_a_window() {
    const TASKS: usize = 100_000;
    let started = now_ms();
    let fixture = task_fixture::large(TASKS);
    let built = now_ms();
    assert_eq!(fixture.report.tasks.len(), TASKS);

    let mount_started = now_ms();
    let mounted = mount_table(fixture.report.clone(), ViewState::default());
    let mounted_at = now_ms();
    let root = &mounted.root;
    wait_for(root, "tr.task-row", 5_000).await;
    let first_rows_at = now_ms();
    console_log!(
        "100,000 tasks: fixture and report {:.0} ms; mount_to (visible_rows + first render) {:.0} ms; rows in the DOM after {:.0} ms",
        built - started,
        mounted_at - mount_started,
        first_rows_at - mount_started,
    );
    settle().await;

    let rendered = select_all(root, "tr.task-row").len();
    assert!(
        (10..=80).contains(&rendered),
        "a window of rows, not all: {rendered}"
    );
    assert_eq!(text(&only(root, ".task-count")), "100000 of 100000 tasks");
    assert_eq!(
        only(root, "table.tasks")
            .get_attribute("aria-rowcount")
            .as_deref(),
        Some("100001")
    );
    let core_started = now_ms();
    let expected = expected_task_ids(&fixture.report, &ViewState::default());
    console_log!(
        "100,000 tasks: the core's visible_rows alone (sort by delta) {:.0} ms",
        now_ms() - core_started
    );
    assert_eq!(shown_task_ids(root), expected[..rendered]);

    // The scroll height stands for every row, header included.
    let scroller = only(root, ".task-scroll");
    let header = f64::from(
        only(root, "thead")
            .dyn_into::<HtmlElement>()
            .expect("an element")
            .offset_height(),
    );
    let full = f64::from(scroller.scroll_height());
    assert!(
        (full - (TASKS as f64 * ROW_HEIGHT_PX + header)).abs() <= 2.0,
        "scroll height {full}"
    );

    // Scroll to the middle: the window moves with it.
    let target_row = 50_000usize;
    let scroll_started = now_ms();
    scroller.set_scroll_top((target_row as f64 * ROW_HEIGHT_PX) as i32);
    fire(&scroller, "scroll");
    while select_all(root, &format!("tr[data-pos=\"{target_row}\"]")).is_empty() {
        assert!(
            now_ms() - scroll_started < 2_000.0,
            "the window follows the scroll"
        );
        TimeoutFuture::new(0).await;
    }
    console_log!(
        "100,000 tasks: scrolled to the middle, rows there after {:.0} ms",
        now_ms() - scroll_started
    );
    settle().await;
    let positions: Vec<usize> = select_all(root, "tr.task-row")
        .iter()
        .filter_map(|row| row.get_attribute("data-pos")?.parse().ok())
        .collect();
    assert!(
        positions.contains(&target_row) && positions.len() <= 80,
        "rendered {positions:?}"
    );
    let first = positions[0];
    assert_eq!(
        shown_task_ids(root),
        expected[first..first + positions.len()]
    );
    let rowindex =
        only(root, &format!("tr[data-pos=\"{target_row}\"]")).get_attribute("aria-rowindex");
    assert_eq!(rowindex, Some((target_row + 2).to_string()));

    // Keyboard navigation reaches the last row by scrolling it into the window.
    let row = only(root, &format!("tr[data-pos=\"{target_row}\"]"));
    press(&row, "End");
    TimeoutFuture::new(120).await;
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .expect("something has focus");
    assert_eq!(
        focused.get_attribute("data-pos"),
        Some((TASKS - 1).to_string())
    );
    assert!(select_all(root, "tr.task-row").len() <= 80);

    // A filter over 100,000 rows.
    let filter_started = now_ms();
    click(&only(root, "button[data-filter=\"regressions\"]"));
    while text(&only(root, ".task-count")) == "100000 of 100000 tasks" {
        assert!(now_ms() - filter_started < 5_000.0, "the filter applies");
        TimeoutFuture::new(0).await;
    }
    console_log!(
        "100,000 tasks: regressions filter, new rows in the DOM after {:.0} ms",
        now_ms() - filter_started
    );
    settle().await;
    let view = mounted.view.get_untracked();
    let regressions = visible_rows(&fixture.report, &view).len();
    assert_eq!(
        text(&only(root, ".task-count")),
        format!("{regressions} of 100000 tasks")
    );
    assert_eq!(scroller.scroll_top(), 0, "new rows start at the top");
}
