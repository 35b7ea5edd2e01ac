//! One trajectory's transcript as read: where it was read from, then its turns in pages
//! ([`TURN_PAGE`] at a time), each with its role, content, tool calls, the call a result
//! answers, reasoning (collapsed), finish reason and token counts. Long text is cut with
//! [`default_excerpt`] behind "Show all"; on request, every step's reward and error
//! ([`StepRewards`]), each step then named at the first turn it added. Everything is a text
//! node.

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::text::count;
use eval_compare_core::transcript::{default_excerpt, StepSummary, Transcript};
use leptos::prelude::*;

use super::lines::{
    answers_text, block_text, origin_text, step_at_turn, step_heading, tool_call_heading,
    turn_footer, turn_heading, BlockText, TURN_PAGE,
};
use super::loader::TranscriptLoader;
use super::step_rewards::{StepLoader, StepRewards};
use crate::report::task_panel::on_demand::Fetch;
use crate::report::task_panel::rows::{ErrorNotice, ShowMore};

/// A whole transcript, its turns paged.
#[component]
pub fn TranscriptView(
    /// What was read.
    transcript: Arc<Transcript>,
    /// Where to read its steps, and the reads (no per-step offer without).
    #[prop(optional)]
    steps: Option<(ClientConfig, StepLoader)>,
) -> impl IntoView {
    let shown = RwSignal::new(TURN_PAGE);
    let total = transcript.turns.len();
    let origin = origin_text(&transcript);
    let failed_early = transcript.failed_before_first_call();
    let read_steps = {
        let (steps, id) = (steps.clone(), transcript.trajectory_id.clone());
        Memo::new(move |_| {
            let (config, loader) = steps.as_ref()?;
            match loader.state(config, &id)? {
                Fetch::Loaded(read) => Some(read),
                _ => None,
            }
        })
    };
    let step_offer = steps
        .filter(|_| transcript.num_steps > 0)
        .map(|(config, loader)| {
            view! { <StepRewards transcript=Arc::clone(&transcript) config loader/> }
        });
    let turns = {
        let transcript = Arc::clone(&transcript);
        move || {
            let read = read_steps.get();
            (0..shown.get().min(total))
                .map(|index| {
                    let step = read
                        .as_ref()
                        .and_then(|read| step_at_turn(read, index).copied());
                    view! { <TurnView transcript=Arc::clone(&transcript) index step/> }
                })
                .collect_view()
        }
    };
    view! {
        <div class="transcript" data-trajectory-id=transcript.trajectory_id.clone()>
            <p class=if failed_early { "transcript-origin transcript-failed-early" } else { "transcript-origin muted" }>
                {origin}
            </p>
            {step_offer}
            <ol class="transcript-turns">{turns}</ol>
            <ShowMore shown total page=TURN_PAGE label=more_messages/>
        </div>
    }
}

/// The "show more" of a transcript's turns, given how many are left.
fn more_messages(left: usize) -> String {
    format!(
        "Show {} more of {} messages",
        count(left.min(TURN_PAGE) as u64),
        count(left as u64)
    )
}

