//! The URL as the source of truth: reading the view from the query, push for a new comparison,
//! replace for tweaks, the notice of ignored parameters, and the settings form writing the URL.
#![cfg(target_arch = "wasm32")]

mod support;

use eval_compare_core::view_state::{AnalysisMode, ViewState};
use eval_compare_viewer::report::panels::query_notice::QueryIssuesNotice;
use eval_compare_viewer::report::panels::report_controls::ReportSettingsForm;
use eval_compare_viewer::route::{ReportPage, Route};
use eval_compare_viewer::state::url::{href, Navigation, UrlState};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::{mount_point, select_all, text};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

const COMPARE: Route = Route::Report(ReportPage::Compare);

async fn settle() {
    TimeoutFuture::new(20).await;
}

fn comparison() -> ViewState {
    ViewState {
        agent: Some("agent_demo_coder".to_owned()),
        bench: Some("bench_codefix_v2".to_owned()),
        baseline: Some("eval_base_v2".to_owned()),
        candidates: vec!["eval_ckpt_s100".to_owned(), "eval_ckpt_s400".to_owned()],
        ..ViewState::default()
    }
}

#[wasm_bindgen_test]
fn a_new_comparison_pushes_and_a_tweak_replaces() {
    let owner = Owner::new();
    owner.with(|| {
        let (url, log) = UrlState::in_memory("/", "agent=agent_demo_coder");
        assert_eq!(url.view_untracked().agent.as_deref(), Some("agent_demo_coder"));

        let view = comparison();
        url.push(COMPARE, &view);
        assert_eq!(url.path(), "/compare");
        assert_eq!(url.view_untracked(), view, "read back from the query");

        let mut tweaked = view.clone();
        tweaked.focus = 1;
        tweaked.confidence_percent = 90;
        url.replace(&tweaked);
        assert_eq!(url.view_untracked(), tweaked);
        assert_eq!(
            log.get_untracked(),
            [
                Navigation {
                    href: href(COMPARE, &view),
                    replace: false,
                },
                Navigation {
                    href: href(COMPARE, &tweaked),
                    replace: true,
                },
            ]
        );
        assert_eq!(
            href(COMPARE, &tweaked),
            "/compare?agent=agent_demo_coder&bench=bench_codefix_v2&base=eval_base_v2&cand=eval_ckpt_s100,eval_ckpt_s400&focus=1&ci=90"
        );
    });
}

#[wasm_bindgen_test]
fn a_hostile_query_is_read_with_issues_never_a_crash() {
    let owner = Owner::new();
    owner.with(|| {
        let (url, _) = UrlState::in_memory(
            COMPARE.path(),
            "base=a&cand=b&api_key=s3cret&B=7&ci=abc&zzz=1",
        );
        let view = url.view_untracked();
        assert_eq!(view.baseline.as_deref(), Some("a"));
        assert_eq!(view.candidates, ["b"]);
        assert_eq!(view.resamples, ViewState::default().resamples);
        let issues: Vec<String> = url.issues().iter().map(ToString::to_string).collect();
        assert_eq!(issues.len(), 4, "{issues:?}");
        assert!(issues[0].starts_with("ignored `api_key`: API keys are never read from links"));
        assert!(
            issues.iter().all(|issue| !issue.contains("s3cret")),
            "{issues:?}"
        );
    });
}

#[wasm_bindgen_test]
async fn the_notice_lists_ignored_parameters_and_can_be_dismissed() {
    let root = mount_point();
    let query = RwSignal::new("cand=b&B=7".to_owned());
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        let issues = Signal::derive(move || {
            eval_compare_core::view_state::ViewState::from_query(&query.get()).issues
        });
        view! { <QueryIssuesNotice issues/> }
    });
    let items: Vec<String> = select_all(&root, ".notice li").iter().map(text).collect();
    assert_eq!(items.len(), 1);
    assert!(items[0].starts_with("ignored `B`:"), "{items:?}");

    select_all(&root, ".notice button")[0]
        .clone()
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
    settle().await;
    assert!(select_all(&root, ".notice").is_empty(), "dismissed");

    query.set("cand=b&ci=5".to_owned());
    settle().await;
    assert_eq!(
        select_all(&root, ".notice li").len(),
        1,
        "new issues show again"
    );
}

