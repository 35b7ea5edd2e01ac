//! Two attempts at the same task side by side: their turns grouped into units, the first point
//! where they diverge, and an alignment of the rest.
//!
//! **Units.** An assistant turn with the tool results that directly follow it is one unit (an
//! *exchange*); every other message (system, user, another role, a tool result with no
//! assistant turn before it) is a unit of its own.
//!
//! **Sameness.** Two exchanges are the same when the model's text and its tool calls are:
//! the text (the content's text parts joined) trimmed of whitespace at both ends; each call's
//! name trimmed and its arguments as canonical JSON when they are valid JSON (key order and
//! whitespace ignored), else trimmed; tool-call text in no known shape compared trimmed.
//! Reasoning, token counts, finish reasons, call ids, images and the tool results are not
//! compared: they differ between any two samples, or follow from the calls. Other units are
//! the same when their role and trimmed text (and tool output, for a tool result) are.
//!
//! **Divergence.** The first exchange (counting assistant turns from 0) that is not the same on
//! both sides, or the first that one side has and the other does not; none when every exchange
//! is the same and both have as many.
//!
//! **Alignment.** Rows of units, left beside right, in order. Before the divergence and after
//! it, each stretch is aligned on a longest common subsequence of unit signatures (after its
//! common prefix and suffix, which are matched first in linear time); the units between two
//! matches are paired by index, the longer side's extra units alone on their rows. The two
//! diverging exchanges share one row. The dynamic program runs only while its table stays
//! within [`LCS_MAX_CELLS`] (about 1,500 × 1,500 units left after the common prefix and
//! suffix); a longer stretch is paired by index instead (reported as
//! [`MatchMethod::IndexPairs`]). Cost: O(n + m) plus at most [`LCS_MAX_CELLS`] cells per
//! stretch, time and memory.
//!
//! Swapping the sides mirrors the divergence and matches as many units; where several longest
//! common subsequences exist, the rows of the two orders may differ.

use std::collections::HashMap;
use std::ops::Range;

use super::lcs::common_subsequence;
pub use super::lcs::{MatchMethod, LCS_MAX_CELLS};
use super::model::{Role, Transcript, Turn};

/// A run of turns shown together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The turns (indices into [`Transcript::turns`]).
    pub turns: Range<usize>,
    /// For an exchange: its position among the assistant turns, from 0.
    pub exchange: Option<usize>,
}

/// The transcript's units, in order.
pub fn units(transcript: &Transcript) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    let mut exchanges = 0;
    for turn in &transcript.turns {
        let joins_exchange = turn.is_tool_result()
            && units
                .last()
                .is_some_and(|unit| unit.exchange.is_some() && unit.turns.end == turn.index);
        if joins_exchange {
            if let Some(unit) = units.last_mut() {
                unit.turns.end = turn.index + 1;
            }
            continue;
        }
        let exchange = turn.is_assistant().then(|| {
            exchanges += 1;
            exchanges - 1
        });
        units.push(Unit {
            turns: turn.index..turn.index + 1,
            exchange,
        });
    }
    units
}

/// What a unit is compared by (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Signature {
    role: Role,
    text: String,
    calls: Vec<(String, String)>,
    other: Option<String>,
}

fn signature(transcript: &Transcript, unit: &Unit) -> Signature {
    let first = &transcript.turns[unit.turns.start];
    let text = first.text().trim().to_owned();
    if unit.exchange.is_some() {
        return exchange_signature(first, text);
    }
    let other = first.tool_response.as_ref().map(|response| {
        format!(
            "{}\u{0}{}",
            response.output.as_deref().unwrap_or("").trim(),
            response.error.as_deref().unwrap_or("").trim()
        )
    });
    Signature {
        role: first.role.clone(),
        text,
        calls: Vec::new(),
        other,
    }
}

