//! Benchmarks (spec versions) and their tasks.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::open_enum::open_enum;
use super::page::Page;

/// One benchmark version (`BenchmarkListItem`); each upload of a benchmark is a new `bench_id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkListItem {
    /// Identifier of this benchmark version.
    pub bench_id: String,
    /// Owning agent, when one owns it.
    #[serde(default)]
    pub agent_id: Option<String>,
    /// Owning organization.
    pub organization_id: String,
    /// Benchmark name, shared by its versions.
    pub name: String,
    /// Description; empty when none.
    #[serde(default)]
    pub description: String,
    /// Visibility, `private` by default.
    #[serde(default = "default_visibility")]
    pub visibility: String,
    /// Benchmark family, when recorded.
    #[serde(default)]
    pub family: Option<String>,
    /// Creation time (RFC 3339).
    pub created_at: String,
    /// Last update time (RFC 3339).
    pub updated_at: String,
    /// Number of evaluation runs on this version.
    #[serde(default)]
    pub eval_run_count: i64,
}

fn default_visibility() -> String {
    "private".to_owned()
}

/// A page of benchmark versions (`/benchmarks`, `/agents/{id}/benchmarks/versions`).
pub type BenchmarkPage = Page<BenchmarkListItem>;

open_enum! {
    /// Split a task belongs to (`TaskSplit`).
    pub enum TaskSplit keeps Other {
        /// Training split.
        Train => "train",
        /// Held-out test split.
        Test => "test",
    }
}

/// A category a task belongs to (`BenchmarkTaskCategory`); usable as a cluster.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BenchmarkTaskCategory {
    /// Stable category id.
    pub task_category_id: String,
    /// Display label.
    pub label: String,
}

/// A reference to an organization secret used as an environment value (`SecretRef`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretRef {
    /// Organization secret name.
    pub secret_ref: String,
}

/// Value of a task environment variable: plain text or a secret reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EnvVarValue {
    /// A literal value.
    Plain(String),
    /// A reference to an organization secret.
    Secret(SecretRef),
}

/// One task of a benchmark version (`BenchmarkSpecTask`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkSpecTask {
    /// Task identifier, stable across runs of the same benchmark version.
    pub task_id: String,
    /// Display label.
    #[serde(default)]
    pub label: Option<String>,
    /// Split; null when unassigned.
    #[serde(default)]
    pub split: Option<TaskSplit>,
    /// The task's input message.
    #[serde(default)]
    pub input_message: Option<String>,
    /// Categories of the task.
    #[serde(default)]
    pub task_categories: Vec<BenchmarkTaskCategory>,
    /// Runtime the task runs in.
    #[serde(default)]
    pub runtime_id: Option<String>,
    /// Command that runs the agent in the sandbox.
    #[serde(default)]
    pub run_command: Option<String>,
    /// Build status of the task environment.
    #[serde(default)]
    pub build_status: Option<String>,
    /// Environment variables of the task.
    #[serde(default)]
    pub env_vars: BTreeMap<String, EnvVarValue>,
}

/// A page of benchmark tasks (`/benchmarks/{bench_id}/tasks`).
pub type BenchmarkTaskPage = Page<BenchmarkSpecTask>;

open_enum! {
    /// The `split` filter of the task list.
    pub enum TaskSplitFilter keeps Other {
        /// Tasks in the training split.
        Train => "train",
        /// Tasks in the test split.
        Test => "test",
        /// Tasks without a split.
        Unassigned => "unassigned",
    }
}
