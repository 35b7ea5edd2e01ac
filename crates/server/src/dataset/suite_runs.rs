//! The evaluation runs on the added benchmarks ([`super::suites`]): on each, a base-model
//! baseline and an evaluation of every checkpoint of the training run, with the cases a
//! checkpoint scorecard must handle, each on its own benchmark:
//!
//! - apifix: a second baseline with other settings (temperature 1.0, 20 turns: not
//!   comparable) created after the comparable one; the last checkpoint's evaluation running;
//! - sqlfix: later checkpoints regress (training forgets it);
//! - shellpass (pass-or-fail rewards): the middle checkpoint evaluated twice, both completed;
//! - perfopt: the middle checkpoint never evaluated;
//! - docsync: the second-to-last checkpoint's evaluation failed and was not run again.
//!
//! Ids: `eval_{name}_base`, `eval_apifix_base_hot`, `eval_{name}_s{step}`,
//! `eval_shellpass_s{step}_rerun`; tags `{prefix}base`, `{prefix}{step}` (`apibasehot`,
//! `sh{step}b`).

use super::catalog::checkpoint_created_at;
use super::outcome::{SHORT_TURN_RATES, STANDARD_RATES};
use super::runs::{
    Lifecycle, Recorded, RunFailure, RunPlan, Settings, HOT_SHORT_SETTINGS, STANDARD_SETTINGS,
};
use super::scale::DemoScale;
use super::suites::{SuiteSpec, APIFIX, DOCSYNC, PERFOPT, SHELLPASS, SUITES};
use super::time::Timestamp;

/// When the added benchmarks' baselines were created (one hour apart, in [`SUITES`] order).
const BASELINES_AT: Timestamp = Timestamp::utc(2026, 9, 22, 12, 0);
/// When the not-comparable apifix baseline was created: after every comparable baseline.
const HOT_BASELINE_AT: Timestamp = Timestamp::utc(2026, 9, 23, 18, 0);

/// The failure of docsync's failed checkpoint evaluation.
const DOCSYNC_FAILURE: RunFailure = RunFailure {
    kind: "dependency_error",
    code: "grader_unavailable",
    message: "The docsync grader stopped answering; outstanding attempts were cancelled.",
    runtime_id: "rt_docsync_py312",
};

/// The eval run id of `suite`'s evaluation of the checkpoint at `step`.
pub fn suite_checkpoint_eval(suite: &SuiteSpec, step: u32) -> String {
    format!("eval_{}_s{step}", suite.name)
}

/// The eval run id of `suite`'s base-model baseline.
pub fn suite_baseline(suite: &SuiteSpec) -> String {
    format!("eval_{}_base", suite.name)
}

/// The checkpoint whose cases the scorecard shows (the middle one: step 300 of 100..500).
fn middle(steps: &[u32]) -> Option<u32> {
    (steps.len() >= 3).then(|| steps[steps.len() / 2])
}

/// The runs on the added benchmarks at `scale`, benchmark by benchmark.
pub fn suite_plans(scale: DemoScale) -> Vec<RunPlan> {
    let standard = Settings {
        samples_per_task: scale.samples,
        ..STANDARD_SETTINGS
    };
    let steps = scale.scorecard.steps();
    let plan = |suite: &SuiteSpec, id: String, tag: String, name: String, at| RunPlan {
        eval_run_id: id,
        tag,
        display_name: name,
        bench_id: suite.bench_id,
        checkpoint_step: None,
        settings: standard,
        recorded: Recorded::All,
        created_at: at,
        lifecycle: Lifecycle::Completed,
        ability_shift: 0.0,
        rates: STANDARD_RATES,
        untasked: 0,
        max_samples: None,
    };
    let mut plans = Vec::new();
    for (i, suite) in SUITES.iter().enumerate() {
        plans.push(plan(
            suite,
            suite_baseline(suite),
            format!("{}base", suite.prefix),
            format!("Baseline qwen3-235b ({})", suite.name),
            BASELINES_AT.plus(i as u64 * 3_600),
        ));
        if suite == &APIFIX {
            plans.push(RunPlan {
                settings: Settings {
                    samples_per_task: scale.samples,
                    ..HOT_SHORT_SETTINGS
                },
                recorded: Recorded::NoSampling,
                ability_shift: -0.35,
                rates: SHORT_TURN_RATES,
                ..plan(
                    suite,
                    "eval_apifix_base_hot".into(),
                    "apibasehot".into(),
                    "Baseline qwen3-235b (apifix), temperature 1.0, 20 turns".into(),
                    HOT_BASELINE_AT,
                )
            });
        }
        for (k, &step) in steps.iter().enumerate() {
            if suite == &PERFOPT && middle(&steps) == Some(step) {
                continue;
            }
            let at = checkpoint_created_at(step).plus((3 + 2 * i as u64) * 3_600);
            let checkpoint = |id, tag, name, at| RunPlan {
                checkpoint_step: Some(step),
                ..plan(suite, id, tag, name, at)
            };
            let name = format!("Checkpoint step {step} ({})", suite.name);
            let mut run = checkpoint(
                suite_checkpoint_eval(suite, step),
                format!("{}{step}", suite.prefix),
                name.clone(),
                at,
            );
            if suite == &APIFIX && k + 1 == steps.len() {
                run.lifecycle = Lifecycle::Running;
            }
            if suite == &DOCSYNC && k + 2 == steps.len() {
                run.lifecycle = Lifecycle::Failed {
                    at: 0.4,
                    failure: DOCSYNC_FAILURE,
                };
            }
            plans.push(run);
            if suite == &SHELLPASS && middle(&steps) == Some(step) {
                plans.push(checkpoint(
                    format!("{}_rerun", suite_checkpoint_eval(suite, step)),
                    format!("{}{step}b", suite.prefix),
                    format!("{name}, run again"),
                    at.plus(20 * 3_600),
                ));
            }
        }
    }
    plans
}