fn exchange_signature(turn: &Turn, text: String) -> Signature {
    Signature {
        role: Role::Assistant,
        text,
        calls: turn
            .tool_calls
            .calls
            .iter()
            .map(|call| {
                (
                    call.name.as_deref().unwrap_or("").trim().to_owned(),
                    call.arguments.canonical.clone(),
                )
            })
            .collect(),
        other: turn
            .tool_calls
            .unreadable
            .as_deref()
            .map(|text| text.trim().to_owned()),
    }
}

/// How two diverging exchanges differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivergenceKind {
    /// The same text, other tool calls.
    ToolCalls,
    /// The same tool calls, other text.
    Text,
    /// Both differ.
    TextAndToolCalls,
    /// The left side has no more exchanges; the right goes on.
    LeftEnded,
    /// The right side has no more exchanges; the left goes on.
    RightEnded,
}

/// The first exchange where the two sides differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Divergence {
    /// Its position among the assistant turns, from 0 (≤ the fewer exchanges of the two).
    pub exchange: usize,
    /// The left side's unit there, if it has that exchange.
    pub left_unit: Option<usize>,
    /// The right side's unit there, if it has that exchange.
    pub right_unit: Option<usize>,
    /// How they differ.
    pub kind: DivergenceKind,
}

/// One row of the side-by-side view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlignedRow {
    /// The left unit on this row.
    pub left: Option<usize>,
    /// The right unit on this row.
    pub right: Option<usize>,
    /// Whether both are there and the same.
    pub same: bool,
}

/// Two transcripts side by side (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideBySide {
    /// The left (baseline) transcript's units.
    pub left_units: Vec<Unit>,
    /// The right (candidate) transcript's units.
    pub right_units: Vec<Unit>,
    /// The rows, in order; every unit of each side appears once, in order.
    pub rows: Vec<AlignedRow>,
    /// Where they diverge; `None` when they do not.
    pub divergence: Option<Divergence>,
    /// The row of the divergence.
    pub divergence_row: Option<usize>,
    /// [`MatchMethod::IndexPairs`] when some stretch was too long for the LCS.
    pub method: MatchMethod,
}

/// Both sides' units and their signatures as ids (equal ids: the same unit).
struct Prepared {
    left_units: Vec<Unit>,
    right_units: Vec<Unit>,
    left_ids: Vec<u32>,
    right_ids: Vec<u32>,
    divergence: Option<Divergence>,
}

fn prepare(left: &Transcript, right: &Transcript) -> Prepared {
    let left_units = units(left);
    let right_units = units(right);
    let mut interner: HashMap<Signature, u32> = HashMap::new();
    let mut ids = |transcript: &Transcript, units: &[Unit]| -> Vec<u32> {
        units
            .iter()
            .map(|unit| {
                let next = interner.len() as u32;
                *interner.entry(signature(transcript, unit)).or_insert(next)
            })
            .collect()
    };
    let left_ids = ids(left, &left_units);
    let right_ids = ids(right, &right_units);
    let divergence = find_divergence(
        left,
        right,
        &left_units,
        &right_units,
        &left_ids,
        &right_ids,
    );
    Prepared {
        left_units,
        right_units,
        left_ids,
        right_ids,
        divergence,
    }
}

/// Aligns two attempts at the same task: `left` the baseline's, `right` the candidate's.
pub fn align(left: &Transcript, right: &Transcript) -> SideBySide {
    let Prepared {
        left_units,
        right_units,
        left_ids,
        right_ids,
        divergence,
    } = prepare(left, right);
    let mut rows = Vec::with_capacity(left_units.len().max(right_units.len()));
    let mut method = MatchMethod::Lcs;
    let mut divergence_row = None;
    let (left_split, right_split) = match divergence {
        None => (left_units.len(), right_units.len()),
        Some(found) => (
            found.left_unit.unwrap_or(left_units.len()),
            found.right_unit.unwrap_or(right_units.len()),
        ),
    };
    let head = align_stretch(
        &left_ids,
        &right_ids,
        0..left_split,
        0..right_split,
        &mut rows,
    );
    if head == MatchMethod::IndexPairs {
        method = head;
    }
    if let Some(found) = divergence {
        divergence_row = Some(rows.len());
        rows.push(AlignedRow {
            left: found.left_unit,
            right: found.right_unit,
            same: false,
        });
        let tail = align_stretch(
            &left_ids,
            &right_ids,
            found.left_unit.map_or(left_units.len(), |u| u + 1)..left_units.len(),
            found.right_unit.map_or(right_units.len(), |u| u + 1)..right_units.len(),
            &mut rows,
        );
        if tail == MatchMethod::IndexPairs {
            method = tail;
        }
    }
    SideBySide {
        left_units,
        right_units,
        rows,
        divergence,
        divergence_row,
        method,
    }
}

