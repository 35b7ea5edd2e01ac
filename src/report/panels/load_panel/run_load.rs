//! One run (or job) of the load panel: its name, where its record stands, its lists, its
//! failures explained, and a failed refresh.

use eval_compare_core::load::{Phase, RunProgress};
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::list_load::ListLoadView;
use super::words::{failures, missing_line, record_line, refresh_error_line, rollouts_line, thing};
use crate::failure::explain;

/// One run: name, progress of its lists, and its failures explained.
#[component]
pub fn RunLoadView(
    /// The run's (or job's) progress.
    run: RunProgress,
    /// The API address, named in connection failures.
    base_url: String,
) -> impl IntoView {
    let title = run.name.clone().unwrap_or_else(|| run.run_id.clone());
    let failed = failures(&run)
        .into_iter()
        .map(|(what, error)| {
            if error.is_not_found() && matches!(run.record, Phase::Failed(_)) {
                return view! {
                    <div class="load-failure load-missing" role="alert">
                        <p class="error-title">
                            {missing_line(thing(&run), &run.run_id, &base_url)}
                        </p>
                        <p class="error-hint">"Check the link, or choose the runs to compare."</p>
                    </div>
                }
                .into_any();
            }
            let explanation = explain(&error, &base_url);
            view! {
                <div class="load-failure" role="alert">
                    <p class="error-context">{format!("{title} — {what}")}</p>
                    <p class="error-title">{explanation.title}</p>
                    <p class="error-message">{explanation.message}</p>
                    <p class="error-hint">{explanation.hint}</p>
                </div>
            }
            .into_any()
        })
        .collect_view();
    let refresh_error = run.refresh_error.as_ref().map(|error| {
        view! { <p class="run-detail">{refresh_error_line(error)}</p> }
    });
    let lists = (run.record == Phase::Complete).then(|| {
        run.lists
            .iter()
            .map(|list| view! { <ListLoadView list=list.clone()/> })
            .collect_view()
    });
    view! {
        <div class="load-run" data-run-id=run.run_id.clone()>
            <p class="load-run-title">
                <span class="run-name">{title.clone()}</span>
                <span class="run-id">{visible(&run.run_id).into_owned()}</span>
            </p>
            {record_line(&run).map(|text| view! { <p class="muted">{text}</p> })}
            {rollouts_line(&run).map(|text| view! { <p class="run-detail">{text}</p> })}
            <ul class="load-lists">{lists}</ul>
            {failed}
            {refresh_error}
        </div>
    }
}
