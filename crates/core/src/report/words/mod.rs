//! The report's sentences that more than one renderer shows, each written once here as plain
//! text: the page, the markdown and the HTML report only escape and lay them out (as the
//! statistics rows of [`super::detail_rows`]), so their words and number formats cannot drift
//! apart. Numbers go through `crate::text`; a name from the data that a renderer sets as code
//! stands between backticks (`crate::text::quoted_parts` cuts it out).
//!
//! By topic: what the numbers were computed with (`settings`), the comparability audit
//! (`audit`), the coverage ledger (`coverage`), the effort beside quality (`effort`), the money
//! beside it (`cost`), what stands beside a candidate's Δ (`beside_delta`), the reviewer's
//! ledger (`ledger`), a candidate's section (`candidate`), the checkpoints against each other
//! and the pass threshold (`checkpoints`) and the platform's own numbers (`platform`).

mod audit;
mod beside_delta;
mod candidate;
mod checkpoints;
mod cost;
mod coverage;
mod effort;
mod ledger;
mod platform;
mod settings;
mod tokens;
mod trial_effort;

pub use audit::{comparability_words, setting_cell, EFFECTIVE_SETTINGS};
pub use beside_delta::{beside_delta, beside_delta_parts, BesideKind, BesidePart, BESIDE_DELTA};
pub use candidate::{
    flaky_line, CATEGORIES_INTRO, COMPONENTS_HEADING, COMPONENTS_INTRO, NO_CATEGORY, PASS_K_INTRO,
    WHERE_DELTA_HEADING,
};
pub use checkpoints::{
    pass_threshold_line, path_cells, path_columns, paths_line, step_cells, versus_chosen_line,
    PATHS_HEADING, PATHS_INTRO, STEPS_HEADING, STEPS_INTRO, STEP_COLUMNS,
};
pub use cost::{
    candidate_cost_of, cents, cost_beside_verdict, cost_line_of, cost_lines, cost_sentence,
    gap_text, kind_sentence, quality_cost_cells, run_cost_cells, signed_cents, unbeaten_sentence,
    COST_EXPLAINED, COST_HEADING, COST_INTRO, QUALITY_COST_COLUMNS, QUALITY_COST_HEADING,
    QUALITY_COST_INTRO, RUN_COST_COLUMNS,
};
pub use coverage::{incomplete_loads, pairing_line, pairings, union_line, TASK_COLUMNS_NOTE};
pub use effort::{
    candidate_effort, effort_lines, ending_cells, ending_sentence, percent, run_effort_cells,
    signed_percent, signed_turns, solved_failed_sentence, task_ending_cell, task_turns_cell,
    turn_count, turns_beside_verdict, turns_sentence, EFFORT_HEADING, EFFORT_INTRO, ENDING_COLUMNS,
    RUN_EFFORT_COLUMNS, TURNS_EXPLAINED,
};
pub use ledger::{
    ledger_cells, ledger_changes, ledger_intro, ledger_verdicts, set_aside_cell, target_kind,
    LEDGER_COLUMNS, LEDGER_HEADING, SET_ASIDE_COLUMN,
};
pub use platform::{
    and_more, disagreement_cells, platform_check_line, DISAGREEMENT_COLUMNS, LISTED_DISAGREEMENTS,
    PLATFORM_PROGRESSION_HEADING, PLATFORM_RESULTS_HEADING, PLATFORM_RESULTS_INTRO,
};
pub use settings::{analysis_name, settings_line};
pub use tokens::{
    run_token_cells, signed_tokens, token_amount, tokens_beside_verdict, tokens_sentence,
    RUN_TOKEN_COLUMNS, TOKENS_EXPLAINED, TOKENS_HEADING, TOKENS_INTRO,
};
pub use trial_effort::{
    measure_beside_verdict, measure_sentence, measure_solved_failed, run_trial_effort_cells,
    seconds, signed_seconds, trial_details_offer, trial_effort_beside_verdict, Measure, DURATION,
    RUN_TRIAL_EFFORT_COLUMNS, STEPS, TRIAL_DURATION_EXPLAINED, TRIAL_EFFORT_HEADING,
    TRIAL_EFFORT_INTRO, TRIAL_STEPS_EXPLAINED,
};
