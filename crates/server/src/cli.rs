//! Command-line flags of `eval-compare-server`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::config::{Config, DemoConfig, Mode};
use crate::connections::ConnectionLimits;
use crate::dataset::scale::DemoScale;
use crate::dataset::scorecard_scale::ScorecardScale;
use crate::dataset::DEFAULT_SEED;
use crate::demo_key::ApiKey;
use crate::faults::FaultSpec;
use crate::proxy::ProxyLimits;

const FAULT_HELP: &str = "Inject a fault into API responses (repeatable; off by default).
Syntax: KIND[:OPTION=VALUE]...
  latency:ms=N              delay matching responses by N ms
  429[:retry-after=S]       answer 429 rate_limited with Retry-After: S (default 1)
  5xx[:status=CODE]         answer a retryable 500/502/503/504 (default 503)
  truncate                  send the real response with its body cut in half (a progress
                            stream: its first event cut in half, then the connection drops)
  bad-cursor                answer 400 invalid_cursor (only requests with a cursor count)
  broken-stream[:after=N][:end=cut|garbage]
                            pass a progress stream's first N events (default 1), then break it:
                            cut = half of the next event and the connection drops (default),
                            garbage = bytes that are neither UTF-8 nor event JSON, then the end
                            (only /v1/backtests/jobs/{id}/stream requests count)
  contradicting-stream      a progress stream says the job succeeded at once and closes,
                            whatever its record says (stream requests only)
  endless-event[:line-kib=N]
                            a progress stream sends data: lines of N KiB (default 64) for ever,
                            no blank line ends the event (stream requests only)
  event-flood               a progress stream sends trial_finished events for ever, as fast as
                            they are read (stream requests only)
Selectors for every kind:
  path=SUBSTR               only /api/ and /v1/ requests whose path contains SUBSTR
  nth=N | every=N | rate=P  only the N-th matching request, every N-th, or a seeded share P
  from=N                    the N-th matching request and every later one
Examples: --fault 5xx:path=/trajectory-rewards:nth=2 fails the second page of rewards;
  --fault 429:path=/v1/backtests:every=3 rate-limits every third Chronicle request;
  --fault broken-stream:after=3:end=garbage spoils every progress stream after 3 events.";

/// Serves the Eval Compare viewer with a simulated Trajectory API (the demo, by default) or
/// a proxy to a real one.
#[derive(Debug, Clone, Parser)]
#[command(name = "eval-compare-server", version, about, long_about = None)]
pub struct Cli {
    /// Serve the simulated Trajectory and Chronicle APIs from a generated dataset (the default
    /// when no --upstream is given).
    #[arg(long, conflicts_with = "upstream")]
    pub demo: bool,

    /// Proxy /api/ (Trajectory) and /v1/ (Chronicle) to this API base URL, e.g.
    /// https://api.trajectory.ai; the caller's X-API-Key is passed through, never logged.
    #[arg(long, value_name = "URL")]
    pub upstream: Option<String>,

    /// Address to listen on; port 0 picks a free port. The bound address is printed as
    /// `listening on http://HOST:PORT`.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,

    /// Directory of the built viewer (the output of `trunk build --release`).
    #[arg(long, value_name = "DIR", default_value = "dist")]
    pub dist: PathBuf,

    /// Seed of the demo dataset: the same seed gives byte-identical responses.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEED)]
    pub seed: u64,

    /// Size of the demo dataset: N test tasks per benchmark version (1 to 1000000) and S samples
    /// per task for every run (1 to 64), e.g. 100000x8; the counts that are shares of the tasks
    /// (the capped run, the second version's changes, the held-out subset) keep their shares.
    #[arg(long, value_name = "NxS", default_value_t = DemoScale::DEFAULT, conflicts_with = "upstream")]
    pub demo_scale: DemoScale,

    /// Shape of the demo's checkpoint scorecard: C checkpoints of the training run, evenly over
    /// its 500 steps (1, 2, 4, 5, 10, 20, 25 or 50; default 5: steps 100 to 500), each evaluated
    /// on every benchmark, and T test tasks for each benchmark besides codefix (default: each
    /// its own size); e.g. `--demo-scale 500x4 --demo-scorecard 10x500` is 10 checkpoints x 6
    /// benchmarks x about 500 tasks x 4 samples.
    #[arg(long, value_name = "C[xT]", default_value_t = ScorecardScale::DEFAULT, conflicts_with = "upstream")]
    pub demo_scorecard: ScorecardScale,

