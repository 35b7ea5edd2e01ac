//! Checkpoints against each other: when the candidates are checkpoints of one training run
//! ([`super::Progression`]), each checkpoint's paired comparison with the previous step, and,
//! when the user picks a step ([`ReportSettings::versus_step`]), with that step. Each pair is
//! the existing paired machinery ([`analyse_pair`], the comparability audit of the two runs) and
//! the one verdict rule ([`super::decide`]); the earlier step plays the baseline. Holm runs
//! across each family (the steps against the previous one; the steps against the chosen one).
//! Bootstraps are not drawn here: the verdict reads the t (or Tango) interval only. Also the
//! tasks whose state changes across the steps ([`super::task_paths`]).

use serde::{Deserialize, Serialize};

use crate::audit;
use crate::model::{Analysis, ModelError, RunSet};
use crate::stats::{self, NotComputable, Stat};

use super::paired_analysis::{analyse_pair, headline_p, PairedAnalysis};
use super::task_paths::{task_paths, TaskPath};
use super::{
    pair_context, pair_verdict, Exclusions, Progression, ReportSettings, RunSummary, TaskRow,
    Verdict,
};

/// The checkpoints against each other, and the tasks whose state changes across them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointSteps {
    /// The training run (the progression's).
    pub training_run_id: String,
    /// Each checkpoint but the first against the previous step, by ascending step.
    pub versus_previous: Vec<StepComparison>,
    /// The step the user picked, when a checkpoint of the progression has it.
    pub versus_step: Option<i64>,
    /// Each other checkpoint against the picked step (the earlier of the two plays the
    /// baseline), by ascending step; empty without a picked step.
    pub versus_chosen: Vec<StepComparison>,
    /// Tasks whose state against the baseline changes across the steps, in task order.
    pub paths: Vec<TaskPath>,
}

/// One checkpoint against another of the same training run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepComparison {
    /// The later step (the one judged).
    pub step: i64,
    /// Its index in [`Report::runs`](super::Report::runs).
    pub run: usize,
    /// The earlier step (it plays the baseline).
    pub against_step: i64,
    /// Its index in [`Report::runs`](super::Report::runs).
    pub against_run: usize,
    /// Tasks in the headline analysis.
    pub n: usize,
    /// Headline Δ, later − earlier (reward units).
    pub delta: Stat<f64>,
    /// Holm-adjusted p of the headline test across the family.
    pub p_holm: Stat<f64>,
    /// The verdict, by the report's rule.
    pub verdict: Verdict,
}

impl StepComparison {
    /// "Step 500 vs step 400".
    pub fn title(&self) -> String {
        format!("Step {} vs step {}", self.step, self.against_step)
    }
}

