//! The frame both live notices share: "Live — how they are watched", one line per run or job
//! still executing, and what that means for the numbers below.

use leptos::prelude::*;

/// A notice that the comparison is live: the live dot, "Live — `how`", `lines`, and `note`.
#[component]
pub fn LiveNotice(
    /// A class beside `notice notice-info live-jobs`, if any.
    #[prop(optional)]
    class: Option<&'static str>,
    /// How the runs or jobs are watched, after "Live — ".
    how: String,
    /// One line per run or job still executing.
    lines: Vec<String>,
    /// What that means for the numbers below.
    note: &'static str,
) -> impl IntoView {
    let class = match class {
        Some(extra) => format!("notice notice-info live-jobs {extra}"),
        None => "notice notice-info live-jobs".to_owned(),
    };
    view! {
        <section class=class role="status" aria-live="polite">
            <p class="live-jobs-title">
                <span class="live-dot" aria-hidden="true"></span>
                <strong>"Live"</strong>
                {format!(" — {how}")}
            </p>
            <LiveLines lines/>
            <p class="muted">{note}</p>
        </section>
    }
}

/// The lines of the runs or jobs still executing, one item each.
#[component]
pub fn LiveLines(
    /// One line per run or job.
    lines: Vec<String>,
) -> impl IntoView {
    view! {
        <ul class="live-jobs-list">
            {lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
        </ul>
    }
}