/// The first diverging exchange of two transcripts (see the module doc).
pub fn divergence(left: &Transcript, right: &Transcript) -> Option<Divergence> {
    prepare(left, right).divergence
}

fn find_divergence(
    left: &Transcript,
    right: &Transcript,
    left_units: &[Unit],
    right_units: &[Unit],
    left_ids: &[u32],
    right_ids: &[u32],
) -> Option<Divergence> {
    let exchanges = |units: &[Unit]| -> Vec<usize> {
        units
            .iter()
            .enumerate()
            .filter(|(_, unit)| unit.exchange.is_some())
            .map(|(index, _)| index)
            .collect()
    };
    let left_exchanges = exchanges(left_units);
    let right_exchanges = exchanges(right_units);
    for k in 0..left_exchanges.len().max(right_exchanges.len()) {
        let (l, r) = (
            left_exchanges.get(k).copied(),
            right_exchanges.get(k).copied(),
        );
        let kind = match (l, r) {
            (Some(l), Some(r)) if left_ids[l] == right_ids[r] => continue,
            (Some(l), Some(r)) => {
                let a = exchange_signature(&left.turns[left_units[l].turns.start], String::new());
                let b = exchange_signature(&right.turns[right_units[r].turns.start], String::new());
                if a == b {
                    DivergenceKind::Text
                } else if turn_text(left, &left_units[l]) == turn_text(right, &right_units[r]) {
                    DivergenceKind::ToolCalls
                } else {
                    DivergenceKind::TextAndToolCalls
                }
            }
            (None, _) => DivergenceKind::LeftEnded,
            (_, None) => DivergenceKind::RightEnded,
        };
        return Some(Divergence {
            exchange: k,
            left_unit: l,
            right_unit: r,
            kind,
        });
    }
    None
}

fn turn_text(transcript: &Transcript, unit: &Unit) -> String {
    transcript.turns[unit.turns.start].text().trim().to_owned()
}

/// Appends the rows of one stretch: LCS matches, the units between them paired by index.
fn align_stretch(
    left_ids: &[u32],
    right_ids: &[u32],
    left: Range<usize>,
    right: Range<usize>,
    rows: &mut Vec<AlignedRow>,
) -> MatchMethod {
    let (a, b) = (&left_ids[left.clone()], &right_ids[right.clone()]);
    let (matches, method) = common_subsequence(a, b);
    let (mut i, mut j) = (0, 0);
    let gap = |rows: &mut Vec<AlignedRow>, i: usize, to_i: usize, j: usize, to_j: usize| {
        for k in 0..(to_i - i).max(to_j - j) {
            let l = (i + k < to_i).then_some(i + k);
            let r = (j + k < to_j).then_some(j + k);
            rows.push(AlignedRow {
                left: l.map(|l| l + left.start),
                right: r.map(|r| r + right.start),
                same: matches!((l, r), (Some(l), Some(r)) if a[l] == b[r]),
            });
        }
    };
    for (mi, mj) in matches {
        gap(rows, i, mi, j, mj);
        rows.push(AlignedRow {
            left: Some(mi + left.start),
            right: Some(mj + right.start),
            same: true,
        });
        (i, j) = (mi + 1, mj + 1);
    }
    gap(rows, i, a.len(), j, b.len());
    method
}
