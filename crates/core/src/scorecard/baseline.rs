//! Which baseline each benchmark version's row compares against: the one chosen by hand, else
//! the newest completed base-model evaluation of the same benchmark version whose effective
//! settings (`model::RunInfo::effective_settings`, the comparability audit's values) and task
//! split match the checkpoint evaluations'. Every run passed over is named with why.

use serde::{Deserialize, Serialize};

use crate::audit::Lifecycle;
use crate::model::RunInfo;
use crate::text::setting_shown;

use super::source::ListedRun;
use super::words;

/// A base-model evaluation passed over, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Its run id.
    pub run_id: String,
    /// Why, in one phrase ("still running", "Temperature differs: …").
    pub why: String,
}

/// The baseline of one row, and how it was chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineChoice {
    /// The chosen run, or `None` when no base-model evaluation qualifies.
    pub run_id: Option<String>,
    /// Whether the user chose it.
    pub by_hand: bool,
    /// Why this one (or why none), one sentence.
    pub why: String,
    /// Newer or other base-model evaluations passed over, newest first.
    pub skipped: Vec<Skipped>,
}

/// The baseline of `bench_id`'s row: `by_hand` when given, else the newest completed
/// base-model evaluation among `listed` whose settings match every one of `checkpoints`.
pub fn choose_baseline(
    bench_id: &str,
    checkpoints: &[&RunInfo],
    listed: &[ListedRun],
    by_hand: Option<&str>,
) -> BaselineChoice {
    if let Some(run_id) = by_hand {
        return BaselineChoice {
            run_id: Some(run_id.to_owned()),
            by_hand: true,
            why: words::baseline_by_hand(),
            skipped: Vec::new(),
        };
    }
    let mut options: Vec<&ListedRun> = listed
        .iter()
        .filter(|run| {
            run.info.bench_id.as_deref() == Some(bench_id) && !run.info.checkpoint.is_checkpoint()
        })
        .collect();
    options.sort_by(|a, b| a.newest_first_key().cmp(&b.newest_first_key()));
    let mut skipped = Vec::new();
    for option in options {
        match passed_over(option, checkpoints) {
            Some(why) => skipped.push(Skipped {
                run_id: option.id().to_owned(),
                why,
            }),
            None => {
                return BaselineChoice {
                    run_id: Some(option.id().to_owned()),
                    by_hand: false,
                    why: words::baseline_newest_matching(skipped.len()),
                    skipped,
                }
            }
        }
    }
    BaselineChoice {
        run_id: None,
        by_hand: false,
        why: words::no_baseline(bench_id, skipped.len()),
        skipped,
    }
}

/// Why `option` cannot be the automatic baseline, or `None` when it can.
fn passed_over(option: &ListedRun, checkpoints: &[&RunInfo]) -> Option<String> {
    match option.lifecycle() {
        Lifecycle::Finished => {}
        Lifecycle::NotFinished => return Some(words::SKIP_RUNNING.to_owned()),
        Lifecycle::Failed => return Some(words::SKIP_FAILED.to_owned()),
        Lifecycle::Cancelled => return Some(words::SKIP_CANCELLED.to_owned()),
        Lifecycle::Unknown | Lifecycle::NotRecorded => {
            return Some(words::SKIP_NOT_COMPLETED.to_owned())
        }
    }
    checkpoints
        .iter()
        .find_map(|checkpoint| settings_differ(&option.info, checkpoint))
}

/// The first difference between a baseline's and a checkpoint evaluation's task split or
/// effective settings (both resolved and unequal), in words; `None` when none is known.
pub fn settings_differ(baseline: &RunInfo, checkpoint: &RunInfo) -> Option<String> {
    if let (Some(b), Some(c)) = (&baseline.task_selection, &checkpoint.task_selection) {
        if b.split != c.split {
            return Some(words::split_differs(&b.split, &c.split));
        }
    }
    let (base, cand) = (
        baseline.effective_settings(),
        checkpoint.effective_settings(),
    );
    base.iter().zip(&cand).find_map(
        |(b, c)| match (b.resolution.value(), c.resolution.value()) {
            (Some(bv), Some(cv)) if bv != cv => Some(words::setting_differs(
                b.setting.label(),
                &setting_shown(&b.resolution),
                &setting_shown(&c.resolution),
            )),
            _ => None,
        },
    )
}
