//! What the demo's runs cost and how long their rollouts were: the billing rows of
//! `GET /api/v1/billing/usage/runs` and the distributions of
//! `GET /api/v1/eval/{run_id}/rollout-statistics`.
//!
//! Costs follow the attempts, in USD cents at list price (the demo organization is a free one,
//! which the contract says sees usage at list price):
//! - inference: every model call reads the conversation so far and writes a reply, so an
//!   attempt of `n` turns reads about `PROMPT_BASE · n + PROMPT_GROWTH · n(n−1)/2` tokens and
//!   writes `COMPLETION_PER_TURN · n`: the constants are fitted to the transcripts'
//!   per-message `prompt_tokens` and `completion_tokens` (a test holds the two within 15% on
//!   the baseline and step 400) without generating every transcript; a longer checkpoint pays
//!   more than linearly;
//! - grading: each graded attempt runs the hidden tests once;
//! - sandbox: a sandbox per attempt, billed by the second; a sandbox timeout holds it for the
//!   whole wall-clock limit.
//!
//! Costs accrue as attempts run: a running evaluation's row holds what its started attempts
//! have spent so far. Billing keeps the last 30 calendar days before [`BILLING_AS_OF`]: a run
//! launched earlier has no row (the API would show only the costs inside the window; the
//! demo's oldest run lies wholly before it).

use super::catalog::{TRAINING_CREATED_AT, TRAINING_RUN_ID, TRAINING_RUN_NAME};
use super::live::{AttemptState, Progress};
use super::outcome::Ending;
use super::rng::mix64;
use super::runs::{Attempt, EvalRun, RUN_SECONDS};
use super::time::Timestamp;
use super::Dataset;

/// The moment the demo's billing snapshot describes (the contract's version date).
pub const BILLING_AS_OF: Timestamp = Timestamp::utc(2026, 10, 14, 0, 0);
/// Days of usage the billing list covers.
pub const BILLING_WINDOW_DAYS: u64 = 30;

/// Prompt tokens of a model call before any turn: the system prompt, the tool schemas, the task.
const PROMPT_BASE: f64 = 420.0;
/// Prompt tokens each earlier turn adds to a call (its reply and its tools' output).
const PROMPT_GROWTH: f64 = 142.0;
/// Completion tokens of one reply (reasoning, tool calls, text).
const COMPLETION_PER_TURN: f64 = 76.0;
/// List price of a prompt token, in cents ($0.22 per million).
const PROMPT_CENTS_PER_TOKEN: f64 = 0.000_022;
/// List price of a completion token, in cents ($0.88 per million).
const COMPLETION_CENTS_PER_TOKEN: f64 = 0.000_088;
/// One run of the hidden tests.
const GRADING_CENTS: f64 = 0.12;
/// Sandbox price per second, in cents.
const SANDBOX_CENTS_PER_SECOND: f64 = 0.000_9;
/// Seconds a sandbox lives before the first turn.
const SANDBOX_SETUP_SECONDS: f64 = 45.0;
/// Seconds each turn keeps the sandbox busy (tools run, the model thinks).
const SANDBOX_SECONDS_PER_TURN: f64 = 22.0;
/// The sandbox wall-clock limit a `SANDBOX_TIMEOUT` attempt used up.
const SANDBOX_LIMIT_SECONDS: f64 = 1_800.0;
/// What the training run cost, by kind (a fixed account: the demo does not simulate training).
const TRAINING_COSTS: Costs = Costs {
    training: 1_284_000.0,
    inference: 312_480.5,
    grading: 9_830.4,
    sandbox: 41_272.75,
};

/// A run's costs by kind, in cents.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Costs {
    /// Training.
    pub training: f64,
    /// Inference (the policy's model calls).
    pub inference: f64,
    /// Grading.
    pub grading: f64,
    /// Sandboxes.
    pub sandbox: f64,
}

