//! One benchmark version with its evaluation runs.

use leptos::prelude::*;

use crate::components::run_table::RunTable;
use crate::format;
use crate::overview::BenchmarkRuns;

/// A card headed by the benchmark's name and version id, listing its runs.
#[component]
pub fn BenchmarkSection(
    /// The benchmark version and its runs.
    entry: BenchmarkRuns,
) -> impl IntoView {
    let BenchmarkRuns { benchmark, runs } = entry;
    let count = runs.len();
    let summary = format!(
        "{} · {} run{} · created {}",
        benchmark.bench_id,
        count,
        if count == 1 { "" } else { "s" },
        format::timestamp(&benchmark.created_at)
    );
    let body = if runs.is_empty() {
        view! { <p class="benchmark-empty">"No evaluation runs on this benchmark version yet."</p> }
            .into_any()
    } else {
        view! { <RunTable rows=runs/> }.into_any()
    };
    view! {
        <section class="benchmark" data-bench-id=benchmark.bench_id.clone()>
            <header class="benchmark-header">
                <h4 class="benchmark-name">{benchmark.name.clone()}</h4>
                <span class="benchmark-meta">{summary}</span>
            </header>
            {body}
        </section>
    }
}
