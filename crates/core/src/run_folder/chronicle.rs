//! Chronicle job folders: `job.json` (the `ChronicleJob`), `trials.json` (its trials, in any
//! list layout a run folder's lists may use; Chronicle pages say `has_next_page`) and
//! optionally `results.json` (the job's `SuiteEvalRun`, or a page of a suite's eval runs that
//! holds it). Every run id the job makes (`{job}/{agent}`) must be one a comparison can name.

use serde::Deserialize;
use serde_json::Value;

use crate::api::{decode, ChronicleJob, ChronicleTrial, SuiteEvalRun};
use crate::model::{
    chronicle_agents, chronicle_run_id, ModelError, RunIdx, RunSetBuilder, SourceKind,
};
use crate::view_state::check_id;

use super::list::{strip_bom, ParsedList};
use super::{encode, shown_id, FolderFile, RunFolderError};

/// File name of the job.
pub const JOB_FILE: &str = "job.json";
/// File name of the job's trials.
pub const TRIALS_FILE: &str = "trials.json";
/// File name of the platform's results of the job (optional).
pub const RESULTS_FILE: &str = "results.json";

/// The contents of a Chronicle job folder's files.
#[derive(Debug, Clone, Copy)]
pub struct ChronicleFolderFiles<'a> {
    /// `job.json`.
    pub job: &'a [u8],
    /// `trials.json`.
    pub trials: &'a [u8],
    /// `results.json`, when the folder has one.
    pub results: Option<&'a [u8]>,
}

impl<'a> ChronicleFolderFiles<'a> {
    /// The contents of the file `name`, when the folder has it.
    pub fn file(&self, name: &str) -> Option<&'a [u8]> {
        match name {
            JOB_FILE => Some(self.job),
            TRIALS_FILE => Some(self.trials),
            RESULTS_FILE => self.results,
            _ => None,
        }
    }
}

/// A parsed Chronicle job folder.
#[derive(Debug, Clone, PartialEq)]
pub struct ChronicleFolder {
    /// The job.
    pub job: ChronicleJob,
    /// Its trials.
    pub trials: Vec<ChronicleTrial>,
    /// The platform's pass/fail per task for the job, when the folder has it.
    pub results: Option<SuiteEvalRun>,
    /// Files whose last page said more followed (the export stopped early).
    pub truncated_files: Vec<String>,
}

/// `results.json`: the job's results, or a page of a suite's eval runs.
enum ResultsFile {
    Page { items: Vec<SuiteEvalRun> },
    One(SuiteEvalRun),
}

impl ChronicleFolder {
    /// `job.json`: the job. The first file a [`FolderFeed`](super::FolderFeed) reads of a job
    /// folder; its trials come next, then [`Self::put_together`].
    pub(super) fn parse_job(bytes: &[u8]) -> Result<ChronicleJob, RunFolderError> {
        decode(strip_bom(bytes)).map_err(|source| RunFolderError::Decode {
            file: JOB_FILE.to_owned(),
            line: None,
            source,
        })
    }

    /// A job folder from its job and trials, read, and its results (`results.json`, when the
    /// folder has one), read here after the run ids are checked: the last part of a job
    /// folder's read, whose errors come in this order.
    pub(super) fn put_together(
        job: ChronicleJob,
        trials: ParsedList<ChronicleTrial>,
        results: Option<&[u8]>,
    ) -> Result<ChronicleFolder, RunFolderError> {
        check_ids(&job, &trials.items)?;
        let results = results
            .map(|bytes| parse_results(&job.id, bytes))
            .transpose()?;
        Ok(ChronicleFolder {
            job,
            trials: trials.items,
            results,
            truncated_files: if trials.truncated {
                vec![TRIALS_FILE.to_owned()]
            } else {
                Vec::new()
            },
        })
    }

    /// The folder's files as pretty JSON, what an export writes: `job.json` and `results.json`
    /// objects, `trials.json` a plain array of items.
    pub fn to_files(&self) -> Result<Vec<FolderFile>, RunFolderError> {
        let mut files = vec![
            encode(JOB_FILE, &self.job)?,
            encode(TRIALS_FILE, &self.trials)?,
        ];
        if let Some(results) = &self.results {
            files.push(encode(RESULTS_FILE, results)?);
        }
        Ok(files)
    }

