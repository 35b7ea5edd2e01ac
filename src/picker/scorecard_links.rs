//! Where a training run is picked for its scorecard: the chosen agent's training runs (those
//! whose checkpoints were evaluated), each linking to `/scorecard?training=…`, every checkpoint
//! on every benchmark version of the agent at once.

use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;

use super::overview::AgentRuns;
use crate::route::{ReportPage, ReportPrefetch, Route};

/// A training run of the agent and how many checkpoint evaluations it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainingRunEntry {
    /// The training run's id.
    pub id: String,
    /// Its checkpoint evaluations across the agent's benchmark versions.
    pub evaluations: usize,
}

/// The training runs of `agent`'s checkpoint evaluations, the one evaluated most recently first.
pub fn training_runs(agent: &AgentRuns) -> Vec<TrainingRunEntry> {
    let mut seen: Vec<(String, usize, String)> = Vec::new();
    for run in agent.benchmarks.iter().flat_map(|bench| &bench.runs) {
        let Some(id) = run.run.training_run_id.clone() else {
            continue;
        };
        match seen.iter_mut().find(|(known, _, _)| *known == id) {
            Some((_, count, newest)) => {
                *count += 1;
                if run.run.created_at > *newest {
                    newest.clone_from(&run.run.created_at);
                }
            }
            None => seen.push((id, 1, run.run.created_at.clone())),
        }
    }
    seen.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    seen.into_iter()
        .map(|(id, evaluations, _)| TrainingRunEntry { id, evaluations })
        .collect()
}

/// The scorecard page of `training_run_id` (the rule and the baselines left to the user).
pub fn scorecard_href(training_run_id: &str) -> String {
    let link = ScorecardLink {
        training_run: Some(training_run_id.to_owned()),
        ..ScorecardLink::default()
    };
    format!(
        "{}?{}",
        Route::Report(ReportPage::Scorecard).path(),
        link.to_query()
    )
}

/// "Scorecard" links for `agent`'s training runs; nothing when it has none.
#[component]
pub fn ScorecardLinks(agent: AgentRuns) -> impl IntoView {
    let entries = training_runs(&agent);
    let prefetch = ReportPrefetch::from_context();
    let intent = move || {
        if let Some(prefetch) = prefetch {
            prefetch.run(());
        }
    };
    (!entries.is_empty()).then(|| {
        view! {
            <nav class="scorecard-links" aria-label="Scorecards of training runs">
                <span class="field-help">"Every checkpoint on every benchmark: "</span>
                {entries
                    .into_iter()
                    .map(|entry| {
                        let label = format!("Scorecard of training run {}", entry.id);
                        let detail = format!(" ({} checkpoint evaluations)", entry.evaluations);
                        view! {
                            <a
                                class="button button-secondary"
                                href=scorecard_href(&entry.id)
                                on:pointerenter=move |_| intent()
                                on:focusin=move |_| intent()
                            >
                                {label}
                            </a>
                            <span class="run-detail">{detail}</span>
                        }
                    })
                    .collect_view()}
            </nav>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picker::overview::{BenchmarkRuns, RunRow};

    fn row(id: &str, training: Option<&str>, created: &str) -> RunRow {
        RunRow {
            run: serde_json::from_value(serde_json::json!({
                "eval_run_id": id, "agent_id": "ag_1", "bench_id": "b_1",
                "status": "completed", "created_at": created,
                "training_run_id": training, "step": training.map(|_| 100),
                "options": {}, "updated_at": created
            }))
            .expect("a run"),
            progress: None,
        }
    }

    #[test]
    fn training_runs_are_counted_newest_first() {
        let agent = AgentRuns {
            agent: serde_json::from_value(serde_json::json!({
                "agent_id": "ag_1", "organization_id": "org", "name": "a",
                "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
                "benchmark_count": 1, "production_model_slug": null, "is_deployed": false
            }))
            .expect("an agent"),
            benchmarks: vec![BenchmarkRuns {
                benchmark: serde_json::from_value(serde_json::json!({
                    "bench_id": "b_1", "agent_id": "ag_1", "organization_id": "org",
                    "name": "b", "description": "", "visibility": "private", "family": null,
                    "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
                    "eval_run_count": 4
                }))
                .expect("a benchmark"),
                runs: vec![
                    row("er_1", Some("tr_old"), "2026-01-02T00:00:00Z"),
                    row("er_2", None, "2026-01-05T00:00:00Z"),
                    row("er_3", Some("tr_new"), "2026-01-04T00:00:00Z"),
                    row("er_4", Some("tr_old"), "2026-01-03T00:00:00Z"),
                ],
            }],
        };
        assert_eq!(
            training_runs(&agent),
            vec![
                TrainingRunEntry {
                    id: "tr_new".into(),
                    evaluations: 1
                },
                TrainingRunEntry {
                    id: "tr_old".into(),
                    evaluations: 2
                },
            ]
        );
    }

    #[test]
    fn the_link_names_the_training_run() {
        assert_eq!(scorecard_href("tr_1"), "/scorecard?training=tr_1");
    }
}
