//! `report --chronicle --trial-details`: every counted trial's steps and duration, read from its
//! detail through the core's engine (as the viewer's "Read steps and durations" does) and put
//! on the run set, or a failure naming the first trial that could not be read: a report never
//! covers only some of them.

use eval_compare_core::client::{paths, TrajectoryClient, Transport};
use eval_compare_core::load::{
    load_trial_details, trial_read_keys, ComponentReadLimits, LoadEvent, LoadStore,
};
use eval_compare_core::model::RunSet;
use eval_compare_core::text::{noun, visible};

use crate::error::CliError;
use crate::progress::Progress;

/// Reads the details of the counted trials of every run of `set` and attaches their steps and
/// durations; progress on stderr.
pub async fn read_trial_details<T: Transport>(
    client: &TrajectoryClient<T>,
    set: &mut RunSet,
    progress: &Progress,
) -> Result<(), CliError> {
    let runs: Vec<_> = set.run_indices().collect();
    let targets = set.trial_detail_targets(&runs);
    let store = LoadStore::new();
    let label = "trial details";
    let done = std::cell::Cell::new(0usize);
    let notify = |event: LoadEvent<'_>| {
        if let LoadEvent::Components { .. } = event {
            done.set(done.get() + 1);
            progress.counted(label, done.get(), targets.len());
        }
    };
    let limits = ComponentReadLimits::for_reads(targets.len());
    if let Some(stop) = load_trial_details(client, &store, &targets, &limits, &notify).await {
        return Err(CliError::TrialDetailsStopped {
            stop: Box::new(stop),
            key_set: client.config().api_key.is_some(),
        });
    }
    let keys = trial_read_keys(&targets);
    let standing = store.trial_detail_progress(&keys);
    if let Some((key, source)) = standing.first_error {
        let (job, trial) = keys.iter().zip(&targets).find(|(k, _)| **k == key).map_or(
            (String::new(), visible(&key).into_owned()),
            |(_, t)| {
                (
                    visible(&t.job_id).into_owned(),
                    visible(&t.trial_id).into_owned(),
                )
            },
        );
        return Err(CliError::Api {
            what: format!(
                "could not read the detail of trial {trial} of job {job} (GET {}/{trial}; {} of {} {} failed)",
                paths::chronicle_trials(&job),
                standing.failed,
                targets.len(),
                noun(targets.len() as u64, "read", "reads")
            ),
            source: Box::new(source),
            key_set: client.config().api_key.is_some(),
        });
    }
    let attached = store.attach_trial_details(set, &targets);
    progress.note(&format!(
        "{label}: {attached} of {} {} read",
        targets.len(),
        noun(targets.len() as u64, "trial", "trials")
    ));
    Ok(())
}
