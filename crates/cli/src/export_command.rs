//! `eval-compare export`: one run from the API into a run folder, or one Chronicle job into
//! a job folder.

use std::path::Path;

use eval_compare_core::client::{TrajectoryClient, Transport};
use eval_compare_core::model::RunCost;
use eval_compare_core::run_folder::ChronicleFolder;
use eval_compare_core::text::noun;

use crate::api_load::{job_files, load_complete, load_jobs_complete, run_folder};
use crate::args::ExportArgs;
use crate::connection;
use crate::error::CliError;
use crate::folder_io::write_run_folder;
use crate::job_folder::write_job_folder;
use crate::progress::Progress;

/// Reads the run (or job) completely, then writes its folder; on any failure nothing is
/// written.
pub async fn export(args: &ExportArgs, progress: &Progress) -> Result<(), CliError> {
    let client = connection::client(&args.server, &args.connection)?;
    if args.chronicle {
        return export_job(&client, &args.run_id, &args.dir, progress).await;
    }
    let ids = [args.run_id.clone()];
    let store = load_complete(&client, &ids, progress).await?;
    let folder = run_folder(&store, &args.run_id)?;
    write_run_folder(&args.dir, &folder)?;
    if folder.costs.billing.is_none() {
        if let RunCost::Unavailable(why) = store.cost_reads().cost(&args.run_id) {
            progress.note(&format!(
                "no billing.json: the run's cost is unavailable: {}",
                why.reason()
            ));
        }
    }
    progress.note(&format!(
        "wrote {}: run {}, {} trajectory rewards, {} trajectories, {} tasks",
        args.dir.display(),
        folder.run.eval_run_id,
        folder.rewards.len(),
        folder.trajectories.len(),
        folder.tasks.as_ref().map_or(0, Vec::len)
    ));
    Ok(())
}

/// Reads the Chronicle job `job_id` completely (a job with no trials yet is refused), then
/// writes its folder into `dir`.
pub async fn export_job<T: Transport>(
    client: &TrajectoryClient<T>,
    job_id: &str,
    dir: &Path,
    progress: &Progress,
) -> Result<(), CliError> {
    let ids = [job_id.to_owned()];
    let store = load_jobs_complete(client, &ids, progress).await?;
    let (job, trials, results) = job_files(&store, job_id)?;
    let folder = ChronicleFolder {
        job,
        trials,
        results,
        truncated_files: Vec::new(),
    };
    write_job_folder(dir, &folder)?;
    let ChronicleFolder {
        job,
        trials,
        results,
        ..
    } = &folder;
    let results = match results {
        Some(results) => format!(
            "results of {} {}",
            results.task_results.len(),
            noun(results.task_results.len() as u64, "task", "tasks")
        ),
        None => "no results listed by the platform".to_owned(),
    };
    progress.note(&format!(
        "wrote {}: job {}, {} {}, {} {}, {results}",
        dir.display(),
        job.id,
        job.agents.len(),
        noun(job.agents.len() as u64, "agent", "agents"),
        trials.len(),
        noun(trials.len() as u64, "trial", "trials"),
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use eval_compare_core::api::{ChronicleJob, ChronicleTrial, SuiteEvalRun};
    use eval_compare_core::testing::bodies::chronicle_trial_item;
    use eval_compare_core::testing::scripted::client_over;
    use eval_compare_core::testing::ScriptedTransport;

    use crate::chronicle_script::{script_failed_trials_page, script_job};
    use crate::exit_code::Exit;
    use crate::test_support::block_on;
    use eval_compare_core::run_folder::{JOB_FILE, RESULTS_FILE, TRIALS_FILE};

    fn read<T: serde::de::DeserializeOwned>(path: &Path) -> T {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    }

    const TRIALS: [(&str, &str, bool); 3] = [
        ("base@1", "t1", true),
        ("cand@2", "t1", false),
        ("cand@2", "t2", true),
    ];

    #[test]
    fn writes_the_job_its_trials_and_its_results() {
        let transport = ScriptedTransport::default();
        script_job(
            &transport,
            "je",
            "succeeded",
            &["base@1", "cand@2"],
            &TRIALS,
            true,
        );
        let client = client_over(&transport);
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("je");
        block_on(export_job(&client, "je", &folder, &Progress::silent())).unwrap();
        let job: ChronicleJob = read(&folder.join(JOB_FILE));
        assert_eq!(job.id, "je");
        assert_eq!(job.agents, ["base@1", "cand@2"]);
        let trials: Vec<ChronicleTrial> = read(&folder.join(TRIALS_FILE));
        let ids: Vec<&str> = trials.iter().map(|trial| trial.id.as_str()).collect();
        assert_eq!(ids, ["je_0", "je_1", "je_2"]);
        let results: SuiteEvalRun = read(&folder.join(RESULTS_FILE));
        assert_eq!(results.job_id, "je");
        assert_eq!(results.task_results.len(), 2);
        let mut names: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, [JOB_FILE, RESULTS_FILE, TRIALS_FILE]);

        // Exported again once the platform lists no results: the older results.json goes.
        let later = ScriptedTransport::default();
        script_job(
            &later,
            "je",
            "succeeded",
            &["base@1", "cand@2"],
            &TRIALS,
            false,
        );
        block_on(export_job(
            &client_over(&later),
            "je",
            &folder,
            &Progress::silent(),
        ))
        .unwrap();
        assert!(folder.join(JOB_FILE).is_file() && folder.join(TRIALS_FILE).is_file());
        assert!(!folder.join(RESULTS_FILE).exists());
    }

    #[test]
    fn a_failed_page_writes_nothing() {
        let transport = ScriptedTransport::default();
        let first = [chronicle_trial_item("x1", "a@1", "t1", true)];
        script_failed_trials_page(&transport, "jf", &first, 2);
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("jf");
        let error = block_on(export_job(
            &client_over(&transport),
            "jf",
            &folder,
            &Progress::silent(),
        ))
        .unwrap_err();
        assert_eq!(error.exit(), Exit::Api);
        assert!(error.to_string().contains("page 2 failed"), "{error}");
        assert!(!folder.exists());
    }
}
