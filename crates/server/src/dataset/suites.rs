//! The benchmarks the agent is evaluated on besides codefix: five more, of different sizes and
//! task categories, one with pass-or-fail rewards and one that training makes worse. Each has
//! one version, created before codefix v2 (so the agent's last update stays codefix v2's).
//!
//! At the default [`DemoScale`] each has its own number of test tasks (a share of the 400, so
//! other scales keep the share); `--demo-scorecard CxT` gives every one of them `T`. Task ids
//! are `{prefix}-{number}`, zero-padded to one width per benchmark.

use super::catalog::{Category, CATEGORIES, DEFECTS, HIDDEN_TESTS};
use super::outcome::Outcome;
use super::rng::{label, SplitMix64};
use super::scale::DemoScale;
use super::tasks::{label_order, Benchmark, IdWidth, Split, Task, TaskIds};
use super::time::Timestamp;

/// One added benchmark, as fixed: its names, size and what training does to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SuiteSpec {
    /// `bench_id` of its one version.
    pub bench_id: &'static str,
    /// Its name.
    pub name: &'static str,
    /// Its description.
    pub description: &'static str,
    /// Creation time of its version.
    pub created_at: Timestamp,
    /// Task id prefix, also the start of its runs' tags (no `_`, no `-`).
    pub prefix: &'static str,
    /// Test tasks at the default scale (of 400).
    pub default_tasks: u32,
    /// Its task categories: indices into [`category`].
    pub categories: &'static [usize],
    /// Pass-or-fail rewards.
    pub binary: bool,
    /// Mean of its tasks' trainability (codefix's is 0.9).
    pub trainability: f64,
    /// What training forgets at the final step ([`Benchmark::forgetting`]).
    pub forgetting: f64,
}

/// The added benchmarks' task categories, after codefix's seven ([`category`] 7 onwards).
pub const SUITE_CATEGORIES: [Category; 11] = [
    Category {
        id: "cat_routing",
        label: "Routing",
        difficulty_shift: -0.3,
        subjects: &["path matcher", "method dispatcher", "redirect handler"],
    },
    Category {
        id: "cat_serialization",
        label: "Serialization",
        difficulty_shift: 0.2,
        subjects: &["JSON encoder", "form decoder", "date serializer"],
    },
    Category {
        id: "cat_auth",
        label: "Authentication",
        difficulty_shift: 0.7,
        subjects: &["token validator", "session store", "password hasher"],
    },
    Category {
        id: "cat_queries",
        label: "Queries",
        difficulty_shift: 0.1,
        subjects: &["join planner", "window query", "report query"],
    },
    Category {
        id: "cat_migrations",
        label: "Migrations",
        difficulty_shift: 0.5,
        subjects: &["schema migration", "backfill job", "column rename"],
    },
    Category {
        id: "cat_transactions",
        label: "Transactions",
        difficulty_shift: 0.9,
        subjects: &["savepoint handler", "deadlock retry", "isolation wrapper"],
    },
    Category {
        id: "cat_scripts",
        label: "Shell scripts",
        difficulty_shift: -0.4,
        subjects: &["backup script", "deploy script", "cleanup script"],
    },
    Category {
        id: "cat_pipelines",
        label: "Pipelines",
        difficulty_shift: 0.3,
        subjects: &["log pipeline", "build pipeline", "release pipeline"],
    },
    Category {
        id: "cat_algorithms",
        label: "Algorithms",
        difficulty_shift: 1.1,
        subjects: &["shortest path search", "dedup pass", "top-k selector"],
    },
    Category {
        id: "cat_caching",
        label: "Caching",
        difficulty_shift: 0.6,
        subjects: &["memoizer", "response cache", "cache invalidator"],
    },
    Category {
        id: "cat_docs",
        label: "Documentation",
        difficulty_shift: -0.8,
        subjects: &["docstring checker", "example runner", "changelog writer"],
    },
];

/// A task category by a task's index: codefix's seven, then [`SUITE_CATEGORIES`].
pub fn category(index: usize) -> &'static Category {
    CATEGORIES
        .get(index)
        .unwrap_or_else(|| &SUITE_CATEGORIES[(index - CATEGORIES.len()) % SUITE_CATEGORIES.len()])
}

/// The added benchmark whose checkpoints keep improving, and which has a second, newer
/// baseline with other settings (not comparable).
pub const APIFIX: SuiteSpec = SuiteSpec {
    bench_id: "bench_apifix_v1",
    name: "apifix",
    description: "Repair HTTP API handlers until their contract tests pass.",
    created_at: Timestamp::utc(2026, 8, 12, 9, 0),
    prefix: "api",
    default_tasks: 300,
    categories: &[7, 8, 9],
    binary: false,
    trainability: 0.9,
    forgetting: 0.0,
};

/// The added benchmark training makes worse at its later checkpoints.
pub const SQLFIX: SuiteSpec = SuiteSpec {
    bench_id: "bench_sqlfix_v1",
    name: "sqlfix",
    description: "Fix SQL queries and migrations until the database tests pass.",
    created_at: Timestamp::utc(2026, 8, 19, 9, 0),
    prefix: "sql",
    default_tasks: 120,
    categories: &[10, 11, 12],
    binary: false,
    trainability: 0.4,
    forgetting: 1.6,
};