impl Costs {
    /// Each kind rounded to hundredths of a cent, as billing reports them.
    pub fn rounded(self) -> Self {
        let r = |c: f64| (c * 100.0).round() / 100.0;
        Self {
            training: r(self.training),
            inference: r(self.inference),
            grading: r(self.grading),
            sandbox: r(self.sandbox),
        }
    }

    /// The total of the (rounded) kinds.
    pub fn total(self) -> f64 {
        let sum = self.training + self.inference + self.grading + self.sandbox;
        (sum * 100.0).round() / 100.0
    }

    fn add(&mut self, other: Costs) {
        self.training += other.training;
        self.inference += other.inference;
        self.grading += other.grading;
        self.sandbox += other.sandbox;
    }
}

/// Prompt and completion tokens of an attempt's first `turns` model calls.
pub fn tokens(turns: u32) -> (f64, f64) {
    let n = f64::from(turns);
    let prompt = n * PROMPT_BASE + PROMPT_GROWTH * n * (n - 1.0).max(0.0) / 2.0;
    (prompt, n * COMPLETION_PER_TURN)
}

/// Turns an attempt has taken at `progress` (all of them once it stopped executing).
fn turns_taken(attempt: &Attempt, progress: Progress) -> u32 {
    let total = attempt.outcome.num_steps;
    match attempt.state(progress) {
        AttemptState::Waiting => 0,
        AttemptState::Running { done } => ((f64::from(total) * done) as u32).min(total),
        AttemptState::AwaitingResult | AttemptState::Finished => total,
    }
}

/// What one attempt has cost at `progress`.
pub fn attempt_costs(attempt: &Attempt, progress: Progress) -> Costs {
    let state = attempt.state(progress);
    if state == AttemptState::Waiting {
        return Costs::default();
    }
    let turns = turns_taken(attempt, progress);
    let (prompt, completion) = tokens(turns);
    let finished = state == AttemptState::Finished;
    let sandbox_seconds = match attempt.outcome.ending {
        Ending::SandboxTimeout if finished => SANDBOX_LIMIT_SECONDS,
        _ => SANDBOX_SETUP_SECONDS + SANDBOX_SECONDS_PER_TURN * f64::from(turns),
    };
    Costs {
        training: 0.0,
        inference: prompt * PROMPT_CENTS_PER_TOKEN + completion * COMPLETION_CENTS_PER_TOKEN,
        grading: if finished && attempt.outcome.grade.is_some() {
            GRADING_CENTS
        } else {
            0.0
        },
        sandbox: sandbox_seconds * SANDBOX_CENTS_PER_SECOND,
    }
}

/// What an evaluation run has cost at `progress` (its own point of the schedule), rounded;
/// once past its last attempt's end, the same every time (summed once).
pub fn run_costs(run: &EvalRun, progress: Progress) -> Costs {
    if progress.fraction() >= run.end_fraction() {
        return *run.final_costs.get_or_init(|| summed_costs(run, progress));
    }
    summed_costs(run, progress)
}

/// [`run_costs`], summed over the run's attempts.
fn summed_costs(run: &EvalRun, progress: Progress) -> Costs {
    let mut costs = Costs::default();
    for attempt in &run.attempts {
        costs.add(attempt_costs(attempt, progress));
    }
    costs.rounded()
}

/// One row of the billing list, before it is written in the contract's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct BillingRow {
    /// The run's id.
    pub run_id: String,
    /// Its name.
    pub name: String,
    /// `eval` or `training`.
    pub kind: &'static str,
    /// Its status (`EvalRunLifecycleStatus` or the training run's).
    pub status: &'static str,
    /// When it was launched.
    pub launch_at: Timestamp,
    /// Its costs, rounded.
    pub costs: Costs,
}

/// Whether a run launched at `launch_at` falls in the billing window.
pub fn in_window(launch_at: Timestamp) -> bool {
    launch_at.0 + BILLING_WINDOW_DAYS * 86_400 >= BILLING_AS_OF.0
}

