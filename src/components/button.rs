//! The page's action button: `type="button"` (never a form's submit), main or secondary.

use leptos::prelude::*;

/// A button that runs `on_click` when pressed; its children say what it does.
#[component]
pub fn ActionButton(
    /// What pressing it does.
    #[prop(into)]
    on_click: Callback<()>,
    /// A secondary action, drawn lighter than the main one.
    #[prop(optional)]
    secondary: bool,
    /// Classes added to the button's own (`header-action`…).
    #[prop(optional)]
    class: Option<&'static str>,
    /// What the button says.
    children: Children,
) -> impl IntoView {
    let class = match (secondary, class) {
        (false, None) => "button".to_owned(),
        (true, None) => "button button-secondary".to_owned(),
        (false, Some(extra)) => format!("button {extra}"),
        (true, Some(extra)) => format!("button button-secondary {extra}"),
    };
    view! {
        <button class=class type="button" on:click=move |_| on_click.run(())>
            {children()}
        </button>
    }
}