/// The added benchmark with pass-or-fail rewards, one checkpoint evaluated twice.
pub const SHELLPASS: SuiteSpec = SuiteSpec {
    bench_id: "bench_shellpass_v1",
    name: "shellpass",
    description: "Make shell scripts and pipelines pass their checks; a task passes or fails.",
    created_at: Timestamp::utc(2026, 8, 26, 9, 0),
    prefix: "sh",
    default_tasks: 200,
    categories: &[13, 14],
    binary: true,
    trainability: 0.7,
    forgetting: 0.0,
};

/// The smallest added benchmark; one checkpoint was never evaluated on it.
pub const PERFOPT: SuiteSpec = SuiteSpec {
    bench_id: "bench_perfopt_v1",
    name: "perfopt",
    description: "Remove performance bottlenecks without breaking the benchmarks' tests.",
    created_at: Timestamp::utc(2026, 9, 2, 9, 0),
    prefix: "perf",
    default_tasks: 60,
    categories: &[15, 16],
    binary: false,
    trainability: 0.6,
    forgetting: 0.0,
};

/// The added benchmark where one checkpoint's evaluation failed (and was not run again).
pub const DOCSYNC: SuiteSpec = SuiteSpec {
    bench_id: "bench_docsync_v1",
    name: "docsync",
    description: "Bring docstrings, examples and changelogs back in line with the code.",
    created_at: Timestamp::utc(2026, 9, 9, 9, 0),
    prefix: "doc",
    default_tasks: 80,
    categories: &[17],
    binary: false,
    trainability: 0.5,
    forgetting: 0.0,
};

/// The added benchmarks, oldest first.
pub const SUITES: [SuiteSpec; 5] = [APIFIX, SQLFIX, SHELLPASS, PERFOPT, DOCSYNC];

impl SuiteSpec {
    /// Its test tasks at `scale`.
    pub fn tasks(&self, scale: DemoScale) -> u32 {
        scale
            .scorecard
            .suite_tasks
            .unwrap_or_else(|| scale.share(self.default_tasks).max(1))
    }

    fn task(&self, seed: u64, number: u32, width: IdWidth) -> Task {
        let mut rng = SplitMix64::stream(seed, &[label(self.bench_id), u64::from(number)]);
        let category_index = *rng.pick(self.categories);
        let spec = category(category_index);
        let subject = rng.pick(spec.subjects);
        let defect = rng.pick(&DEFECTS);
        let task_label = format!("{defect} the {subject}");
        let module = subject.replace([' ', '-'], "_").to_lowercase();
        let input_message = format!(
            "Repository `{module}` ({}): {}{}. The failing check is `checks/{module}_{number}`. \
             Make every check pass, then submit your patch with the `submit` tool.",
            self.name,
            defect[..1].to_lowercase(),
            &task_label[1..]
        );
        Task {
            task_id: format!("{}-{number:0width$}", self.prefix, width = width.0),
            label: task_label,
            split: Some(Split::Test),
            category: category_index,
            input_message,
            module,
            difficulty: 1.5 * rng.normal() + spec.difficulty_shift,
            trainability: self.trainability + 0.6 * rng.normal(),
        }
    }

    /// Its one version at `scale`: test tasks only.
    pub fn benchmark(&self, seed: u64, scale: DemoScale) -> Benchmark {
        let count = self.tasks(scale);
        let width = IdWidth::of(count);
        let tasks: Vec<Task> = (1..=count).map(|n| self.task(seed, n, width)).collect();
        Benchmark {
            bench_id: self.bench_id,
            name: self.name,
            description: self.description,
            created_at: self.created_at,
            by_label: label_order(&tasks),
            task_ids: TaskIds::of(&tasks),
            tasks,
            binary: self.binary,
            forgetting: self.forgetting,
        }
    }
}

/// An outcome on a pass-or-fail benchmark: a grade with every hidden test passed stays a pass
/// (reward 1), any other grade becomes a fail (nothing passed, no applying patch: reward 0);
/// the ending, the steps and an ungraded outcome stay as they were.
pub fn pass_or_fail(mut outcome: Outcome) -> Outcome {
    if let Some(grade) = outcome.grade.as_mut() {
        if grade.tests_passed != HIDDEN_TESTS {
            grade.tests_passed = 0;
            grade.patch_applies = false;
        }
        outcome.reward = Some(grade.reward());
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::scorecard_scale::ScorecardScale;

    #[test]
    fn suites_differ_in_size_and_categories_and_ids_sort_numerically() {
        let scale = DemoScale::DEFAULT;
        let sizes: Vec<u32> = SUITES.iter().map(|s| s.tasks(scale)).collect();
        assert_eq!(sizes, [300, 120, 200, 60, 80]);
        for suite in SUITES {
            let bench = suite.benchmark(4, scale);
            assert!(bench.tasks.windows(2).all(|w| w[0].task_id < w[1].task_id));
            assert!(bench
                .tasks
                .iter()
                .all(|t| suite.categories.contains(&t.category)));
            assert!(suite
                .categories
                .iter()
                .all(|&c| category(c).id.starts_with("cat_")));
            assert!(!suite.prefix.contains(['_', '-']));
            assert_eq!(bench.test_tasks().count() as u32, suite.tasks(scale));
        }
        let ids: Vec<&str> = (0..CATEGORIES.len() + SUITE_CATEGORIES.len())
            .map(|i| category(i).id)
            .collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        let big = DemoScale {
            scorecard: ScorecardScale {
                checkpoints: 10,
                suite_tasks: Some(500),
            },
            ..scale
        };
        assert!(SUITES.iter().all(|s| s.tasks(big) == 500));
        assert_eq!(SQLFIX.benchmark(4, big).tasks[0].task_id, "sql-0001");
    }
}