/// Every billing row: the training run and the evaluations launched in the window, in the
/// dataset's order; `running` is where the running evaluation stands.
pub fn billing_rows(data: &Dataset, running: Progress) -> Vec<BillingRow> {
    let training = BillingRow {
        run_id: TRAINING_RUN_ID.to_owned(),
        name: TRAINING_RUN_NAME.to_owned(),
        kind: "training",
        status: "succeeded",
        launch_at: TRAINING_CREATED_AT,
        costs: TRAINING_COSTS.rounded(),
    };
    let evals = data
        .runs
        .iter()
        .filter(|run| in_window(run.plan.created_at))
        .map(|run| {
            let progress = run.progress(running);
            BillingRow {
                run_id: run.plan.eval_run_id.clone(),
                name: run.plan.display_name.clone(),
                kind: "eval",
                status: run.status(progress).as_str(),
                launch_at: run.plan.created_at,
                costs: run_costs(run, progress),
            }
        });
    std::iter::once(training)
        .filter(|row| in_window(row.launch_at))
        .chain(evals)
        .collect()
}

/// The id of the billing snapshot `rows` make: the same rows, the same id.
pub fn snapshot_id(rows: &[BillingRow]) -> String {
    let hash = rows.iter().fold(0x5eed_b111u64, |acc, row| {
        mix64(acc ^ row.costs.total().to_bits() ^ mix64(row.run_id.len() as u64))
    });
    format!("bsnap_{hash:016x}")
}

/// One distribution of a run's rollouts.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// The setting it represents (`max_turns`, ...).
    pub knob_name: &'static str,
    /// Its unit.
    pub unit: &'static str,
    /// The observed values, one per sampled trajectory.
    pub samples: Vec<f64>,
}

/// The most trajectories a statistic samples.
pub const MAX_STATISTIC_SAMPLES: usize = 1_000;

