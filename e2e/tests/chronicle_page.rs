//! Chronicle backtests in real headless Chromium, served by the real server with the built
//! viewer, checked against `eval-compare report --chronicle` (the CLI) over the same API:
//!
//! 1. the job picker's "Open" on a compare-mode job renders its report, and the report JSON the
//!    page exports is the CLI's for the same job, byte for byte;
//! 2. a job with no trials yet says so instead of showing an empty report.
//!
//! The server runs with `--running-eval-secs 0`: the demo's running job is finished from the
//! start, so the browser and the CLI read the same data whenever they read it.

use std::path::Path;

use eval_compare_core::testing::json_close::json_close;
use eval_compare_e2e::cli::cli_report_json;
use eval_compare_e2e::page::{
    check, download, finish, js, poll, query_param, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::{Client, Locator};
use serde_json::Value;

/// The demo with its running evaluation (and job) already finished.
const DEMO: &[&str] = &["--running-eval-secs", "0"];
/// The demo's compare-mode job of the baseline and step 400.
const COMPARE_JOB: &str = "job_compare_base_s400";
/// The demo's queued job, which has no trials yet.
const QUEUED_JOB: &str = "job_s500_rerun";

async fn open_compare_job(
    browser: &Client,
    server: &Server,
    downloads: &Path,
) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}/backtests", server.base_url()))
        .await?;
    let row = browser
        .wait()
        .at_most(PAGE_TIMEOUT)
        .for_element(Locator::Css(&format!("tr[data-job-id='{COMPARE_JOB}']")))
        .await?;
    let open = row
        .find(Locator::XPath(".//button[normalize-space()='Open']"))
        .await?;
    // Into the middle of the window: the sticky bar of chosen jobs covers its bottom.
    browser
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});",
            vec![serde_json::to_value(&open)?],
        )
        .await?;
    open.click().await?;
    wait_for_report(browser).await?;

    let url = browser.current_url().await?;
    check(url.path() == "/backtests/compare", || {
        format!("Open went to {url}")
    })?;
    let base = query_param(&url, "base").unwrap_or_default();
    check(base == format!("{COMPARE_JOB}/demo-coder@base"), || {
        format!("the report's baseline is {base:?}")
    })?;

    let (cli, cli_text) =
        cli_report_json(server.base_url(), COMPARE_JOB, &[], &["--chronicle"], None)?;
    let (name, text) = download(browser, downloads, "Download report JSON", "json").await?;
    let exported: Value = serde_json::from_str(&text)
        .map_err(|error| format!("the downloaded {name} is not JSON: {error}"))?;
    json_close(&exported, &cli, 0.0).map_err(|difference| {
        format!(
            "the page's report JSON differs from `eval-compare report --chronicle`: {difference}"
        )
    })?;
    check(text.trim_end() == cli_text.trim_end(), || {
        "the report JSON export has the CLI's values but not its exact text".to_owned()
    })?;
    check(
        exported["sources"] == serde_json::json!(["chronicle"]),
        || format!("the report names its sources {}", exported["sources"]),
    )?;

    // The platform's own results are shown beside the trials.
    let platform = js(
        browser,
        "const p = document.querySelector('.panel.platform'); return p ? p.textContent : null;",
        vec![],
    )
    .await?;
    check(
        platform
            .as_str()
            .is_some_and(|text| text.contains(COMPARE_JOB) && text.contains("The platform lists")),
        || format!("the platform panel reads {platform}"),
    )?;
    Ok(())
}

#[tokio::test]
async fn a_compare_job_opens_from_the_picker_and_renders_the_cli_report() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("chronicle")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = open_compare_job(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}

async fn no_trials_notice(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/backtests/compare?base={QUEUED_JOB}/demo-coder@step-500&cand={COMPARE_JOB}/demo-coder@step-400",
            server.base_url()
        ))
        .await?;
    let notice = poll("the no-trials notice", PAGE_TIMEOUT, || async {
        let value = js(
            browser,
            "const n = document.querySelector('.no-trials'); return n ? n.textContent : null;",
            vec![],
        )
        .await?;
        Ok(value.as_str().map(str::to_owned))
    })
    .await?;
    check(
        notice.contains(&format!(
            "Job {QUEUED_JOB} has no trials yet; inspect its status"
        )),
        || format!("the notice reads {notice:?}"),
    )
}

#[tokio::test]
async fn a_job_without_trials_says_so() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = no_trials_notice(&browser, &server).await;
    finish(browser, outcome).await
}
