//! Errors of the comparison model.

use super::run::RunIdx;

/// What went wrong building or querying a [`RunSet`](super::RunSet).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// Two runs share one identifier.
    #[error("run `{0}` was added twice")]
    DuplicateRun(String),
    /// A run index that is not in the set.
    #[error("no run with index {}", .0 .0)]
    UnknownRun(RunIdx),
    /// A trajectory that is not in the run.
    #[error("run `{run}` has no trajectory `{trajectory}`")]
    UnknownTrajectory {
        /// The run's identifier.
        run: String,
        /// The trajectory looked for.
        trajectory: String,
    },
    /// A job's platform results belong to another job.
    #[error("the results given for job `{job}` are those of job `{results}`")]
    ResultsOfAnotherJob {
        /// The job.
        job: String,
        /// The job the results name.
        results: String,
    },
    /// More trajectories or tasks than the compact storage indexes (2³² − 1).
    #[error("too many {0} for one run set (at most 4,294,967,294)")]
    TooMany(&'static str),
    /// A run's listings changed while its trajectories were being added a step at a time.
    #[error("the run's listings changed while it was being built; build it again")]
    ListingsChanged,
    /// A step-by-step join was finished before every item was added.
    #[error("the run's join was finished before every trajectory was added")]
    JoinUnfinished,
}
