//! A running Chronicle job whose progress stream says it finished while its record says it
//! runs (the demo's `contradicting-stream` fault): the page must not hammer the API. Before,
//! it reconnected and re-read the job with no pause (about 300 requests a second for as long
//! as the tab stayed open); now each round that changed nothing waits longer (the core's
//! `WatchPace`: 1 s doubling, with jitter). The page's own requests are counted in the page.

use std::time::Duration;

use eval_compare_e2e::cdp::run_before_page_scripts;
use eval_compare_e2e::page::{check, finish, js, poll, PAGE_TIMEOUT};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;

/// The demo's running job, whose stream the fault makes contradict its record.
const RUNNING_JOB: &str = "job_s500";
/// How long requests are counted once the page follows the job (`EVAL_COMPARE_PACE_WINDOW_SECS`
/// sets another window, to measure).
const WINDOW: Duration = Duration::from_secs(10);

/// Counts the page's requests for the job's stream and for its record.
const COUNT_REQUESTS_JS: &str = r#"
window.__jobRequests = { stream: 0, record: 0 };
const pageFetch = window.fetch;
window.fetch = function (input, init) {
  const url = typeof input === 'string' ? input : (input && input.url) || String(input);
  const path = new URL(url, location.href).pathname;
  if (path === '/v1/backtests/jobs/job_s500/stream') window.__jobRequests.stream += 1;
  if (path === '/v1/backtests/jobs/job_s500') window.__jobRequests.record += 1;
  return pageFetch.apply(this, arguments);
};
"#;

async fn counts(browser: &Client) -> Result<(u64, u64), BoxError> {
    let value = js(browser, "return window.__jobRequests || null;", vec![]).await?;
    let stream = value["stream"]
        .as_u64()
        .ok_or("no request counts in the page")?;
    Ok((stream, value["record"].as_u64().unwrap_or(0)))
}

async fn contradicting_stream_is_paced(browser: &Client, server: &Server) -> Result<(), BoxError> {
    run_before_page_scripts(browser, COUNT_REQUESTS_JS).await?;
    browser
        .goto(&format!(
            "{}/backtests/compare?base=job_s400/demo-coder@step-400&cand={RUNNING_JOB}/demo-coder@step-500",
            server.base_url()
        ))
        .await?;
    poll("the live notice", PAGE_TIMEOUT, || async {
        let shown = js(
            browser,
            "const n = document.querySelector('.live-jobs'); return n ? n.textContent : null;",
            vec![],
        )
        .await?;
        Ok(shown.as_str().map(str::to_owned))
    })
    .await?;
    let window = std::env::var("EVAL_COMPARE_PACE_WINDOW_SECS")
        .ok()
        .and_then(|secs| secs.parse().ok())
        .map_or(WINDOW, Duration::from_secs);
    let (streams_before, records_before) = counts(browser).await?;
    tokio::time::sleep(window).await;
    let (streams_after, records_after) = counts(browser).await?;
    let (streams, records) = (
        streams_after - streams_before,
        records_after - records_before,
    );
    println!(
        "in {} s: {streams} stream and {records} job requests ({streams_after} and \
         {records_after} since the page opened)",
        window.as_secs()
    );
    // Waits of 0.5–1 s, 1–2 s, 2–4 s, 4–8 s, …: at most 5 rounds start in 10 s (a stream and a
    // read each), and a round in flight when counting began adds one.
    let allowed = 2 + window.as_secs().max(1).ilog2() as u64 + 1;
    check(streams <= allowed && records <= allowed + 1, || {
        format!(
            "{streams} stream and {records} job requests in {} s (at most {allowed} expected)",
            window.as_secs()
        )
    })?;
    check(streams >= 1, || {
        "the page stopped following at once".to_owned()
    })
}

#[tokio::test]
async fn a_stream_contradicting_the_jobs_record_is_followed_with_backoff() -> Result<(), BoxError> {
    // The running job moves (a trial finishes) once in about 2,000 s: a move would rightly
    // start the pace over, and the count would depend on when it came.
    let server = Server::start_demo(&[
        "--fault",
        "contradicting-stream:path=job_s500",
        "--running-eval-secs",
        "100000",
    ])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = contradicting_stream_is_paced(&browser, &server).await;
    finish(browser, outcome).await
}
