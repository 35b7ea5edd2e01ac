//! One Chronicle job of a comparison as far as it was read ([`JobLoad`]): what the
//! [`LoadStore`](super::LoadStore) holds per job, and what the engine reads into.

use std::cell::RefCell;

use crate::api::{ChronicleJob, ChronicleTrial, JobStatus, SuiteEvalRun};
use crate::client::ApiError;

use super::list::{ListLoad, Phase};

/// One Chronicle job of the comparison as far as it was read.
#[derive(Debug)]
pub struct JobLoad {
    /// The job's id.
    pub job_id: String,
    /// The job record and where its request stands.
    pub record: RefCell<(Option<ChronicleJob>, Phase)>,
    /// Its trials.
    pub trials: RefCell<ListLoad<ChronicleTrial>>,
    /// The platform's pass/fail per task (`None` inside when the suite lists none for the job).
    pub results: RefCell<(Option<SuiteEvalRun>, Phase)>,
    /// The last refresh of a running job that failed (the data shown stay the previous ones).
    pub refresh_error: RefCell<Option<ApiError>>,
}

impl JobLoad {
    pub(super) fn new(job_id: &str) -> Self {
        Self {
            job_id: job_id.to_owned(),
            record: RefCell::new((None, Phase::Waiting)),
            trials: RefCell::default(),
            results: RefCell::new((None, Phase::Waiting)),
            refresh_error: RefCell::new(None),
        }
    }

    /// Whether the job is still queued or running, by its record.
    pub fn is_running(&self) -> bool {
        self.record
            .borrow()
            .0
            .as_ref()
            .and_then(|job| job.status.as_ref())
            .is_some_and(|status| matches!(status, JobStatus::Queued | JobStatus::Running))
    }

    /// Whether the record, the trials and the results were all read.
    pub fn is_complete(&self) -> bool {
        self.record.borrow().1 == Phase::Complete
            && self.trials.borrow().phase == Phase::Complete
            && self.results.borrow().1 == Phase::Complete
    }
}
