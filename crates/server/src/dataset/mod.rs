//! The demo dataset: one agent, two versions of one benchmark (codefix), a baseline, a training
//! run with checkpoint evaluations (one still running), a run on the older benchmark version and
//! a run with other sampling settings; and five more benchmarks the agent is evaluated on
//! ([`suites`]), each with a baseline and the training run's checkpoints evaluated on it
//! ([`suite_runs`]: the cases of a checkpoint scorecard). Generated deterministically from a
//! seed (and a [`DemoScale`]) at start-up.

pub mod billing;
pub mod catalog;
pub mod live;
pub mod outcome;
pub mod rng;
pub mod runs;
pub mod scale;
pub mod scorecard_scale;
pub mod suite_runs;
pub mod suites;
pub mod tasks;
pub mod time;
pub mod transcript;

use catalog::BENCH_V2;
use runs::{held_out_rounds, plans, simulate, Attempt, AttemptIds, EvalRun, HeldOutRound};
use scale::DemoScale;
use suite_runs::suite_plans;
use suites::SUITES;
use tasks::{benchmarks, Benchmark};

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 20_261_014;

/// The whole simulated platform state.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The seed it was generated from.
    pub seed: u64,
    /// Its size.
    pub scale: DemoScale,
    /// Benchmark versions: codefix's two, oldest first, then the added benchmarks ([`SUITES`]).
    pub benchmarks: Vec<Benchmark>,
    /// Evaluation runs: codefix's, oldest first, then the added benchmarks' ([`suite_plans`]).
    pub runs: Vec<EvalRun>,
    /// The training run's held-out rounds, by ascending step.
    pub held_out: Vec<HeldOutRound>,
}

impl Dataset {
    /// Generates the default-sized dataset of `seed`.
    pub fn generate(seed: u64) -> Self {
        Self::generate_scaled(seed, DemoScale::DEFAULT)
    }

    /// Generates the dataset of `seed` at `scale`; the runs are simulated on their own threads
    /// (each from its own seeded streams, so the result does not depend on the scheduling).
    pub fn generate_scaled(seed: u64, scale: DemoScale) -> Self {
        let mut benchmarks: Vec<Benchmark> = benchmarks(seed, scale).into();
        benchmarks.extend(SUITES.iter().map(|suite| suite.benchmark(seed, scale)));
        let benchmarks_ref = &benchmarks;
        let (runs, held_out) = std::thread::scope(|scope| {
            let handles: Vec<_> = plans(scale)
                .into_iter()
                .chain(suite_plans(scale))
                .map(|plan| {
                    scope.spawn(move || {
                        let bench = benchmarks_ref
                            .iter()
                            .position(|b| b.bench_id == plan.bench_id)
                            .unwrap_or(0);
                        simulate(seed, plan, bench, &benchmarks_ref[bench])
                    })
                })
                .collect();
            let trained_on = benchmarks_ref.iter().find(|b| b.bench_id == BENCH_V2);
            let held_out = trained_on.map_or_else(Vec::new, |b| held_out_rounds(seed, b, scale));
            let runs: Vec<EvalRun> = handles
                .into_iter()
                .map(|handle| match handle.join() {
                    Ok(run) => run,
                    Err(panic) => std::panic::resume_unwind(panic),
                })
                .collect();
            (runs, held_out)
        });
        Self {
            seed,
            scale,
            benchmarks,
            runs,
            held_out,
        }
    }

    /// A benchmark version by id.
    pub fn benchmark(&self, bench_id: &str) -> Option<&Benchmark> {
        self.benchmarks.iter().find(|b| b.bench_id == bench_id)
    }

    /// A run by id.
    pub fn run(&self, eval_run_id: &str) -> Option<&EvalRun> {
        self.runs.iter().find(|r| r.plan.eval_run_id == eval_run_id)
    }

    /// A trajectory's run and attempt by trajectory id: the id is parsed into run tag, task id
    /// and sample, and only an id written exactly as the attempt's own is found.
    pub fn trajectory(&self, trajectory_id: &str) -> Option<(&EvalRun, &Attempt)> {
        let ids = AttemptIds::parse_trajectory_id(trajectory_id)?;
        let run = self.runs.iter().find(|r| r.plan.tag == ids.tag)?;
        let bench = self.bench_of(run);
        let attempt = run.attempt_at(bench.task_index(ids.task_id)?, ids.sample)?;
        (run.ids(bench, attempt).trajectory_id() == trajectory_id).then_some((run, attempt))
    }

    /// The benchmark version a run evaluated.
    pub fn bench_of(&self, run: &EvalRun) -> &Benchmark {
        &self.benchmarks[run.bench]
    }
}

#[cfg(test)]
mod tests {
    use super::live::{Progress, RunStatus};
    use super::outcome::Ending;
    use super::*;

    #[test]
    fn every_ending_occurs_and_rewards_follow_the_component_formula() {
        let data = Dataset::generate(DEFAULT_SEED);
        for ending in Ending::ALL {
            assert!(
                data.runs
                    .iter()
                    .flat_map(|r| &r.attempts)
                    .any(|a| a.outcome.ending == ending),
                "{ending:?} missing"
            );
        }
        for attempt in data.runs.iter().flat_map(|r| &r.attempts) {
            if let Some(grade) = attempt.outcome.grade {
                assert_eq!(attempt.outcome.reward, Some(grade.reward()));
            }
        }
    }

