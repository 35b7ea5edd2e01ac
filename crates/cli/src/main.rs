//! `eval-compare`: the Eval Compare report from run folders, the Trajectory API or Chronicle
//! backtest jobs, for people and CI gates. See `eval-compare --help` for commands and exit
//! codes.
//!
//! `args` (flags) → `report_command` / `export_command` / `gate_command`; runs come from
//! `report_inputs` (`folder_io` for run folders, `api_load` on the core's load engine over
//! `http_transport`, for runs and jobs alike); `job_folder` writes a job's folder; `gate` (the
//! report's gates), `job_gate` (a job's CI gate) and `exit_code` decide how the process ends;
//! `progress` writes to stderr.
//!
//! May import: the core, and native crates (tokio, reqwest, clap); never the server or viewer.
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod api_load;
mod args;
#[cfg(test)]
mod chronicle_script;
mod connection;
mod cost_gate;
mod error;
mod event_lines;
mod exit_code;
mod export_command;
mod folder_io;
mod gate;
mod gate_command;
mod http_transport;
mod job_folder;
mod job_gate;
mod kept_lists;
mod ledger_file;
mod progress;
mod report_command;
mod report_inputs;
mod scorecard_api;
mod scorecard_args;
mod scorecard_command;
mod scorecard_gate;
mod scorecard_inputs;
#[cfg(test)]
mod test_support;
mod token_reads;
mod trial_details;

use std::process::ExitCode;

/// jemalloc with transparent huge pages (`thp:always`, built in through
/// `JEMALLOC_SYS_WITH_MALLOC_CONF` in `.cargo/config.toml`; `_RJEM_MALLOC_CONF` overrides it
/// at run time): a report reads hundreds of megabytes of run folders into fresh memory, and
/// faulting it in 4 KiB at a time was a quarter of the report's time at 20,000 tasks × 4
/// samples (2 MiB pages: 33,000 page faults → 3,000, 0.31 → 0.22 s).
#[cfg(unix)]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use clap::Parser;
use eval_compare_core::text::visible;

use args::{Cli, Command};
use error::CliError;
use exit_code::Exit;
use progress::Progress;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let exit = match run(&cli) {
        Ok(exit) => exit,
        Err(error) => {
            // The message may quote API data: its hidden characters are shown, never sent.
            eprintln!("eval-compare: error: {}", visible(&error.to_string()));
            error.exit()
        }
    };
    ExitCode::from(exit.code())
}

/// Runs the command on a single-threaded runtime (the runs' requests interleave on it).
fn run(cli: &Cli) -> Result<Exit, CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    let progress = Progress::stderr(cli.quiet);
    runtime.block_on(async {
        match &cli.command {
            Command::Report(args) => report_command::report(args, &progress).await,
            Command::Export(args) => export_command::export(args, &progress)
                .await
                .map(|()| Exit::Ok),
            Command::Gate(args) => gate_command::gate(args, &progress).await,
            Command::Scorecard(args) => scorecard_command::scorecard(args, &progress).await,
        }
    })
}
