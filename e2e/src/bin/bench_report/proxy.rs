//! `--proxy`: the link opened through our server as a proxy with its finished-run cache, the
//! way a team shares a link (issue 39 §3). A demo server (with the `--server-arg`s) is the
//! upstream API; `eval-compare-server --upstream` (with the `--proxy-arg`s, e.g.
//! `--no-list-streams`) serves the viewer and proxies to it, with a fresh `--cache-dir`. Each
//! of the `--runs N` rounds starts a new proxy with an empty cache and opens the link in two
//! fresh browsers: **cold** (every list read from the upstream and kept) then **warm** (the
//! finished runs served from the cache). `--count-upstream` puts a counting relay between the
//! proxy and the upstream and prints how many requests reached the upstream. `--cpu-profile
//! FILE` writes `cold-FILE` and `warm-FILE` of the last round.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use eval_compare_e2e::page::finish;
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::{default_link, loadavg, measure, Collected, Figures, Options};

/// The `--proxy` flags.
#[derive(Debug, Clone, Default)]
pub struct ProxyFlags {
    /// Measure behind the proxy (`--proxy`).
    pub on: bool,
    /// Extra flags of the proxy (`--proxy-arg ARG`, repeatable).
    pub args: Vec<String>,
    /// Count the requests that reach the upstream (`--count-upstream`).
    pub count: bool,
}

/// One open of the link: its figures and how many requests reached the upstream meanwhile.
struct Open {
    figures: Figures,
    streams: usize,
    upstream: Option<u64>,
}

