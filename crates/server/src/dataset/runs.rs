//! The evaluation runs of the dataset: their plans (fixed) and their simulated attempts (seeded).

use super::catalog::{
    checkpoint_created_at, AGENT_ID, BENCH_V1, BENCH_V2, HELD_OUT_SAMPLES, HELD_OUT_STEPS,
    HELD_OUT_TASKS,
};
use super::outcome::{
    sample_outcome, Ending, EndingRates, Outcome, SHORT_TURN_RATES, STANDARD_RATES,
};
use super::rng::{derive, label, SplitMix64};
use super::scale::DemoScale;
use super::scorecard_scale::FINAL_STEP;
use super::suites::pass_or_fail;
use super::tasks::{Benchmark, Task};
use super::time::Timestamp;
use super::transcript::{Policy, TranscriptSource};

/// Sampling and limit settings recorded with a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Sampling temperature.
    pub temperature: f64,
    /// Nucleus sampling.
    pub top_p: f64,
    /// Turn limit per trajectory.
    pub max_turns: u32,
    /// Samples per task.
    pub samples_per_task: u32,
    /// Output-token limit per step.
    pub max_output_tokens_per_step: u32,
    /// Token limit per trajectory.
    pub max_total_tokens_per_trajectory: u32,
    /// Sandbox time limit per attempt.
    pub execution_timeout_seconds: u32,
}

/// The settings of every run unless stated otherwise.
pub const STANDARD_SETTINGS: Settings = Settings {
    temperature: 0.6,
    top_p: 0.95,
    max_turns: 50,
    samples_per_task: 4,
    max_output_tokens_per_step: 4_096,
    max_total_tokens_per_trajectory: 65_536,
    execution_timeout_seconds: 1_800,
};

/// The evaluation defaults' temperature and top_p (`GET /api/v1/eval/options`).
pub const DEFAULT_TEMPERATURE: f64 = 1.0;
/// See [`DEFAULT_TEMPERATURE`].
pub const DEFAULT_TOP_P: f64 = 1.0;
/// The evaluation defaults' execution timeout.
pub const DEFAULT_EXECUTION_TIMEOUT_SECONDS: u32 = 7_200;

/// The settings of the sampling experiment: hotter sampling (the evaluation defaults), a
/// tighter turn limit.
pub const HOT_SHORT_SETTINGS: Settings = Settings {
    temperature: DEFAULT_TEMPERATURE,
    top_p: DEFAULT_TOP_P,
    max_turns: 20,
    ..STANDARD_SETTINGS
};

/// Which of its settings a run recorded in its `options`; the others it did not set, so it ran
/// with the inherited or default value (its [`Settings`] are the values that applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// Every sampling and limit setting.
    All,
    /// The limits and samples per task, not temperature or top_p (the evaluation defaults
    /// applied).
    NoSampling,
    /// Only samples per task (and the task cap): a checkpoint evaluation launched with the rest
    /// left to its training run's settings and the evaluation defaults.
    SamplesOnly,
}

/// A run's failure, as recorded (`AsyncFailure`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunFailure {
    /// Stable category.
    pub kind: &'static str,
    /// Stable reason code.
    pub code: &'static str,
    /// Explanation.
    pub message: &'static str,
    /// The runtime that failed.
    pub runtime_id: &'static str,
}

/// How a run's life goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lifecycle {
    /// Finished every attempt.
    Completed,
    /// Failed when its schedule reached the fraction `at`: attempts in flight were cancelled,
    /// the others never started.
    Failed {
        /// Fraction of the schedule reached.
        at: f64,
        /// The recorded failure.
        failure: RunFailure,
    },
    /// Still running: its schedule advances with wall-clock time since the server started.
    Running,
}

/// The fixed description of one evaluation run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPlan {
    /// `eval_run_id`.
    pub eval_run_id: String,
    /// Short tag used inside trajectory, rollout and sample ids.
    pub tag: String,
    /// `display_name`.
    pub display_name: String,
    /// `bench_id` of the evaluated benchmark version.
    pub bench_id: &'static str,
    /// Training step of the evaluated checkpoint; none for the base model.
    pub checkpoint_step: Option<u32>,
    /// The settings that applied.
    pub settings: Settings,
    /// Which of them the run recorded.
    pub recorded: Recorded,
    /// Creation time.
    pub created_at: Timestamp,
    /// How its life goes.
    pub lifecycle: Lifecycle,
    /// Shift of the policy's ability on the logit scale (worse sampling settings).
    pub ability_shift: f64,
    /// Relative frequencies of endings.
    pub rates: EndingRates,
    /// Attempts (the first ones to run) whose harness did not record their task id.
    pub untasked: u32,
    /// `evaluation_max_samples`: how many of the available test tasks a capped run selects
    /// (a seeded random subset); none runs every test task.
    pub max_samples: Option<u32>,
}

