//! `eval-compare report`: load the runs, build the core's report, print it, apply the gates.

use std::io::Write;
use std::path::Path;

use eval_compare_core::ledger::Ledger;
use eval_compare_core::model::{RunIdx, RunSet};
use eval_compare_core::report::{
    build_report, build_report_with_ledger, Report, ReportError, ReportSettings,
};
use eval_compare_core::share_link::{report_page_path, report_view, share_link};

use crate::args::{Format, ReportArgs};
use crate::error::CliError;
use crate::exit_code::Exit;
use crate::gate::{evaluate, Gates};
use crate::ledger_file::read_ledger;
use crate::progress::Progress;
use crate::report_inputs::load_run_set;

/// Writes the report, then returns the exit code of the gates (explained on stderr).
pub async fn report(args: &ReportArgs, progress: &Progress) -> Result<Exit, CliError> {
    // Read first: a ledger that cannot be read stops the command before any run is loaded.
    let ledger = args.exclusions.as_deref().map(read_ledger).transpose()?;
    let set = load_run_set(args, progress).await?;
    let report = build(&set, args, ledger.as_ref())?;
    write_output(
        args.output.as_deref(),
        &render(&report, args.format, &args.link_base),
    )?;
    if let Some(path) = &args.output {
        progress.note(&format!("report written to {}", path.display()));
    }
    let outcome = evaluate(
        &report,
        Gates {
            fail_on_regression: args.fail_on_regression,
            allow_incomparable: args.allow_incomparable,
            allow_unfinished: args.allow_unfinished,
        },
    );
    let outcome = crate::gate::with_turns_gate(outcome, &report, args.max_turns_increase);
    let outcome = crate::cost_gate::with_cost_gate(outcome, &report, args.max_cost_increase);
    for message in &outcome.messages {
        progress.warn(message);
    }
    Ok(outcome.exit)
}

/// The core's report of the run set (the first run the baseline, the others candidates) with
/// the arguments' settings and the reviewer's ledger, when given: the viewer's code for the
/// same inputs.
pub fn build(set: &RunSet, args: &ReportArgs, ledger: Option<&Ledger>) -> Result<Report, CliError> {
    let candidates: Vec<RunIdx> = (1..set.runs().len()).map(RunIdx).collect();
    let settings = ReportSettings {
        pass_threshold: args
            .pass_threshold
            .map(eval_compare_core::view_state::pass_threshold_of_thousandths),
        versus_step: args.versus_step,
        ..args.statistics.settings()
    };
    match ledger {
        Some(ledger) => build_report_with_ledger(set, RunIdx(0), &candidates, &settings, ledger),
        None => build_report(set, RunIdx(0), &candidates, &settings),
    }
    .map_err(|error| match error {
        ReportError::Model(error) => CliError::Model(error),
        other => CliError::Usage(other.to_string()),
    })
}