/// Runs the `--proxy` measurement.
pub async fn run(server_bin: &Path, dist: &Path, options: &Options) -> Result<(), BoxError> {
    let mut upstream_args: Vec<String> = Vec::new();
    if let Some(secs) = &options.running_eval_secs {
        upstream_args.extend(["--running-eval-secs".to_owned(), secs.clone()]);
    }
    upstream_args.extend(options.server_args.iter().cloned());
    let upstream_args: Vec<&str> = upstream_args.iter().map(String::as_str).collect();
    println!("upstream: --demo --addr 127.0.0.1:0 --dist DIST {upstream_args:?}");
    let upstream = Server::start_demo_from(server_bin, dist, &upstream_args)?;
    let counted = if options.proxy.count {
        Some(Relay::start(upstream.base_url()).await?)
    } else {
        None
    };
    let upstream_url = counted
        .as_ref()
        .map_or_else(|| upstream.base_url().to_owned(), |relay| relay.url.clone());
    let driver = ChromeDriver::start()?;
    let path = match &options.url_query {
        Some(query) => format!("/compare?{query}"),
        None => {
            let browser = driver.open_browser().await?;
            let outcome = default_link(&browser, upstream.base_url()).await;
            finish(browser, outcome).await?
        }
    };
    println!(
        "proxy: --upstream {upstream_url} --addr 127.0.0.1:0 --dist DIST --cache-dir FRESH {:?}",
        options.proxy.args
    );
    println!("path: {path}");
    println!(
        "{:>5} {:>6} {:>9} {:>9} {:>9} {:>8} {:>9} {:>7}",
        "round", "open", "visible", "boot", "longMax", "long>200", "streams", "upstrm#"
    );
    let mut best = [f64::INFINITY; 2];
    for round in 0..options.runs {
        let cache_dir = std::env::temp_dir().join(format!(
            "eval-compare-bench-cache-{}-{round}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&cache_dir);
        let dir = cache_dir.to_string_lossy().into_owned();
        let mut args = vec![
            "--upstream",
            upstream_url.as_str(),
            "--addr",
            "127.0.0.1:0",
            "--cache-dir",
            dir.as_str(),
            "--dist",
        ];
        let dist_text = dist.to_string_lossy().into_owned();
        args.push(&dist_text);
        args.extend(options.proxy.args.iter().map(String::as_str));
        let proxy = Server::start_from(server_bin, &args)?;
        let link = format!("{}{path}", proxy.base_url());
        let last = round + 1 == options.runs;
        for (which, name) in ["cold", "warm"].into_iter().enumerate() {
            let mut these = options.clone();
            these.cpu_profile = options
                .cpu_profile
                .as_deref()
                .filter(|_| last)
                .map(|file| prefixed(file, name));
            let before = counted.as_ref().map(Relay::requests);
            let (figures, collected) = measure(&driver, &link, &these).await?;
            let open = Open {
                streams: stream_requests(&collected),
                upstream: counted
                    .as_ref()
                    .zip(before)
                    .map(|(relay, before)| relay.requests() - before),
                figures,
            };
            best[which] = best[which].min(open.figures.visible);
            print_open(round + 1, name, &open, &collected);
        }
        drop(proxy);
        let _ = std::fs::remove_dir_all(&cache_dir);
    }
    println!(
        "best headline: cold {:.0} ms, warm {:.0} ms; load average at end: {}",
        best[0],
        best[1],
        loadavg()
    );
    Ok(())
}

fn print_open(round: usize, name: &str, open: &Open, collected: &Collected) {
    let f = &open.figures;
    let over = collected
        .longtasks
        .iter()
        .filter(|(_, duration)| *duration > 200.0)
        .count();
    println!(
        "{round:>5} {name:>6} {:>9.0} {:>9.0} {:>9.0} {over:>8} {:>9} {:>7}   (api# {:.0}, load1 {:.2})",
        f.visible,
        f.bootstrap,
        f.long_max,
        open.streams,
        open.upstream.map_or_else(|| "-".to_owned(), |n| n.to_string()),
        f.api_n,
        f.load1,
    );
    for (start, duration) in collected.longtasks.iter().filter(|(_, d)| *d > 200.0) {
        println!("        a task of {duration:.0} ms began {start:.0} ms after the page's start");
    }
    if std::env::var_os("EVAL_COMPARE_BENCH_REQUESTS").is_some() {
        for r in &collected.resources {
            let path =
                url::Url::parse(&r.name).map_or_else(|_| r.name.clone(), |u| u.path().to_owned());
            println!(
                "        {:>7.0} {:>7.0} {:>7.0} ms  {:>10.0} B  {path}",
                r.start, r.response_start, r.end, r.transfer
            );
        }
    }
}

/// The streamed lists the page read (`/stream/v1/…`, capabilities not counted).
fn stream_requests(collected: &Collected) -> usize {
    collected
        .resources
        .iter()
        .filter(|r| {
            url::Url::parse(&r.name).is_ok_and(|url| {
                url.path().starts_with("/stream/v1/") && !url.path().ends_with("/capabilities")
            })
        })
        .count()
}

/// `DIR/NAME-FILE` of `DIR/FILE`.
fn prefixed(file: &Path, name: &str) -> PathBuf {
    let base = file.file_name().map_or_else(
        || "profile.cpuprofile".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    file.with_file_name(format!("{name}-{base}"))
}

/// A TCP relay in front of the upstream counting the HTTP requests that pass: the proxy sends
/// only GET and HEAD without bodies, so every request is one head ending in a blank line.
struct Relay {
    url: String,
    requests: Arc<AtomicU64>,
}

impl Relay {
    async fn start(upstream: &str) -> Result<Self, BoxError> {
        let target = upstream
            .strip_prefix("http://")
            .ok_or("the upstream is not http://")?
            .to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}", listener.local_addr()?);
        let requests = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&requests);
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let target = target.clone();
                let counter = Arc::clone(&counter);
                tokio::spawn(async move {
                    if let Ok(outbound) = TcpStream::connect(&target).await {
                        relay(inbound, outbound, &counter).await;
                    }
                });
            }
        });
        Ok(Self { url, requests })
    }

    fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }
}

async fn relay(inbound: TcpStream, outbound: TcpStream, counter: &AtomicU64) {
    // Without it, Nagle's algorithm and the peer's delayed acknowledgement hold a response's
    // last segment for 40 ms: every page of a walk would wait that long.
    let _ = inbound.set_nodelay(true);
    let _ = outbound.set_nodelay(true);
    let (mut from_client, mut to_client) = inbound.into_split();
    let (mut from_server, mut to_server) = outbound.into_split();
    let answers = tokio::spawn(async move {
        let _ = tokio::io::copy(&mut from_server, &mut to_client).await;
        let _ = to_client.shutdown().await;
    });
    let mut buffer = vec![0u8; 16 * 1024];
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let read = match from_client.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        tail.extend_from_slice(&buffer[..read]);
        let heads = tail.windows(4).filter(|w| *w == b"\r\n\r\n").count();
        counter.fetch_add(heads as u64, Ordering::Relaxed);
        let keep = tail.len().min(3);
        tail.drain(..tail.len() - keep);
        if to_server.write_all(&buffer[..read]).await.is_err() {
            break;
        }
    }
    let _ = to_server.shutdown().await;
    let _ = answers.await;
}
