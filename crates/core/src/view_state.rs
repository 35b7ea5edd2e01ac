//! The whole view state of a comparison, as it lives in the URL query.
//!
//! The URL is the single source of truth for what the viewer shows: which runs, which one is the
//! baseline, filters, sort, the selected task, the bootstrap seed and the statistical settings.
//! [`ViewState::to_query`] writes only what differs from the defaults, in a fixed order, so links
//! stay short and readable; [`ViewState::from_query`] never fails: a malformed or hostile value is
//! dropped, the default is kept, and a [`QueryIssue`] says what was ignored and why.
//!
//! Secrets never live here: a query that carries something that looks like an API key is
//! ignored (and reported) so a pasted link can never smuggle a key into the app's state.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Longest query string accepted (characters); longer ones are ignored as a whole.
pub const MAX_QUERY_LEN: usize = 16 * 1024;
/// Longest single identifier (run id, agent id, task id, bench id) accepted.
pub const MAX_ID_LEN: usize = 256;
/// Most candidate runs one comparison may hold.
pub const MAX_CANDIDATES: usize = 16;
/// Default bootstrap seed: fixed, so a link without a seed still reproduces its intervals.
pub const DEFAULT_SEED: u64 = 20_261_014;
/// Default number of bootstrap resamples (statistics.md §3).
pub const DEFAULT_RESAMPLES: u32 = 9_999;
/// Allowed range of bootstrap resamples.
pub const RESAMPLES_RANGE: std::ops::RangeInclusive<u32> = 100..=100_000;
/// Default confidence level, in percent.
pub const DEFAULT_CONFIDENCE_PERCENT: u8 = 95;

/// Default target Δ in tenths of a point (2.0 points; statistics.md's MDE section).
pub const DEFAULT_TARGET_TENTHS: u16 = 20;
/// Allowed target Δ in tenths of a point (0.1 to 100 points).
pub const TARGET_TENTHS_RANGE: std::ops::RangeInclusive<u16> = 1..=1000;
/// Allowed K′ (samples per task of the MDE projection).
pub const PROJECT_SAMPLES_RANGE: std::ops::RangeInclusive<u32> = 1..=10_000;

/// Most trajectory ids in `attempts`: the baseline's and the candidate's.
pub const MAX_ATTEMPTS: usize = 2;

/// Which per-task rows the table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowFilter {
    /// Every task of the union.
    #[default]
    All,
    /// Paired tasks where the candidate scores lower.
    Regressions,
    /// Paired tasks where the candidate scores higher.
    Improvements,
    /// Tasks without an included sample on one side.
    Unpaired,
    /// Tasks with at least one failed trajectory on either side.
    Failed,
    /// Tasks whose samples disagree in the baseline or the focused candidate (`flaky`).
    Flaky,
}

impl RowFilter {
    /// Every filter, in menu order.
    pub const ALL: [RowFilter; 6] = [
        RowFilter::All,
        RowFilter::Regressions,
        RowFilter::Improvements,
        RowFilter::Unpaired,
        RowFilter::Failed,
        RowFilter::Flaky,
    ];

    /// The name used in the URL.
    pub fn as_str(self) -> &'static str {
        match self {
            RowFilter::All => "all",
            RowFilter::Regressions => "regressions",
            RowFilter::Improvements => "improvements",
            RowFilter::Unpaired => "unpaired",
            RowFilter::Failed => "failed",
            RowFilter::Flaky => "flaky",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

/// The column the per-task table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortKey {
    /// Paired delta of the focused candidate.
    #[default]
    Delta,
    /// Task label (or id).
    Task,
    /// First task category.
    Category,
    /// Baseline task score.
    Baseline,
    /// Focused candidate's task score.
    Candidate,
}

impl SortKey {
    /// Every sort key, in menu order.
    pub const ALL: [SortKey; 5] = [
        SortKey::Delta,
        SortKey::Task,
        SortKey::Category,
        SortKey::Baseline,
        SortKey::Candidate,
    ];

