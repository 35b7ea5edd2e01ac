//! Everything that can stop a command, each mapped to its exit code.

use std::path::PathBuf;

use eval_compare_core::client::{ApiError, InvalidApiKey, Service};
use eval_compare_core::load::ComponentStop;
use eval_compare_core::model::ModelError;
use eval_compare_core::run_folder::RunFolderError;

use crate::exit_code::Exit;
use crate::http_transport::TransportSetupError;

/// Why a command failed. No message ever contains the API key.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Arguments that parse but cannot be used.
    #[error("{0}")]
    Usage(String),
    /// `TRAJECTORY_API_KEY` is set but cannot be sent.
    #[error("TRAJECTORY_API_KEY: {0}")]
    ApiKey(InvalidApiKey),
    /// A run folder argument that is not a directory.
    #[error("run folder {}: {why}", .folder.display())]
    NoFolder {
        /// The argument.
        folder: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A file that could not be read.
    #[error("cannot read {}: {source}", .path.display())]
    ReadFile {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// A file that is not read: not a regular file, or over the size cap.
    #[error("cannot read {}: {why}", .path.display())]
    InputFile {
        /// The file.
        path: PathBuf,
        /// Why it is not read.
        why: String,
    },
    /// A run folder file that does not decode (the source names the file and JSON path).
    #[error("run folder {}: {source}", .folder.display())]
    Folder {
        /// The folder.
        folder: PathBuf,
        /// The failing file and where in it.
        source: Box<RunFolderError>,
    },
    /// Runs that cannot be put in one comparison.
    #[error("cannot compare these runs: {0}")]
    Model(ModelError),
    /// An API call failed.
    #[error("{what}: {source}{}", key_hint(source, *key_set))]
    Api {
        /// What could not be read, e.g. `could not read run er_1 (GET /api/v1/eval/er_1)`.
        what: String,
        /// The failure.
        source: Box<ApiError>,
        /// Whether a key was sent (for the hint on 401).
        key_set: bool,
    },
    /// A read of reward components that gave up (failures in a row, or its deadline), in the
    /// core's words (the viewer's too), followed by the last failure.
    #[error("could not read the reward components: {stop}{}", last_failure(stop, *key_set))]
    ComponentsStopped {
        /// Why and how far it got.
        stop: Box<ComponentStop>,
        /// Whether a key was sent (for the hint on 401).
        key_set: bool,
    },
    /// A read of Chronicle trials' details that gave up, in the core's words, followed by the
    /// last failure.
    #[error("could not read the trials' details: {stop}{}", last_failure(stop, *key_set))]
    TrialDetailsStopped {
        /// Why and how far it got.
        stop: Box<ComponentStop>,
        /// Whether a key was sent (for the hint on 401).
        key_set: bool,
    },
    /// A read of token counts that gave up, in the core's words, followed by the last failure.
    #[error("could not read the tokens: {stop}{}", last_failure(stop, *key_set))]
    TokensStopped {
        /// Why and how far it got.
        stop: Box<ComponentStop>,
        /// Whether a key was sent (for the hint on 401).
        key_set: bool,
    },
    /// A Chronicle job with no trials to compare or export yet (the guide's words).
    #[error("job {job_id} has no trials yet; inspect its status ({status})")]
    NoTrials {
        /// The job.
        job_id: String,
        /// Its status and progress, e.g. `queued, 0 of 40 trials finished`.
        status: String,
    },
    /// The HTTP client could not be set up.
    #[error(transparent)]
    TransportSetup(TransportSetupError),
    /// The async runtime could not start.
    #[error("could not start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// An output file or stdout could not be written.
    #[error("cannot write {what}: {source}")]
    Write {
        /// The file, or `stdout`.
        what: String,
        /// The failure.
        source: std::io::Error,
    },
}

impl CliError {
    /// The exit code this failure ends the process with.
    pub fn exit(&self) -> Exit {
        match self {
            CliError::Usage(_) | CliError::ApiKey(_) => Exit::Usage,
            CliError::Api { source, .. } if matches!(**source, ApiError::InvalidArgument(_)) => {
                Exit::Usage
            }
            CliError::NoFolder { .. }
            | CliError::ReadFile { .. }
            | CliError::InputFile { .. }
            | CliError::Folder { .. }
            | CliError::Model(_) => Exit::UnreadableInput,
            CliError::Api { .. }
            | CliError::ComponentsStopped { .. }
            | CliError::TrialDetailsStopped { .. }
            | CliError::TokensStopped { .. }
            | CliError::TransportSetup(_) => Exit::Api,
            CliError::NoTrials { .. } => Exit::NoResults,
            CliError::Runtime(_) | CliError::Write { .. } => Exit::OutputFailed,
        }
    }
}

/// `: ` and the last failure of a stopped read of components, with [`key_hint`]; nothing for
/// a read stopped by its deadline.
fn last_failure(stop: &ComponentStop, key_set: bool) -> String {
    stop.last_error()
        .map(|error| format!(": {error}{}", key_hint(error, key_set)))
        .unwrap_or_default()
}

/// What to do about a refused key: set one, or check the one set. (Chronicle's 403 is about
/// sandbox access, which its own message says.)
fn key_hint(error: &ApiError, key_set: bool) -> &'static str {
    let chronicle = matches!(error, ApiError::Http(http) if http.service == Service::Chronicle);
    match (error.status(), key_set) {
        // The core's message already says no key was sent: only where to set one.
        (Some(401 | 403), false) => " — set TRAJECTORY_API_KEY",
        (Some(401), true) => " — check the key in TRAJECTORY_API_KEY",
        (Some(403), true) if !chronicle => {
            " — the key in TRAJECTORY_API_KEY may belong to another organization"
        }
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use eval_compare_core::client::HttpError;

    use super::*;

    fn http(status: u16) -> ApiError {
        ApiError::from(HttpError {
            service: Service::Trajectory,
            status,
            code: Some("authentication_required".to_owned()),
            error_type: None,
            message: "missing or invalid API key".to_owned(),
            param: None,
            request_id: None,
            retry_after_ms: None,
            key_sent: true,
        })
    }

    #[test]
    fn a_refused_key_says_where_the_key_comes_from() {
        let error = CliError::Api {
            what: "could not read run er_1".to_owned(),
            source: Box::new(http(401)),
            key_set: true,
        };
        let text = error.to_string();
        assert!(text.starts_with("could not read run er_1: the API key was refused"));
        assert!(text.ends_with("check the key in TRAJECTORY_API_KEY"));
        assert_eq!(error.exit(), Exit::Api);
        let unset = CliError::Api {
            what: "could not read run er_1".to_owned(),
            source: Box::new(http(401)),
            key_set: false,
        };
        assert!(unset.to_string().ends_with("set TRAJECTORY_API_KEY"));
    }

    #[test]
    fn an_argument_the_client_refuses_is_a_usage_error() {
        let error = CliError::Api {
            what: "could not read run ../x".to_owned(),
            source: Box::new(ApiError::InvalidArgument(
                "evaluation run id is a dot segment".to_owned(),
            )),
            key_set: false,
        };
        assert_eq!(error.exit(), Exit::Usage);
    }
}
