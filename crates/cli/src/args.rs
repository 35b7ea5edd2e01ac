//! Command-line arguments (clap derive). Usage errors exit with clap's code 2.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use eval_compare_core::share_link::DEFAULT_LINK_BASE;
use eval_compare_core::text::is_web_link;
use eval_compare_core::view_state::{
    parse_tenths, DEFAULT_RESAMPLES, DEFAULT_SEED, PROJECT_SAMPLES_RANGE, RESAMPLES_RANGE,
    TARGET_TENTHS_RANGE,
};

use eval_compare_core::report::ReportSettings;
use eval_compare_core::view_state::target_delta_of_tenths;

use crate::exit_code::EXIT_CODES_HELP;

const ABOUT: &str = "Compare evaluation runs of AI agents: the Eval Compare report from run folders, the Trajectory API or Chronicle backtests.";

const LONG_ABOUT: &str = "\
Compare evaluation runs of AI agents: the Eval Compare report from run folders, the Trajectory API
or Chronicle backtests.

  eval-compare report BASELINE_DIR CANDIDATE_DIR...            compare run folders
  eval-compare report JOB_DIR [JOB_DIR...]                     compare the agents of exported jobs
  eval-compare report --server URL BASELINE_ID CANDIDATE_ID... compare runs read from the API
  eval-compare report --server URL --chronicle JOB_ID...       compare the agents of Chronicle jobs
  eval-compare export --server URL RUN_ID DIR                  save a run as a run folder
  eval-compare export --server URL --chronicle JOB_ID DIR      save a Chronicle job as a folder
  eval-compare gate --server URL --chronicle JOB_ID            wait for a job; pass if every task passed

A run folder holds run.json, trajectory-rewards.json, trajectories.json and optionally tasks.json,
training-run.json and eval-options.json (the settings a checkpoint inherits and the evaluation
defaults) and platform-progression.json (the platform's own progression of its training run);
export writes them, in the Trajectory API's shapes; a Chronicle job's folder (what export --chronicle writes) holds
job.json, trials.json and optionally results.json. The report is the one the viewer shows for the same inputs and
settings. Progress goes to stderr (--quiet silences it); the report goes to stdout or --output.";

/// `eval-compare`: command-line arguments.
#[derive(Debug, Parser)]
#[command(name = "eval-compare", version, about = ABOUT, long_about = LONG_ABOUT, after_help = EXIT_CODES_HELP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// No progress on stderr (errors and gate results are still reported).
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compare candidate runs with a baseline and print the report.
    #[command(after_help = EXIT_CODES_HELP)]
    Report(ReportArgs),
    /// Read one evaluation run (or Chronicle job) from the API and write it as a folder.
    #[command(
        long_about = "Read one evaluation run from the API and write it as a run folder: run.json, \
trajectory-rewards.json, trajectories.json (arrays of items, pretty JSON) and tasks.json (the tasks of \
the run's benchmark version).\n\nEverything is read before anything is written: if any page of any \
list fails (after retries), the error names the list, the page and why, nothing is written and the \
exit code is 4. Files are written under temporary names and renamed at the end, so DIR never holds a \
half-written export.\n\nWith --chronicle the id is a Chronicle backtest job's, and DIR gets job.json (the job \
as read), trials.json (every trial, a JSON array) and results.json (the platform's pass/fail per task, \
only when the platform lists results for the job; an older results.json is removed otherwise). A job \
with no trials yet is refused (exit 9).",
        after_help = EXIT_CODES_HELP
    )]
    Export(ExportArgs),
    /// The CI gate of a Chronicle job: wait for it to end, then pass only if every task passed.
    #[command(
        long_about = "The CI gate of a Chronicle backtest job, as the Chronicle guide's \"Use results in CI\": \
wait until the job ends (progress from its stream on stderr; after a disconnect the job's record is \
the truth, then polling), fail when the timeout comes first (exit 7: the job goes on on the server; \
run the gate again with the same id to wait again), fail on a failed or cancelled job (exit 8), fail \
on empty results (exit 9), and fail unless every task passed (exit 10, listing each failing task \
with its failed scorers). Prints \"Every task passed\" on stdout otherwise. In a compare-mode job the \
platform's task results cover every agent together.\n\nFor the paired regression gate between agents, \
use `eval-compare report --server URL --chronicle JOB_ID... --fail-on-regression`.",
        after_help = EXIT_CODES_HELP
    )]
    Gate(GateArgs),
    /// Every checkpoint of a training run on every benchmark against its baseline, with a
    /// decision rule and a recommended checkpoint.
    #[command(
        long_about = crate::scorecard_args::SCORECARD_LONG_ABOUT,
        after_help = EXIT_CODES_HELP
    )]
    Scorecard(crate::scorecard_args::ScorecardArgs),
}

