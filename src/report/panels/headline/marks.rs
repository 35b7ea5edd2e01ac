//! The marks beside a verdict's badge (provisional, partial) and, under a partial verdict whose
//! runs were not read completely, the way to read the rest (the page's Retry).

use leptos::prelude::*;

use crate::state::retry_load::RetryLoad;

/// "provisional" while a compared run runs; "partial" when a compared run was not read
/// completely, failed or was cancelled.
#[component]
pub fn VerdictMarks(
    /// A compared run still runs.
    provisional: bool,
    /// A compared run's numbers are partial.
    partial: bool,
) -> impl IntoView {
    view! {
        {provisional
            .then(|| {
                view! {
                    <span
                        class="provisional-mark"
                        title="A compared run is still running: the numbers will move"
                    >
                        "provisional"
                    </span>
                }
            })}
        {partial
            .then(|| {
                view! {
                    <span
                        class="provisional-mark partial-mark"
                        title="A compared run's numbers are partial: the reasons below say which and why"
                    >
                        "partial"
                    </span>
                }
            })}
    }
}

/// Under a verdict judged on runs not read completely: what that means, and Retry when the page
/// can read the rest (runs from the API; a run folder cannot be read again from here).
#[component]
pub fn ReadTheRest(
    /// The compared runs not read completely, by name.
    incomplete: Vec<String>,
) -> impl IntoView {
    let retry = RetryLoad::from_context();
    (!incomplete.is_empty()).then(|| {
        let what = read_the_rest_text(&incomplete, retry.is_some());
        view! {
            <div class="read-the-rest" role="note">
                <p>{what}</p>
                {retry
                    .map(|retry| {
                        view! {
                            <button class="button" type="button" on:click=move |_| retry.run()>
                                "Retry"
                            </button>
                        }
                    })}
            </div>
        }
    })
}

/// "Step 400 was not read completely: this verdict is on what was read. Retry reads the rest."
pub fn read_the_rest_text(incomplete: &[String], can_retry: bool) -> String {
    let runs = incomplete.join(" and ");
    let verb = if incomplete.len() == 1 { "was" } else { "were" };
    if can_retry {
        format!(
            "{runs} {verb} not read completely: this verdict is on what was read. Retry reads the rest, from where it stopped."
        )
    } else {
        format!(
            "{runs} {verb} not read completely: this verdict is on what was read. Open the complete run folders to judge the whole runs."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_says_what_was_not_read_and_how_to_read_it() {
        assert_eq!(
            read_the_rest_text(&["Step 400".to_owned()], true),
            "Step 400 was not read completely: this verdict is on what was read. Retry reads the rest, from where it stopped."
        );
        assert!(read_the_rest_text(&["A".to_owned(), "B".to_owned()], false)
            .starts_with("A and B were not read completely: "));
    }
}
