//! `eval-compare scorecard`'s arguments: where the runs come from (the API or run folders),
//! the training run, baselines chosen by hand, the decision rule, the report settings every
//! cell is computed with, the output and the deployability gate.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use eval_compare_core::share_link::DEFAULT_LINK_BASE;
use eval_compare_core::view_state::{check_id, parse_tenths, MAX_MARGIN_TENTHS};

use crate::args::{parse_link_base, CacheArgs, ConnectionArgs, Format, StatisticsArgs};

/// `--help`'s description of the command.
pub const SCORECARD_LONG_ABOUT: &str = "\
Every checkpoint of a training run on every benchmark version it was evaluated on, each cell the
paired comparison of that checkpoint's evaluation against the row's baseline (the same report
`eval-compare report BASELINE CANDIDATE` gives, with the same settings), with a decision rule per
checkpoint and a recommended checkpoint only when one meets the rule.

  eval-compare scorecard --server URL --training-run ID [--primary BENCH]... [--guardrail BENCH=POINTS]...
  eval-compare scorecard --folders DIR... [--training-run ID] ...

From the API: the training run's agent, its evaluation runs of the training run, the base-model
evaluations of each benchmark version, then each compared run once. From run folders: a folder per
evaluation (or a parent directory of exported folders). The baseline of each benchmark version is
the newest completed base-model evaluation whose settings match the checkpoints' unless
--baseline BENCH=RUN chooses it. The rule: every --primary benchmark better, every --guardrail
benchmark not worse by more than its margin in points, Holm across the cells the rule looks at
(--correction none turns it off). --fail-unless-deployable STEP exits 12 unless that checkpoint
meets the rule, and refuses (exit 11) when a run the rule needs there is still running, failed or
was not read completely.";

/// How the rule corrects for looking at several cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CorrectionArg {
    /// Holm's step-down correction (family-wise error rate).
    Holm,
    /// None: each cell at α on its own.
    None,
}

/// `eval-compare scorecard`.
#[derive(Debug, Args)]
pub struct ScorecardArgs {
    /// Read from this Trajectory API (or eval-compare-server) base URL. The key comes from
    /// TRAJECTORY_API_KEY.
    #[arg(
        long,
        value_name = "URL",
        conflicts_with = "folders",
        required_unless_present = "folders"
    )]
    pub server: Option<String>,
    /// Run folders, one per evaluation (checkpoint and base-model evaluations), or parent
    /// directories of exported run folders.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub folders: Vec<PathBuf>,
    /// The training run whose checkpoints are the columns (needed with --server; from folders,
    /// needed only when they hold evaluations of several training runs).
    #[arg(long, value_name = "ID", value_parser = parse_id, required_unless_present = "folders")]
    pub training_run: Option<String>,
    /// The baseline of a benchmark version, chosen by hand: BENCH_ID=RUN_ID (repeatable).
    #[arg(long, value_name = "BENCH_ID=RUN_ID", value_parser = parse_baseline)]
    pub baseline: Vec<(String, String)>,
    /// A primary benchmark version: the checkpoint must be better on it (repeatable).
    #[arg(long, value_name = "BENCH_ID", value_parser = parse_id)]
    pub primary: Vec<String>,
    /// A guardrail: BENCH_ID=MARGIN_POINTS, the checkpoint must not be worse on it by more
    /// than the margin (0 to 100 points, at most one decimal; repeatable).
    #[arg(long, value_name = "BENCH_ID=POINTS", value_parser = parse_guardrail)]
    pub guardrail: Vec<(String, u16)>,
    /// The family-wise correction across the cells the rule looks at in a column.
    #[arg(long, value_enum, default_value_t = CorrectionArg::Holm)]
    pub correction: CorrectionArg,
    /// Exit with code 12 unless the checkpoint at this step meets the rule; refuse (exit 11)
    /// when a run the rule needs there is still running, failed or was not read completely.
    #[arg(long, value_name = "STEP")]
    pub fail_unless_deployable: Option<i64>,
    /// Timeouts and retries of API requests.
    #[command(flatten)]
    pub connection: ConnectionArgs,
    /// Keeping finished runs' lists (--cache DIR), as for `report`.
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Output format: text (markdown), json (every cell with its pair report's primary,
    /// verdict and coverage) or html (one self-contained document, no script).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The viewer's address the HTML scorecard's link starts with (http or https).
    #[arg(long, value_name = "URL", default_value = DEFAULT_LINK_BASE, value_parser = parse_link_base)]
    pub link_base: String,
    /// The statistics' settings, as for `report`.
    #[command(flatten)]
    pub statistics: StatisticsArgs,
    /// Write the scorecard to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn parse_id(raw: &str) -> Result<String, String> {
    check_id(raw)?;
    Ok(raw.to_owned())
}

fn split_pair(raw: &str, what: &str) -> Result<(String, String), String> {
    let (bench, value) = raw
        .rsplit_once('=')
        .ok_or_else(|| format!("`{raw}` is not {what}"))?;
    Ok((parse_id(bench)?, value.to_owned()))
}

fn parse_baseline(raw: &str) -> Result<(String, String), String> {
    let (bench, run) = split_pair(raw, "BENCH_ID=RUN_ID")?;
    Ok((bench, parse_id(&run)?))
}

fn parse_guardrail(raw: &str) -> Result<(String, u16), String> {
    let (bench, margin) = split_pair(raw, "BENCH_ID=MARGIN_POINTS")?;
    let tenths = parse_tenths(&margin)
        .filter(|tenths| *tenths <= MAX_MARGIN_TENTHS)
        .ok_or_else(|| {
            format!("`{margin}` is not a margin from 0 to 100 points (at most one decimal)")
        })?;
    Ok((bench, tenths))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::args::{Cli, Command};

    use super::*;

    fn parse(argv: &[&str]) -> Result<ScorecardArgs, clap::Error> {
        let argv = ["eval-compare", "scorecard"]
            .into_iter()
            .chain(argv.iter().copied());
        Cli::try_parse_from(argv).map(|cli| match cli.command {
            Command::Scorecard(args) => args,
            other => panic!("not a scorecard: {other:?}"),
        })
    }

    #[test]
    fn the_rule_and_baselines_parse() {
        let args = parse(&[
            "--server",
            "http://h",
            "--training-run",
            "tr_1",
            "--baseline",
            "b=v1=er_1",
            "--primary",
            "x",
            "--guardrail",
            "y=1.5",
            "--fail-unless-deployable",
            "400",
        ])
        .unwrap();
        assert_eq!(args.baseline, [("b=v1".to_owned(), "er_1".to_owned())]);
        assert_eq!(args.guardrail, [("y".to_owned(), 15)]);
        assert_eq!(args.correction, CorrectionArg::Holm);
        assert_eq!(args.fail_unless_deployable, Some(400));
    }

    #[test]
    fn bad_arguments_are_refused() {
        for argv in [
            &["--server", "http://h"][..],
            &[
                "--server",
                "http://h",
                "--training-run",
                "t",
                "--guardrail",
                "y=-1",
            ],
            &[
                "--server",
                "http://h",
                "--training-run",
                "t",
                "--guardrail",
                "y",
            ],
            &[
                "--server",
                "http://h",
                "--folders",
                "d",
                "--training-run",
                "t",
            ],
            &[],
        ] {
            assert!(parse(argv).is_err(), "{argv:?}");
        }
        assert!(parse(&["--folders", "d"]).is_ok());
    }
}