/// One turn of a transcript.
#[component]
pub fn TurnView(
    /// The transcript it belongs to (for the call a result answers).
    transcript: Arc<Transcript>,
    /// Its position in the transcript.
    index: usize,
    /// The step that added it, when it is that step's first turn and the steps were read.
    #[prop(optional_no_strip)]
    step: Option<StepSummary>,
) -> impl IntoView {
    let Some(turn) = transcript.turns.get(index) else {
        return ().into_any();
    };
    let role_class = format!("turn turn-{}", role_slug(turn.role.label()));
    let content = turn
        .content
        .iter()
        .map(|block| match block_text(block) {
            BlockText::Text(text) => view! { <LongText text=text.to_owned()/> }.into_any(),
            BlockText::Note(note) => view! { <p class="turn-note">{note}</p> }.into_any(),
        })
        .collect_view();
    let reasoning = turn
        .reasoning
        .clone()
        .filter(|r| !r.is_empty())
        .map(|text| {
            view! {
                <details class="turn-reasoning">
                    <summary>"Reasoning"</summary>
                    <LongText text/>
                </details>
            }
        });
    let calls = turn
        .tool_calls
        .calls
        .iter()
        .map(|call| {
            view! {
                <div class="turn-call">
                    <p class="turn-call-name">{tool_call_heading(call)}</p>
                    <LongText text=call.arguments.display().to_owned()/>
                </div>
            }
        })
        .collect_view();
    let unreadable = turn.tool_calls.unreadable.clone().map(|raw| {
        view! {
            <div class="turn-call">
                <p class="turn-call-name">"tool calls (not readable as JSON)"</p>
                <LongText text=raw/>
            </div>
        }
    });
    let answers =
        answers_text(&transcript, turn).map(|text| view! { <p class="turn-answers">{text}</p> });
    let response = turn.tool_response.clone().map(|response| {
        let output = response.output.map(|text| view! { <LongText text/> });
        let error = response.error.map(|text| {
            view! {
                <div class="turn-tool-error">
                    <span class="details-label">"Tool error"</span>
                    <LongText text/>
                </div>
            }
        });
        view! { {output}{error} }
    });
    let footer = turn_footer(turn).map(|text| view! { <p class="turn-footer muted">{text}</p> });
    let step = step.map(|step| {
        let class = if step.has_error {
            "turn-step turn-step-error"
        } else {
            "turn-step"
        };
        view! { <p class=class data-step=step.step_index>{step_heading(&step)}</p> }
    });
    view! {
        <li class=role_class data-turn=index>
            {step}
            <p class="turn-heading">{turn_heading(turn)}</p>
            {answers}
            {reasoning}
            {content}
            {response}
            {calls}
            {unreadable}
            {footer}
        </li>
    }
    .into_any()
}

fn role_slug(label: &str) -> &'static str {
    match label {
        "system" => "system",
        "user" => "user",
        "assistant" => "assistant",
        "tool" => "tool",
        _ => "other",
    }
}

/// Text cut to [`default_excerpt`] with "Show all" when longer; shown as a text node.
#[component]
pub fn LongText(
    /// The text, untrusted.
    text: String,
) -> impl IntoView {
    let all = RwSignal::new(false);
    let text = Arc::new(text);
    move || {
        let cut = default_excerpt(&text);
        if all.get() || !cut.is_cut() {
            return view! { <pre class="turn-text">{text.to_string()}</pre> }.into_any();
        }
        let hidden = cut.hidden_chars() as u64;
        let label = format!("Show all ({} more characters)", count(hidden));
        view! {
            <pre class="turn-text turn-text-cut">{cut.shown.to_owned()}</pre>
            <button type="button" class="link-button turn-show-all" on:click=move |_| all.set(true)>
                {label}
            </button>
        }
        .into_any()
    }
}

/// A trajectory's transcript as its read stands: reading, failed (with Retry), or read.
#[component]
pub fn TranscriptSlot(
    /// The trajectory.
    id: String,
    /// Where to read it.
    config: ClientConfig,
    /// The panel's transcript reads.
    loader: TranscriptLoader,
) -> impl IntoView {
    let state = {
        let id = id.clone();
        let config = config.clone();
        Memo::new(move |_| loader.state(Some(&config), &id))
    };
    let steps = StepLoader::with_cleanup();
    move || {
        match state.get() {
        None | Some(Fetch::Loading) => {
            view! { <p class="muted transcript-loading" role="status">"Reading the transcript…"</p> }
                .into_any()
        }
        Some(Fetch::Failed(explanation)) => {
            let config = config.clone();
            let id = id.clone();
            let on_retry = Callback::new(move |()| loader.load(config.clone(), vec![id.clone()]));
            view! { <ErrorNotice explanation on_retry/> }.into_any()
        }
        Some(Fetch::Loaded(transcript)) => {
            view! { <TranscriptView transcript steps=(config.clone(), steps)/> }.into_any()
        }
    }
    }
}
