//! The scorecard page's URL query ([`ScorecardLink`]): the training run, the baselines chosen
//! by hand, the decision rule (primary benchmarks, guardrails with their margins, the
//! correction) and the report settings every cell is computed with. Written with only what
//! differs from the defaults, in a fixed order; read never failing by the comparison link's own
//! reader of parameters (`read::read_params`): a bad value is dropped and a [`QueryIssue`] says
//! why. The settings are the comparison page's own parameters (`seed`, `B`, `ci`, `analysis`,
//! `target`, `kprime`, `pass`), read and written by [`ViewState`] itself.
//!
//! Lists use the comparison link's rule: commas separate items, `:` separates a benchmark from
//! its run or margin, and each id is percent-encoded on its own (so an id holding `,` or `:`
//! survives).

use super::checks::{identifier, printable};
use super::encoding::{decode_component, encode_component};
use super::limits::MAX_CANDIDATES;
use super::read::{read_params, QueryIssue};
use super::state::ViewState;
use super::tenths::{parse_tenths, tenths_text};

/// The settings parameters a scorecard link carries (read and written by [`ViewState`]).
pub const SCORECARD_SETTINGS: [&str; 7] =
    ["seed", "B", "ci", "analysis", "target", "kprime", "pass"];

/// Most benchmarks a link's lists may name.
pub const MAX_SCORECARD_BENCHMARKS: usize = 4 * MAX_CANDIDATES;

/// Largest guardrail margin, in tenths of a point (100 points: the whole reward range).
pub const MAX_MARGIN_TENTHS: u16 = 1000;

/// Everything that determines what the scorecard page shows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScorecardLink {
    /// The agent whose evaluations are read (`agent`).
    pub agent: Option<String>,
    /// The training run whose checkpoints are the columns (`training`).
    pub training_run: Option<String>,
    /// Baselines chosen by hand, benchmark version → run (`baselines=b:r,…`), in order.
    pub baselines: Vec<(String, String)>,
    /// Primary benchmarks (`primary=b,…`).
    pub primary: Vec<String>,
    /// Guardrails and their margins in tenths of a point (`guardrails=b:1.5,…`).
    pub guardrails: Vec<(String, u16)>,
    /// No family-wise correction (`correction=none`); Holm otherwise.
    pub uncorrected: bool,
    /// The report settings (only the [`SCORECARD_SETTINGS`] fields are read and written).
    pub settings: ViewState,
}

/// A scorecard link read, and what was ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedScorecardLink {
    /// The link, defaults where nothing valid was given.
    pub link: ScorecardLink,
    /// Ignored parameters, in the order they appeared.
    pub issues: Vec<QueryIssue>,
}

impl ScorecardLink {
    /// The query string (without `?`): only what differs from the defaults, fixed order.
    pub fn to_query(&self) -> String {
        let mut pairs: Vec<String> = Vec::new();
        if let Some(agent) = &self.agent {
            pairs.push(format!("agent={}", encode_component(agent)));
        }
        if let Some(training) = &self.training_run {
            pairs.push(format!("training={}", encode_component(training)));
        }
        let list = |items: Vec<String>| items.join(",");
        if !self.baselines.is_empty() {
            pairs.push(format!(
                "baselines={}",
                list(
                    self.baselines
                        .iter()
                        .map(|(b, r)| format!("{}:{}", encode_component(b), encode_component(r)))
                        .collect()
                )
            ));
        }
        if !self.primary.is_empty() {
            pairs.push(format!(
                "primary={}",
                list(self.primary.iter().map(|b| encode_component(b)).collect())
            ));
        }
        if !self.guardrails.is_empty() {
            pairs.push(format!(
                "guardrails={}",
                list(
                    self.guardrails
                        .iter()
                        .map(|(b, m)| format!("{}:{}", encode_component(b), tenths_text(*m)))
                        .collect()
                )
            ));
        }
        if self.uncorrected {
            pairs.push("correction=none".to_owned());
        }
        let settings = self.settings.to_query();
        pairs.extend(
            settings
                .split('&')
                .filter(|pair| {
                    let key = pair.split_once('=').map_or(*pair, |(key, _)| key);
                    SCORECARD_SETTINGS.contains(&key)
                })
                .map(str::to_owned),
        );
        pairs.join("&")
    }

    /// Reads a query string (with or without `?`). Never fails: see the module doc.
    pub fn from_query(query: &str) -> ParsedScorecardLink {
        let mut link = ScorecardLink::default();
        let mut settings: Vec<&str> = Vec::new();
        let is_setting = |key: &str| SCORECARD_SETTINGS.contains(&key);
        let mut issues = read_params(query, is_setting, |key, pair, raw_value| {
            if is_setting(key) {
                settings.push(pair);
                Ok(())
            } else {
                apply(&mut link, key, raw_value)
            }
        });
        let parsed = ViewState::from_query(&settings.join("&"));
        link.settings = parsed.state;
        issues.extend(parsed.issues);
        ParsedScorecardLink { link, issues }
    }
}

fn apply(link: &mut ScorecardLink, key: &str, raw: &str) -> Result<(), String> {
    match key {
        "agent" => link.agent = Some(identifier(&decode_component(raw)?)?),
        "training" => link.training_run = Some(identifier(&decode_component(raw)?)?),
        "baselines" => {
            link.baselines = pairs_of(raw, |bench, run| {
                Ok((bench, identifier(&decode_component(run)?)?))
            })?;
        }
        "primary" => {
            let mut primary: Vec<String> = Vec::new();
            for item in items(raw)? {
                let bench = identifier(&decode_component(item)?)?;
                if !primary.contains(&bench) {
                    primary.push(bench);
                }
            }
            link.primary = primary;
        }
        "guardrails" => {
            link.guardrails = pairs_of(raw, |bench, margin| {
                let tenths = parse_tenths(margin)
                    .filter(|tenths| *tenths <= MAX_MARGIN_TENTHS)
                    .ok_or_else(|| {
                        format!(
                            "`{}` is not a margin from 0 to 100 points (at most one decimal)",
                            printable(margin)
                        )
                    })?;
                Ok((bench, tenths))
            })?;
        }
        "correction" => match raw {
            "none" => link.uncorrected = true,
            "holm" => link.uncorrected = false,
            other => {
                return Err(format!(
                    "`{}` is not a correction (holm or none)",
                    printable(other)
                ))
            }
        },
        _ => return Err("not a parameter of the scorecard".into()),
    }
    Ok(())
}

/// The comma-separated items of a list, at most [`MAX_SCORECARD_BENCHMARKS`].
fn items(raw: &str) -> Result<Vec<&str>, String> {
    let items: Vec<&str> = raw.split(',').filter(|item| !item.is_empty()).collect();
    if items.len() > MAX_SCORECARD_BENCHMARKS {
        return Err(format!(
            "names {} benchmarks, over the limit of {MAX_SCORECARD_BENCHMARKS}",
            items.len()
        ));
    }
    Ok(items)
}

/// A list of `benchmark:value` items, each benchmark once (the first kept).
fn pairs_of<T>(
    raw: &str,
    value: impl Fn(String, &str) -> Result<(String, T), String>,
) -> Result<Vec<(String, T)>, String> {
    let mut out: Vec<(String, T)> = Vec::new();
    for item in items(raw)? {
        let (bench, rest) = item
            .split_once(':')
            .ok_or_else(|| format!("`{}` is not `benchmark:value`", printable(item)))?;
        let bench = identifier(&decode_component(bench)?)?;
        if out.iter().any(|(seen, _)| *seen == bench) {
            continue;
        }
        out.push(value(bench, rest)?);
    }
    Ok(out)
}