/// Simulated hours a full run takes; timestamps of attempts spread over it.
pub const RUN_SECONDS: u64 = 3 * 3_600;

/// Tasks the capped run on the first benchmark version selects at the default scale (of 400);
/// other scales keep the share (75%).
pub const CAPPED_TASKS: u32 = 300;

/// The eval run id, id tag and display name of the codefix v2 checkpoint evaluation at `step`.
pub fn checkpoint_eval(step: u32) -> (String, String, String) {
    (
        format!("eval_ckpt_s{step}"),
        format!("s{step}"),
        format!("Checkpoint step {step}"),
    )
}

/// When the codefix v2 evaluation of the checkpoint at `step` was created: the default steps'
/// fixed times, other steps' (`--demo-scorecard`) half a day after their checkpoint.
fn checkpoint_eval_created_at(step: u32) -> Timestamp {
    match step {
        100 => Timestamp::utc(2026, 9, 26, 9, 0),
        200 => Timestamp::utc(2026, 9, 28, 15, 0),
        300 => Timestamp::utc(2026, 10, 1, 9, 0),
        400 => Timestamp::utc(2026, 10, 5, 9, 0),
        500 => Timestamp::utc(2026, 10, 12, 8, 0),
        _ => checkpoint_created_at(step).plus(12 * 3_600),
    }
}

/// The codefix runs at `scale`, oldest first: `scale.samples` samples per task for every run,
/// the capped run's cap the share [`CAPPED_TASKS`] of the test tasks, the same two untasked
/// attempts and the same failure point (a share of the schedule) at every scale; a checkpoint
/// evaluation of every checkpoint step, the first one of step 200 failed, the last step's
/// running.
pub fn plans(scale: DemoScale) -> Vec<RunPlan> {
    let capped = scale.share(CAPPED_TASKS);
    let standard = Settings {
        samples_per_task: scale.samples,
        ..STANDARD_SETTINGS
    };
    let base = |eval_run_id: &str, tag: &str, display_name: &str, bench_id, created_at| RunPlan {
        eval_run_id: eval_run_id.to_owned(),
        tag: tag.to_owned(),
        display_name: display_name.to_owned(),
        bench_id,
        checkpoint_step: None,
        settings: standard,
        recorded: Recorded::All,
        created_at,
        lifecycle: Lifecycle::Completed,
        ability_shift: 0.0,
        rates: STANDARD_RATES,
        untasked: 0,
        max_samples: None,
    };
    let checkpoint = |step: u32, created_at| {
        let (eval_run_id, tag, display_name) = checkpoint_eval(step);
        RunPlan {
            checkpoint_step: Some(step),
            ..base(&eval_run_id, &tag, &display_name, BENCH_V2, created_at)
        }
    };
    let mut plans = vec![
        RunPlan {
            max_samples: Some(capped),
            ..base(
                "eval_base_v1",
                "basev1",
                &format!("Baseline qwen3-235b (codefix v1, {capped} tasks)"),
                BENCH_V1,
                Timestamp::utc(2026, 8, 5, 9, 0),
            )
        },
        RunPlan {
            untasked: 2,
            ..base(
                "eval_base_v2",
                "basev2",
                "Baseline qwen3-235b",
                BENCH_V2,
                Timestamp::utc(2026, 9, 22, 10, 0),
            )
        },
        RunPlan {
            // Launched with the turn limit only: it sampled at the evaluation defaults.
            settings: Settings {
                samples_per_task: scale.samples,
                ..HOT_SHORT_SETTINGS
            },
            recorded: Recorded::NoSampling,
            ability_shift: -0.35,
            rates: SHORT_TURN_RATES,
            ..base(
                "eval_base_v2_hot",
                "basehot",
                "Baseline qwen3-235b, temperature 1.0, 20 turns",
                BENCH_V2,
                Timestamp::utc(2026, 9, 23, 14, 0),
            )
        },
    ];
    let steps = scale.scorecard.steps();
    for &step in &steps {
        let created_at = checkpoint_eval_created_at(step);
        if step == 200 {
            plans.push(RunPlan {
                eval_run_id: "eval_ckpt_s200_failed".into(),
                tag: "s200x".into(),
                display_name: "Checkpoint step 200 (first attempt)".into(),
                // Launched with samples per task only: sampling and limits came from the training
                // run, the execution timeout from the evaluation defaults.
                settings: Settings {
                    execution_timeout_seconds: DEFAULT_EXECUTION_TIMEOUT_SECONDS,
                    ..standard
                },
                recorded: Recorded::SamplesOnly,
                lifecycle: Lifecycle::Failed {
                    at: 0.27,
                    failure: RunFailure {
                        kind: "dependency_error",
                        code: "sandbox_runtime_unavailable",
                        message: "The benchmark's sandbox runtime stopped responding; outstanding attempts were cancelled.",
                        runtime_id: "rt_codefix_py312",
                    },
                },
                ..checkpoint(200, Timestamp::utc(2026, 9, 28, 9, 0))
            });
        }
        plans.push(if Some(&step) == steps.last() {
            RunPlan {
                lifecycle: Lifecycle::Running,
                ..checkpoint(step, created_at)
            }
        } else {
            checkpoint(step, created_at)
        });
    }
    plans
}

