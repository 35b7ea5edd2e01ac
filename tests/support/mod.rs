//! Helpers shared by the browser tests: a fresh mount point and waiting for the DOM.
#![allow(dead_code)] // Each test file uses a subset of these helpers.

use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, Node};

/// A new empty `<div>` appended to the body, to mount one test's view into.
pub fn mount_point() -> HtmlElement {
    let document = web_sys::window()
        .and_then(|window| window.document())
        .expect("the test page has a document");
    let element = document
        .create_element("div")
        .expect("a <div> can be created")
        .dyn_into::<HtmlElement>()
        .expect("a <div> is an HtmlElement");
    document
        .body()
        .expect("the test page has a body")
        .append_child(&element)
        .expect("the mount point can be appended");
    element
}

/// Elements under `root` matching `selector`.
pub fn select_all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root
        .query_selector_all(selector)
        .expect("the selector is valid");
    (0..list.length())
        .filter_map(|index| list.item(index))
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .collect()
}

/// The first element under `root` matching `selector`, once it appears (within `timeout_ms`).
pub async fn wait_for(root: &Element, selector: &str, timeout_ms: u32) -> Element {
    let mut waited = 0;
    loop {
        if let Some(element) = select_all(root, selector).into_iter().next() {
            return element;
        }
        assert!(
            waited < timeout_ms,
            "no element matches {selector} after {timeout_ms} ms; the DOM is: {}",
            root.inner_html()
        );
        TimeoutFuture::new(20).await;
        waited += 20;
    }
}

/// The text of an element: its text nodes joined by single spaces (so `<b>a</b><i>b</i>` reads
/// `a b`), whitespace collapsed.
pub fn text(element: &Element) -> String {
    let mut words = Vec::new();
    collect_words(element, &mut words);
    words.join(" ")
}

fn collect_words(node: &Node, words: &mut Vec<String>) {
    if node.node_type() == Node::TEXT_NODE {
        let content = node.text_content().unwrap_or_default();
        words.extend(content.split_whitespace().map(str::to_owned));
        return;
    }
    let children = node.child_nodes();
    for index in 0..children.length() {
        if let Some(child) = children.item(index) {
            // What a reader reads: not the "?" buttons nor their closed explanations.
            let explanation = child.dyn_ref::<Element>().is_some_and(|element| {
                let classes = element.class_list();
                classes.contains("explain") || classes.contains("explain-pop")
            });
            if !explanation {
                collect_words(&child, words);
            }
        }
    }
}
