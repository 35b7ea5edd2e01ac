//! The demo's backtest jobs: which evaluation runs provide each agent's trials, on which suite
//! version, with which task subset, extra scorers, environment and concurrency, and whether the
//! job ran, was cancelled or still waits for a runtime.

use super::suite::{SuiteVersion, CURRENT, PREVIOUS};

/// The environment version of the current suite's jobs (the fallback world of their tasks).
pub const ENVIRONMENT: &str = "envver_codefix_py312_r4";
/// The environment version before it.
pub const PREVIOUS_ENVIRONMENT: &str = "envver_codefix_py312_r3";
/// The platform's default concurrency.
const DEFAULT_CONCURRENCY: u32 = 4;

/// An extra scorer a job applies to every trial, on top of the suite's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraScorer {
    /// Lines of the submitted patch; no threshold (it only measures).
    DiffLines,
}

impl ExtraScorer {
    /// The scorer id (also the score's name).
    pub fn id(self) -> &'static str {
        match self {
            ExtraScorer::DiffLines => "diff_lines",
        }
    }
}

/// Which of the suite version's tasks a job runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSubset {
    /// Every task (`tasks` is null).
    Whole,
    /// Every N-th task, from the first (`tasks` lists them).
    EveryNth(usize),
}

/// How far a job got.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Launch {
    /// Its trials run on their runs' schedules (the job may still be running, or have failed
    /// with its run).
    Ran,
    /// Cancelled when its runs' schedules reached this fraction: trials started before it ran
    /// to the end and keep their results, the others never started.
    Cancelled {
        /// Fraction of the schedule reached.
        at: f64,
    },
    /// Waiting for a runtime: no trial has started.
    Queued,
}

/// A job: which evaluation runs provide its agents' trials, and how it was launched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JobPlan {
    /// Job id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// `suite` or `compare`.
    pub mode: &'static str,
    /// `(eval run id, agent version)` per agent; in `compare` mode the first is the baseline.
    pub agents: &'static [(&'static str, &'static str)],
    /// Which sample of each task in the runs provides the trial (sample 0 for the first jobs).
    pub sample: u32,
    /// The suite version frozen at launch.
    pub suite: SuiteVersion,
    /// Which of its tasks ran.
    pub subset: TaskSubset,
    /// Extra scorers.
    pub extra_scorers: &'static [ExtraScorer],
    /// `environment_version_id`.
    pub environment: &'static str,
    /// Trials running at once.
    pub concurrency: u32,
    /// Seconds after its latest run's creation the job was created.
    pub created_after_run_secs: u64,
    /// How far it got.
    pub launch: Launch,
}

/// A job of the current suite, run whole with the defaults.
const fn job(
    id: &'static str,
    name: &'static str,
    mode: &'static str,
    agents: &'static [(&'static str, &'static str)],
) -> JobPlan {
    JobPlan {
        id,
        name,
        mode,
        agents,
        sample: 0,
        suite: CURRENT,
        subset: TaskSubset::Whole,
        extra_scorers: &[],
        environment: ENVIRONMENT,
        concurrency: DEFAULT_CONCURRENCY,
        created_after_run_secs: 3_600,
        launch: Launch::Ran,
    }
}

/// Every job.
pub const JOBS: [JobPlan; 14] = [
    JobPlan {
        sample: 2,
        suite: PREVIOUS,
        environment: PREVIOUS_ENVIRONMENT,
        created_after_run_secs: 1_800,
        ..job(
            "job_base_suite_v2",
            "codefix smoke (suite v2): baseline",
            "suite",
            &[("eval_base_v2", "base")],
        )
    },
    job(
        "job_base",
        "codefix smoke: baseline",
        "suite",
        &[("eval_base_v2", "base")],
    ),
    job(
        "job_base_hot",
        "codefix smoke: baseline, temperature 1.0, 20 turns",
        "suite",
        &[("eval_base_v2_hot", "base-t1.0-20turns")],
    ),
    job(
        "job_s100",
        "codefix smoke: step 100",
        "suite",
        &[("eval_ckpt_s100", "step-100")],
    ),
    job(
        "job_s200_failed",
        "codefix smoke: step 200 (first attempt)",
        "suite",
        &[("eval_ckpt_s200_failed", "step-200")],
    ),
    job(
        "job_s200",
        "codefix smoke: step 200",
        "suite",
        &[("eval_ckpt_s200", "step-200")],
    ),
    job(
        "job_s300",
        "codefix smoke: step 300",
        "suite",
        &[("eval_ckpt_s300", "step-300")],
    ),
    JobPlan {
        sample: 1,
        subset: TaskSubset::EveryNth(3),
        extra_scorers: &[ExtraScorer::DiffLines],
        created_after_run_secs: 5_400,
        ..job(
            "job_s300_quick",
            "codefix smoke: step 300, every third task, patch size",
            "suite",
            &[("eval_ckpt_s300", "step-300")],
        )
    },
    JobPlan {
        sample: 2,
        created_after_run_secs: 7_200,
        launch: Launch::Cancelled { at: 0.4 },
        ..job(
            "job_s300_cancelled",
            "codefix smoke: step 300 (cancelled)",
            "suite",
            &[("eval_ckpt_s300", "step-300")],
        )
    },
    job(
        "job_s400",
        "codefix smoke: step 400",
        "suite",
        &[("eval_ckpt_s400", "step-400")],
    ),
    JobPlan {
        concurrency: 8,
        ..job(
            "job_compare_base_s400",
            "codefix smoke: baseline vs step 400",
            "compare",
            &[("eval_base_v2", "base"), ("eval_ckpt_s400", "step-400")],
        )
    },
    JobPlan {
        sample: 1,
        concurrency: 8,
        created_after_run_secs: 7_200,
        ..job(
            "job_compare_base_s200_s400",
            "codefix smoke: baseline vs steps 200 and 400",
            "compare",
            &[
                ("eval_base_v2", "base"),
                ("eval_ckpt_s200", "step-200"),
                ("eval_ckpt_s400", "step-400"),
            ],
        )
    },
    JobPlan {
        concurrency: 8,
        ..job(
            "job_s500",
            "codefix smoke: step 500",
            "suite",
            &[("eval_ckpt_s500", "step-500")],
        )
    },
    JobPlan {
        sample: 1,
        created_after_run_secs: 7_200,
        launch: Launch::Queued,
        ..job(
            "job_s500_rerun",
            "codefix smoke: step 500 (second run, waiting for a runtime)",
            "suite",
            &[("eval_ckpt_s500", "step-500")],
        )
    },
];