/// The share of a run's schedule an attempt occupies, as fractions of the whole run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// When it started.
    pub start: f64,
    /// When it ended.
    pub end: f64,
}

/// One attempt (rollout) of a run: a task sample and, once started, its trajectory. Its ids
/// are not stored: [`EvalRun::ids`] derives them from the run's tag, the task id and the
/// sample number.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// Index of the task in the run's benchmark version.
    pub task: usize,
    /// Whether the trajectory recorded its task id (a few early ones of one run did not).
    pub task_recorded: bool,
    /// Sample number within the task, from 0.
    pub sample: u32,
    /// When it ran.
    pub window: Window,
    /// How it ended (or will end, for attempts of a running run).
    pub outcome: Outcome,
    /// Seed of its transcript's own turns.
    pub transcript_seed: u64,
    /// Seed of the first turns every attempt at its task shares.
    pub script_seed: u64,
}

/// The ids of one attempt: `smp_`, `trj_` and `ro_` then `{tag}_{task id}_{sample}`, and its
/// group `grp_{tag}_{task id}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptIds<'a> {
    /// The run's tag.
    pub tag: &'a str,
    /// The task's id.
    pub task_id: &'a str,
    /// The sample number.
    pub sample: u32,
}

impl AttemptIds<'_> {
    fn with(&self, prefix: &str) -> String {
        format!("{prefix}_{}_{}_{}", self.tag, self.task_id, self.sample)
    }

    /// `sample_id`.
    pub fn sample_id(&self) -> String {
        self.with("smp")
    }

    /// `trajectory_id`.
    pub fn trajectory_id(&self) -> String {
        self.with("trj")
    }

    /// `rollout_id`.
    pub fn rollout_id(&self) -> String {
        self.with("ro")
    }

    /// `trajectory_group_id`: every sample of the task in the run.
    pub fn group_id(&self) -> String {
        format!("grp_{}_{}", self.tag, self.task_id)
    }

    /// The parts of a trajectory id, if it has the shape of one (tags and task ids hold no
    /// `_`); whether such a trajectory exists is the dataset's to say.
    pub fn parse_trajectory_id(trajectory_id: &str) -> Option<AttemptIds<'_>> {
        let rest = trajectory_id.strip_prefix("trj_")?;
        let (tag, rest) = rest.split_once('_')?;
        let (task_id, sample) = rest.split_once('_')?;
        let sample = sample
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| sample.parse().ok())
            .flatten()?;
        Some(AttemptIds {
            tag,
            task_id,
            sample,
        })
    }
}

impl Attempt {
    /// What its transcript is generated from, in `run` on `task`.
    pub fn transcript<'a>(
        &'a self,
        run: &EvalRun,
        task: &'a Task,
        finished: bool,
    ) -> TranscriptSource<'a> {
        TranscriptSource {
            task,
            outcome: &self.outcome,
            seed: self.transcript_seed,
            script_seed: self.script_seed,
            policy: match run.plan.checkpoint_step {
                Some(_) => Policy::Checkpoint,
                None => Policy::Base,
            },
            max_output_tokens: run.plan.settings.max_output_tokens_per_step,
            finished,
        }
    }
}