    /// The name used in the URL.
    pub fn as_str(self) -> &'static str {
        match self {
            SortKey::Delta => "delta",
            SortKey::Task => "task",
            SortKey::Category => "category",
            SortKey::Baseline => "baseline",
            SortKey::Candidate => "candidate",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Sort column and direction. In the URL: `sort=delta` (ascending) or `sort=-delta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sort {
    /// Column.
    pub key: SortKey,
    /// True for descending order.
    pub descending: bool,
}

impl Default for Sort {
    /// Worst regressions first: ascending delta.
    fn default() -> Self {
        Sort {
            key: SortKey::Delta,
            descending: false,
        }
    }
}

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
}

/// What a share link of a running comparison records: when it was taken and the headline
/// numbers then. Only links copied while a compared run runs carry it (a finished
/// comparison's numbers do not move).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkSnapshot {
    /// When the link was taken, seconds since the Unix epoch (`taken`).
    pub taken: i64,
    /// The newest creation time among the compared runs' trajectories loaded then, seconds
    /// since the epoch (`seen`): the time "as of" shows. `None` when no trajectory had one.
    pub seen: Option<i64>,
    /// Each candidate's headline then, in `cand` order (`then=13.7~361,-2.1~300`).
    pub then: Vec<HeadlineThen>,
}

/// One candidate's headline numbers when a link was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadlineThen {
    /// The headline Δ in tenths of a point, as shown (`None`: no Δ then).
    pub delta_tenths: Option<i32>,
    /// Tasks in the headline analysis (paired tasks in the primary one).
    pub tasks: u32,
}

/// Latest time a link may carry (9999-12-31T23:59:59Z), seconds since the epoch.
pub const MAX_LINK_TIME: i64 = 253_402_300_799;

impl HeadlineThen {
    fn text(self) -> String {
        let delta = self.delta_tenths.map_or_else(String::new, |tenths| {
            let sign = if tenths < 0 { "-" } else { "" };
            let magnitude = tenths.unsigned_abs();
            format!("{sign}{}.{}", magnitude / 10, magnitude % 10)
        });
        format!("{delta}~{}", self.tasks)
    }

    fn parse(text: &str) -> Option<HeadlineThen> {
        let (delta, tasks) = text.split_once('~')?;
        let tasks = whole_number(tasks)?.try_into().ok()?;
        let delta_tenths = if delta.is_empty() {
            None
        } else {
            let (negative, magnitude) = match delta.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, delta),
            };
            let (whole, tenth) = magnitude.split_once('.')?;
            if tenth.len() != 1 {
                return None;
            }
            let tenths = whole_number(whole)?
                .checked_mul(10)?
                .checked_add(whole_number(tenth)?)?;
            let tenths: i32 = tenths.try_into().ok()?;
            Some(if negative { -tenths } else { tenths })
        };
        Some(HeadlineThen {
            delta_tenths,
            tasks,
        })
    }
}

/// Digits only (no sign), as a number.
fn whole_number(text: &str) -> Option<u64> {
    (!text.is_empty() && text.len() <= 18 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn link_time(value: &str) -> Result<i64, String> {
    whole_number(value)
        .and_then(|t| i64::try_from(t).ok())
        .filter(|t| *t <= MAX_LINK_TIME)
        .ok_or_else(|| {
            format!(
                "`{}` is not a time in seconds since 1970-01-01 UTC",
                printable(value)
            )
        })
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
        }
    }
}

/// Something in a query string that was ignored, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryIssue {
    /// The parameter name as it appeared (decoded when possible).
    pub param: String,
    /// Why it was ignored, in plain words.
    pub reason: String,
}

impl fmt::Display for QueryIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ignored `{}`: {}", self.param, self.reason)
    }
}

/// The result of reading a query string: the state, and what was ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedViewState {
    /// The state, defaults where nothing valid was given.
    pub state: ViewState,
    /// Ignored parameters, in the order they appeared.
    pub issues: Vec<QueryIssue>,
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

    /// The focused candidate's run id, if any.
    pub fn focused_candidate(&self) -> Option<&str> {
        self.candidates.get(self.focus).map(String::as_str)
    }

    /// True when the runs to compare are chosen (a baseline and at least one candidate).
    pub fn has_comparison(&self) -> bool {
        self.baseline.is_some() && !self.candidates.is_empty()
    }

    /// Writes the query string (without the leading `?`): only non-default values, fixed order.
    pub fn to_query(&self) -> String {
        let defaults = ViewState::default();
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let Some(a) = &self.agent {
            pairs.push(("agent", a.clone()));
        }
        if let Some(b) = &self.bench {
            pairs.push(("bench", b.clone()));
        }
        if let Some(b) = &self.baseline {
            pairs.push(("base", b.clone()));
        }
        if !self.candidates.is_empty() {
            let joined: Vec<String> = self
                .candidates
                .iter()
                .map(|c| encode_component(c))
                .collect();
            // Commas separate candidates; each id is encoded on its own so an id with a comma survives.
            pairs.push(("cand", joined.join(",")));
        }
        if self.focus != defaults.focus {
            pairs.push(("focus", self.focus.to_string()));
        }
        if self.filter != defaults.filter {
            pairs.push(("filter", self.filter.as_str().to_owned()));
        }
        if let Some(c) = &self.category {
            pairs.push(("cat", c.clone()));
        }
        if let Some(q) = &self.search {
            pairs.push(("q", q.clone()));
        }
        if self.sort != defaults.sort {
            let sign = if self.sort.descending { "-" } else { "" };
            pairs.push(("sort", format!("{sign}{}", self.sort.key.as_str())));
        }
        if let Some(t) = &self.task {
            pairs.push(("task", t.clone()));
        }
        if !self.attempts.is_empty() {
            let joined: Vec<String> = self.attempts.iter().map(|a| encode_component(a)).collect();
            pairs.push(("attempts", joined.join(",")));
        }
        if self.seed != defaults.seed {
            pairs.push(("seed", self.seed.to_string()));
        }
        if self.resamples != defaults.resamples {
            pairs.push(("B", self.resamples.to_string()));
        }
        if self.confidence_percent != defaults.confidence_percent {
            pairs.push(("ci", self.confidence_percent.to_string()));
        }
        if self.analysis != defaults.analysis {
            pairs.push(("analysis", "sensitivity".to_owned()));
        }
        if self.target_tenths != defaults.target_tenths {
            pairs.push(("target", tenths_text(self.target_tenths)));
        }
        if let Some(k) = self.project_samples {
            pairs.push(("kprime", k.to_string()));
        }
        if let Some(snapshot) = &self.snapshot {
            pairs.push(("taken", snapshot.taken.to_string()));
            if let Some(seen) = snapshot.seen {
                pairs.push(("seen", seen.to_string()));
            }
            if !snapshot.then.is_empty() {
                let then: Vec<String> = snapshot.then.iter().map(|h| h.text()).collect();
                pairs.push(("then", then.join(",")));
            }
            if self.as_of {
                pairs.push(("asof", "1".to_owned()));
            }
        }
        pairs
            .into_iter()
            .map(|(k, v)| {
                if k == "cand" || k == "attempts" || k == "then" {
                    format!("{k}={v}")
                } else {
                    format!("{k}={}", encode_component(&v))
                }
            })
            .collect::<Vec<_>>()
            .join("&")
    }

    /// Reads a query string (with or without the leading `?`). Never fails: see the module doc.
    pub fn from_query(query: &str) -> ParsedViewState {
        let mut state = ViewState::default();
        let mut issues = Vec::new();
        let query = query.strip_prefix('?').unwrap_or(query);
        if query.len() > MAX_QUERY_LEN {
            issues.push(QueryIssue {
                param: "(query)".into(),
                reason: format!(
                    "the query is {} characters long, over the limit of {MAX_QUERY_LEN}",
                    query.len()
                ),
            });
            return ParsedViewState { state, issues };
        }
        let mut seen: Vec<String> = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = match decode_component(raw_key) {
                Ok(k) => k,
                Err(reason) => {
                    issues.push(QueryIssue {
                        param: printable(raw_key),
                        reason,
                    });
                    continue;
                }
            };
            if seen.contains(&key) {
                issues.push(QueryIssue {
                    param: printable(&key),
                    reason: "given more than once; the first value is used".into(),
                });
                continue;
            }
            seen.push(key.clone());
            if looks_like_secret(&key) {
                issues.push(QueryIssue {
                    param: printable(&key),
                    reason: "API keys are never read from links; enter the key in the source panel"
                        .into(),
                });
                continue;
            }
            if let Err(reason) = apply(&mut state, &key, raw_value) {
                issues.push(QueryIssue {
                    param: printable(&key),
                    reason,
                });
            }
        }
        settle_snapshot(&mut state, &mut issues);
        if state.focus != 0 && state.focus >= state.candidates.len() {
            issues.push(QueryIssue {
                param: "focus".into(),
                reason: format!("there are only {} candidates", state.candidates.len()),
            });
            state.focus = 0;
        }
        ParsedViewState { state, issues }
    }
}

/// Applies one decoded key and its raw (still encoded) value to the state.
fn apply(state: &mut ViewState, key: &str, raw_value: &str) -> Result<(), String> {
    match key {
        "cand" => {
            let mut cands = Vec::new();
            for raw in raw_value.split(',').filter(|s| !s.is_empty()) {
                let id = identifier(&decode_component(raw)?)?;
                if cands.contains(&id) {
                    continue;
                }
                cands.push(id);
            }
            if cands.len() > MAX_CANDIDATES {
                return Err(format!(
                    "{} candidates given; at most {MAX_CANDIDATES} can be compared",
                    cands.len()
                ));
            }
            state.candidates = cands;
            Ok(())
        }
        "attempts" => {
            let ids = raw_value
                .split(',')
                .map(|raw| identifier(&decode_component(raw)?))
                .collect::<Result<Vec<_>, _>>()?;
            if ids.is_empty() || ids.len() > MAX_ATTEMPTS {
                return Err(format!(
                    "{} trajectory ids given; give one (a transcript) or two (baseline, candidate)",
                    ids.len()
                ));
            }
            state.attempts = ids;
            Ok(())
        }
        _ => {
            let value = decode_component(raw_value)?;
            apply_decoded(state, key, &value)
        }
    }
}

fn apply_decoded(state: &mut ViewState, key: &str, value: &str) -> Result<(), String> {
    match key {
        "agent" => state.agent = Some(identifier(value)?),
        "bench" => state.bench = Some(identifier(value)?),
        "base" => state.baseline = Some(identifier(value)?),
        "task" => state.task = Some(identifier(value)?),
        "cat" => state.category = Some(identifier(value)?),
        "q" => {
            let text = printable_text(value, MAX_ID_LEN)?;
            state.search = (!text.is_empty()).then_some(text);
        }
        "focus" => {
            state.focus = value
                .parse::<usize>()
                .map_err(|_| format!("`{}` is not a candidate index", printable(value)))?
        }
        "filter" => {
            state.filter = RowFilter::parse(value).ok_or_else(|| {
                format!(
                    "unknown filter `{}` (use {})",
                    printable(value),
                    names(RowFilter::ALL.map(RowFilter::as_str))
                )
            })?
        }
        "sort" => {
            let (descending, name) = match value.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, value),
            };
            let key = SortKey::parse(name).ok_or_else(|| {
                format!(
                    "unknown sort `{}` (use {})",
                    printable(value),
                    names(SortKey::ALL.map(SortKey::as_str))
                )
            })?;
            state.sort = Sort { key, descending };
        }
        "seed" => {
            state.seed = value.parse::<u64>().map_err(|_| {
                format!(
                    "`{}` is not a whole number from 0 to {}",
                    printable(value),
                    u64::MAX
                )
            })?
        }
        "B" => {
            let b = value
                .parse::<u32>()
                .ok()
                .filter(|b| RESAMPLES_RANGE.contains(b));
            state.resamples = b.ok_or_else(|| {
                format!(
                    "`{}` is not a number of resamples from {} to {}",
                    printable(value),
                    RESAMPLES_RANGE.start(),
                    RESAMPLES_RANGE.end()
                )
            })?;
        }
        "ci" => {
            let c = value.parse::<u8>().ok().filter(|c| (50..=99).contains(c));
            state.confidence_percent = c.ok_or_else(|| {
                format!(
                    "`{}` is not a confidence level from 50 to 99 (percent)",
                    printable(value)
                )
            })?;
        }
        "analysis" => {
            state.analysis = match value {
                "primary" => AnalysisMode::Primary,
                "sensitivity" => AnalysisMode::Sensitivity,
                other => {
                    return Err(format!(
                        "unknown analysis `{}` (use primary, sensitivity)",
                        printable(other)
                    ))
                }
            }
        }
        "target" => {
            state.target_tenths = parse_tenths(value)
                .filter(|t| TARGET_TENTHS_RANGE.contains(t))
                .ok_or_else(|| {
                    format!(
                        "`{}` is not a target Δ from 0.1 to 100 points (at most one decimal)",
                        printable(value)
                    )
                })?
        }
        "taken" => {
            let taken = link_time(value)?;
            state.snapshot.get_or_insert_with(empty_snapshot).taken = taken;
        }
        "seen" => {
            let seen = link_time(value)?;
            state.snapshot.get_or_insert_with(empty_snapshot).seen = Some(seen);
        }
        "then" => {
            let then = value
                .split(',')
                .map(|part| {
                    HeadlineThen::parse(part).ok_or_else(|| {
                        format!(
                            "`{}` is not a headline Δ and task count such as `13.7~361`",
                            printable(part)
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            if then.len() > MAX_CANDIDATES {
                return Err(format!(
                    "{} headlines given; at most {MAX_CANDIDATES}",
                    then.len()
                ));
            }
            state.snapshot.get_or_insert_with(empty_snapshot).then = then;
        }
        "asof" => match value {
            "1" => state.as_of = true,
            "0" => state.as_of = false,
            other => return Err(format!("`{}` is not 1 or 0", printable(other))),
        },
        "kprime" => {
            let k = value
                .parse::<u32>()
                .ok()
                .filter(|k| PROJECT_SAMPLES_RANGE.contains(k));
            state.project_samples = Some(k.ok_or_else(|| {
                format!(
                    "`{}` is not a number of samples per task from {} to {}",
                    printable(value),
                    PROJECT_SAMPLES_RANGE.start(),
                    PROJECT_SAMPLES_RANGE.end()
                )
            })?);
        }
        _ => return Err("not a parameter of this page".into()),
    }
    Ok(())
}

/// A target Δ given in tenths of a point, in reward units (20 → 0.02): the one conversion of
/// the link and the CLI's `--target-delta`, so both give the same bits.
pub fn target_delta_of_tenths(tenths: u16) -> f64 {
    f64::from(tenths) / 1000.0
}

/// A snapshot being read, before `taken` is known (marked by `taken` = -1).
fn empty_snapshot() -> LinkSnapshot {
    LinkSnapshot {
        taken: -1,
        seen: None,
        then: Vec::new(),
    }
}

/// A snapshot needs its `taken`, and `asof` a snapshot: what lacks them is dropped, said once.
fn settle_snapshot(state: &mut ViewState, issues: &mut Vec<QueryIssue>) {
    if state.snapshot.as_ref().is_some_and(|s| s.taken < 0) {
        issues.push(QueryIssue {
            param: "seen, then".into(),
            reason: "they belong to a link's `taken` time, which is missing".into(),
        });
        state.snapshot = None;
    }
    if state.as_of && state.snapshot.as_ref().and_then(|s| s.seen).is_none() {
        issues.push(QueryIssue {
            param: "asof".into(),
            reason: "only a link with its `taken` and `seen` times can be shown as of then".into(),
        });
        state.as_of = false;
    }
}

/// Tenths written as a decimal: 20 → "2", 25 → "2.5".
pub fn tenths_text(tenths: u16) -> String {
    if tenths.is_multiple_of(10) {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// "2", "2.5", "0.5" or ".5" as tenths; more than one decimal, a sign or anything else is none.
pub fn parse_tenths(text: &str) -> Option<u16> {
    let (whole, tenth) = match text.split_once('.') {
        Some((whole, tenth)) => (whole, tenth),
        None => (text, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(tenth) || tenth.len() > 1 || (whole.is_empty() && tenth.is_empty())
    {
        return None;
    }
    let whole: u16 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let tenth: u16 = if tenth.is_empty() {
        0
    } else {
        tenth.parse().ok()?
    };
    whole.checked_mul(10)?.checked_add(tenth)
}

fn names<const N: usize>(all: [&str; N]) -> String {
    all.join(", ")
}

/// True for parameter names that would carry a credential.
fn looks_like_secret(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace(['-', '_'], "");
    [
        "apikey",
        "key",
        "token",
        "secret",
        "password",
        "auth",
        "authorization",
        "xapikey",
    ]
    .iter()
    .any(|s| k == *s)
}

/// The one rule for an identifier (run, agent, benchmark, task, category) in a link, checked
/// the same when a link is read and when a run is opened to be compared (a run folder's
/// `run.json`, the CLI's run id arguments): 1 to [`MAX_ID_LEN`] characters, not only white
/// space, no white space at either end, no control characters. An id is compared exactly as
/// written, so it is never trimmed: an id the rule refuses is refused, not changed. The error
/// says why in plain words.
pub fn check_id(value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Err("empty value".into());
    }
    if value.trim().is_empty() {
        return Err("only white space".into());
    }
    if value.trim() != value {
        return Err("starts or ends with white space".into());
    }
    let length = value.chars().count();
    if length > MAX_ID_LEN {
        return Err(format!("longer than {MAX_ID_LEN} characters ({length})"));
    }
    if let Some(control) = value.chars().find(|c| c.is_control()) {
        return Err(format!(
            "contains control characters (the first is U+{:04X})",
            u32::from(control)
        ));
    }
    Ok(())
}

/// An identifier read from a link: [`check_id`]'s rule.
fn identifier(value: &str) -> Result<String, String> {
    check_id(value)?;
    Ok(value.to_owned())
}

fn printable_text(value: &str, max: usize) -> Result<String, String> {
    if value.chars().count() > max {
        return Err(format!("longer than {max} characters"));
    }
    if value.chars().any(char::is_control) {
        return Err("contains control characters".into());
    }
    Ok(value.trim().to_owned())
}

/// A short, safe rendering of untrusted text for messages.
fn printable(s: &str) -> String {
    let cleaned: String = s.chars().filter(|c| !c.is_control()).take(40).collect();
    if s.chars().count() > 40 {
        format!("{cleaned}…")
    } else {
        cleaned
    }
}

/// Percent-encodes everything except unreserved characters (RFC 3986).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Decodes a percent-encoded query component (`+` is a space). Errors on bad escapes and
/// on bytes that are not UTF-8.
pub fn decode_component(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or("a `%` escape is cut short")?;
                let hi = hex_value(hex[0]).ok_or("a `%` escape is not hexadecimal")?;
                let lo = hex_value(hex[1]).ok_or("a `%` escape is not hexadecimal")?;
                out.push(hi << 4 | lo);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| "not valid UTF-8 text".into())
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_state_is_an_empty_query() {
        assert_eq!(ViewState::default().to_query(), "");
        assert_eq!(ViewState::from_query("").state, ViewState::default());
    }

    #[test]
    fn readable_query_round_trips() {
        let q = "base=er_base&cand=er_s100,er_s200&filter=regressions&sort=-task&seed=7&ci=90";
        let parsed = ViewState::from_query(q);
        assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
        assert_eq!(parsed.state.candidates, vec!["er_s100", "er_s200"]);
        assert_eq!(
            parsed.state.sort,
            Sort {
                key: SortKey::Task,
                descending: true
            }
        );
        assert_eq!(parsed.state.to_query(), q);
    }

    #[test]
    fn target_delta_and_k_prime_round_trip_and_bad_values_are_issues() {
        let q = "base=b&cand=c&target=2.5&kprime=20";
        let parsed = ViewState::from_query(q);
        assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
        assert_eq!(parsed.state.target_tenths, 25);
        assert!((parsed.state.target_delta() - 0.025).abs() < 1e-15);
        assert_eq!(parsed.state.project_samples, Some(20));
        assert_eq!(parsed.state.to_query(), q);
        // The default target (2 points) and the automatic K′ are not written.
        assert_eq!(ViewState::from_query("target=2").state.to_query(), "");
        for bad in [
            "target=0",
            "target=-1",
            "target=2.55",
            "target=1e3",
            "target=100.1",
            "target=.",
            "target=",
            "target=abc",
            "kprime=0",
            "kprime=-3",
            "kprime=10001",
            "kprime=2.5",
        ] {
            let parsed = ViewState::from_query(bad);
            assert_eq!(parsed.issues.len(), 1, "{bad}: {:?}", parsed.issues);
            assert_eq!(parsed.state, ViewState::default(), "{bad}");
        }
        assert_eq!(parse_tenths(".5"), Some(5));
        assert_eq!(parse_tenths("100"), Some(1000));
        assert_eq!(parse_tenths("99999999"), None);
        assert_eq!(tenths_text(5), "0.5");
        assert_eq!(tenths_text(1000), "100");
    }

    #[test]
    fn a_running_comparisons_link_snapshot_round_trips() {
        let q = "base=b&cand=c1,c2&taken=1796146805&seen=1791970200&then=13.7~361,-0.4~12&asof=1";
        let parsed = ViewState::from_query(q);
        assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
        let snapshot = parsed.state.snapshot.clone().unwrap();
        assert_eq!(snapshot.taken, 1_796_146_805);
        assert_eq!(snapshot.seen, Some(1_791_970_200));
        assert_eq!(
            snapshot.then,
            [
                HeadlineThen {
                    delta_tenths: Some(137),
                    tasks: 361
                },
                HeadlineThen {
                    delta_tenths: Some(-4),
                    tasks: 12
                }
            ]
        );
        assert!(parsed.state.as_of);
        assert_eq!(parsed.state.to_query(), q);
        // No Δ then: `~n`.
        let none = ViewState::from_query("taken=5&then=~0");
        assert!(none.issues.is_empty(), "{:?}", none.issues);
        assert_eq!(none.state.to_query(), "taken=5&then=~0");
    }

    #[test]
    fn bad_snapshot_parts_are_issues_not_crashes() {
        for (bad, issues) in [
            ("taken=-5", 1),
            ("taken=1e9", 1),
            ("taken=253402300800", 1),
            ("taken=5&then=13.75~3", 1),
            ("taken=5&then=13~3", 1),
            ("taken=5&then=1.0~-3", 1),
            ("taken=5&then=1.0", 1),
            ("taken=5&asof=yes", 1),
            ("then=1.0~3", 1),
            ("seen=7", 1),
            ("taken=5&asof=1", 1),
            ("taken=x&seen=7", 2),
        ] {
            let parsed = ViewState::from_query(bad);
            assert_eq!(parsed.issues.len(), issues, "{bad}: {:?}", parsed.issues);
            assert!(!parsed.state.as_of, "{bad}");
        }
        assert_eq!(ViewState::from_query("then=1.0~3").state.snapshot, None);
    }

    #[test]
    fn ids_with_commas_and_unicode_survive() {
        let state = ViewState {
            baseline: Some("a b&c=d".into()),
            candidates: vec!["x,y".into(), "é/ü".into()],
            search: Some("50% done".into()),
            ..ViewState::default()
        };
        let parsed = ViewState::from_query(&state.to_query());
        assert!(parsed.issues.is_empty());
        assert_eq!(parsed.state, state);
    }

    #[test]
    fn attempts_round_trip_beside_the_task() {
        for attempts in [vec!["trj_a"], vec!["trj_basev2_cf-0282_0", "trj,s400 é"]] {
            let state = ViewState {
                baseline: Some("b".into()),
                candidates: vec!["c".into()],
                task: Some("cf-0282".into()),
                attempts: attempts.iter().map(|a| a.to_string()).collect(),
                ..ViewState::default()
            };
            let query = state.to_query();
            assert!(query.contains("&attempts="), "{query}");
            let parsed = ViewState::from_query(&query);
            assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
            assert_eq!(parsed.state, state);
        }
        let parsed = ViewState::from_query("task=t&attempts=x,y");
        assert_eq!(parsed.state.attempts, vec!["x", "y"]);
        assert_eq!(parsed.state.to_query(), "task=t&attempts=x,y");
    }

    #[test]
    fn bad_attempts_are_ignored_with_a_reason() {
        for query in [
            "attempts=a,b,c",
            "attempts=",
            "attempts=a,,b",
            "attempts=%00x",
            "attempts=a,%ZZ",
        ] {
            let parsed = ViewState::from_query(query);
            assert!(parsed.state.attempts.is_empty(), "{query}");
            assert_eq!(parsed.issues.len(), 1, "{query}");
            assert_eq!(parsed.issues[0].param, "attempts", "{query}");
        }
        let long = "x".repeat(MAX_ID_LEN + 1);
        let parsed = ViewState::from_query(&format!("attempts=a,{long}"));
        assert!(parsed.state.attempts.is_empty());
        assert_eq!(parsed.issues.len(), 1);
    }

    #[test]
    fn api_keys_in_links_are_refused() {
        let parsed = ViewState::from_query("api_key=sk-123&X-API-Key=sk-456&base=r1");
        assert_eq!(parsed.state.baseline.as_deref(), Some("r1"));
        assert_eq!(parsed.issues.len(), 2);
        assert!(parsed.issues.iter().all(|i| !i.to_string().contains("sk-")));
    }

    #[test]
    fn hostile_values_are_ignored_with_reasons() {
        let parsed = ViewState::from_query(
            "base=%E0%A4&cand=%ZZ&filter=<script>&B=0&ci=100&seed=-1&focus=9&task=%00x&zzz=1",
        );
        assert_eq!(parsed.state, ViewState::default());
        assert_eq!(parsed.issues.len(), 9, "{:?}", parsed.issues);
    }

    #[test]
    fn ids_follow_one_rule_with_a_reason() {
        let reason = |query: &str| {
            let parsed = ViewState::from_query(query);
            assert_eq!(parsed.state, ViewState::default(), "{query}");
            assert_eq!(parsed.issues.len(), 1, "{query}: {:?}", parsed.issues);
            parsed.issues[0].to_string()
        };
        assert_eq!(reason("base="), "ignored `base`: empty value");
        assert_eq!(reason("base=%20"), "ignored `base`: only white space");
        assert_eq!(reason("base=+%09+"), "ignored `base`: only white space");
        assert_eq!(
            reason("base=er_1%20"),
            "ignored `base`: starts or ends with white space"
        );
        assert_eq!(
            reason("cand=a,%1B%5B2J"),
            "ignored `cand`: contains control characters (the first is U+001B)"
        );
        assert_eq!(
            reason(&format!("base={}", "a".repeat(MAX_ID_LEN + 1))),
            "ignored `base`: longer than 256 characters (257)"
        );
        // The longest id, and ids with invisible (not control) characters, are accepted.
        let longest = "é".repeat(MAX_ID_LEN);
        for id in [longest.as_str(), "er_\u{202E}1", "a b"] {
            assert_eq!(check_id(id), Ok(()));
            let state = ViewState {
                baseline: Some(id.to_owned()),
                candidates: vec!["other".to_owned()],
                ..ViewState::default()
            };
            let parsed = ViewState::from_query(&state.to_query());
            assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
            assert_eq!(parsed.state, state);
        }
    }

    #[test]
    fn focus_beyond_candidates_falls_back() {
        let parsed = ViewState::from_query("cand=a,b&focus=2");
        assert_eq!(parsed.state.focus, 0);
        assert_eq!(parsed.issues.len(), 1);
    }

    #[test]
    fn oversized_queries_are_refused_whole() {
        let huge = format!("q={}", "a".repeat(MAX_QUERY_LEN));
        let parsed = ViewState::from_query(&huge);
        assert_eq!(parsed.state, ViewState::default());
        assert_eq!(parsed.issues.len(), 1);
    }

    #[test]
    fn repeated_params_keep_the_first() {
        let parsed = ViewState::from_query("?base=a&base=b");
        assert_eq!(parsed.state.baseline.as_deref(), Some("a"));
        assert_eq!(parsed.issues.len(), 1);
    }

    #[test]
    fn too_many_candidates_are_refused() {
        let many: Vec<String> = (0..=MAX_CANDIDATES).map(|i| format!("r{i}")).collect();
        let parsed = ViewState::from_query(&format!("cand={}", many.join(",")));
        assert!(parsed.state.candidates.is_empty());
        assert_eq!(parsed.issues.len(), 1);
    }
}