    /// Require this API key (X-API-Key) on demo API requests; 401 otherwise.
    #[arg(
        long,
        value_name = "KEY",
        conflicts_with = "upstream",
        env = "EVAL_COMPARE_DEMO_KEY",
        hide_env_values = true
    )]
    pub demo_key: Option<String>,

    /// A second demo key that reads everything but billing: `GET /api/v1/billing/…` answers it
    /// 403 `permission_denied` (a key without the billing permission).
    #[arg(
        long,
        value_name = "KEY",
        requires = "demo_key",
        env = "EVAL_COMPARE_DEMO_KEY_WITHOUT_BILLING",
        hide_env_values = true
    )]
    pub demo_key_without_billing: Option<String>,

    /// Wall-clock seconds the demo's running evaluation (and its Chronicle job, `job_s500`)
    /// takes to finish its remaining attempts (it starts about a third done).
    #[arg(long, value_name = "SECS", default_value_t = 1800)]
    pub running_eval_secs: u64,

    /// Seconds the proxy waits for a whole upstream answer, body included (Chronicle's
    /// progress stream has an hour); then 504, or the body is cut.
    #[arg(long, value_name = "SECS", default_value_t = ProxyLimits::DEFAULT_TIMEOUT.as_secs(), requires = "upstream")]
    pub upstream_timeout: u64,

    /// The largest upstream answer the proxy passes on, in bytes; a larger one is refused
    /// with 502 (or cut, when it declared no length).
    #[arg(long, value_name = "BYTES", default_value_t = ProxyLimits::DEFAULT_MAX_BODY_BYTES, requires = "upstream")]
    pub upstream_max_body: u64,

    /// Seconds a client may take to send a request's headers (also the longest a kept-alive
    /// connection waits for its next request).
    #[arg(long, value_name = "SECS", default_value_t = ConnectionLimits::DEFAULT_HEADER_READ_TIMEOUT.as_secs())]
    pub header_read_timeout: u64,

    /// Seconds a connection may go without a byte read or written before it is closed.
    #[arg(long, value_name = "SECS", default_value_t = ConnectionLimits::DEFAULT_IDLE_TIMEOUT.as_secs())]
    pub idle_timeout: u64,

    /// The most connections open at once; further clients wait until one closes.
    #[arg(long, value_name = "N", default_value_t = ConnectionLimits::DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,

    #[arg(long = "fault", value_name = "SPEC", long_help = FAULT_HELP, help = "Inject a fault into API responses (repeatable; see --help)")]
    pub faults: Vec<FaultSpec>,

    /// Do not serve the list streams (`/stream/v1/…`): the viewer and the CLI then page the
    /// API as the contract says (to compare the two).
    #[arg(long)]
    pub no_list_streams: bool,

    /// Do not keep finished runs' lists (the proxy's cache is on by default).
    #[arg(long, requires = "upstream")]
    pub no_cache: bool,

    /// Where the proxy keeps finished runs' lists (default: $XDG_CACHE_HOME/eval-compare,
    /// else ~/.cache/eval-compare). One SQLite file; no API key is stored.
    #[arg(long, value_name = "DIR", requires = "upstream")]
    pub cache_dir: Option<PathBuf>,

    /// The most MiB of lists the cache keeps; the least recently served go first.
    #[arg(long, value_name = "MIB", default_value_t = crate::cache::DEFAULT_MAX_MIB, requires = "upstream")]
    pub cache_max_mib: u64,

    /// Empty the cache when starting.
    #[arg(long, requires = "upstream", conflicts_with = "no_cache")]
    pub cache_clear: bool,
}

impl Cli {
    /// The server configuration these flags describe.
    pub fn config(&self) -> Config {
        let mode = match &self.upstream {
            Some(upstream) => Mode::Proxy {
                upstream: upstream.clone(),
                limits: ProxyLimits {
                    timeout: Duration::from_secs(self.upstream_timeout),
                    max_body_bytes: self.upstream_max_body,
                },
            },
            None => Mode::Demo(DemoConfig {
                seed: self.seed,
                scale: DemoScale {
                    scorecard: self.demo_scorecard,
                    ..self.demo_scale
                },
                key: self.demo_key.as_deref().map(ApiKey::new),
                key_without_billing: self.demo_key_without_billing.as_deref().map(ApiKey::new),
                running_duration: Duration::from_secs(self.running_eval_secs),
            }),
        };
        Config {
            mode,
            dist: self.dist.clone(),
            faults: self.faults.clone(),
        }
    }