/// A run with its attempts.
#[derive(Debug, Clone)]
pub struct EvalRun {
    /// The plan.
    pub plan: RunPlan,
    /// Index of its benchmark version in the dataset.
    pub bench: usize,
    /// Attempts that started (all of them unless the run failed), in execution order.
    pub attempts: Vec<Attempt>,
    /// Rollouts scheduled at launch: selected tasks times samples per task.
    pub total_rollouts: u32,
    /// Test tasks available at launch.
    pub available_tasks: u32,
    /// Tasks selected.
    pub selected_tasks: u32,
    /// Its attempts in the orders its lists are sorted by, computed once.
    pub orders: AttemptOrders,
    /// Attempt index by `task * samples_per_task + sample` ([`NO_ATTEMPT`] where none
    /// started).
    by_task_sample: Vec<u32>,
    /// Where on its schedule its last attempt ends.
    end_fraction: f64,
    /// What it costs once its last attempt ended ([`super::billing::run_costs`]), summed over
    /// its attempts the first time it is asked: a finished run's costs never change, and its
    /// record and the billing list are asked for again and again.
    pub(crate) final_costs: std::sync::OnceLock<super::billing::Costs>,
}

/// Marks a task sample without an attempt in [`EvalRun`]'s index.
const NO_ATTEMPT: u32 = u32::MAX;

/// A run's attempt indices in the ascending order of each key its lists sort by. Ids compare
/// as text, so within a run (one tag; task ids of one width) trajectory, sample and rollout
/// ids all sort by task, then by the sample number's decimal text (`10` before `2`).
#[derive(Debug, Clone, Default)]
pub struct AttemptOrders {
    /// By trajectory id (also sample id): the `sort=trajectory_id` and remaining-work lists.
    pub by_id: Vec<u32>,
    /// Untasked attempts first, then by task id; trajectory id within: the trajectory-rewards
    /// and `sort=task_id` lists.
    pub by_task: Vec<u32>,
    /// By creation time (the start's whole second), then trajectory id: `sort=created_at`.
    pub by_created: Vec<u32>,
}

/// The rank of each sample number's decimal text among `0..samples`.
fn sample_text_ranks(samples: u32) -> Vec<u32> {
    let mut texts: Vec<(String, u32)> = (0..samples).map(|s| (s.to_string(), s)).collect();
    texts.sort_unstable();
    let mut ranks = vec![0; samples as usize];
    for (rank, (_, sample)) in texts.into_iter().enumerate() {
        ranks[sample as usize] = rank as u32;
    }
    ranks
}

impl AttemptOrders {
    fn of(plan: &RunPlan, attempts: &[Attempt]) -> Self {
        let ranks = sample_text_ranks(plan.settings.samples_per_task);
        let id_key = |a: &Attempt| (a.task as u64) << 8 | u64::from(ranks[a.sample as usize]);
        let sorted = |key: &dyn Fn(&Attempt) -> (u64, u64)| {
            let mut keyed: Vec<((u64, u64), u32)> = attempts
                .iter()
                .enumerate()
                .map(|(i, a)| (key(a), i as u32))
                .collect();
            keyed.sort_unstable();
            keyed.into_iter().map(|(_, i)| i).collect()
        };
        let start_second = |a: &Attempt| start_seconds(a.window.start);
        Self {
            by_id: sorted(&|a| (0, id_key(a))),
            by_task: sorted(&|a| (u64::from(a.task_recorded), id_key(a))),
            by_created: sorted(&|a| (start_second(a), id_key(a))),
        }
    }
}

/// The whole seconds after its run's creation at which an attempt starting at `fraction` of
/// the schedule was created.
pub fn start_seconds(fraction: f64) -> u64 {
    (fraction.max(0.0) * RUN_SECONDS as f64).round() as u64
}

