//! The fixed names and identifiers of the demo dataset. Identifiers do not depend on the seed
//! (only the simulated outcomes do), so documentation, tests and links can name them.

use super::time::Timestamp;

/// The organization every demo object belongs to.
pub const ORGANIZATION_ID: &str = "org_demo";
/// The one agent.
pub const AGENT_ID: &str = "agent_demo_coder";
/// The agent's name (`/api/v1/agents/name/{name}`).
pub const AGENT_NAME: &str = "demo-coder";
/// The agent's production model slug.
pub const PRODUCTION_MODEL_SLUG: &str = "demo-coder-prod";
/// When the agent was created.
pub const AGENT_CREATED_AT: Timestamp = Timestamp::utc(2026, 7, 20, 9, 0);

/// The benchmark's name, shared by both versions.
pub const BENCHMARK_NAME: &str = "codefix";
/// What the benchmark asks of the agent.
pub const BENCHMARK_DESCRIPTION: &str =
    "Repair small Python repositories until their hidden tests pass, then submit a patch.";
/// The first benchmark version.
pub const BENCH_V1: &str = "bench_codefix_v1";
/// The revised benchmark version: some tasks removed, some added, some relabelled.
pub const BENCH_V2: &str = "bench_codefix_v2";
/// Creation time of the first version.
pub const BENCH_V1_CREATED_AT: Timestamp = Timestamp::utc(2026, 8, 3, 9, 0);
/// Creation time of the revised version.
pub const BENCH_V2_CREATED_AT: Timestamp = Timestamp::utc(2026, 9, 21, 9, 0);

/// The base model every run starts from (a `BaseModelSlug` of the contract, so the evaluation
/// options can be asked for it).
pub const BASE_MODEL_SLUG: &str = "qwen/qwen3-235b-a22b";
/// Another model the benchmark supports (listed by `GET /api/v1/eval/options` without a model).
pub const OTHER_MODEL_SLUG: &str = "Qwen/Qwen3.5-4B";

/// The training run whose checkpoints are evaluated.
pub const TRAINING_RUN_ID: &str = "train_codefix_grpo";
/// Its display name.
pub const TRAINING_RUN_NAME: &str = "GRPO on codefix v2, lr 1e-5";
/// When the training run was created.
pub const TRAINING_CREATED_AT: Timestamp = Timestamp::utc(2026, 9, 24, 8, 0);
/// The pipeline run that executed it.
pub const PIPELINE_RUN_ID: &str = "pipe_codefix_grpo";
/// Who started it.
pub const TRAINING_CREATED_BY: &str = "analyst@demo.example";
/// Checkpoint steps at the default scale, each with a committed checkpoint and a standalone
/// evaluation on every benchmark of the scorecard (`--demo-scorecard` asks for others:
/// [`super::scorecard_scale::ScorecardScale::steps`]).
pub const CHECKPOINT_STEPS: [u32; 5] = [100, 200, 300, 400, 500];
/// Training steps with a held-out evaluation round (every 100 steps, from step 0).
pub const HELD_OUT_STEPS: [u32; 6] = [0, 100, 200, 300, 400, 500];
/// Test tasks in each held-out round at the default scale (other scales keep the share).
pub const HELD_OUT_TASKS: u32 = 64;
/// Samples per task in each held-out round.
pub const HELD_OUT_SAMPLES: u32 = 2;

/// Training time per step: each checkpoint is committed well before its evaluations start.
const SECONDS_PER_TRAINING_STEP: u64 = 25 * 60;

/// When the checkpoint of `step` was committed.
pub fn checkpoint_created_at(step: u32) -> Timestamp {
    TRAINING_CREATED_AT.plus(u64::from(step) * SECONDS_PER_TRAINING_STEP)
}

/// The checkpoint id of a training step.
pub fn checkpoint_id(step: u32) -> String {
    format!("ckpt_codefix_grpo_s{step}")
}

