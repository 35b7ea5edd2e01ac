//! What a comparison reads ([`LoadPlan`]: Trajectory runs or Chronicle jobs) and how its run
//! set starts being built ([`RunSetStart`]).

use eval_compare_core::load::{jobs_of, BesideRuns, RunSetBuild};
use eval_compare_core::model::{ModelError, RunSet};

use crate::route::RunSource;

/// What a comparison reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LoadPlan {
    /// Trajectory evaluation runs, by run id (baseline first).
    Runs(Vec<String>),
    /// Chronicle jobs, by job id, in the order of the comparison's runs (`{job}/{agent}`).
    Jobs(Vec<String>),
    /// A scorecard's runs, by run id: their records, lists and settings only (it shows no
    /// costs nor the platform's progression, so they are not read: [`Self::beside`]).
    ScorecardRuns(Vec<String>),
}

impl LoadPlan {
    /// What the runs `run_ids` of `source` read: the runs themselves, or their jobs.
    pub fn of(source: RunSource, run_ids: &[String]) -> Self {
        match source {
            RunSource::Chronicle => LoadPlan::Jobs(jobs_of(run_ids)),
            RunSource::Trajectory | RunSource::Files => LoadPlan::Runs(run_ids.to_vec()),
        }
    }

    /// The run or job ids.
    pub fn ids(&self) -> &[String] {
        match self {
            LoadPlan::Runs(ids) | LoadPlan::Jobs(ids) | LoadPlan::ScorecardRuns(ids) => ids,
        }
    }

    /// What its load reads beside the runs: a comparison of runs shows their costs and the
    /// platform's progression; a scorecard shows neither, and jobs have neither. A comparison
    /// opened after a scorecard of the same runs reads only these.
    pub fn beside(&self) -> BesideRuns {
        match self {
            LoadPlan::Runs(_) => BesideRuns::ALL,
            LoadPlan::Jobs(_) | LoadPlan::ScorecardRuns(_) => BesideRuns::NONE,
        }
    }

    /// Whether it reads Chronicle jobs.
    pub fn is_jobs(&self) -> bool {
        matches!(self, LoadPlan::Jobs(_))
    }
}

/// How a run set starts being built ([`super::Loader::start_run_set`]).
#[derive(Debug)]
pub enum RunSetStart {
    /// A step at a time.
    Steps(RunSetBuild),
    /// Already built.
    Built(Result<RunSet, ModelError>),
}
