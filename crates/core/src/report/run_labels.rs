//! The label of each compared run: "Step 400" for a checkpoint, else the run's own name, made
//! unique across the report so no two runs read alike in a title, card, choice, table,
//! markdown or HTML report.

use super::RunSummary;
use crate::model::Run;

/// "Step 400" for a checkpoint, else the run's own name (not yet unique: see
/// [`make_unique`]).
pub(super) fn run_label(run: &Run) -> String {
    match run.info().checkpoint.step {
        Some(step) => format!("Step {step}"),
        None => run.info().name().to_owned(),
    }
}

/// Makes every label that collides with another unique by adding what tells the runs apart:
/// the part of its display name after the one the colliding runs share ("Step 200 (first
/// attempt)"), else its run id ("Step 200 · eval_ckpt_s200").
pub(super) fn make_unique(runs: &mut [RunSummary]) {
    let labels: Vec<String> = runs.iter().map(|run| run.name.clone()).collect();
    let mut done = vec![false; runs.len()];
    for first in 0..runs.len() {
        if done[first] {
            continue;
        }
        let group: Vec<usize> = (first..runs.len())
            .filter(|&i| labels[i] == labels[first])
            .collect();
        group.iter().for_each(|&i| done[i] = true);
        if group.len() < 2 {
            continue;
        }
        let names: Vec<&str> = group.iter().map(|&i| shown_name(&runs[i])).collect();
        let shared = shared_words(&names);
        let mut new: Vec<String> = group
            .iter()
            .zip(&names)
            .map(|(&i, name)| {
                let rest = name[shared..].trim();
                if shared == 0 || rest.is_empty() {
                    with_id(&labels[i], &runs[i].id)
                } else {
                    format!("{} {rest}", labels[i])
                }
            })
            .collect();
        if !all_distinct(&new) {
            new = group
                .iter()
                .map(|&i| with_id(&labels[i], &runs[i].id))
                .collect();
        }
        for (&i, label) in group.iter().zip(new) {
            runs[i].name = label;
        }
    }
    number_the_rest(runs);
}

fn shown_name(run: &RunSummary) -> &str {
    run.display_name
        .as_deref()
        .filter(|name| !name.trim().is_empty())
        .unwrap_or(&run.id)
}

fn with_id(label: &str, id: &str) -> String {
    if label == id {
        label.to_owned()
    } else {
        format!("{label} · {id}")
    }
}

/// The length in bytes of the words all `names` begin with: their common prefix, cut back to
/// where a word ends in every name.
fn shared_words(names: &[&str]) -> usize {
    let Some((first, others)) = names.split_first() else {
        return 0;
    };
    let mut end = first.len();
    for other in others {
        end = first
            .char_indices()
            .zip(other.chars())
            .find(|((_, a), b)| a != b)
            .map_or(end.min(other.len()).min(first.len()), |((at, _), _)| {
                at.min(end)
            });
    }
    let word_ends = |at: usize| {
        names.iter().all(|name| {
            name[at..]
                .chars()
                .next()
                .is_none_or(|next| next.is_whitespace())
        })
    };
    while end > 0 && !(first.is_char_boundary(end) && word_ends(end)) {
        end -= 1;
    }
    end
}

fn all_distinct(labels: &[String]) -> bool {
    labels
        .iter()
        .enumerate()
        .all(|(i, label)| !labels[..i].contains(label))
}

/// Any label still equal to an earlier one (a run id equal to another run's label) gets a
/// number, so the labels are unique whatever the names.
fn number_the_rest(runs: &mut [RunSummary]) {
    for i in 1..runs.len() {
        let mut n = 2;
        let base = runs[i].name.clone();
        while runs[..i].iter().any(|run| run.name == runs[i].name) {
            runs[i].name = format!("{base} ({n})");
            n += 1;
        }
    }
}
