//! The start page: every agent's benchmark versions and their evaluation runs.

use eval_compare_core::client::{ApiError, ClientConfig, TrajectoryClient};
use leptos::prelude::*;

use crate::components::benchmark_section::BenchmarkSection;
use crate::components::error_panel::ErrorPanel;
use crate::components::loading::Loading;
use crate::failure::explain;
use crate::load::{use_load, LoadState};
use crate::overview::{load_overview, AgentRuns, Overview};
use crate::source::ApiSource;
use crate::transport::FetchTransport;

/// The run list, read from the [`ApiSource`] in context (the page's origin when none).
#[component]
pub fn RunsPage() -> impl IntoView {
    let source = use_context::<ApiSource>().unwrap_or_else(ApiSource::page_origin);
    view! { <RunsView base_url=source.base_url/> }
}

/// The run list read from `base_url`, with loading and error states and a Retry button.
#[component]
pub fn RunsView(
    /// Base URL of the API.
    #[prop(into)]
    base_url: String,
) -> impl IntoView {
    let body = match ClientConfig::new(&base_url) {
        Ok(config) => view! { <OverviewLoader config base_url/> }.into_any(),
        Err(error) => {
            let explanation = explain(&error, &base_url);
            view! {
                <div class="error-panel" role="alert">
                    <h2 class="error-title">{explanation.title}</h2>
                    <p class="error-message">{explanation.message}</p>
                </div>
            }
            .into_any()
        }
    };
    view! {
        <h2 class="page-heading">"Evaluation runs"</h2>
        <p class="page-intro">
            "Every benchmark version of each agent, with its evaluation runs: the base-model "
            "baselines and the checkpoints of training runs."
        </p>
        {body}
    }
}

/// Loads the overview and shows it, a spinner, or the failure with Retry.
#[component]
fn OverviewLoader(config: ClientConfig, base_url: String) -> impl IntoView {
    let (state, retry) = use_load(move || {
        let client = TrajectoryClient::new(config.clone(), FetchTransport::default());
        async move { load_overview(&client).await }
    });
    move || match state.get() {
        LoadState::Loading => view! { <Loading label="Loading evaluation runs…"/> }.into_any(),
        LoadState::Failed(error) => failure_view(&error, &base_url, retry).into_any(),
        LoadState::Loaded(overview) => overview_view(overview).into_any(),
    }
}

fn failure_view(error: &ApiError, base_url: &str, retry: Callback<()>) -> impl IntoView {
    let explanation = explain(error, base_url);
    view! {
        <ErrorPanel
            title=explanation.title
            message=explanation.message
            hint=explanation.hint
            on_retry=retry
        />
    }
}

fn overview_view(overview: Overview) -> impl IntoView {
    if overview.agents.is_empty() {
        return view! { <p class="empty-state">"This organization has no agents yet."</p> }
            .into_any();
    }
    overview
        .agents
        .into_iter()
        .map(|agent_runs| view! { <AgentSection agent_runs/> })
        .collect_view()
        .into_any()
}

/// One agent's benchmark versions.
#[component]
fn AgentSection(agent_runs: AgentRuns) -> impl IntoView {
    let AgentRuns { agent, benchmarks } = agent_runs;
    let body = if benchmarks.is_empty() {
        view! { <p class="empty-state">"This agent has no benchmarks yet."</p> }.into_any()
    } else {
        benchmarks
            .into_iter()
            .map(|entry| view! { <BenchmarkSection entry/> })
            .collect_view()
            .into_any()
    };
    view! {
        <section class="agent" data-agent-id=agent.agent_id.clone()>
            <h3 class="agent-name">
                "Agent "<strong>{agent.name.clone()}</strong>
                {agent.production_model_slug.clone().map(|slug| view! { <span class="muted">" · production model "{slug}</span> })}
            </h3>
            {body}
        </section>
    }
}
