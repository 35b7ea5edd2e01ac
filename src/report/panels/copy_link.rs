//! "Copy link": puts the link of the view on the clipboard. The link holds the view state and
//! never a key. [`share_href`] builds it, for this button and for the HTML report's export. A
//! link copied while a compared run still runs also records when it was taken and the headline
//! numbers then (`taken`, `seen`, `then`); a finished comparison's links do not (its numbers do
//! not move). [`LinkSnapshotNotice`] tells the reader of such a link how far the numbers moved,
//! and offers them as of the link.

use std::sync::Arc;

use eval_compare_core::model::{rfc3339_utc, RunSet};
use eval_compare_core::report::{compare_with_link, needs_snapshot, snapshot, task_words, Report};
use eval_compare_core::share_link::share_link;
use eval_compare_core::view_state::{LinkSnapshot, ViewState};
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::state::url::{use_url_state, UrlState};

/// The link of the view shown: the page's origin, its path and the view's query, made by the
/// core's [`share_link`] as `eval-compare report --format html --link-base ORIGIN` makes it.
/// For a page whose address the viewer wrote, this is `location.href`.
pub fn share_href(url: &UrlState) -> Option<String> {
    let origin = web_sys::window()?.location().origin().ok()?;
    Some(share_link(
        &origin,
        &url.path_untracked(),
        &url.view_untracked(),
    ))
}

/// The snapshot a link of `report` copied at `taken` records, or `None` when it needs none (no
/// compared run runs) or the view already shows an older link's numbers as of then (the link is
/// copied as it is).
pub fn link_snapshot(
    report: &Report,
    set: &RunSet,
    view: &ViewState,
    taken: i64,
) -> Option<LinkSnapshot> {
    if view.as_of || !needs_snapshot(report) {
        return None;
    }
    let runs: Vec<_> = report
        .runs
        .iter()
        .filter_map(|run| set.find_run(&run.id))
        .collect();
    Some(snapshot(report, taken, set.newest_created(&runs)))
}

/// `href` with its query's snapshot replaced by `snapshot` (and "as of" off).
pub fn href_with_snapshot(href: &str, snapshot: LinkSnapshot) -> String {
    let (base, query) = href.split_once('?').unwrap_or((href, ""));
    let (query, fragment) = match query.split_once('#') {
        Some((query, fragment)) => (query, Some(fragment)),
        None => (query, None),
    };
    let mut view = ViewState::from_query(query).state;
    view.snapshot = Some(snapshot);
    view.as_of = false;
    let mut out = format!("{base}?{}", view.to_query());
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// What happened to the last copy.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Copied {
    Nothing,
    Done,
    /// The clipboard refused: the link is shown selected for the user to copy.
    Manual(String),
}

