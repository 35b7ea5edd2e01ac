//! Reading a query string into a [`ViewState`]: never fails; a malformed or hostile value is
//! dropped, its default kept, and a [`QueryIssue`] says what was ignored and why.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::checks::{identifier, looks_like_secret, printable, printable_text};
use super::encoding::decode_component;
use super::limits::{
    MAX_ATTEMPTS, MAX_CANDIDATES, MAX_ID_LEN, MAX_QUERY_LEN, PROJECT_SAMPLES_RANGE,
    RESAMPLES_RANGE, TARGET_TENTHS_RANGE,
};
use super::snapshot::{empty_snapshot, link_time, HeadlineThen};
use super::state::{AnalysisMode, ViewState};
use super::table::{RowFilter, Sort, SortKey};
use super::tenths::parse_tenths;

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
    /// Reads a query string (with or without the leading `?`). Never fails: see the module doc.
    pub fn from_query(query: &str) -> ParsedViewState {
        let mut state = ViewState::default();
        let mut issues = read_params(
            query,
            |_| false,
            |key, _, raw_value| apply(&mut state, key, raw_value),
        );
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

/// The one reading of a link's parameters, for every page's link: strips a leading `?`, refuses
/// a query over [`MAX_QUERY_LEN`], decodes each key, says when a key comes again (the first
/// value is used) or looks like a credential (never read), and hands each other parameter to
/// `apply` as its decoded key, its raw `key=value` pair and its raw (still encoded) value; an
/// `Err` from `apply` is an issue of that parameter. Keys for which `passed_on` holds skip the
/// repeat check (their reader checks them itself). Returns what was ignored, in order.
pub(super) fn read_params<'q>(
    query: &'q str,
    passed_on: impl Fn(&str) -> bool,
    mut apply: impl FnMut(&str, &'q str, &'q str) -> Result<(), String>,
) -> Vec<QueryIssue> {
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
        return issues;
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
        if !passed_on(&key) {
            if seen.contains(&key) {
                issues.push(QueryIssue {
                    param: printable(&key),
                    reason: "given more than once; the first value is used".into(),
                });
                continue;
            }
            seen.push(key.clone());
        }
        if looks_like_secret(&key) {
            issues.push(QueryIssue {
                param: printable(&key),
                reason: "API keys are never read from links; enter the key in the source panel"
                    .into(),
            });
            continue;
        }
        if let Err(reason) = apply(&key, pair, raw_value) {
            issues.push(QueryIssue {
                param: printable(&key),
                reason,
            });
        }
    }
    issues
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
        "ledger" => {
            state.ledger = Some(ledger_text(raw_value)?);
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
        "pass" => {
            state.pass_thousandths = Some(
                super::thousandths::parse_thousandths(value)
                    .filter(|t| super::thousandths::PASS_THOUSANDTHS_RANGE.contains(t))
                    .ok_or_else(|| {
                        format!(
                            "`{}` is not a pass threshold from 0.001 to 1 (at most three decimals)",
                            printable(value)
                        )
                    })?,
            )
        }
        "versus" => {
            state.versus_step = Some(
                value
                    .parse::<i64>()
                    .ok()
                    .filter(|step| (0..=MAX_LINK_STEP).contains(step))
                    .ok_or_else(|| format!("`{}` is not a checkpoint step", printable(value)))?,
            )
        }
        _ => return Err("not a parameter of this page".into()),
    }
    Ok(())
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

/// A link's ledger as the link has it: not empty, only the characters its form writes
/// (letters, digits, `-_.~%,`); the entries are read by `ledger::Ledger::from_link_text`.
fn ledger_text(raw_value: &str) -> Result<String, String> {
    if raw_value.is_empty() {
        return Err("empty value".into());
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-_.~%,".contains(c);
    if let Some(other) = raw_value.chars().find(|&c| !allowed(c)) {
        return Err(format!(
            "`{}` is not a character of a ledger's link form",
            printable(&other.to_string())
        ));
    }
    Ok(raw_value.to_owned())
}

/// The largest checkpoint step a link may name.
const MAX_LINK_STEP: i64 = 1_000_000_000_000;

fn names<const N: usize>(all: [&str; N]) -> String {
    all.join(", ")
}