/// `eval-compare report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The baseline: a run folder, a run id with --server, or the first job id with --chronicle.
    /// A Chronicle job's folder holds one run per agent: a compare-mode job's folder alone is a
    /// comparison.
    #[arg(value_name = "BASELINE")]
    pub baseline: String,
    /// The candidates compared with the baseline: run folders (or more job folders), run ids
    /// with --server (at least one), or more job ids with --chronicle.
    #[arg(value_name = "CANDIDATE")]
    pub candidates: Vec<String>,
    /// Read the runs from this Trajectory API (or eval-compare-server) base URL; the arguments
    /// are then run ids. The key comes from TRAJECTORY_API_KEY.
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// The arguments are Chronicle backtest job ids (read from --server): the runs compared are
    /// the jobs' agents in the order given, the first the baseline. One compare-mode job, or
    /// several jobs on one task suite.
    #[arg(long, requires = "server")]
    pub chronicle: bool,
    /// Also read every counted trajectory's reward components from --server (one request per
    /// trajectory, a few at a time), so the report gives each component's paired Δ, as the
    /// viewer's "Read components" does. A Chronicle job's scorers are always read.
    #[arg(long, requires = "server", conflicts_with = "chronicle")]
    pub components: bool,
    /// Also read every counted trajectory's token counts from --server (its last step, which
    /// holds the whole conversation: one request per trajectory, a few at a time), so the
    /// effort gives the paired Δ of tokens per task, as the viewer's "Read tokens" does. A
    /// transcript without counts is "no count", never 0.
    #[arg(long, requires = "server", conflicts_with = "chronicle")]
    pub tokens: bool,
    /// With --chronicle, also read every counted trial's detail (one request per trial, a few at
    /// a time) for its steps (agent and tool_call steps) and duration (the sum of its steps'
    /// duration_ms), so the report gives their paired Δ per task, as the viewer's "Read steps
    /// and durations" does.
    #[arg(long, requires = "chronicle")]
    pub trial_details: bool,
    /// Timeouts and retries of API requests.
    #[command(flatten)]
    pub connection: ConnectionArgs,
    /// Keeping finished runs' lists (--cache DIR).
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Output format: text (markdown-friendly summary), json (the whole report) or html (one
    /// self-contained document to keep: no script, nothing loaded, with the viewer's link).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The viewer's address the HTML report's share link starts with (http or https); the
    /// viewer's own export uses its page's origin, so both agree when this is that origin.
    #[arg(long, value_name = "URL", default_value = DEFAULT_LINK_BASE, value_parser = parse_link_base)]
    pub link_base: String,
    /// The statistics' settings (seed, resamples, confidence, target Δ, K′).
    #[command(flatten)]
    pub statistics: StatisticsArgs,
    /// A pass threshold for graded rewards (0.001 to 1, at most three decimals; the link's
    /// `pass=`): a valid reward at or above it passes (1), below it fails (0), before anything
    /// is computed, so pass@k, pass^k and flips exist for continuous rewards too.
    #[arg(long, value_name = "REWARD", value_parser = parse_pass_thousandths)]
    pub pass_threshold: Option<u16>,
    /// With checkpoints of one training run, also compare every checkpoint with this step (the
    /// link's `versus=`), beside the previous step.
    #[arg(long, value_name = "STEP")]
    pub versus_step: Option<i64>,
    /// The reviewer's ledger (README "The reviewer's ledger"): tasks or attempts set aside,
    /// each left out or counted as a failure, with a reason. Every figure is computed with it
    /// applied, and each verdict is shown beside the one without it; the gates judge the
    /// verdicts with it and print both.
    #[arg(long, value_name = "FILE")]
    pub exclusions: Option<PathBuf>,
    /// Exit with code 6 when a candidate's verdict is worse (Holm-adjusted p < 0.05, the headline
    /// interval below 0); refuses (exit 11) a run still running, failed or cancelled.
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Exit with code 13 when a candidate takes more turns per task than PERCENT more than the
    /// baseline: the whole interval of its paired relative increase (Δ turns / the baseline's
    /// mean turns, README "Effort") lies above it (e.g. 10 for +10%).
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    pub max_turns_increase: Option<f64>,
    /// Exit with code 14 when a candidate's cost per attempted task (billing's run total over
    /// the tasks it attempted) is more than PERCENT above the baseline's (README "Cost"; no
    /// interval: billing is per run); refuses with code 15 when a compared run's cost is
    /// unavailable (a key without billing access, no billing row, a folder without billing.json).
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    pub max_cost_increase: Option<f64>,
    /// Let --fail-on-regression judge runs still running, failed or cancelled as they stand
    /// (no exit 11; a running run's verdict is provisional).
    #[arg(long)]
    pub allow_unfinished: bool,
    /// Do not exit with code 5 on a blocking comparability finding (the finding stays in the report).
    #[arg(long)]
    pub allow_incomparable: bool,
    /// Write the report to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The settings of the statistics that `report` and `scorecard` share, with the link's
/// defaults, so both commands compute a pair's report the same way.
#[derive(Args, Debug, Clone)]
pub struct StatisticsArgs {
    /// Seed of the bootstrap (the same seed gives the same intervals).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Bootstrap resamples B, from 100 to 100000; 0 skips the bootstrap.
    #[arg(long, value_name = "B", default_value_t = DEFAULT_RESAMPLES as usize, value_parser = parse_resamples)]
    pub resamples: usize,
    /// Two-sided confidence level of every interval, strictly between 0 and 1.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95, value_parser = parse_confidence)]
    pub confidence: f64,
    /// Target Δ in points (0.1 to 100, at most one decimal): the difference "tasks needed"
    /// sizes for, and that "no detectable difference" rules out (the link's `target=`).
    /// Held in tenths of a point, as the link holds it, so both give the same report.
    #[arg(long, value_name = "POINTS", default_value = "2", value_parser = parse_target_tenths)]
    pub target_delta: u16,
    /// K′, the samples per task the MDE is projected to (the link's `kprime=`); by default
    /// max(8, 2 × the most samples a paired task has).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(i64::from(*PROJECT_SAMPLES_RANGE.start())..=i64::from(*PROJECT_SAMPLES_RANGE.end())))]
    pub k_prime: Option<u32>,
}

impl StatisticsArgs {
    /// The report settings these flags set (everything else at its default).
    pub fn settings(&self) -> ReportSettings {
        ReportSettings {
            seed: self.seed,
            resamples: self.resamples,
            level: self.confidence,
            target_delta: target_delta_of_tenths(self.target_delta),
            project_samples_per_task: self.k_prime.map(u64::from),
            ..ReportSettings::default()
        }
    }
}

/// `eval-compare export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The Trajectory API (or eval-compare-server) base URL. The key comes from TRAJECTORY_API_KEY.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// Timeouts and retries of API requests.
    #[command(flatten)]
    pub connection: ConnectionArgs,
    /// The id is a Chronicle backtest job's: write job.json, trials.json and results.json.
    #[arg(long)]
    pub chronicle: bool,
    /// The evaluation run to export (a job id with --chronicle).
    #[arg(value_name = "RUN_ID")]
    pub run_id: String,
    /// The run folder to write (created if missing; files of the same names are replaced).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// `eval-compare gate`.
#[derive(Debug, Args)]
pub struct GateArgs {
    /// The Chronicle API (or eval-compare-server) base URL. The key comes from TRAJECTORY_API_KEY.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The id is a Chronicle backtest job's (required: the gate reads Chronicle jobs).
    #[arg(long, required = true)]
    pub chronicle: bool,
    /// The job to wait for and check.
    #[arg(value_name = "JOB_ID")]
    pub job_id: String,
    /// Seconds to wait for the job to end (0: check once without waiting). The job goes on on
    /// the server after the timeout.
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=604_800))]
    pub timeout: u64,
    /// Seconds between retrievals of the job when its progress stream is not there.
    #[arg(long, value_name = "SECS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub poll: u64,
    /// The reviewer's ledger (README "The reviewer's ledger"): tasks it leaves out are not
    /// judged; the gate prints its verdict with and without them.
    #[arg(long, value_name = "FILE")]
    pub exclusions: Option<PathBuf>,
    /// Timeouts and retries of API requests.
    #[command(flatten)]
    pub connection: ConnectionArgs,
}