    #[test]
    fn checkpoints_improve_on_average_but_some_tasks_regress() {
        let data = Dataset::generate(DEFAULT_SEED);
        let mean = |id: &str| {
            let run = data.run(id).map(|r| r.snapshot(Progress::DONE));
            run.and_then(|s| s.provisional_mean()).unwrap_or(f64::NAN)
        };
        let base = mean("eval_base_v2");
        let s100 = mean("eval_ckpt_s100");
        let s400 = mean("eval_ckpt_s400");
        let s500 = mean("eval_ckpt_s500");
        assert!(
            base < s100 && s100 < s400 && s400 < s500,
            "{base} {s100} {s400} {s500}"
        );
        assert!((0.3..0.55).contains(&base), "baseline mean {base}");
        let bench = &data.benchmarks[1];
        let regressing = bench
            .test_tasks()
            .filter(|(_, t)| t.trainability < 0.0)
            .count();
        assert!(regressing > 10, "{regressing} regressing tasks");
    }

    #[test]
    fn statuses_of_the_special_runs() {
        let data = Dataset::generate(DEFAULT_SEED);
        let status = |id: &str, p| data.run(id).map(|r| r.snapshot(r.progress(p)).status);
        assert_eq!(
            status("eval_ckpt_s500", Progress::at(0.5)),
            Some(RunStatus::Running)
        );
        assert_eq!(
            status("eval_ckpt_s500", Progress::at(1.0)),
            Some(RunStatus::Completed)
        );
        assert_eq!(
            status("eval_ckpt_s200_failed", Progress::at(0.5)),
            Some(RunStatus::Failed)
        );
        assert_eq!(
            status("eval_base_v2", Progress::at(0.5)),
            Some(RunStatus::Completed)
        );
        let failed = data.run("eval_ckpt_s200_failed");
        let snapshot = failed.map(|r| (r.total_rollouts, r.snapshot(Progress::DONE)));
        assert!(snapshot.is_some_and(|(total, s)| s.terminal() == total && s.cancelled > total / 2));
    }

    #[test]
    fn generation_is_deterministic() {
        let a = Dataset::generate(5);
        let b = Dataset::generate(5);
        let c = Dataset::generate(6);
        let rewards = |d: &Dataset| {
            d.runs
                .iter()
                .flat_map(|r| &r.attempts)
                .map(|a| a.outcome.reward)
                .collect::<Vec<_>>()
        };
        assert_eq!(rewards(&a), rewards(&b));
        assert_ne!(rewards(&a), rewards(&c));
    }

    #[test]
    fn a_scaled_dataset_keeps_its_runs_with_more_tasks_and_other_samples() {
        let scale = DemoScale {
            test_tasks: 2_000,
            samples: 3,
            ..DemoScale::DEFAULT
        };
        let data = Dataset::generate_scaled(9, scale);
        let default = Dataset::generate(9);
        let ids = |d: &Dataset| {
            d.runs
                .iter()
                .map(|r| r.plan.eval_run_id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&data), ids(&default));
        let v2_tests = data.benchmarks[1].test_tasks().count() as u32;
        assert_eq!(v2_tests, 2_000 - 60 + 75);
        for run in &data.runs {
            assert_eq!(run.plan.settings.samples_per_task, 3);
            assert_eq!(run.total_rollouts, run.selected_tasks * 3);
            for (i, attempt) in run.attempts.iter().enumerate() {
                let found = run.attempt_at(attempt.task, attempt.sample);
                assert!(found.is_some_and(|a| std::ptr::eq(a, &run.attempts[i])));
                let id = run.ids(data.bench_of(run), attempt).trajectory_id();
                assert!(data
                    .trajectory(&id)
                    .is_some_and(|(_, a)| std::ptr::eq(a, attempt)));
            }
        }
        let capped = data
            .run("eval_base_v1")
            .map(|r| (r.selected_tasks, r.available_tasks));
        assert_eq!(capped, Some((1_500, 2_000)));
        let full = data.run("eval_base_v2").map(|r| r.attempts.len());
        assert_eq!(full, Some(v2_tests as usize * 3));
        let failed = data.run("eval_ckpt_s200_failed");
        assert!(failed.is_some_and(|r| r.attempts.len() < r.total_rollouts as usize / 2));
        let running = data
            .run("eval_ckpt_s500")
            .map(|r| r.snapshot(Progress::at(0.5)).status);
        assert_eq!(running, Some(RunStatus::Running));
        assert_eq!(data.held_out[0].expected, 320 * 2);
        let untasked = data
            .runs
            .iter()
            .flat_map(|r| &r.attempts)
            .filter(|a| !a.task_recorded);
        assert_eq!(untasked.count(), 2);

        let again = Dataset::generate_scaled(9, scale);
        let rewards = |d: &Dataset| {
            d.runs
                .iter()
                .flat_map(|r| {
                    r.attempts
                        .iter()
                        .map(|a| (a.task, a.sample, a.outcome.reward))
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(rewards(&data), rewards(&again));
        assert!(
            data.trajectory("trj_basev2_cf-00001_0").is_none(),
            "no padding beyond the width"
        );
        assert!(
            data.trajectory("trj_basev2_cf-0001_3").is_none(),
            "no sample 3 of 3"
        );
    }
}
