//! `eval-compare export`: one run from the API into a run folder.

use crate::api_load::{load_complete, run_folder};
use crate::args::ExportArgs;
use crate::connection;
use crate::error::CliError;
use crate::folder_io::write_run_folder;
use crate::progress::Progress;

/// Reads the run completely, then writes its folder; on any failure nothing is written.
pub async fn export(args: &ExportArgs, progress: &Progress) -> Result<(), CliError> {
    let client = connection::client(&args.server, &args.connection)?;
    let run_ids = [args.run_id.clone()];
    let store = load_complete(&client, &run_ids, progress).await?;
    let folder = run_folder(&store, &args.run_id)?;
    write_run_folder(&args.dir, &folder)?;
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