    /// The proxy's cache of finished runs these flags ask for (`None`: the demo, or
    /// `--no-cache`), opened.
    pub fn list_cache(
        &self,
    ) -> Result<Option<std::sync::Arc<crate::cache::ListCache>>, crate::cache::CacheError> {
        let Some(upstream) = self.upstream.as_deref() else {
            return Ok(None);
        };
        if self.no_cache {
            return Ok(None);
        }
        let dir = self
            .cache_dir
            .clone()
            .unwrap_or_else(crate::cache::default_dir);
        let upstream = upstream.trim_end_matches('/');
        crate::cache::ListCache::open(&dir, upstream, self.cache_max_mib, self.cache_clear)
            .map(|cache| Some(std::sync::Arc::new(cache)))
    }

    /// The connection limits these flags describe.
    pub fn connection_limits(&self) -> ConnectionLimits {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs(self.header_read_timeout),
            idle_timeout: Duration::from_secs(self.idle_timeout),
            max_connections: self.max_connections,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_to_the_demo_on_port_8080() {
        let cli = Cli::parse_from(["eval-compare-server"]);
        assert_eq!(cli.addr, "127.0.0.1:8080");
        assert!(matches!(
            cli.config().mode,
            Mode::Demo(DemoConfig {
                seed: DEFAULT_SEED,
                key: None,
                ..
            })
        ));
    }

    #[test]
    fn parses_the_demo_scale_strictly() {
        let scale = |args: &[&str]| {
            Cli::try_parse_from(["x"].iter().chain(args)).map(|cli| match cli.config().mode {
                Mode::Demo(demo) => Some(demo.scale),
                Mode::Proxy { .. } => None,
            })
        };
        assert_eq!(scale(&[]).ok().flatten(), Some(DemoScale::DEFAULT));
        assert_eq!(
            scale(&["--demo", "--demo-scale", "100000x8"])
                .ok()
                .flatten(),
            Some(DemoScale {
                test_tasks: 100_000,
                samples: 8,
                ..DemoScale::DEFAULT
            })
        );
        for bad in ["100000", "0x8", "100000x65", "1000001x1", "ax8"] {
            let error = scale(&["--demo-scale", bad]).err().map(|e| e.to_string());
            assert!(
                error.as_deref().is_some_and(|e| e.contains("--demo-scale")),
                "{bad}: {error:?}"
            );
        }
        assert_eq!(
            scale(&["--demo-scale", "500x4", "--demo-scorecard", "10x500"])
                .ok()
                .flatten(),
            Some(DemoScale {
                test_tasks: 500,
                samples: 4,
                scorecard: ScorecardScale {
                    checkpoints: 10,
                    suite_tasks: Some(500)
                }
            })
        );
        for bad in ["3", "10x0", "0", "10x"] {
            let error = scale(&["--demo-scorecard", bad])
                .err()
                .map(|e| e.to_string());
            assert!(
                error
                    .as_deref()
                    .is_some_and(|e| e.contains("--demo-scorecard")),
                "{bad}: {error:?}"
            );
        }
    }

    #[test]
    fn parses_upstream_and_faults_and_refuses_conflicts() {
        let cli = Cli::parse_from([
            "x",
            "--upstream",
            "http://h",
            "--fault",
            "latency:ms=5",
            "--fault",
            "429:nth=1",
        ]);
        assert!(matches!(
            cli.config().mode,
            Mode::Proxy { limits, .. } if limits == ProxyLimits::default()
        ));
        assert_eq!(cli.connection_limits(), ConnectionLimits::default());
        assert_eq!(cli.faults.len(), 2);
        assert!(Cli::try_parse_from(["x", "--demo", "--upstream", "http://h"]).is_err());
        assert!(Cli::try_parse_from(["x", "--fault", "nonsense"]).is_err());
        assert!(
            Cli::try_parse_from(["x", "--upstream", "http://h", "--demo-scale", "10x2"]).is_err()
        );
        assert!(
            Cli::try_parse_from(["x", "--upstream-timeout", "5"]).is_err(),
            "proxy limits need a proxy"
        );
    }
}
