//! The demo dataset: one agent, two versions of one benchmark, a baseline, a training run with
//! checkpoint evaluations (one still running), a run on the older benchmark version and a run
//! with other sampling settings. Generated deterministically from a seed at start-up.

pub mod catalog;
pub mod live;
pub mod outcome;
pub mod rng;
pub mod runs;
pub mod tasks;
pub mod time;
pub mod transcript;

use std::collections::HashMap;

use runs::{held_out_rounds, plans, simulate, Attempt, EvalRun, HeldOutRound};
use tasks::{benchmarks, Benchmark};

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 20_261_014;

/// The whole simulated platform state.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The seed it was generated from.
    pub seed: u64,
    /// Benchmark versions, oldest first.
    pub benchmarks: Vec<Benchmark>,
    /// Evaluation runs, oldest first.
    pub runs: Vec<EvalRun>,
    /// The training run's held-out rounds, by ascending step.
    pub held_out: Vec<HeldOutRound>,
    trajectories: HashMap<String, (usize, usize)>,
}

impl Dataset {
    /// Generates the dataset of `seed`.
    pub fn generate(seed: u64) -> Self {
        let benchmarks: Vec<Benchmark> = benchmarks(seed).into();
        let runs: Vec<EvalRun> = plans()
            .into_iter()
            .map(|plan| {
                let bench = benchmarks
                    .iter()
                    .position(|b| b.bench_id == plan.bench_id)
                    .unwrap_or(0);
                simulate(seed, plan, bench, &benchmarks[bench])
            })
            .collect();
        let held_out = held_out_rounds(seed, &benchmarks[benchmarks.len() - 1]);
        let trajectories = runs
            .iter()
            .enumerate()
            .flat_map(|(r, run)| {
                run.attempts
                    .iter()
                    .enumerate()
                    .map(move |(a, attempt)| (attempt.trajectory_id.clone(), (r, a)))
            })
            .collect();
        Self {
            seed,
            benchmarks,
            runs,
            held_out,
            trajectories,
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

    /// A trajectory's run and attempt by trajectory id.
    pub fn trajectory(&self, trajectory_id: &str) -> Option<(&EvalRun, &Attempt)> {
        let &(r, a) = self.trajectories.get(trajectory_id)?;
        Some((&self.runs[r], &self.runs[r].attempts[a]))
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
}
