//! Base models and checkpoints.

use super::{Finding, Pair, Severity};

pub(super) fn check(pair: &Pair<'_>, findings: &mut Vec<Finding>) {
    let (base, cand) = (pair.base.1.info(), pair.cand.1.info());
    let (b_name, c_name) = (pair.base_name(), pair.cand_name());
    match (base.base_model.as_deref(), cand.base_model.as_deref()) {
        (Some(b), Some(c)) if b != c => {
            findings.push(pair.differs(
                (Severity::Caution, "BASE_MODEL_DIFFERS"),
                "Base models differ",
                (b.to_owned(), c.to_owned()),
                "a difference measures the models, not a training step.",
            ));
            return;
        }
        (Some(_), Some(_)) => {}
        _ => {
            findings.push(pair.finding(
                Severity::Info,
                "BASE_MODEL_UNKNOWN",
                "The base model is not recorded for every run: cannot tell checkpoints of one model apart from different models.".to_owned(),
            ));
            return;
        }
    }
    let (b_ckpt, c_ckpt) = (&base.checkpoint, &cand.checkpoint);
    let step = |step: Option<i64>| {
        step.map_or_else(|| "an unknown step".to_owned(), |s| format!("step {s}"))
    };
    match (b_ckpt.is_checkpoint(), c_ckpt.is_checkpoint()) {
        (false, false) => {}
        (false, true) | (true, false) => {
            let (checkpoint, name) = if c_ckpt.is_checkpoint() {
                (c_ckpt, c_name)
            } else {
                (b_ckpt, b_name)
            };
            let other = if c_ckpt.is_checkpoint() {
                b_name
            } else {
                c_name
            };
            findings.push(pair.finding(
                Severity::Info,
                "CHECKPOINT_VS_BASE",
                format!(
                    "{name} is a checkpoint ({}{}) of the base model {other} evaluates.",
                    step(checkpoint.step),
                    checkpoint
                        .training_run_id
                        .as_deref()
                        .map_or_else(String::new, |run| format!(" of training run {run}"))
                ),
            ));
        }
        (true, true) => {
            if b_ckpt.parent_checkpoint_id.is_some()
                && b_ckpt.parent_checkpoint_id == c_ckpt.parent_checkpoint_id
            {
                findings.push(pair.finding(
                    Severity::Info,
                    "SAME_CHECKPOINT",
                    format!("{b_name} and {c_name} evaluate the same checkpoint: a difference is evaluation noise or settings."),
                ));
            } else if b_ckpt.training_run_id.is_some()
                && b_ckpt.training_run_id == c_ckpt.training_run_id
            {
                findings.push(pair.finding(
                    Severity::Info,
                    "SAME_TRAINING_RUN",
                    format!(
                        "{b_name} ({}) and {c_name} ({}) are checkpoints of one training run.",
                        step(b_ckpt.step),
                        step(c_ckpt.step)
                    ),
                ));
            } else {
                findings.push(pair.finding(
                    Severity::Info,
                    "DIFFERENT_TRAINING_RUNS",
                    format!("{b_name} and {c_name} are checkpoints of different (or unrecorded) training runs of one base model."),
                ));
            }
        }
    }
}
