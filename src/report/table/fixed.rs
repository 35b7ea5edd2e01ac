//! The report's small fixed tables (the task panel's, the coverage ledger's, the settings'):
//! their `<colgroup>` and header row written once from a list of [`Column`]s. The per-task
//! table's own head, sortable, is [`super::header`].

use leptos::prelude::*;

/// One column of a fixed table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Its heading.
    pub heading: &'static str,
    /// The class of its `<col>`; empty when the table has no `<colgroup>`.
    pub col: &'static str,
    /// Whether it holds numbers (its heading classed `num`).
    pub num: bool,
    /// Whether its heading is for screen readers only.
    pub hidden: bool,
}

impl Column {
    /// A column of text headed `heading`.
    pub const fn text(heading: &'static str) -> Self {
        Self {
            heading,
            col: "",
            num: false,
            hidden: false,
        }
    }

    /// A column of numbers headed `heading`.
    pub const fn num(heading: &'static str) -> Self {
        Self {
            num: true,
            ..Self::text(heading)
        }
    }

    /// The column with the class of its `<col>`.
    pub const fn col(self, col: &'static str) -> Self {
        Self { col, ..self }
    }

    /// The column with its heading for screen readers only.
    pub const fn hidden(self) -> Self {
        Self {
            hidden: true,
            ..self
        }
    }
}

/// A fixed table: its caption, its `<colgroup>` when the columns name their `<col>` classes, its
/// header row (the columns, then one heading per name of `after`) and the body the children
/// give (`<tbody>` included).
#[component]
pub fn FixedTable(
    /// The table's class.
    #[prop(into)]
    class: String,
    /// Its caption, if any.
    #[prop(optional, into)]
    caption: Option<String>,
    /// The caption's class (`visually-hidden` for a caption only screen readers read).
    #[prop(optional)]
    caption_class: Option<&'static str>,
    /// The columns.
    columns: &'static [Column],
    /// Headings after the columns (one per run).
    #[prop(optional)]
    after: Vec<String>,
    children: Children,
) -> impl IntoView {
    let caption = caption.map(|text| view! { <caption class=caption_class>{text}</caption> });
    let cols = columns
        .iter()
        .any(|column| !column.col.is_empty())
        .then(|| {
            let cols = columns
                .iter()
                .map(|column| view! { <col class=column.col/> })
                .collect_view();
            view! { <colgroup>{cols}</colgroup> }
        });
    let heads = columns
        .iter()
        .map(|column| {
            let class = column.num.then_some("num");
            if column.hidden {
                view! { <th scope="col" class=class><span class="sr-only">{column.heading}</span></th> }
                    .into_any()
            } else {
                view! { <th scope="col" class=class>{column.heading}</th> }.into_any()
            }
        })
        .collect_view();
    let after = after
        .into_iter()
        .map(|heading| view! { <th scope="col">{heading}</th> })
        .collect_view();
    view! {
        <table class=class>
            {caption}
            {cols}
            <thead>
                <tr>{heads}{after}</tr>
            </thead>
            {children()}
        </table>
    }
}

/// A fixed table in a horizontally scrolling frame (`table-scroll`), classed `data-table`, its
/// caption for screen readers only.
#[component]
pub fn ScrollTable(
    /// The table's own class, beside `data-table`.
    class: &'static str,
    /// The caption screen readers read.
    caption: &'static str,
    /// The columns.
    columns: &'static [Column],
    /// Headings after the columns (one per run).
    #[prop(optional)]
    after: Vec<String>,
    children: Children,
) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <FixedTable
                class=format!("data-table {class}")
                caption
                caption_class="visually-hidden"
                columns
                after
            >
                {children()}
            </FixedTable>
        </div>
    }
}
