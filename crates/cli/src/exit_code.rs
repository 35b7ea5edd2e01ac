//! The process exit codes: what a CI job can tell apart without reading the output.

/// How `eval-compare` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Done; no gate failed.
    Ok,
    /// The output (a file or stdout) could not be written.
    OutputFailed,
    /// Bad arguments or environment (clap uses the same code for its own usage errors).
    Usage,
    /// A run folder is missing or unreadable, or a file in it is not valid.
    UnreadableInput,
    /// The API could not be reached, refused the request or sent an unreadable answer.
    Api,
    /// The comparability audit found a blocking difference (without `--allow-incomparable`).
    Incomparable,
    /// A candidate is significantly worse than the baseline (with `--fail-on-regression`).
    Regression,
    /// `gate`: the job did not end before the timeout (it goes on on the server).
    Timeout,
    /// `gate`: the job ended failed or cancelled.
    JobFailed,
    /// Nothing to judge yet: a Chronicle job with no trials yet, or no task results.
    NoResults,
    /// `gate`: not every task passed.
    TasksFailed,
    /// `report --fail-on-regression`: a compared run is still running, failed, was cancelled or
    /// was not read completely (without `--allow-unfinished`): the gate does not judge partial
    /// numbers.
    Unfinished,
    /// `scorecard --fail-unless-deployable STEP`: that checkpoint does not meet the rule.
    NotDeployable,
    /// `report --max-turns-increase PERCENT`: a candidate's paired increase of turns per task
    /// lies above the limit (its whole interval).
    TurnsIncrease,
    /// `report --max-cost-increase PERCENT`: a candidate's cost per attempted task lies more than
    /// the limit above the baseline's.
    CostIncrease,
    /// `report --max-cost-increase PERCENT`: a candidate's cost increase cannot be judged (a
    /// compared run's cost is unavailable, or the baseline's is 0): the gate refuses.
    CostUnavailable,
}

impl Exit {
    /// The numeric code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::OutputFailed => 1,
            Exit::Usage => 2,
            Exit::UnreadableInput => 3,
            Exit::Api => 4,
            Exit::Incomparable => 5,
            Exit::Regression => 6,
            Exit::Timeout => 7,
            Exit::JobFailed => 8,
            Exit::NoResults => 9,
            Exit::TasksFailed => 10,
            Exit::Unfinished => 11,
            Exit::NotDeployable => 12,
            Exit::TurnsIncrease => 13,
            Exit::CostIncrease => 14,
            Exit::CostUnavailable => 15,
        }
    }
}

/// The exit codes as listed in `--help`.
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  done: the report or folder was written and no gate failed; for gate, every task passed
  1  the output could not be written (file or stdout)
  2  usage error: bad arguments, an invalid --server URL, run id or job id, or TRAJECTORY_API_KEY set
     but unusable
  3  unreadable input: a missing run folder or file, or invalid JSON (the message names the file and JSON path)
  4  API or network error (unreachable, timed out, key refused, run or job not found, unknown job id
     (Chronicle's HTTP 400), unreadable answer)
  5  blocking comparability finding: the runs measure different things (the report is still written;
     --allow-incomparable turns this gate off)
  6  significant regression: with --fail-on-regression, a candidate's verdict is worse (Δ negative,
     Holm-adjusted p below 0.05 and the headline interval below 0), or unreliable with that
     evidence (checked after gates 5 and 11)
  7  gate: the job did not end within --timeout; it goes on on the server (run the gate again with
     the same job id to wait again)
  8  gate: the job ended failed or cancelled
  9  nothing to judge yet: a Chronicle job with no trials yet (report, export), or no task results
     from the platform (gate)
 10  gate: not every task passed (the failing tasks are listed with their failed scorers)
 11  with --fail-on-regression, a compared run (baseline or candidate) is still running, failed,
     was cancelled or was not read completely (a run folder's list ends with a page saying more
     followed): its numbers are partial, so the gate refuses to judge them (checked after gate 5,
     before 6; --allow-unfinished judges them as they stand, the verdict marked provisional or
     partial). Without --fail-on-regression such a run is a warning on stderr. scorecard
     --fail-unless-deployable STEP: a run the rule needs at STEP is still running, failed or
     was not read completely
 12  scorecard --fail-unless-deployable STEP: that checkpoint does not meet the rule (fails, or
     cannot tell yet because a cell it needs is missing or held back; the reason is on stderr)
 13  with --max-turns-increase PERCENT, a candidate takes more turns per task than the limit allows:
     the whole interval of its paired relative increase (Δ turns / the baseline's mean turns)
     lies above PERCENT (checked after gates 5, 11 and 6)
 14  with --max-cost-increase PERCENT, a candidate's cost per attempted task (billing's run total
     over the tasks it attempted) lies more than PERCENT above the baseline's; billing is per
     run, so the point estimate is judged, without an interval (checked after gates 5, 11, 6, 13)
 15  with --max-cost-increase PERCENT, a cost increase cannot be judged: a compared run's cost is
     unavailable (the key may not read billing, billing lists no row for the run, a run folder
     without billing.json) or the baseline's is 0; stderr names the run and why (never taken as 0)

The API key is read from the TRAJECTORY_API_KEY environment variable only; it is never printed,
never put in an error message and never written to an exported file.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_documented() {
        let all = [
            Exit::Ok,
            Exit::OutputFailed,
            Exit::Usage,
            Exit::UnreadableInput,
            Exit::Api,
            Exit::Incomparable,
            Exit::Regression,
            Exit::Timeout,
            Exit::JobFailed,
            Exit::NoResults,
            Exit::TasksFailed,
            Exit::Unfinished,
            Exit::NotDeployable,
            Exit::TurnsIncrease,
            Exit::CostIncrease,
            Exit::CostUnavailable,
        ];
        let codes: Vec<u8> = all.iter().map(|exit| exit.code()).collect();
        assert_eq!(
            codes,
            vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
        );
        for code in codes {
            assert!(
                EXIT_CODES_HELP.contains(&format!("\n{code:>3}  ")),
                "exit code {code} is not documented"
            );
        }
    }
}