fn input(root: &web_sys::Element, index: usize) -> HtmlInputElement {
    select_all(root, ".settings-form input")[index]
        .clone()
        .dyn_into::<HtmlInputElement>()
        .expect("an input")
}

fn submit(root: &web_sys::Element) {
    select_all(root, ".settings-form button[type=submit]")[0]
        .clone()
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
}

fn type_into(field: &HtmlInputElement, value: &str) {
    field.set_value(value);
    let event = web_sys::Event::new("input").expect("an event");
    field.dispatch_event(&event).expect("dispatched");
}

#[wasm_bindgen_test]
async fn the_settings_form_writes_valid_settings_and_refuses_others() {
    let root = mount_point();
    let owner = Owner::new();
    let (url, log) = owner.with(|| UrlState::in_memory(COMPARE.path(), &comparison().to_query()));
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <ReportSettingsForm
                view=url.view_signal()
                on_change=url.replace_callback()
                timings=Signal::derive(|| None)
                bootstrap_progress=Signal::derive(|| None)
            />
        }
    });
    settle().await;
    // Fields: confidence level, resamples, seed.
    assert_eq!(input(&root, 0).value(), "95");
    assert_eq!(input(&root, 1).value(), "9999");

    type_into(&input(&root, 0), "120");
    submit(&root);
    settle().await;
    let error = select_all(&root, ".form-error");
    assert_eq!(error.len(), 1);
    assert!(
        text(&error[0]).starts_with("Confidence level:"),
        "{}",
        text(&error[0])
    );
    assert!(log.get_untracked().is_empty(), "nothing written");

    type_into(&input(&root, 0), "90");
    type_into(&input(&root, 1), "2000");
    submit(&root);
    settle().await;
    assert!(select_all(&root, ".form-error").is_empty());
    let written = log.get_untracked();
    assert_eq!(written.len(), 1);
    assert!(written[0].replace, "a tweak replaces the entry");
    let view = url.view_untracked();
    assert_eq!((view.confidence_percent, view.resamples), (90, 2000));

    // The headline analysis applies at once.
    let radios = select_all(&root, ".analysis-choice input");
    radios[1]
        .clone()
        .dyn_into::<HtmlElement>()
        .expect("a radio")
        .click();
    settle().await;
    assert_eq!(url.view_untracked().analysis, AnalysisMode::Sensitivity);
    assert_eq!(log.get_untracked().len(), 2);
}

#[wasm_bindgen_test]
async fn the_settings_form_writes_the_target_delta_and_k_prime_into_the_url() {
    let root = mount_point();
    let owner = Owner::new();
    let (url, log) = owner.with(|| UrlState::in_memory(COMPARE.path(), &comparison().to_query()));
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <ReportSettingsForm
                view=url.view_signal()
                on_change=url.replace_callback()
                timings=Signal::derive(|| None)
                bootstrap_progress=Signal::derive(|| None)
            />
        }
    });
    settle().await;
    // Fields: confidence level, resamples, seed, target Δ (points), K′ (empty: automatic).
    assert_eq!(input(&root, 3).value(), "2");
    assert_eq!(input(&root, 4).value(), "");

    type_into(&input(&root, 3), "2.25");
    submit(&root);
    settle().await;
    let error = select_all(&root, ".form-error");
    assert_eq!(error.len(), 1);
    assert!(
        text(&error[0]).starts_with("Target Δ:"),
        "{}",
        text(&error[0])
    );
    assert!(log.get_untracked().is_empty(), "nothing written");

    type_into(&input(&root, 3), "3.5");
    type_into(&input(&root, 4), "16");
    submit(&root);
    settle().await;
    assert!(select_all(&root, ".form-error").is_empty());
    let view = url.view_untracked();
    assert_eq!((view.target_tenths, view.project_samples), (35, Some(16)));
    assert!(
        view.to_query().ends_with("&target=3.5&kprime=16"),
        "{}",
        view.to_query()
    );

    // Emptied, K′ is automatic again.
    type_into(&input(&root, 4), "");
    submit(&root);
    settle().await;
    assert_eq!(url.view_untracked().project_samples, None);
}
