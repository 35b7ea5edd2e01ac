//! The filter bar above the per-task table: row filter, category, free-text search, the
//! candidate the deltas are taken from, and the count of shown rows. Every change is handed to
//! `on_change` as a new [`ViewState`], so it lives in the URL.

use std::sync::Arc;
use std::time::Duration;

use eval_compare_core::report::Report;
use eval_compare_core::text::noun;
use eval_compare_core::view_state::{RowFilter, ViewState};
use leptos::leptos_dom::helpers::TimeoutHandle;
use leptos::prelude::*;

/// How long the search waits after the last keystroke before it changes the view.
pub const SEARCH_DEBOUNCE_MS: u64 = 200;

/// The label of a row filter on its button.
pub fn filter_label(filter: RowFilter) -> &'static str {
    match filter {
        RowFilter::All => "All",
        RowFilter::Regressions => "Regressions",
        RowFilter::Improvements => "Improvements",
        RowFilter::Unpaired => "Unpaired",
        RowFilter::Failed => "Failed",
        RowFilter::Flaky => "Flaky",
        RowFilter::Changing => "Changing by step",
        RowFilter::TurnLimit => "Hit turn limit",
        RowFilter::Timeout => "Timed out",
    }
}

fn filter_title(filter: RowFilter) -> &'static str {
    match filter {
        RowFilter::All => "Every task of the compared runs",
        RowFilter::Regressions => "Paired tasks where the candidate scores lower",
        RowFilter::Improvements => "Paired tasks where the candidate scores higher",
        RowFilter::Unpaired => "Tasks without an included sample on one side",
        RowFilter::Failed => "Tasks with a failed trajectory in any run",
        RowFilter::Flaky => {
            "Tasks whose samples disagree (not all equal) in the baseline or this candidate"
        }
        RowFilter::Changing => {
            "Tasks whose state against the baseline changes across the checkpoints"
        }
        RowFilter::TurnLimit => "Tasks where this candidate hit the turn limit at least once",
        RowFilter::Timeout => "Tasks where this candidate timed out at least once",
    }
}

/// `view` with the search text set (an empty text clears it).
pub fn with_search(view: &ViewState, text: &str) -> ViewState {
    ViewState {
        search: (!text.is_empty()).then(|| text.to_owned()),
        ..view.clone()
    }
}

/// The filter controls and the row count.
#[component]
pub fn FilterBar(
    /// The report whose categories and candidates are offered.
    report: Signal<Arc<Report>>,
    /// The current view state.
    view: Signal<ViewState>,
    /// Receives every change of the view state.
    on_change: Callback<ViewState>,
    /// Rows shown with the current filters.
    shown: Signal<usize>,
) -> impl IntoView {
    let filter_buttons = RowFilter::ALL
        .into_iter()
        .map(|filter| {
            let pressed = move || view.with(|v| v.filter == filter);
            view! {
                <button
                    type="button"
                    class="filter-button"
                    class:active=pressed
                    aria-pressed=move || if pressed() { "true" } else { "false" }
                    title=filter_title(filter)
                    data-filter=filter.as_str()
                    on:click=move |_| {
                        let current = view.get_untracked();
                        if current.filter != filter {
                            on_change.run(ViewState { filter, ..current });
                        }
                    }
                >
                    {filter_label(filter)}
                </button>
            }
        })
        .collect_view();

    let count = move || {
        let total = report.with(|r| r.tasks.len());
        let shown = shown.get();
        format!("{shown} of {total} {}", noun(total as u64, "task", "tasks"))
    };

    view! {
        <div class="task-filters">
            <div class="filter-group" role="group" aria-label="Show tasks">
                {filter_buttons}
            </div>
            <CategorySelect report view on_change/>
            <FocusSelect report view on_change/>
            <SearchBox view on_change/>
            <span class="task-count" role="status" aria-live="polite">{count}</span>
        </div>
    }
}

