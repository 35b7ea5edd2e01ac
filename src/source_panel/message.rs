//! The outcome line under a settings form: what was saved, or why it was refused.

use std::fmt::Display;

use leptos::prelude::*;

use crate::format::capitalized;

/// The outcome of a settings form, shown under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormMessage {
    /// The setting was applied: a confirmation.
    Saved(String),
    /// The setting was refused: why, as a sentence.
    Refused(String),
}

impl FormMessage {
    /// The confirmation `text`.
    pub fn saved(text: impl Into<String>) -> Self {
        FormMessage::Saved(text.into())
    }

    /// A refusal explained by `error`, capitalized to read as a sentence.
    pub fn refused(error: &impl Display) -> Self {
        FormMessage::Refused(capitalized(&error.to_string()))
    }

    /// The outcome of applying a setting: `saved` when it was, else the error.
    pub fn of<E: Display>(outcome: Result<(), E>, saved: impl FnOnce() -> String) -> Self {
        match outcome {
            Ok(()) => FormMessage::Saved(saved()),
            Err(error) => FormMessage::refused(&error),
        }
    }
}

/// The outcome line under a form: an error (announced) or a confirmation; nothing before the
/// form is used.
#[component]
pub fn FormMessageLine(
    /// The latest outcome of the form.
    message: RwSignal<Option<FormMessage>>,
) -> impl IntoView {
    move || {
        message.get().map(|message| match message {
            FormMessage::Refused(text) => {
                view! { <p class="form-error" role="alert">{text}</p> }.into_any()
            }
            FormMessage::Saved(text) => {
                view! { <p class="form-ok" role="status">{text}</p> }.into_any()
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outcome_is_a_confirmation_or_the_error_as_a_sentence() {
        assert_eq!(
            FormMessage::of(Ok::<(), String>(()), || "Saved.".to_owned()),
            FormMessage::Saved("Saved.".to_owned())
        );
        assert_eq!(
            FormMessage::of(Err("the key is empty"), || unreachable!()),
            FormMessage::Refused("The key is empty".to_owned())
        );
    }
}