/// How API requests wait and retry.
#[derive(Debug, Clone, Copy, Args)]
pub struct ConnectionArgs {
    /// Seconds to wait for a connection to the API.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub connect_timeout: u64,
    /// Seconds to wait for the next bytes of a response.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub read_timeout: u64,
    /// Seconds a whole request may take, from connecting to the last byte of the answer (a
    /// slowly trickling answer is stopped; not retried).
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub request_timeout: u64,
    /// Largest answer read per request, in MiB; a larger one is refused as it arrives (not
    /// retried).
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub max_response_mib: u64,
    /// Retries of a request that failed in a retryable way (timeouts, 408, 429, 5xx).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=10))]
    pub retries: u32,
}

/// `--cache DIR`: keeping finished runs' lists between commands (README "Streamed lists and
/// the finished-run cache").
#[derive(Debug, Clone, Args)]
pub struct CacheArgs {
    /// Keep the lists of finished runs (and jobs) in DIR (the server's store,
    /// finished-lists.sqlite3) and use them again, each only after the API answered the run's
    /// record with 200 and the same finished record for this key; running runs are never
    /// kept, and the key is never stored. Off unless given.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// The most MiB of lists kept in --cache; the least recently used go first.
    #[arg(long, value_name = "MIB", default_value_t = crate::kept_lists::DEFAULT_MAX_MIB, requires = "cache", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub cache_max_mib: u64,
}