/// The report as text in `format`, ending with a newline; the HTML's share link starts with
/// `link_base` (the viewer's origin).
pub fn render(report: &Report, format: Format, link_base: &str) -> String {
    let mut text = match format {
        Format::Text => report.to_markdown(),
        Format::Json => report.to_json(),
        Format::Html => report.to_html(share(report, link_base).as_deref()),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The viewer's link of the report's view (its runs and settings) at `link_base`, or `None`
/// when its settings cannot be written in a link (B = 0, a level that is no whole percent).
pub fn share(report: &Report, link_base: &str) -> Option<String> {
    let view = report_view(report)?;
    Some(share_link(
        link_base,
        report_page_path(&report.sources),
        &view,
    ))
}

/// Writes the text to the file, or to stdout.
pub fn write_output(output: Option<&Path>, text: &str) -> Result<(), CliError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    use clap::Parser;
    use eval_compare_core::report::Role;
    use eval_compare_core::testing::scripted::client_over;
    use eval_compare_core::testing::ScriptedTransport;

    use crate::args::{Cli, Command};
    use crate::chronicle_script::{script_job, task_ids, trials_of};
    use crate::gate::Gates;
    use crate::report_inputs::chronicle_run_set;
    use crate::test_support::block_on;

    /// `report --server http://api.test --chronicle JOBS... --format json` with these flags.
    fn args(jobs: &[&str], flags: &[&str]) -> ReportArgs {
        let argv = [
            "eval-compare",
            "report",
            "--server",
            "http://api.test",
            "--chronicle",
        ]
        .into_iter()
        .chain(jobs.iter().copied())
        .chain(["--format", "json", "--resamples", "200"])
        .chain(flags.iter().copied());
        match Cli::try_parse_from(argv).unwrap().command {
            Command::Report(args) => args,
            other => panic!("not a report: {other:?}"),
        }
    }

    /// The report of the jobs as `report --chronicle` builds it, over `transport`.
    fn report_of(transport: &ScriptedTransport, args: &ReportArgs) -> Result<Report, CliError> {
        let jobs: Vec<String> = std::iter::once(args.baseline.clone())
            .chain(args.candidates.iter().cloned())
            .collect();
        let client = client_over(transport);
        let set = block_on(chronicle_run_set(&client, &jobs, &Progress::silent()))?;
        build(&set, args, None)
    }

    fn gates_of(args: &ReportArgs) -> Gates {
        Gates {
            fail_on_regression: args.fail_on_regression,
            allow_incomparable: args.allow_incomparable,
            allow_unfinished: args.allow_unfinished,
        }
    }

    #[test]
    fn a_compare_job_gives_its_baseline_and_candidate_and_the_regression_gate_works() {
        let transport = ScriptedTransport::default();
        let tasks = task_ids(12);
        let agents = ["base@1", "cand@2"];
        // The baseline passes every task, the candidate only the first two.
        let trials = trials_of(&agents, &tasks, |agent, task| agent == 0 || task < 2);
        script_job(&transport, "jc", "succeeded", &agents, &trials, true);
        let args = args(&["jc"], &["--fail-on-regression"]);
        let report = report_of(&transport, &args).unwrap();
        let runs: Vec<(&str, Role)> = report
            .runs
            .iter()
            .map(|run| (run.id.as_str(), run.role))
            .collect();
        assert_eq!(
            runs,
            [
                ("jc/base@1", Role::Baseline),
                ("jc/cand@2", Role::Candidate)
            ]
        );
        let json: serde_json::Value =
            serde_json::from_str(&render(&report, args.format, &args.link_base)).unwrap();
        assert_eq!(json["runs"][1]["id"], "jc/cand@2");
        assert_eq!(json["candidates"].as_array().map(Vec::len), Some(1));
        let outcome = crate::gate::evaluate(&report, gates_of(&args));
        assert_eq!(outcome.exit, Exit::Regression, "{:?}", outcome.messages);
        assert!(
            outcome
                .messages
                .iter()
                .any(|m| m.starts_with("significant regression: ")),
            "{:?}",
            outcome.messages
        );
        // The same jobs without the flag: the report is written, no gate fails.
        let lenient = report_of(&transport, &self::args(&["jc"], &[])).unwrap();
        assert_eq!(
            crate::gate::evaluate(&lenient, gates_of(&self::args(&["jc"], &[]))).exit,
            Exit::Ok
        );
    }

    #[test]
    fn several_suite_jobs_compare_their_agents_in_the_order_given() {
        let transport = ScriptedTransport::default();
        let tasks = task_ids(6);
        for (job, agent) in [("jx", "x@1"), ("jy", "y@1"), ("jz", "z@1")] {
            let trials = trials_of(&[agent], &tasks, |_, task| task % 2 == 0);
            script_job(&transport, job, "succeeded", &[agent], &trials, true);
        }
        let report = report_of(&transport, &args(&["jy", "jx", "jz"], &[])).unwrap();
        let ids: Vec<&str> = report.runs.iter().map(|run| run.id.as_str()).collect();
        assert_eq!(ids, ["jy/y@1", "jx/x@1", "jz/z@1"]);
        assert_eq!(report.runs[0].role, Role::Baseline);
        assert_eq!(report.candidates.len(), 2);
    }

    #[test]
    fn one_agent_alone_or_a_job_twice_is_nothing_to_compare() {
        let transport = ScriptedTransport::default();
        let tasks = task_ids(3);
        let trials = trials_of(&["x@1"], &tasks, |_, _| true);
        script_job(&transport, "jx", "succeeded", &["x@1"], &trials, true);
        let error = report_of(&transport, &args(&["jx"], &[])).unwrap_err();
        assert_eq!(error.exit(), Exit::Usage);
        assert!(
            error
                .to_string()
                .starts_with("nothing to compare: job jx gives one run (run jx/x@1)"),
            "{error}"
        );
        let twice = report_of(&transport, &args(&["jx", "jx"], &[])).unwrap_err();
        assert_eq!(
            twice.to_string(),
            "job jx is given twice; compare distinct jobs"
        );
        assert_eq!(twice.exit(), Exit::Usage);
    }
}