/// The runtime distributions of a run's finished trajectories (every k-th one in the run's
/// order, at most [`MAX_STATISTIC_SAMPLES`]): turns against the turn limit, tokens per turn
/// against the output limit, total tokens against the trajectory's token limit, seconds
/// against the execution timeout. Empty before the run has finished.
pub fn rollout_distributions(run: &EvalRun, progress: Progress) -> Vec<Distribution> {
    let finished: Vec<&Attempt> = run
        .attempts
        .iter()
        .filter(|a| a.state(progress) == AttemptState::Finished)
        .collect();
    if finished.is_empty() || run.status(progress) == super::live::RunStatus::Running {
        return Vec::new();
    }
    let step = finished.len().div_ceil(MAX_STATISTIC_SAMPLES);
    let sampled: Vec<&Attempt> = finished.into_iter().step_by(step).collect();
    let of = |f: &dyn Fn(&Attempt) -> f64| sampled.iter().map(|a| f(a)).collect::<Vec<f64>>();
    let turns = |a: &Attempt| f64::from(a.outcome.num_steps);
    vec![
        Distribution {
            knob_name: "max_turns",
            unit: "turns",
            samples: of(&turns),
        },
        Distribution {
            knob_name: "max_output_tokens_per_step",
            unit: "tokens",
            samples: of(&|a| {
                if a.outcome.num_steps == 0 {
                    0.0
                } else {
                    COMPLETION_PER_TURN
                }
            }),
        },
        Distribution {
            knob_name: "max_total_tokens_per_trajectory",
            unit: "tokens",
            samples: of(&|a| {
                let (prompt, completion) = tokens(a.outcome.num_steps);
                (prompt + completion).round()
            }),
        },
        Distribution {
            knob_name: "execution_timeout_seconds",
            unit: "seconds",
            samples: of(&|a| ((a.window.end - a.window.start) * RUN_SECONDS as f64).round()),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::DEFAULT_SEED;

    #[test]
    fn longer_checkpoints_cost_more_and_the_parts_add_up() {
        let data = Dataset::generate(DEFAULT_SEED);
        let rows = billing_rows(&data, Progress::at(0.5));
        let row = |id: &str| rows.iter().find(|r| r.run_id == id);
        assert!(row("eval_base_v1").is_none(), "launched before the window");
        let (Some(base), Some(s400)) = (row("eval_base_v2"), row("eval_ckpt_s400")) else {
            panic!("rows missing: {rows:?}");
        };
        assert!(s400.costs.inference > 1.3 * base.costs.inference);
        assert!(s400.costs.sandbox > base.costs.sandbox);
        assert!(s400.costs.grading > 0.0 && base.costs.training == 0.0);
        for r in &rows {
            let c = r.costs;
            let sum = c.training + c.inference + c.grading + c.sandbox;
            assert!((c.total() - sum).abs() < 0.006, "{r:?}");
        }
        let training = row(TRAINING_RUN_ID).map(|r| r.kind);
        assert_eq!(training, Some("training"));
        let running = row("eval_ckpt_s500").map(|r| (r.status, r.costs.total()));
        let done = billing_rows(&data, Progress::DONE);
        let finished = done.iter().find(|r| r.run_id == "eval_ckpt_s500");
        assert!(matches!(running, Some(("running", c)) if c > 0.0));
        assert!(finished.is_some_and(
            |r| r.status == "completed" && running.is_some_and(|(_, c)| r.costs.total() > c)
        ));
        assert_eq!(snapshot_id(&rows), snapshot_id(&rows.clone()));
        assert_ne!(snapshot_id(&rows), snapshot_id(&done));
    }

    #[test]
    fn the_token_model_follows_the_transcripts() {
        let data = Dataset::generate(DEFAULT_SEED);
        for id in ["eval_base_v2", "eval_ckpt_s400"] {
            let Some(run) = data.run(id) else {
                panic!("no {id}");
            };
            let bench = data.bench_of(run);
            let (mut model, mut written) = ((0.0, 0.0), (0.0, 0.0));
            for attempt in run.attempts.iter().step_by(7).take(300) {
                let source = attempt.transcript(run, &bench.tasks[attempt.task], true);
                let turns = crate::dataset::transcript::turns(&source, attempt.outcome.num_steps);
                let replies = turns.iter().filter_map(|t| t.reply());
                for reply in replies {
                    written.0 += reply.prompt_tokens.unwrap_or(0) as f64;
                    written.1 += reply.completion_tokens.unwrap_or(0) as f64;
                }
                let (prompt, completion) = tokens(attempt.outcome.num_steps);
                model.0 += prompt;
                model.1 += completion;
            }
            if std::env::var("CALIBRATE").is_ok() {
                continue;
            }
            assert!(
                (0.85..1.15).contains(&(model.0 / written.0)),
                "{id} prompt {model:?} {written:?}"
            );
            assert!(
                (0.85..1.15).contains(&(model.1 / written.1)),
                "{id} completion {model:?} {written:?}"
            );
        }
    }

    #[test]
    fn statistics_sample_finished_runs_only() {
        let data = Dataset::generate(DEFAULT_SEED);
        let Some(run) = data.run("eval_ckpt_s400") else {
            panic!("no s400");
        };
        let stats = rollout_distributions(run, Progress::DONE);
        assert_eq!(stats.len(), 4);
        let turns = &stats[0].samples;
        assert!(!turns.is_empty() && turns.len() <= MAX_STATISTIC_SAMPLES);
        assert!(turns.iter().all(|&t| t <= 50.0));
        let Some(running) = data.run("eval_ckpt_s500") else {
            panic!("no s500");
        };
        assert!(rollout_distributions(running, Progress::at(0.5)).is_empty());
        assert_eq!(rollout_distributions(running, Progress::DONE).len(), 4);
    }
}