impl EvalRun {
    /// The agent owning the run.
    pub fn agent_id(&self) -> &'static str {
        AGENT_ID
    }

    /// The ids of one of its attempts (`bench` is its benchmark version).
    pub fn ids<'a>(&'a self, bench: &'a Benchmark, attempt: &Attempt) -> AttemptIds<'a> {
        AttemptIds {
            tag: &self.plan.tag,
            task_id: bench.task_ids.get(attempt.task),
            sample: attempt.sample,
        }
    }

    /// The attempt at sample `sample` of the task at `task` (an index into its benchmark
    /// version), if one started.
    pub fn attempt_at(&self, task: usize, sample: u32) -> Option<&Attempt> {
        let samples = self.plan.settings.samples_per_task;
        if sample >= samples {
            return None;
        }
        let slot = task.checked_mul(samples as usize)? + sample as usize;
        match *self.by_task_sample.get(slot)? {
            NO_ATTEMPT => None,
            index => self.attempts.get(index as usize),
        }
    }

    /// The point of the schedule at which the last attempt ends.
    pub fn end_fraction(&self) -> f64 {
        self.end_fraction
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

const INTERCEPT: f64 = -0.5;

/// What training to `step` does to a task: diminishing returns, scaled by its trainability.
fn training_gain(task: &Task, step: u32) -> f64 {
    1.4 * task.trainability * (f64::from(step) / 500.0).powf(0.8)
}

/// The latent probability that the policy of a run solves a task.
fn pass_probability(seed: u64, run_label: u64, task: &Task, step: Option<u32>, shift: f64) -> f64 {
    // A run-by-task interaction shared by every sample of the task in this run.
    let interaction =
        0.3 * SplitMix64::stream(seed, &[run_label, label(&task.task_id), label("skill")]).normal();
    let gain = step.map_or(0.0, |step| training_gain(task, step));
    sigmoid(INTERCEPT + gain + shift + interaction - task.difficulty)
}

/// What training to `step` has forgotten of `bench` (logit scale): its forgetting, growing with
/// the square of the step's share of the run; nothing for the base model.
fn forgotten(bench: &Benchmark, step: Option<u32>) -> f64 {
    step.map_or(0.0, |step| {
        bench.forgetting * (f64::from(step) / f64::from(FINAL_STEP)).powi(2)
    })
}

/// Simulates the attempts of one run.
pub fn simulate(seed: u64, plan: RunPlan, bench_index: usize, bench: &Benchmark) -> EvalRun {
    let run_label = label(&plan.eval_run_id);
    let available: Vec<usize> = bench.test_tasks().map(|(i, _)| i).collect();
    let test_tasks = select_tasks(seed, run_label, bench, &available, plan.max_samples);
    let samples = plan.settings.samples_per_task;
    let mut attempts = Vec::with_capacity(test_tasks.len() * samples as usize);
    for &index in &test_tasks {
        let task = &bench.tasks[index];
        let p = pass_probability(
            seed,
            run_label,
            task,
            plan.checkpoint_step,
            plan.ability_shift - forgotten(bench, plan.checkpoint_step),
        );
        for sample in 0..samples {
            let mut rng =
                SplitMix64::stream(seed, &[run_label, label(&task.task_id), u64::from(sample)]);
            let outcome = sample_outcome(
                &mut rng,
                &plan.rates,
                p,
                task.difficulty,
                plan.settings.max_turns,
            );
            let outcome = outcome.with_effort(plan.checkpoint_step, plan.settings.max_turns);
            let outcome = if bench.binary {
                pass_or_fail(outcome)
            } else {
                outcome
            };
            attempts.push(attempt(seed, &plan, index, task, sample, outcome));
        }
    }
    schedule(seed, run_label, &mut attempts);
    for a in attempts.iter_mut().take(plan.untasked as usize) {
        a.task_recorded = false;
    }
    if let Lifecycle::Failed { at, .. } = plan.lifecycle {
        attempts.retain(|a| a.window.start < at);
        for a in attempts.iter_mut().filter(|a| a.window.end > at) {
            let done = (at - a.window.start) / (a.window.end - a.window.start);
            let steps = ((f64::from(a.outcome.num_steps) * done) as u32).max(1);
            a.outcome = Outcome::cancelled(steps);
            a.window.end = at;
        }
    }
    let selected = test_tasks.len() as u32;
    let mut by_task_sample = vec![NO_ATTEMPT; bench.tasks.len() * samples as usize];
    for (i, a) in attempts.iter().enumerate() {
        by_task_sample[a.task * samples as usize + a.sample as usize] = i as u32;
    }
    EvalRun {
        bench: bench_index,
        orders: AttemptOrders::of(&plan, &attempts),
        end_fraction: attempts.iter().map(|a| a.window.end).fold(0.0, f64::max),
        final_costs: std::sync::OnceLock::new(),
        by_task_sample,
        attempts,
        total_rollouts: selected * samples,
        available_tasks: available.len() as u32,
        selected_tasks: selected,
        plan,
    }
}

/// The tasks a run evaluates, in task order: every available one, or a seeded random subset of
/// `max_samples` of them.
fn select_tasks(
    seed: u64,
    run_label: u64,
    bench: &Benchmark,
    available: &[usize],
    max_samples: Option<u32>,
) -> Vec<usize> {
    let Some(max) = max_samples
        .map(|m| m as usize)
        .filter(|&m| m < available.len())
    else {
        return available.to_vec();
    };
    let mut ranked: Vec<(u64, usize)> = available
        .iter()
        .map(|&i| {
            (
                derive(
                    seed,
                    &[run_label, label(&bench.tasks[i].task_id), label("select")],
                ),
                i,
            )
        })
        .collect();
    ranked.sort_unstable();
    let mut chosen: Vec<usize> = ranked.into_iter().take(max).map(|(_, i)| i).collect();
    chosen.sort_unstable();
    chosen
}

fn attempt(
    seed: u64,
    plan: &RunPlan,
    index: usize,
    task: &Task,
    sample: u32,
    outcome: Outcome,
) -> Attempt {
    let trajectory_id = AttemptIds {
        tag: &plan.tag,
        task_id: &task.task_id,
        sample,
    }
    .trajectory_id();
    Attempt {
        task: index,
        task_recorded: true,
        sample,
        window: Window {
            start: 0.0,
            end: 0.0,
        },
        outcome,
        transcript_seed: derive(seed, &[label(&trajectory_id)]),
        script_seed: derive(seed, &[label(&task.task_id), label("script")]),
    }
}

/// Spreads attempts over the run's schedule in a seeded random execution order, each taking
/// between 1% and 4% of the run; the last one ends by the end of the schedule.
fn schedule(seed: u64, run_label: u64, attempts: &mut [Attempt]) {
    let mut rng = SplitMix64::stream(seed, &[run_label, label("schedule")]);
    rng.shuffle(attempts);
    let n = attempts.len().max(1) as f64;
    for (position, a) in attempts.iter_mut().enumerate() {
        let start = 0.96 * position as f64 / n;
        a.window = Window {
            start,
            end: start + 0.01 + 0.03 * rng.unit(),
        };
    }
}

/// One held-out evaluation round of the training run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldOutRound {
    /// Training step.
    pub step: u32,
    /// Mean reward over loaded trajectories.
    pub reward: f64,
    /// Tasks times samples per task.
    pub expected: u32,
    /// Samples completed.
    pub completed: u32,
    /// Samples failed.
    pub failed: u32,
    /// Samples cancelled.
    pub cancelled: u32,
    /// Trajectories with a reward: the denominator of `reward`.
    pub loaded: u32,
}

