//! The Chronicle (Worldsmith) evaluation shapes the demo answers: core's `api` types
//! (`shared/chronicle-api/README.md`), shared with the clients that read them.

pub use eval_compare_core::api::{
    ChronicleJob, ChroniclePage, ChronicleScore, ChronicleTrial, ChronicleTrialDetail,
    JobEventData, JobEventKind, JobMode, JobStatus, SuiteEvalRun, TaskResult, TrialArtifact,
    TrialStep,
};
