//! `report --tokens`: every counted trajectory's token counts, read from its last step (which
//! holds the whole conversation) through the core's engine, as the viewer's "Read tokens" does,
//! and put on the run set; or a failure naming the first trajectory that could not be read: a
//! report never covers only some of them. A transcript without counts is "no count", not a
//! failure, and the report says how many.

use eval_compare_core::client::{paths, TrajectoryClient, Transport};
use eval_compare_core::load::{
    load_tokens, token_targets, ComponentReadLimits, LoadEvent, LoadStore,
};
use eval_compare_core::model::RunSet;
use eval_compare_core::text::{noun, visible};

use crate::error::CliError;
use crate::progress::Progress;

/// Reads the token counts of the counted trajectories of every run of `set` (read into
/// `store`) and attaches them; progress on stderr.
pub async fn read_tokens<T: Transport>(
    client: &TrajectoryClient<T>,
    store: &LoadStore,
    set: &mut RunSet,
    progress: &Progress,
) -> Result<(), CliError> {
    let targets = token_targets(set);
    let wanted = targets.ids.len();
    let label = "tokens";
    let done = std::cell::Cell::new(0usize);
    let notify = |event: LoadEvent<'_>| {
        if let LoadEvent::Tokens { .. } = event {
            done.set(done.get() + 1);
            progress.counted(label, done.get(), wanted);
        }
    };
    let limits = ComponentReadLimits::for_reads(wanted);
    if let Some(stop) = load_tokens(client, store, &targets, &limits, &notify).await {
        return Err(CliError::TokensStopped {
            stop: Box::new(stop),
            key_set: client.config().api_key.is_some(),
        });
    }
    let standing = store.token_progress(&targets.ids);
    if let Some((trajectory_id, source)) = standing.first_error {
        let shown = visible(&trajectory_id);
        return Err(CliError::Api {
            what: format!(
                "could not read the tokens of trajectory {shown} (GET {}/steps, its last step; {} of {wanted} {} failed)",
                paths::trajectory(&shown),
                standing.failed,
                noun(wanted as u64, "read", "reads")
            ),
            source: Box::new(source),
            key_set: client.config().api_key.is_some(),
        });
    }
    store.attach_tokens(set);
    let without = if targets.without_steps > 0 {
        format!("; {} without a step count left out", targets.without_steps)
    } else {
        String::new()
    };
    progress.note(&format!(
        "{label}: {} of {wanted} {} read ({} requests){without}",
        standing.read,
        noun(wanted as u64, "trajectory", "trajectories"),
        targets.requests()
    ));
    Ok(())
}
