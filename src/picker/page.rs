//! The start page, the run picker: an agent, one of its benchmark versions, and in that
//! version's run table one baseline and the candidates to compare with it; "Compare" opens the
//! report (a new history entry). The choice lives in the URL query (replaced as it changes), so
//! Back from a report returns to the same selection.

use eval_compare_core::client::{ApiError, ApiKey, ClientConfig, TrajectoryClient};
use eval_compare_core::text::noun;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use crate::components::api_error::ApiErrorPanel;
use crate::components::loading::Loading;
use crate::format;
use crate::picker::overview::{
    default_benchmark, load_overview, AgentRuns, BenchmarkRuns, Overview, RunRow,
};
use crate::picker::page_shell::{over_source_settings, PickerShell};
use crate::picker::run_chooser::{chooser_view, RunChooser};
use crate::picker::scorecard_links::ScorecardLinks;
use crate::route::{ReportPage, ReportPrefetch, Route};
use crate::state::async_load::{use_load, LoadState};
use crate::state::url::{use_url_state, UrlState};
use crate::transport::FetchTransport;

/// The picker, reading the API and key of the source settings in context.
#[component]
pub fn RunsPage() -> impl IntoView {
    over_source_settings(|base_url, api_key| view! { <RunsView base_url api_key/> })
}

/// The picker over the API at `base_url`, with loading and error states and a Retry button.
#[component]
pub fn RunsView(
    /// Base URL of the API.
    #[prop(into)]
    base_url: String,
    /// The key to send, if any.
    #[prop(optional_no_strip)]
    api_key: Option<ApiKey>,
) -> impl IntoView {
    view! {
        <PickerShell
            current=Route::Picker
            heading="Compare evaluation runs"
            base_url
            api_key
            content=|config, base_url| view! { <OverviewLoader config base_url/> }.into_any()
        >
            "Choose an agent and a benchmark version, mark the baseline and the runs to compare "
            "with it, then Compare. Runs exported to disk can be compared too: "
            <a href=Route::Report(ReportPage::Files).path()>"open run folders"</a>"."
        </PickerShell>
    }
}

/// Loads the overview and shows the picker, a spinner, or the failure with Retry.
#[component]
fn OverviewLoader(config: ClientConfig, base_url: String) -> impl IntoView {
    let load_config = config.clone();
    let (state, retry) = use_load(move || {
        let client = TrajectoryClient::new(load_config.clone(), FetchTransport::default());
        async move { load_overview(&client).await }
    });
    move || match state.get() {
        LoadState::Loading => view! { <Loading label="Loading evaluation runs…"/> }.into_any(),
        LoadState::Failed(error) => failure_view(error, base_url.clone(), retry).into_any(),
        LoadState::Loaded(overview) => {
            view! { <Picker overview config=config.clone()/> }.into_any()
        }
    }
}

fn failure_view(error: ApiError, base_url: String, retry: Callback<()>) -> impl IntoView {
    view! { <ApiErrorPanel error base_url on_retry=retry/> }
}

/// The agent and version choosers, the chosen version's runs with selection controls, and the
/// Compare bar.
#[component]
fn Picker(overview: Overview, config: ClientConfig) -> impl IntoView {
    if overview.agents.is_empty() {
        return view! { <p class="empty-state">"This organization has no agents yet."</p> }
            .into_any();
    }
    let url = use_url_state();
    let overview = StoredValue::new(overview);
    // The agent and version shown: the URL's when it names known ones, else the defaults.
    let agent_index = Memo::new(move |_| {
        let wanted = url.view().agent;
        overview.with_value(|overview| {
            wanted
                .and_then(|id| overview.agents.iter().position(|a| a.agent.agent_id == id))
                .unwrap_or(0)
        })
    });
    let bench_id = Memo::new(move |_| {
        let wanted = url.view().bench;
        overview.with_value(|overview| {
            let agent = overview.agents.get(agent_index.get())?;
            wanted
                .filter(|id| agent.benchmarks.iter().any(|b| &b.benchmark.bench_id == id))
                .or_else(|| default_benchmark(agent).map(|b| b.benchmark.bench_id.clone()))
        })
    });

    // The version's runs, and the agent's runs on its other versions (a choice may keep them).
    let runs_of_bench = move || {
        let id = bench_id.get()?;
        overview.with_value(|overview| {
            let benchmarks = &overview.agents.get(agent_index.get())?.benchmarks;
            let entry = benchmarks
                .iter()
                .find(|entry| entry.benchmark.bench_id == id)?
                .clone();
            let others: Vec<RunRow> = benchmarks
                .iter()
                .filter(|other| other.benchmark.bench_id != id)
                .flat_map(|other| other.runs.iter().cloned())
                .collect();
            Some((entry, others))
        })
    };

    view! {
        <div class="picker-controls">
            <AgentSelect overview agent_index url/>
            <VersionChoice overview agent_index bench_id url/>
        </div>
        {move || {
            overview
                .with_value(|overview| overview.agents.get(agent_index.get()).cloned())
                .map(|agent| view! { <ScorecardLinks agent/> })
        }}
        {move || {
            runs_of_bench()
                .map(|(entry, other_versions)| {
                    view! { <BenchmarkPicker entry other_versions config=config.clone()/> }
                })
        }}
    }
    .into_any()
}

