//! A Chronicle trial's detail once fetched: the instruction it received (preformatted text, a
//! long one folded), its steps as a compact table and its artifacts (a link only to another
//! server than this one, see [`crate::report::task_panel::link::artifact_href`]).

use eval_compare_core::api::ChronicleTrialDetail;
use leptos::prelude::*;

use super::detail_lines::{folds, ArtifactLine, StepLine};
use crate::report::table::fixed::{Column, FixedTable};

/// The viewer's own origin (`location.origin`), which artifacts are never linked to.
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|window| window.location().origin().ok())
        .unwrap_or_default()
}

/// Whether the browser's own reading of `href` agrees that it is an http(s) address on another
/// origin than `page_origin` (a second check beside the plain rule, for addresses the browser
/// normalises, e.g. `http://127.1`).
fn browser_agrees(href: &str, page_origin: &str) -> bool {
    web_sys::Url::new(href).is_ok_and(|url| {
        matches!(url.protocol().as_str(), "http:" | "https:") && url.origin() != page_origin
    })
}

/// A fetched trial's instruction, steps and artifacts.
#[component]
pub fn TrialDetailView(
    /// What was fetched.
    detail: ChronicleTrialDetail,
) -> impl IntoView {
    let origin = page_origin();
    let steps = detail.steps.iter().map(StepLine::of).collect::<Vec<_>>();
    let artifacts = detail
        .artifacts
        .iter()
        .map(|artifact| {
            let mut line = ArtifactLine::of(artifact, &origin);
            line.href = line.href.filter(|href| browser_agrees(href, &origin));
            line
        })
        .collect::<Vec<_>>();
    view! {
        <div class="trial-detail">
            <InstructionView instruction=detail.instruction.clone()/>
            <StepsView steps/>
            <ArtifactsView artifacts/>
        </div>
    }
}

/// The instruction as preformatted text; a long one behind a summary line.
#[component]
fn InstructionView(instruction: Option<String>) -> impl IntoView {
    let Some(text) = instruction.filter(|text| !text.trim().is_empty()) else {
        return view! { <p class="muted details-message">"No instruction recorded."</p> }
            .into_any();
    };
    if folds(&text) {
        let lines = text.lines().count();
        let chars = text.chars().count();
        view! {
            <details class="trial-instruction">
                <summary>
                    <span class="details-label">"Instruction"</span>
                    <span class="muted">{format!(" ({lines} lines, {chars} characters)")}</span>
                </summary>
                <pre class="trial-instruction-text">{text}</pre>
            </details>
        }
        .into_any()
    } else {
        view! {
            <div class="trial-instruction">
                <span class="details-label">"Instruction"</span>
                <pre class="trial-instruction-text">{text}</pre>
            </div>
        }
        .into_any()
    }
}

/// The columns of the steps table.
const STEP_COLUMNS: [Column; 4] = [
    Column::text("Kind").col("col-kind"),
    Column::text("Name").col("col-name"),
    Column::text("Status").col("col-status"),
    Column::num("Duration").col("col-duration"),
];

/// The steps: kind, name, status and duration.
#[component]
fn StepsView(steps: Vec<StepLine>) -> impl IntoView {
    if steps.is_empty() {
        return view! { <p class="muted details-message">"No steps recorded."</p> }.into_any();
    }
    let caption = format!("Steps ({})", steps.len());
    let rows = steps
        .into_iter()
        .map(|step| {
            view! {
                <tr>
                    <td>
                        <span class=format!("step-kind step-kind-{}", step.kind_slug)>{step.kind}</span>
                    </td>
                    <td class="step-name">{step.name}</td>
                    <td class="step-status">{step.status}</td>
                    <td class="num">{step.duration}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <FixedTable class="trial-steps" caption columns=&STEP_COLUMNS>
            <tbody>{rows}</tbody>
        </FixedTable>
    }
    .into_any()
}

/// The columns of the artifacts table.
const ARTIFACT_COLUMNS: [Column; 3] = [
    Column::text("Name").col("col-name"),
    Column::text("Type").col("col-type"),
    Column::num("Size").col("col-size"),
];

/// The artifacts: name (linked only where allowed), media type and size.
#[component]
fn ArtifactsView(artifacts: Vec<ArtifactLine>) -> impl IntoView {
    if artifacts.is_empty() {
        return view! { <p class="muted details-message">"No artifacts recorded."</p> }.into_any();
    }
    let caption = format!("Artifacts ({})", artifacts.len());
    let rows = artifacts
        .into_iter()
        .map(|artifact| {
            let name = match artifact.href {
                Some(href) => view! {
                    <a class="artifact-link" href=href target="_blank" rel="noopener noreferrer">
                        {artifact.name}
                        <span class="sr-only">" (opens another site in a new tab)"</span>
                    </a>
                }
                .into_any(),
                None => view! { <span class="artifact-name">{artifact.name}</span> }.into_any(),
            };
            view! {
                <tr>
                    <th scope="row" class="artifact-cell">{name}</th>
                    <td class="artifact-type">{artifact.media_type}</td>
                    <td class="num" title=artifact.size_title>{artifact.size}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <FixedTable class="trial-artifacts" caption columns=&ARTIFACT_COLUMNS>
            <tbody>{rows}</tbody>
        </FixedTable>
    }
    .into_any()
}