/// A select of the report's categories; a category from the URL that the report lacks is kept
/// and marked, so the select never misstates the filter.
#[component]
fn CategorySelect(
    report: Signal<Arc<Report>>,
    view: Signal<ViewState>,
    on_change: Callback<ViewState>,
) -> impl IntoView {
    let options = move || {
        let chosen = view.with(|v| v.category.clone());
        let report = report.get();
        let mut options: Vec<(String, String)> = report
            .categories
            .iter()
            .map(|label| (label.clone(), label.clone()))
            .collect();
        if let Some(chosen) = chosen.filter(|c| !report.categories.contains(c)) {
            options.push((chosen.clone(), format!("{chosen} (not in this report)")));
        }
        options
            .into_iter()
            .map(|(value, text)| {
                let selected = {
                    let value = value.clone();
                    move || view.with(|v| v.category.as_deref() == Some(value.as_str()))
                };
                view! { <option value=value prop:selected=selected>{text}</option> }
            })
            .collect_view()
    };
    let disabled =
        move || report.with(|r| r.categories.is_empty()) && view.with(|v| v.category.is_none());
    view! {
        <label class="filter-field">
            <span class="filter-label">"Category"</span>
            <select
                class="filter-select"
                disabled=disabled
                on:change=move |ev| {
                    let value = event_target_value(&ev);
                    let current = view.get_untracked();
                    let category = (!value.is_empty()).then_some(value);
                    if current.category != category {
                        on_change.run(ViewState { category, ..current });
                    }
                }
            >
                <option value="" prop:selected=move || view.with(|v| v.category.is_none())>
                    "All categories"
                </option>
                {options}
            </select>
        </label>
    }
}

/// Which candidate's deltas the table shows, when there are several.
#[component]
fn FocusSelect(
    report: Signal<Arc<Report>>,
    view: Signal<ViewState>,
    on_change: Callback<ViewState>,
) -> impl IntoView {
    move || {
        let report = report.get();
        if report.candidates.len() < 2 {
            return None;
        }
        let last = report.candidates.len() - 1;
        let options = report
            .candidates
            .iter()
            .enumerate()
            .map(|(index, candidate)| {
                let name = report.run_of(candidate).map_or_else(
                    || format!("Candidate {}", index + 1),
                    |run| run.name.clone(),
                );
                let selected = move || view.with(|v| v.focus.min(last) == index);
                view! { <option value=index.to_string() prop:selected=selected>{name}</option> }
            })
            .collect_view();
        Some(view! {
            <label class="filter-field">
                <span class="filter-label">"Δ of"</span>
                <select
                    class="filter-select"
                    on:change=move |ev| {
                        if let Ok(focus) = event_target_value(&ev).parse::<usize>() {
                            let current = view.get_untracked();
                            if current.focus != focus {
                                on_change.run(ViewState { focus, ..current });
                            }
                        }
                    }
                >
                    {options}
                </select>
            </label>
        })
    }
}

/// Free-text search over task ids and labels, debounced; Enter applies it at once.
#[component]
fn SearchBox(view: Signal<ViewState>, on_change: Callback<ViewState>) -> impl IntoView {
    let draft = RwSignal::new(view.with_untracked(|v| v.search.clone().unwrap_or_default()));
    let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);

    let cancel_pending = move || {
        if let Some(handle) = pending.try_update_value(Option::take).flatten() {
            handle.clear();
        }
    };
    let apply = move |text: String| {
        cancel_pending();
        let current = view.get_untracked();
        let next = with_search(&current, &text);
        if next != current {
            on_change.run(next);
        }
    };

    // The view can change from elsewhere (back button, a shared link): follow it unless the
    // user is typing.
    Effect::new(move |_| {
        let search = view.with(|v| v.search.clone().unwrap_or_default());
        let typing = pending.try_with_value(Option::is_some).unwrap_or(false);
        if !typing && draft.get_untracked() != search {
            draft.set(search);
        }
    });
    on_cleanup(cancel_pending);

    view! {
        <label class="filter-field filter-search">
            <span class="filter-label">"Search"</span>
            <input
                type="search"
                class="filter-input"
                placeholder="task id or label"
                autocomplete="off"
                spellcheck="false"
                prop:value=move || draft.get()
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    draft.set(text.clone());
                    cancel_pending();
                    let handle = set_timeout_with_handle(
                        move || {
                            pending.try_set_value(None);
                            apply(text);
                        },
                        Duration::from_millis(SEARCH_DEBOUNCE_MS),
                    );
                    pending.try_set_value(handle.ok());
                }
                on:keydown=move |ev| {
                    if ev.key() == "Enter" {
                        ev.prevent_default();
                        apply(draft.get_untracked());
                    }
                }
            />
        </label>
    }
}
