//! The control of a read made on request (reward components, tokens, Chronicle trials'
//! details): the offer with its cost, then progress with Cancel, then what was covered, with
//! Resume after a Cancel, failed reads or a read that gave up, and the first failure explained.
//! One layout for every such read; each passes its progress, its sentence
//! ([`super::read_status`]), its actions and its [`ReadControlWords`].

use eval_compare_core::client::ClientConfig;
use eval_compare_core::load::ComponentProgress;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use crate::failure::explain;
use crate::report::task_panel::on_demand::shown_base;

/// What differs between the reads' controls besides their progress, sentence and actions.
#[derive(Debug, Clone, Copy)]
pub struct ReadControlWords {
    /// The button that starts the read ("Read components").
    pub start: &'static str,
    /// What a failed read names ("Trajectory", "Trial").
    pub item: &'static str,
    /// The progress bar's label ("Components read").
    pub progress: &'static str,
    /// The prefix of the box's and buttons' classes (`token`: `token-reads`, `token-read`,
    /// `token-cancel`); none for the components' read.
    pub class: Option<&'static str>,
    /// The id a failure shows, from the read's key (a trial's key holds its job and agent
    /// before its id).
    pub shown_id: fn(&str) -> &str,
}

/// A read's key as it is shown: the trajectory id the components' and tokens' reads are keyed
/// by.
pub fn whole_key(key: &str) -> &str {
    key
}

/// The read's control; see the module's documentation.
#[component]
pub fn ReadControl(
    /// Where the read stands.
    progress: Memo<ComponentProgress>,
    /// Whether it is under way.
    #[prop(into)]
    loading: Signal<bool>,
    /// What it says (its cost, progress or coverage).
    #[prop(into)]
    text: Signal<String>,
    /// Starts or resumes it.
    on_read: Callback<()>,
    /// Cancels it.
    on_cancel: Callback<()>,
    /// Where it reads (the failure's explanation names it).
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
    /// Its words and classes.
    words: ReadControlWords,
) -> impl IntoView {
    let class = |suffix: &str| {
        words
            .class
            .map(|prefix| format!(" {prefix}-{suffix}"))
            .unwrap_or_default()
    };
    let (box_class, read_class, cancel_class) = (
        format!("component-reads{}", class("reads")),
        format!("button{}", class("read")),
        format!("button button-quiet{}", class("cancel")),
    );
    move || {
        let standing = progress.get();
        let error = standing.first_error.as_ref().map(|(key, error)| {
            let base = client.with(|config| config.as_ref().map(shown_base).unwrap_or_default());
            let explanation = explain(error, &base);
            let id = visible((words.shown_id)(key));
            view! {
                <p class="details-error" role="alert">
                    <strong>{format!("{} {id}: {}", words.item, explanation.title)}</strong>
                    <span>{explanation.message}</span>
                    <span class="muted">{explanation.hint}</span>
                </p>
            }
        });
        let action = if loading.get() {
            view! {
                <button type="button" class=cancel_class.clone() on:click=move |_| on_cancel.run(())>
                    "Cancel"
                </button>
            }
            .into_any()
        } else if standing.is_complete() {
            ().into_any()
        } else {
            let fresh = standing.read + standing.failed == 0 && standing.stopped.is_none();
            let label = if fresh { words.start } else { "Resume" };
            view! {
                <button type="button" class=read_class.clone() on:click=move |_| on_read.run(())>{label}</button>
            }
            .into_any()
        };
        let bar = loading.get().then(|| {
            view! {
                <progress
                    max=standing.wanted.to_string()
                    value=standing.read.to_string()
                    aria-label=words.progress
                ></progress>
            }
        });
        view! {
            <div class=box_class.clone() role="status">
                <p class="component-reads-text">{text.get()}</p>
                {bar}
                {action}
            </div>
            {error}
        }
    }
}