/// Output format of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Markdown-friendly summary.
    Text,
    /// The whole report as JSON.
    Json,
    /// One self-contained HTML document (the viewer's "Download HTML report").
    Html,
}

pub(crate) fn parse_link_base(raw: &str) -> Result<String, String> {
    if is_web_link(raw) && !raw.contains(['?', '#']) {
        Ok(raw.to_owned())
    } else {
        Err(format!(
            "`{raw}` is not an http(s) address without a query, e.g. {DEFAULT_LINK_BASE}"
        ))
    }
}

pub(crate) fn parse_resamples(raw: &str) -> Result<usize, String> {
    let value: u32 = raw
        .parse()
        .map_err(|_| format!("`{raw}` is not a whole number"))?;
    if value == 0 || RESAMPLES_RANGE.contains(&value) {
        Ok(value as usize)
    } else {
        Err(format!(
            "must be 0 (no bootstrap) or from {} to {}",
            RESAMPLES_RANGE.start(),
            RESAMPLES_RANGE.end()
        ))
    }
}

/// A target Δ in points as the link writes it (at most one decimal), in tenths of a point.
pub(crate) fn parse_target_tenths(raw: &str) -> Result<u16, String> {
    parse_tenths(raw)
        .filter(|tenths| TARGET_TENTHS_RANGE.contains(tenths))
        .ok_or_else(|| {
            format!("`{raw}` is not a target Δ from 0.1 to 100 points (at most one decimal)")
        })
}

fn parse_pass_thousandths(raw: &str) -> Result<u16, String> {
    eval_compare_core::view_state::parse_thousandths(raw)
        .filter(|t| eval_compare_core::view_state::PASS_THOUSANDTHS_RANGE.contains(t))
        .ok_or_else(|| {
            format!("`{raw}` is not a pass threshold from 0.001 to 1 (at most three decimals)")
        })
}

/// A limit in percent: a finite number (e.g. `10`, `12.5`, `-5`).
fn parse_percent(raw: &str) -> Result<f64, String> {
    raw.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .ok_or_else(|| format!("`{raw}` is not a percentage (a number such as 10 or 12.5)"))
}

