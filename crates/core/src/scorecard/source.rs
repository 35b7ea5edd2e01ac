//! What a scorecard is planned from: each evaluation run of the training run's benchmarks as
//! listed (its record's identity, lifecycle and settings, when it was created), from the API or
//! from run folders alike.

use serde::{Deserialize, Serialize};

use crate::api::EvalRun;
use crate::audit::Lifecycle;
use crate::model::{
    run_info_from_api, setting_inputs, unix_seconds, Lookup, RunInfo, SettingInputs, SourceKind,
};
use crate::run_folder::RunFolder;

/// One evaluation run as listed: a checkpoint evaluation or a base-model evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListedRun {
    /// The run as the model sees it, its settings inputs filled in when they were read.
    pub info: RunInfo,
    /// When it was created (RFC 3339), which orders "newest".
    pub created_at: String,
}

impl ListedRun {
    /// The listed run of an API record, with what resolves its settings.
    pub fn from_api(run: &EvalRun, inputs: SettingInputs, source: SourceKind) -> Self {
        let mut info = run_info_from_api(run, source);
        info.settings_inputs = inputs;
        ListedRun {
            info,
            created_at: run.created_at.clone(),
        }
    }

    /// The listed run of a run folder, its settings resolved from the folder's training run and
    /// evaluation defaults when it holds them (as a report from folders resolves them).
    pub fn from_folder<R, T>(folder: &RunFolder<R, T>, source: SourceKind) -> Self {
        let training = folder
            .training_run
            .as_ref()
            .map_or(Lookup::NotRead, Lookup::Read);
        let defaults = folder
            .eval_options
            .as_ref()
            .map_or(Lookup::NotRead, Lookup::Read);
        let inputs = setting_inputs(&folder.run, training, defaults);
        ListedRun::from_api(&folder.run, inputs, source)
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.info.id
    }

    /// Its lifecycle.
    pub fn lifecycle(&self) -> Lifecycle {
        Lifecycle::of(self.info.status.as_deref())
    }

    /// Whether it evaluated a checkpoint of `training_run_id` at a known step.
    pub fn is_checkpoint_of(&self, training_run_id: &str) -> bool {
        self.info.checkpoint.step.is_some()
            && self.info.checkpoint.training_run_id.as_deref() == Some(training_run_id)
    }

    /// The key that orders runs newest first: creation time (unparsable last), then id.
    pub(super) fn newest_first_key(&self) -> (std::cmp::Reverse<i64>, &str) {
        (
            std::cmp::Reverse(unix_seconds(&self.created_at).unwrap_or(i64::MIN)),
            self.info.id.as_str(),
        )
    }
}