/// A task category, usable as a cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Category {
    /// `task_category_id`.
    pub id: &'static str,
    /// Display label.
    pub label: &'static str,
    /// Shift of the latent difficulty of this category's tasks.
    pub difficulty_shift: f64,
    /// Things that break in this category, used to write task labels.
    pub subjects: &'static [&'static str],
}

/// The seven task categories.
pub const CATEGORIES: [Category; 7] = [
    Category {
        id: "cat_parsing",
        label: "Parsing",
        difficulty_shift: 0.2,
        subjects: &[
            "CSV header parser",
            "INI section reader",
            "URL query decoder",
            "date range parser",
            "semver comparator",
        ],
    },
    Category {
        id: "cat_numerics",
        label: "Numerics",
        difficulty_shift: 0.4,
        subjects: &[
            "rolling median",
            "decimal rounding helper",
            "matrix transpose",
            "histogram binning",
            "unit converter",
        ],
    },
    Category {
        id: "cat_strings",
        label: "Strings",
        difficulty_shift: -0.6,
        subjects: &[
            "slugify function",
            "word wrapper",
            "case converter",
            "template renderer",
            "unicode normaliser",
        ],
    },
    Category {
        id: "cat_collections",
        label: "Collections",
        difficulty_shift: -0.2,
        subjects: &[
            "LRU cache",
            "priority queue",
            "interval merger",
            "trie lookup",
            "ring buffer",
        ],
    },
    Category {
        id: "cat_io",
        label: "File I/O",
        difficulty_shift: 0.1,
        subjects: &[
            "log rotator",
            "config loader",
            "tar extractor",
            "line counter",
            "atomic file writer",
        ],
    },
    Category {
        id: "cat_concurrency",
        label: "Concurrency",
        difficulty_shift: 1.0,
        subjects: &[
            "worker pool",
            "rate limiter",
            "retry scheduler",
            "async batcher",
            "lock-free counter",
        ],
    },
    Category {
        id: "cat_sql",
        label: "SQL",
        difficulty_shift: 0.5,
        subjects: &[
            "query builder",
            "migration runner",
            "pagination helper",
            "upsert statement",
            "index advisor",
        ],
    },
];

/// Kinds of defect a task asks to repair, used to write task labels.
pub const DEFECTS: [&str; 8] = [
    "Fix off-by-one error in",
    "Handle empty input in",
    "Fix crash on malformed input in",
    "Restore ordering guarantee of",
    "Fix timezone handling in",
    "Remove quadratic slowdown in",
    "Fix resource leak in",
    "Correct rounding in",
];

/// A reward component every graded trajectory logs (a Chronicle scorer too).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ComponentSpec {
    /// Component name.
    pub name: &'static str,
    /// Weight in the effective reward; 0 means informative only.
    pub weight: f64,
    /// Lower bound of the raw value.
    pub min: f64,
    /// Upper bound of the raw value.
    pub max: f64,
    /// Chronicle threshold on the scaled score (none for informative components).
    pub threshold: Option<f64>,
}

/// Hidden tests passed, out of [`HIDDEN_TESTS`].
pub const TESTS_COMPONENT: ComponentSpec = ComponentSpec {
    name: "tests_passed",
    weight: 3.0,
    min: 0.0,
    max: 8.0,
    threshold: Some(1.0),
};
/// Whether the submission is a patch that applies cleanly.
pub const FORMAT_COMPONENT: ComponentSpec = ComponentSpec {
    name: "patch_applies",
    weight: 1.0,
    min: 0.0,
    max: 1.0,
    threshold: Some(1.0),
};
/// A linter score of the patched code: informative only (weight 0).
pub const LINT_COMPONENT: ComponentSpec = ComponentSpec {
    name: "lint_score",
    weight: 0.0,
    min: 0.0,
    max: 10.0,
    threshold: None,
};
/// The three components, in logged order.
pub const COMPONENTS: [ComponentSpec; 3] = [TESTS_COMPONENT, FORMAT_COMPONENT, LINT_COMPONENT];
/// Hidden tests per task.
pub const HIDDEN_TESTS: u32 = 8;