pub(crate) fn parse_confidence(raw: &str) -> Result<f64, String> {
    let value: f64 = raw
        .parse()
        .map_err(|_| format!("`{raw}` is not a number"))?;
    if value > 0.0 && value < 1.0 {
        Ok(value)
    } else {
        Err("must lie strictly between 0 and 1, e.g. 0.95".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::view_state::DEFAULT_TARGET_TENTHS;

    use clap::CommandFactory;

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn report_defaults_and_flags() {
        let cli = Cli::try_parse_from(["eval-compare", "report", "a", "b", "c"]).unwrap();
        let Command::Report(args) = cli.command else {
            panic!("not a report");
        };
        assert_eq!(args.baseline, "a");
        assert_eq!(args.candidates, ["b", "c"]);
        assert_eq!(args.format, Format::Text);
        assert_eq!(args.statistics.resamples, DEFAULT_RESAMPLES as usize);
        assert_eq!(args.statistics.confidence, 0.95);
        assert!(!args.fail_on_regression && !args.allow_incomparable && !args.allow_unfinished);
        assert_eq!(args.server, None);
        assert_eq!(args.link_base, DEFAULT_LINK_BASE);
        assert_eq!(
            (args.statistics.target_delta, args.statistics.k_prime),
            (DEFAULT_TARGET_TENTHS, None)
        );
        let cli = Cli::try_parse_from([
            "eval-compare",
            "report",
            "a",
            "b",
            "--target-delta",
            "3.5",
            "--k-prime",
            "20",
        ])
        .unwrap();
        let Command::Report(args) = cli.command else {
            panic!("not a report");
        };
        assert_eq!(
            (args.statistics.target_delta, args.statistics.k_prime),
            (35, Some(20))
        );
    }

    #[test]
    fn the_pass_threshold_and_versus_step_parse_as_the_link_does() {
        let cli = Cli::try_parse_from([
            "eval-compare",
            "report",
            "a",
            "b",
            "--pass-threshold",
            "0.75",
            "--versus-step",
            "300",
        ])
        .unwrap();
        let Command::Report(args) = cli.command else {
            panic!("not a report");
        };
        assert_eq!(
            (args.pass_threshold, args.versus_step),
            (Some(750), Some(300))
        );
        for bad in ["0", "1.5", "x", "0.0001"] {
            let parsed =
                Cli::try_parse_from(["eval-compare", "report", "a", "b", "--pass-threshold", bad]);
            assert!(parsed.is_err(), "{bad}");
        }
    }

    #[test]
    fn refuses_out_of_range_settings_and_a_missing_baseline() {
        // One argument parses: a compare-mode job's folder alone is a comparison (a missing
        // candidate is refused when the runs are read).
        assert!(Cli::try_parse_from(["eval-compare", "report", "a"]).is_ok());
        for bad in [
            &["report", "a", "b", "--confidence", "1"][..],
            &["report", "a", "b", "--confidence", "x"],
            &["report", "a", "b", "--resamples", "5"],
            &["report", "a", "b", "--format", "xml"],
            &["report", "a", "b", "--link-base", "javascript:alert(1)"],
            &["report", "a", "b", "--link-base", "http://h/?x=1"],
            &["report", "a", "b", "--target-delta", "0"],
            &["report", "a", "b", "--target-delta", "2.25"],
            &["report", "a", "b", "--target-delta", "-1"],
            &["report", "a", "b", "--k-prime", "0"],
            &["report", "a", "b", "--k-prime", "x"],
            &["export", "r", "dir"],
            &[
                "export",
                "--server",
                "http://h",
                "r",
                "dir",
                "--read-timeout",
                "0",
            ],
            &["report", "--chronicle", "j1"],
            &["report"],
            &["gate", "--server", "http://h", "j1"],
            &[
                "gate",
                "--server",
                "http://h",
                "--chronicle",
                "j1",
                "--poll",
                "0",
            ],
            &["gate", "--chronicle", "j1"],
        ] {
            let argv = std::iter::once("eval-compare").chain(bad.iter().copied());
            let error = Cli::try_parse_from(argv).unwrap_err();
            assert_eq!(error.exit_code(), 2, "{bad:?}");
        }
        assert!(
            Cli::try_parse_from(["eval-compare", "report", "a", "b", "--resamples", "0"]).is_ok()
        );
    }

    #[test]
    fn chronicle_ids_one_job_or_several_and_the_gates_defaults() {
        let parse = |argv: &[&str]| {
            Cli::try_parse_from(std::iter::once("eval-compare").chain(argv.iter().copied()))
                .unwrap()
                .command
        };
        let Command::Report(one) = parse(&["report", "--server", "http://h", "--chronicle", "j1"])
        else {
            panic!("not a report");
        };
        assert!(one.chronicle && one.candidates.is_empty());
        let Command::Report(three) = parse(&[
            "report",
            "--server",
            "http://h",
            "--chronicle",
            "a",
            "b",
            "c",
        ]) else {
            panic!("not a report");
        };
        assert_eq!((three.baseline.as_str(), three.candidates.len()), ("a", 2));
        let Command::Export(export) =
            parse(&["export", "--server", "http://h", "--chronicle", "j1", "out"])
        else {
            panic!("not an export");
        };
        assert!(export.chronicle);
        assert_eq!(
            (export.run_id.as_str(), export.dir.as_path()),
            ("j1", std::path::Path::new("out"))
        );
        let Command::Gate(gate) = parse(&["gate", "--server", "http://h", "--chronicle", "j1"])
        else {
            panic!("not a gate");
        };
        assert_eq!(
            (gate.job_id.as_str(), gate.timeout, gate.poll),
            ("j1", 600, 5)
        );
        let Command::Gate(now) = parse(&[
            "gate",
            "--server",
            "http://h",
            "--chronicle",
            "j1",
            "--timeout",
            "0",
        ]) else {
            panic!("not a gate");
        };
        assert_eq!(now.timeout, 0);
    }
}
