//! `eval-compare report`: load the runs, build the core's report, print it, apply the gates.

use std::io::Write;
use std::path::Path;

use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, ReportError, ReportSettings};

use crate::args::{Format, ReportArgs};
use crate::error::CliError;
use crate::exit_code::Exit;
use crate::gate::{evaluate, Gates};
use crate::progress::Progress;
use crate::report_inputs::load_run_set;

/// Writes the report, then returns the exit code of the gates (explained on stderr).
pub async fn report(args: &ReportArgs, progress: &Progress) -> Result<Exit, CliError> {
    let set = load_run_set(args, progress).await?;
    let candidates: Vec<RunIdx> = (1..set.runs().len()).map(RunIdx).collect();
    let settings = ReportSettings {
        seed: args.seed,
        resamples: args.resamples,
        level: args.confidence,
        ..ReportSettings::default()
    };
    let report =
        build_report(&set, RunIdx(0), &candidates, &settings).map_err(|error| match error {
            ReportError::Model(error) => CliError::Model(error),
            other => CliError::Usage(other.to_string()),
        })?;
    let mut text = match args.format {
        Format::Text => report.to_markdown(),
        Format::Json => report.to_json(),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    write_output(args.output.as_deref(), &text)?;
    if let Some(path) = &args.output {
        progress.note(&format!("report written to {}", path.display()));
    }
    let outcome = evaluate(
        &report,
        Gates {
            fail_on_regression: args.fail_on_regression,
            allow_incomparable: args.allow_incomparable,
        },
    );
    for message in &outcome.messages {
        progress.warn(message);
    }
    Ok(outcome.exit)
}

/// Writes the report to the file, or to stdout.
fn write_output(output: Option<&Path>, text: &str) -> Result<(), CliError> {
    match output {
        Some(path) => std::fs::write(path, text).map_err(|source| CliError::Write {
            what: path.display().to_string(),
            source,
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|source| CliError::Write {
                    what: "stdout".to_owned(),
                    source,
                })
        }
    }
}