    /// The ids of the runs the job makes, one per agent version, in the order
    /// [`Self::add_to`] adds them.
    pub fn run_ids(&self) -> Vec<String> {
        chronicle_agents(&self.job, &self.trials)
            .into_iter()
            .map(|agent| chronicle_run_id(&self.job.id, agent))
            .collect()
    }

    /// Adds the job's runs to a builder (see
    /// [`RunSetBuilder::add_chronicle_job`]); a truncated file marks each run's load as
    /// incomplete. `source` labels where it came from (usually [`SourceKind::Files`]).
    pub fn add_to(
        &self,
        builder: &mut RunSetBuilder,
        source: SourceKind,
    ) -> Result<Vec<RunIdx>, ModelError> {
        let incomplete_load = (!self.truncated_files.is_empty()).then(|| {
            format!(
                "{} ended with a page saying more followed",
                self.truncated_files.join(", ")
            )
        });
        builder.add_chronicle_job_from(
            &self.job,
            &self.trials,
            self.results.as_ref(),
            source,
            incomplete_load,
        )
    }
}

/// The job id and every run id it makes must pass [`check_id`]; the job id must not hold the
/// `/` that separates it from the agent in a run id.
fn check_ids(job: &ChronicleJob, trials: &[ChronicleTrial]) -> Result<(), RunFolderError> {
    let refuse = |file: &str, path: String, id: &str, reason: String| RunFolderError::RunId {
        file: file.to_owned(),
        path: Some(path),
        id: shown_id(id),
        reason,
    };
    check_id(&job.id).map_err(|reason| refuse(JOB_FILE, "id".into(), &job.id, reason))?;
    if job.id.contains('/') {
        return Err(refuse(
            JOB_FILE,
            "id".into(),
            &job.id,
            "contains `/`, which separates the job from the agent in a run id".into(),
        ));
    }
    let check_agent = |file: &str, path: String, agent: &str| {
        let id = chronicle_run_id(&job.id, agent);
        if agent.is_empty() {
            return Err(refuse(file, path, &id, "the agent is empty".into()));
        }
        check_id(&id).map_err(|reason| refuse(file, path, &id, reason))
    };
    for (index, agent) in job.agents.iter().enumerate() {
        check_agent(JOB_FILE, format!("agents[{index}]"), agent)?;
    }
    let mut checked: Vec<&str> = job.agents.iter().map(String::as_str).collect();
    for (index, trial) in trials.iter().enumerate() {
        if !checked.contains(&trial.agent.as_str()) {
            check_agent(TRIALS_FILE, format!("[{index}].agent"), &trial.agent)?;
            checked.push(&trial.agent);
        }
    }
    Ok(())
}

fn parse_results(job_id: &str, bytes: &[u8]) -> Result<SuiteEvalRun, RunFolderError> {
    let body = strip_bom(bytes);
    let value: Value = decode(body).map_err(|source| RunFolderError::Decode {
        file: RESULTS_FILE.to_owned(),
        line: None,
        source,
    })?;
    let is_page = value.get("items").is_some_and(Value::is_array);
    let inconsistent = |path: &str, message: String| RunFolderError::Inconsistent {
        file: RESULTS_FILE.to_owned(),
        path: path.to_owned(),
        message,
    };
    // Decoding again names the JSON path of a shape error.
    let decoded: ResultsFile = if is_page {
        #[derive(Deserialize)]
        struct Page {
            items: Vec<SuiteEvalRun>,
        }
        let page: Page = decode(body).map_err(|source| RunFolderError::Decode {
            file: RESULTS_FILE.to_owned(),
            line: None,
            source,
        })?;
        ResultsFile::Page { items: page.items }
    } else {
        ResultsFile::One(decode(body).map_err(|source| RunFolderError::Decode {
            file: RESULTS_FILE.to_owned(),
            line: None,
            source,
        })?)
    };
    match decoded {
        ResultsFile::One(results) if results.job_id == job_id => Ok(results),
        ResultsFile::One(results) => Err(inconsistent(
            "job_id",
            format!(
                "these are the results of job `{}`, not of job `{}` ({JOB_FILE})",
                shown_id(&results.job_id),
                shown_id(job_id)
            ),
        )),
        ResultsFile::Page { items } => {
            let count = items.len();
            items
                .into_iter()
                .find(|results| results.job_id == job_id)
                .ok_or_else(|| {
                    inconsistent(
                        "items",
                        format!(
                            "none of its {count} results is of job `{}` ({JOB_FILE})",
                            shown_id(job_id)
                        ),
                    )
                })
        }
    }
}
