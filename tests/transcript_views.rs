//! The transcript views in a real browser: two attempts side by side with the first divergence
//! marked and reachable in one key, and a hostile transcript rendering as inert text.
#![cfg(target_arch = "wasm32")]

mod support;
mod task_fixture;
mod transcript_fixture;

use std::sync::Arc;

use eval_compare_viewer::report::task_panel::transcript::aligned_rows::AlignedRows;
use eval_compare_viewer::report::task_panel::transcript::view::TranscriptView;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::{mount_point, select_all, text};
use task_fixture::events::press;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

type Handle = leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>;

fn mount(view: impl Fn() -> AnyView + 'static) -> (HtmlElement, Handle) {
    task_fixture::install_styles();
    let root = mount_point();
    let handle = leptos::mount::mount_to(root.clone(), view);
    (root, handle)
}

async fn settle() {
    TimeoutFuture::new(30).await;
}

#[wasm_bindgen_test]
async fn both_attempts_side_by_side_with_the_divergence_marked() {
    let left = Arc::new(transcript_fixture::baseline());
    let right = Arc::new(transcript_fixture::candidate());
    let (root, _handle) = mount(move || {
        view! { <AlignedRows left=Arc::clone(&left) right=Arc::clone(&right)/> }.into_any()
    });
    settle().await;
    let rows = select_all(&root, ".sbs-row");
    assert!(rows.len() >= 3, "{}", root.inner_html());
    let all = text(&root);
    assert!(
        all.contains("call \u{2068}apply_patch\u{2069} (id \u{2068}c2\u{2069})"),
        "{all}"
    );
    assert!(
        all.contains("call \u{2068}run_tests\u{2069} (id \u{2068}c2\u{2069})"),
        "{all}"
    );
    assert!(all.contains("Done: the test passes."), "{all}");
    assert!(all.contains("I could not fix it."), "{all}");
    let note = select_all(&root, ".sbs-divergence-note");
    assert_eq!(note.len(), 1);
    assert!(
        text(&note[0]).contains("First divergence: tool calls differ"),
        "{}",
        text(&note[0])
    );
    let marked = select_all(&root, ".sbs-row.sbs-divergence");
    assert_eq!(marked.len(), 1, "{}", root.inner_html());
    let marked_text = text(&marked[0]);
    assert!(marked_text.contains("apply_patch") && marked_text.contains("run_tests"));
    // Each row has a cell per side; the shared opening is one row with both sides.
    assert_eq!(select_all(&rows[0], ".sbs-cell").len(), 2);
    assert!(rows[0].class_name().contains("sbs-same"));
    assert!(text(&root).contains("d the first divergence"));

    let container = select_all(&root, ".sbs-rows").remove(0);
    press(&container, "d");
    settle().await;
    let current = select_all(&root, ".sbs-row.sbs-current");
    assert_eq!(current.len(), 1);
    assert!(current[0].class_name().contains("sbs-divergence"));
    press(&container, "k");
    settle().await;
    let current = select_all(&root, ".sbs-row.sbs-current");
    assert_eq!(current.len(), 1);
    assert!(!current[0].class_name().contains("sbs-divergence"));
    press(&container, "j");
    settle().await;
    assert!(select_all(&root, ".sbs-row.sbs-current")[0]
        .class_name()
        .contains("sbs-divergence"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_hostile_transcript_is_inert_text() {
    let transcript = Arc::new(transcript_fixture::hostile());
    let (root, _handle) =
        mount(move || view! { <TranscriptView transcript=Arc::clone(&transcript)/> }.into_any());
    settle().await;
    for tag in ["script", "img", "iframe", "a", "b", "i"] {
        assert!(
            select_all(&root, tag).is_empty(),
            "no <{tag}> from the transcript"
        );
    }
    let all = text(&root);
    assert!(all.contains("<script>window.__pwned = 1</script>"));
    assert!(all.contains("\u{1b}[31m"));
    assert!(all.contains("[image artifact <img src=https://evil.example/x.png>, not fetched]"));
    assert!(all.contains("call \u{2068}<script>x</script>\u{2069} (id \u{2068}<i>c</i>\u{2069})"));
    let pwned = js_sys::Reflect::get(&js_sys::global(), &"__pwned".into()).expect("a global");
    assert!(pwned.is_undefined());
    // The 1 MB text is cut, with "Show all"; showing all puts the whole text in one node.
    let show_all = select_all(&root, ".turn-show-all");
    assert_eq!(show_all.len(), 1, "{}", all.len());
    assert!(all.len() < 100_000, "cut: {}", all.len());
    show_all[0]
        .dyn_ref::<HtmlElement>()
        .expect("a button")
        .click();
    settle().await;
    let full = text(&root);
    assert!(full.len() > 1_000_000, "{}", full.len());
    assert!(select_all(&root, "b").is_empty());
    // Reasoning is collapsed.
    let reasoning = select_all(&root, "details.turn-reasoning");
    assert_eq!(reasoning.len(), 1);
    assert!(!reasoning[0].has_attribute("open"));
    root.remove();
}