/// The agent chooser: choosing one writes it to the URL (its default version follows).
#[component]
fn AgentSelect(
    overview: StoredValue<Overview>,
    /// The agent shown.
    agent_index: Memo<usize>,
    url: UrlState,
) -> impl IntoView {
    move || {
        overview.with_value(|all| {
            let options = all
                .agents
                .iter()
                .enumerate()
                .map(|(index, agent)| {
                    let label = agent_label(agent);
                    view! {
                        <option value=index.to_string() selected=move || agent_index.get() == index>
                            {label}
                        </option>
                    }
                })
                .collect_view();
            let choose = move |event| {
                let Ok(index) = event_target_value(&event).parse::<usize>() else {
                    return;
                };
                let id =
                    overview.with_value(|o| o.agents.get(index).map(|a| a.agent.agent_id.clone()));
                let mut view = chooser_view(&url.view_untracked());
                view.agent = id;
                url.replace(&view);
            };
            view! {
                <label class="field">
                    <span class="field-label">"Agent"</span>
                    <select on:change=choose>{options}</select>
                </label>
            }
        })
    }
}

/// The chosen agent's benchmark versions, one radio each; choosing one writes it to the URL and
/// keeps the runs chosen in another version (a baseline of one version may be compared with
/// checkpoints of another: the report's audit says why the scores are not comparable).
#[component]
fn VersionChoice(
    overview: StoredValue<Overview>,
    /// The agent shown.
    agent_index: Memo<usize>,
    /// The version shown.
    bench_id: Memo<Option<String>>,
    url: UrlState,
) -> impl IntoView {
    move || {
        let index = agent_index.get();
        overview.with_value(|overview| {
            let Some(agent) = overview.agents.get(index) else {
                return ().into_any();
            };
            if agent.benchmarks.is_empty() {
                return view! { <p class="empty-state">"This agent has no benchmarks yet."</p> }
                    .into_any();
            }
            let agent_id = agent.agent.agent_id.clone();
            let choices = agent
                .benchmarks
                .iter()
                .map(|entry| {
                    let id = entry.benchmark.bench_id.clone();
                    let runs = entry.runs.len();
                    let checked = {
                        let id = id.clone();
                        move || bench_id.get().as_deref() == Some(id.as_str())
                    };
                    let choose = {
                        let (id, agent_id) = (id.clone(), agent_id.clone());
                        move |_| {
                            let mut view = chooser_view(&url.view_untracked());
                            view.agent = Some(agent_id.clone());
                            view.bench = Some(id.clone());
                            url.replace(&view);
                        }
                    };
                    view! {
                        <label class="version-choice">
                            <input type="radio" name="bench" prop:checked=checked on:change=choose/>
                            <span class="version-name">{entry.benchmark.name.clone()}</span>
                            <span class="version-id">{visible(&id).into_owned()}</span>
                            <span class="version-meta">
                                {format!(
                                    "{runs} {} · created {}",
                                    noun(runs as u64, "run", "runs"),
                                    format::timestamp(&entry.benchmark.created_at),
                                )}
                            </span>
                        </label>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="version-picker">
                    <legend class="field-label">"Benchmark version"</legend>
                    <div class="version-choices">{choices}</div>
                </fieldset>
            }
            .into_any()
        })
    }
}

/// An agent's name with its production model.
fn agent_label(agent: &AgentRuns) -> String {
    match &agent.agent.production_model_slug {
        Some(slug) => format!("{} · {slug}", agent.agent.name),
        None => agent.agent.name.clone(),
    }
}

/// One benchmark version's runs with the baseline and candidate controls and the Compare bar
/// (`other_versions`: the agent's runs on its other versions, which the choice may keep).
#[component]
fn BenchmarkPicker(
    entry: BenchmarkRuns,
    other_versions: Vec<RunRow>,
    config: ClientConfig,
) -> impl IntoView {
    let url = use_url_state();
    let BenchmarkRuns { benchmark, runs } = entry;
    let meta = format!(
        "{} · created {}",
        benchmark.bench_id,
        format::timestamp(&benchmark.created_at)
    );
    let body = if runs.is_empty() {
        view! { <p class="benchmark-empty">"No evaluation runs on this benchmark version yet."</p> }
            .into_any()
    } else {
        view! {
            <RunChooser
                rows=runs
                url
                compare=Route::Report(ReportPage::Compare)
                on_compare_intent=ReportPrefetch::from_context()
                agent=benchmark.agent_id.clone()
                bench=Some(benchmark.bench_id.clone())
                live_from=Some(config)
                other_versions
            />
        }
        .into_any()
    };
    view! {
        <section class="benchmark" data-bench-id=benchmark.bench_id.clone()>
            <header class="benchmark-header">
                <h3 class="benchmark-name">{benchmark.name.clone()}</h3>
                <span class="benchmark-meta">{meta}</span>
            </header>
            {body}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(slug: Option<&str>) -> AgentRuns {
        let agent = serde_json::from_value(serde_json::json!({
            "agent_id": "ag1", "organization_id": "org", "name": "Coder",
            "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
            "benchmark_count": 0, "production_model_slug": slug, "is_deployed": false
        }))
        .expect("a valid AgentListItem");
        AgentRuns {
            agent,
            benchmarks: Vec::new(),
        }
    }

    #[test]
    fn an_agent_is_named_with_its_production_model_when_it_has_one() {
        assert_eq!(agent_label(&agent(Some("model-x"))), "Coder · model-x");
        assert_eq!(agent_label(&agent(None)), "Coder");
    }
}