/// The test tasks of each held-out round at `scale`: the share [`HELD_OUT_TASKS`] of the
/// default's 400 (16%), every sixth test task.
pub fn held_out_tasks(scale: DemoScale) -> u32 {
    scale.share(HELD_OUT_TASKS)
}

/// Simulates the training run's held-out rounds over a fixed subset of test tasks.
pub fn held_out_rounds(seed: u64, bench: &Benchmark, scale: DemoScale) -> Vec<HeldOutRound> {
    let tasks: Vec<&Task> = bench
        .test_tasks()
        .map(|(_, t)| t)
        .step_by(6)
        .take(held_out_tasks(scale) as usize)
        .collect();
    HELD_OUT_STEPS
        .iter()
        .map(|&step| {
            let round_label = derive(label("held-out"), &[u64::from(step)]);
            let (mut sum, mut loaded, mut failed, mut cancelled) = (0.0, 0u32, 0u32, 0u32);
            for task in &tasks {
                let p = pass_probability(seed, round_label, task, Some(step), 0.0);
                for sample in 0..HELD_OUT_SAMPLES {
                    let mut rng = SplitMix64::stream(
                        seed,
                        &[round_label, label(&task.task_id), u64::from(sample)],
                    );
                    let o = sample_outcome(
                        &mut rng,
                        &STANDARD_RATES,
                        p,
                        task.difficulty,
                        STANDARD_SETTINGS.max_turns,
                    );
                    if o.ending.is_execution_failure() {
                        failed += 1;
                    } else if o.ending == Ending::Cancelled {
                        cancelled += 1;
                    }
                    if let Some(reward) = o.reward {
                        sum += reward;
                        loaded += 1;
                    }
                }
            }
            let expected = tasks.len() as u32 * HELD_OUT_SAMPLES;
            HeldOutRound {
                step,
                reward: if loaded > 0 {
                    sum / f64::from(loaded)
                } else {
                    0.0
                },
                expected,
                completed: expected - failed - cancelled,
                failed,
                cancelled,
                loaded,
            }
        })
        .collect()
}
