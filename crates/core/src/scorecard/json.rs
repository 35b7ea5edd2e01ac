//! The scorecard as JSON: its settings, rule, rows, the rule's answer per column, the
//! recommendation, and one entry per cell naming `bench_id`, `step`, the baseline and
//! candidate run ids, with the pair report's own `primary`, `verdict` and `coverage` values
//! (the same types serialized the same way, so the same numbers byte for byte).

use serde::Serialize;

use crate::coverage::Coverage;
use crate::report::{PairedAnalysis, ReportSettings, Verdict};

use super::cell::{CellState, Comparison};
use super::plan::OtherEvaluation;
use super::rows::RowSummary;
use super::rule::{ColumnDecision, Rule};
use super::{Recommendation, Scorecard, SCORECARD_FORMAT_VERSION};

#[derive(Serialize)]
struct Document<'a> {
    format_version: u32,
    training_run_id: &'a str,
    settings: &'a ReportSettings,
    rule: &'a Rule,
    steps: &'a [i64],
    rows: &'a [RowSummary],
    columns: &'a [ColumnDecision],
    recommended: &'a Option<Recommendation>,
    cells: Vec<Cell<'a>>,
}

#[derive(Serialize)]
struct Cell<'a> {
    bench_id: &'a str,
    step: i64,
    baseline_run_id: Option<&'a str>,
    candidate_run_id: Option<&'a str>,
    /// `missing`, `no_baseline`, `pending`, `failed` or `compared`.
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    primary: Option<&'a PairedAnalysis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a Verdict>,
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage: Option<&'a Coverage>,
    /// Paired of planned tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    paired: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    planned: Option<u64>,
    others: &'a [OtherEvaluation],
    /// The checkpoint against the previous evaluated step (its report's objects).
    #[serde(skip_serializing_if = "Option::is_none")]
    versus_previous: Option<Previous<'a>>,
}

#[derive(Serialize)]
struct Previous<'a> {
    step: i64,
    run_id: &'a str,
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    primary: Option<&'a PairedAnalysis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a Verdict>,
}

/// A state's name, its error and its comparison.
fn parts(state: &CellState) -> (&'static str, Option<&str>, Option<&Comparison>) {
    match state {
        CellState::Missing => ("missing", None, None),
        CellState::NoBaseline => ("no_baseline", None, None),
        CellState::Pending => ("pending", None, None),
        CellState::Failed { error } => ("failed", Some(error.as_str()), None),
        CellState::Compared { comparison } => ("compared", None, Some(comparison)),
    }
}

impl Scorecard {
    /// The scorecard as pretty JSON (see the module doc).
    pub fn to_json(&self) -> String {
        let cells = self
            .cells
            .iter()
            .map(|cell| {
                let (state, error, comparison) = parts(&cell.state);
                Cell {
                    bench_id: &cell.bench_id,
                    step: cell.step,
                    baseline_run_id: cell.baseline_run_id.as_deref(),
                    candidate_run_id: cell.candidate_run_id.as_deref(),
                    state,
                    error,
                    primary: comparison.map(|c| &c.primary),
                    verdict: comparison.map(|c| &c.verdict),
                    coverage: comparison.map(|c| &c.coverage),
                    paired: comparison.map(|c| c.paired),
                    planned: comparison.map(|c| c.planned),
                    others: &cell.others,
                    versus_previous: cell.versus_previous.as_ref().map(|previous| {
                        let (state, error, comparison) = parts(&previous.state);
                        Previous {
                            step: previous.step,
                            run_id: &previous.run_id,
                            state,
                            error,
                            primary: comparison.map(|c| &c.primary),
                            verdict: comparison.map(|c| &c.verdict),
                        }
                    }),
                }
            })
            .collect();
        let document = Document {
            format_version: SCORECARD_FORMAT_VERSION,
            training_run_id: &self.training_run_id,
            settings: &self.settings,
            rule: &self.rule,
            steps: &self.steps,
            rows: &self.rows,
            columns: &self.columns,
            recommended: &self.recommended,
            cells,
        };
        // Plain data with string keys cannot fail to serialize; fall back to an error object.
        serde_json::to_string_pretty(&document).unwrap_or_else(|e| {
            format!("{{\"error\": \"the scorecard could not be serialized: {e}\"}}")
        })
    }
}
