//! [`ViewState`]: everything that determines what a comparison page shows, its defaults and
//! what it derives (the confidence level, the target Δ, the focused candidate).

use serde::{Deserialize, Serialize};

use super::limits::{
    DEFAULT_CONFIDENCE_PERCENT, DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TARGET_TENTHS,
};
use super::snapshot::LinkSnapshot;
use super::table::{RowFilter, Sort};
use super::tenths::target_delta_of_tenths;

/// Which analysis feeds the headline numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisMode {
    /// Included samples only (statistics.md §2).
    #[default]
    Primary,
    /// Union of tasks, failed and absent counted as 0.
    Sensitivity,
}

/// Everything that determines what a comparison page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewState {
    /// Agent whose runs are listed (`agent`).
    pub agent: Option<String>,
    /// Benchmark version (`bench`).
    pub bench: Option<String>,
    /// Baseline run (`base`).
    pub baseline: Option<String>,
    /// Candidate runs, in display order (`cand`, comma separated).
    pub candidates: Vec<String>,
    /// Which candidate the table and per-task charts focus on (`focus`, an index into candidates).
    pub focus: usize,
    /// Row filter (`filter`).
    pub filter: RowFilter,
    /// Only tasks of this category (`cat`).
    pub category: Option<String>,
    /// Free-text search over task id and label (`q`).
    pub search: Option<String>,
    /// Table sort (`sort`).
    pub sort: Sort,
    /// Task whose trajectories are open in the side panel (`task`).
    pub task: Option<String>,
    /// Trajectories open in the task panel (`attempts`, comma separated): one id opens its
    /// transcript, two (the baseline's, then the candidate's) open them side by side.
    pub attempts: Vec<String>,
    /// Bootstrap seed (`seed`).
    pub seed: u64,
    /// Bootstrap resamples (`B`).
    pub resamples: u32,
    /// Confidence level in percent (`ci`), 50..=99.
    pub confidence_percent: u8,
    /// Headline analysis (`analysis`).
    pub analysis: AnalysisMode,
    /// Target Δ of "tasks needed" and "no detectable difference", in tenths of a point
    /// (`target`, written in points with at most one decimal: `target=2.5`).
    pub target_tenths: u16,
    /// K′ of the MDE projection (`kprime`); `None`: automatic, max(8, 2 × the runs' samples per
    /// task).
    pub project_samples: Option<u32>,
    /// What a link of a running comparison recorded when it was taken (`taken`, `seen`,
    /// `then`), so that a later reader sees how far the numbers moved.
    pub snapshot: Option<LinkSnapshot>,
    /// Show the numbers as of the link's `seen` time (`asof=1`; only with a snapshot).
    pub as_of: bool,
    /// The reviewer's ledger in its link form (`ledger`), still percent-encoded as the link
    /// has it: read and written by `ledger::Ledger::from_link_text` and `to_link_text`; here
    /// only its characters are checked.
    pub ledger: Option<String>,
    /// A pass threshold for graded rewards in thousandths (`pass`, written as a decimal:
    /// `pass=0.5`); `None`: rewards as published.
    pub pass_thousandths: Option<u16>,
    /// The checkpoint step every checkpoint is also compared with (`versus`, a step such as
    /// `versus=300`), beside the previous step.
    pub versus_step: Option<i64>,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            agent: None,
            bench: None,
            baseline: None,
            candidates: Vec::new(),
            focus: 0,
            filter: RowFilter::All,
            category: None,
            search: None,
            sort: Sort::default(),
            task: None,
            attempts: Vec::new(),
            seed: DEFAULT_SEED,
            resamples: DEFAULT_RESAMPLES,
            confidence_percent: DEFAULT_CONFIDENCE_PERCENT,
            analysis: AnalysisMode::Primary,
            target_tenths: DEFAULT_TARGET_TENTHS,
            project_samples: None,
            snapshot: None,
            as_of: false,
            ledger: None,
            pass_thousandths: None,
            versus_step: None,
        }
    }
}

impl ViewState {
    /// The confidence level as a fraction, e.g. 0.95.
    pub fn confidence_level(&self) -> f64 {
        f64::from(self.confidence_percent) / 100.0
    }

    /// The target Δ in reward units, e.g. 0.02 for `target=2`.
    pub fn target_delta(&self) -> f64 {
        target_delta_of_tenths(self.target_tenths)
    }

    /// The pass threshold in reward units, e.g. 0.5 for `pass=0.5`.
    pub fn pass_threshold(&self) -> Option<f64> {
        self.pass_thousandths
            .map(super::thousandths::pass_threshold_of_thousandths)
    }

    /// The focused candidate's run id, if any.
    pub fn focused_candidate(&self) -> Option<&str> {
        self.candidates.get(self.focus).map(String::as_str)
    }

    /// True when the runs to compare are chosen (a baseline and at least one candidate).
    pub fn has_comparison(&self) -> bool {
        self.baseline.is_some() && !self.candidates.is_empty()
    }
}