/// The comparisons of `progression`'s checkpoints (when it has at least two), over `set`, with
/// `runs` the report's runs and `rows` its task rows.
pub fn checkpoint_steps(
    set: &RunSet,
    runs: &[RunSummary],
    progression: &Progression,
    rows: &[TaskRow],
    settings: &ReportSettings,
) -> Result<CheckpointSteps, ModelError> {
    let points = &progression.points;
    let pairs: Vec<(usize, usize)> = points.windows(2).map(|w| (w[0].run, w[1].run)).collect();
    let chosen = settings
        .versus_step
        .and_then(|step| points.iter().find(|p| p.step == step));
    let chosen_pairs: Vec<(usize, usize)> = chosen
        .map(|chosen| {
            points
                .iter()
                .filter(|p| p.run != chosen.run)
                .map(|p| {
                    if p.step < chosen.step {
                        (p.run, chosen.run)
                    } else {
                        (chosen.run, p.run)
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(CheckpointSteps {
        training_run_id: progression.training_run_id.clone(),
        versus_previous: family(set, runs, &pairs, settings)?,
        versus_step: chosen.map(|p| p.step),
        versus_chosen: family(set, runs, &chosen_pairs, settings)?,
        paths: task_paths(rows, points),
    })
}

/// One family of comparisons (earlier run, later run), Holm across it.
fn family(
    set: &RunSet,
    runs: &[RunSummary],
    pairs: &[(usize, usize)],
    settings: &ReportSettings,
) -> Result<Vec<StepComparison>, ModelError> {
    let no_bootstrap = ReportSettings {
        resamples: 0,
        ..settings.clone()
    };
    let mut analysed = Vec::with_capacity(pairs.len());
    for &(earlier, later) in pairs {
        let (Some(base), Some(cand)) = (runs.get(earlier), runs.get(later)) else {
            continue;
        };
        let primary_scores = set.paired(base.index, cand.index, Analysis::Primary)?;
        let sensitivity_scores = set.paired(base.index, cand.index, Analysis::Sensitivity)?;
        let primary = analyse_pair(&primary_scores, Analysis::Primary, &no_bootstrap).0;
        let sensitivity = analyse_pair(&sensitivity_scores, Analysis::Sensitivity, &no_bootstrap).0;
        let excluded = Exclusions::count(
            &primary_scores.left_out,
            set.run(base.index)?,
            set.run(cand.index)?,
        );
        let audit = audit::audit(set, base.index, &[cand.index])?;
        let context = pair_context(&audit, base, cand, cand.index, excluded.total);
        analysed.push((earlier, later, primary, sensitivity, context));
    }
    let ps: Vec<Stat<f64>> = analysed
        .iter()
        .map(|(_, _, primary, sensitivity, _)| {
            headline_p(headline_of(settings, primary, sensitivity))
        })
        .collect();
    let adjusted = holm_of(&ps);
    Ok(analysed
        .into_iter()
        .zip(adjusted)
        .map(
            |((earlier, later, primary, sensitivity, context), p_holm)| {
                let verdict = pair_verdict(&primary, &sensitivity, &p_holm, &context, settings);
                let shown = headline_of(settings, &primary, &sensitivity);
                StepComparison {
                    step: runs[later].step.unwrap_or_default(),
                    run: later,
                    against_step: runs[earlier].step.unwrap_or_default(),
                    against_run: earlier,
                    n: shown.n,
                    delta: shown
                        .estimate
                        .as_ref()
                        .map(|e| e.delta)
                        .map_err(NotComputable::clone),
                    p_holm,
                    verdict,
                }
            },
        )
        .collect())
}

/// The analysis the headline uses, per the settings.
fn headline_of<'a>(
    settings: &ReportSettings,
    primary: &'a PairedAnalysis,
    sensitivity: &'a PairedAnalysis,
) -> &'a PairedAnalysis {
    match settings.headline {
        Analysis::Primary => primary,
        Analysis::Sensitivity => sensitivity,
    }
}

/// Holm across the p-values that exist; one without a value keeps its reason.
fn holm_of(ps: &[Stat<f64>]) -> Vec<Stat<f64>> {
    let present: Vec<f64> = ps.iter().filter_map(|p| p.as_ref().ok().copied()).collect();
    let adjusted = stats::holm(&present);
    let mut next = 0;
    ps.iter()
        .map(|p| match p {
            Ok(_) => {
                let value = match &adjusted {
                    Ok(values) => values
                        .get(next)
                        .copied()
                        .ok_or(NotComputable::NotEnoughData { needed: 1, got: 0 }),
                    Err(e) => Err(e.clone()),
                };
                next += 1;
                value
            }
            Err(e) => Err(e.clone()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_skips_the_missing_p_values_and_keeps_their_reason() {
        let missing = Err(NotComputable::ZeroVariance);
        let adjusted = holm_of(&[Ok(0.01), missing.clone(), Ok(0.04)]);
        assert_eq!(adjusted[1], missing);
        let holm = stats::holm(&[0.01, 0.04]).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(adjusted[0], Ok(holm[0]));
        assert_eq!(adjusted[2], Ok(holm[1]));
        assert!(holm_of(&[]).is_empty());
    }
}