/// A button copying [`share_href`]; when the clipboard is unavailable it shows the link in a
/// read-only field, selected, to copy by hand. With `snapshot` (called with the time in
/// seconds since the epoch) the link also records what it returns.
#[component]
pub fn CopyLinkButton(
    /// The snapshot a link copied now records, if any.
    #[prop(optional)]
    snapshot: Option<Callback<i64, Option<LinkSnapshot>>>,
) -> impl IntoView {
    let url = use_url_state();
    let state = RwSignal::new(Copied::Nothing);
    let field = NodeRef::<html::Input>::new();
    let copy = move |_| {
        let Some(mut href) = share_href(&url) else {
            return;
        };
        let taken = (js_sys::Date::now() / 1_000.0).floor() as i64;
        if let Some(recorded) = snapshot.and_then(|snapshot| snapshot.run(taken)) {
            href = href_with_snapshot(&href, recorded);
        }
        let clipboard = web_sys::window().map(|window| window.navigator().clipboard());
        leptos::task::spawn_local(async move {
            let written = match clipboard {
                Some(clipboard) => JsFuture::from(clipboard.write_text(&href)).await.is_ok(),
                None => false,
            };
            state.try_set(if written {
                Copied::Done
            } else {
                Copied::Manual(href)
            });
        });
    };
    // Select the fallback field's text once it is shown.
    Effect::new(move |_| {
        if matches!(state.get(), Copied::Manual(_)) {
            request_animation_frame(move || {
                if let Some(input) = field.get_untracked() {
                    let _ = input.focus();
                    input.select();
                }
            });
        }
    });
    view! {
        <div class="copy-link">
            <button class="button button-secondary" type="button" on:click=copy>
                "Copy link"
            </button>
            {move || match state.get() {
                Copied::Nothing => ().into_any(),
                Copied::Done => {
                    view! { <span class="form-ok" role="status">"Link copied"</span> }.into_any()
                }
                Copied::Manual(href) => {
                    view! {
                        <label class="copy-fallback">
                            <span class="field-help">"Copy this link (Ctrl+C / ⌘C):"</span>
                            <input type="text" readonly node_ref=field prop:value=href/>
                        </label>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}

/// For a link that recorded a snapshot: when it was taken and how far the numbers moved since
/// (or that they did not), and a switch between the numbers now and as of the link.
#[component]
pub fn LinkSnapshotNotice(
    /// The report shown (now, or as of the link).
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The view state.
    #[prop(into)]
    view: Signal<ViewState>,
    /// Called with the view to show (a tweak).
    on_change: Callback<ViewState>,
) -> impl IntoView {
    move || {
        let (snapshot, as_of) = view.with(|view| (view.snapshot.clone(), view.as_of));
        let snapshot = snapshot?;
        let sentence =
            report.with(|report| compare_with_link(report, &snapshot).sentence(task_words(report)));
        let toggle = snapshot.seen.map(|seen| {
            let label = if as_of {
                "Show the numbers now"
            } else {
                "Show the numbers as of this link"
            };
            let flip = move |_| {
                let mut next = view.get_untracked();
                next.as_of = !next.as_of;
                on_change.run(next);
            };
            let meaning = as_of_meaning(seen);
            view! {
                <p class="muted link-as-of-meaning">{meaning}</p>
                <button class="button button-secondary link-as-of" type="button" on:click=flip>
                    {label}
                </button>
            }
        });
        let shown = if as_of {
            "Shown as of this link."
        } else {
            "Shown now."
        };
        Some(view! {
            <section class="notice notice-info link-snapshot" role="status">
                <p class="link-snapshot-sentence">{sentence}</p>
                <p class="link-snapshot-shown"><strong>{shown}</strong></p>
                {toggle}
            </section>
        })
    }
}

/// What "as of" the link shows, and what it cannot reconstruct.
pub fn as_of_meaning(seen: i64) -> String {
    format!(
        "As of this link: only the trajectories created by {} (the newest loaded when the link \
         was taken) are counted. A trajectory that was still running then shows its outcome of \
         now, and the runs' status is today's: those cannot be reconstructed.",
        rfc3339_utc(seen)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::view_state::HeadlineThen;

    fn recorded() -> LinkSnapshot {
        LinkSnapshot {
            taken: 1_796_146_805,
            seen: Some(1_791_970_200),
            then: vec![HeadlineThen {
                delta_tenths: Some(137),
                tasks: 361,
            }],
        }
    }

    #[test]
    fn the_copied_link_keeps_the_view_and_adds_the_snapshot() {
        let href = "http://127.0.0.1:8080/compare?base=b&cand=c&filter=regressions#t";
        let copied = href_with_snapshot(href, recorded());
        assert_eq!(
            copied,
            "http://127.0.0.1:8080/compare?base=b&cand=c&filter=regressions\
             &taken=1796146805&seen=1791970200&then=13.7~361#t"
        );
        // Copying again replaces the snapshot and turns "as of" off.
        let again = href_with_snapshot(
            &format!("{}&asof=1", copied.trim_end_matches("#t")),
            LinkSnapshot {
                taken: 1_796_146_900,
                ..recorded()
            },
        );
        assert!(again.ends_with("&taken=1796146900&seen=1791970200&then=13.7~361"));
        assert!(!again.contains("asof"));
    }

    #[test]
    fn as_of_says_what_it_cannot_reconstruct() {
        let text = as_of_meaning(1_791_970_200);
        assert!(text.contains("2026-10-14T09:30:00Z"), "{text}");
        assert!(text.contains("cannot be reconstructed"));
    }
}
