//! The run list in real headless Chromium, served by the real server with the built viewer.
//! What the page must list is read from the server's own API, not hard-coded.

use std::time::Duration;

use eval_compare_core::api::{decode, AgentListPage, BenchmarkPage, CursorPage, EvalRunPage};
use eval_compare_e2e::page::{error_panel_title, finish};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::{Client, Locator};
use serde::de::DeserializeOwned;

/// How long the page may take to show its runs or its error.
const PAGE_TIMEOUT: Duration = Duration::from_secs(30);

/// A run the page must list.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ExpectedRun {
    bench_id: String,
    eval_run_id: String,
    /// The display name, or the id when the run has none.
    name: String,
}

/// `Err(message)` unless `condition` holds; the checks return errors rather than panic so the
/// browser session is always closed.
fn check(condition: bool, message: impl FnOnce() -> String) -> Result<(), BoxError> {
    if condition {
        Ok(())
    } else {
        Err(message().into())
    }
}

/// GETs one complete page of a list from the server's API.
async fn get_list<P: DeserializeOwned + CursorPage>(
    server: &Server,
    path: &str,
) -> Result<P, BoxError> {
    let url = format!("{}{path}", server.base_url());
    let response = reqwest::get(&url).await?.error_for_status()?;
    let page: P = decode(&response.bytes().await?)?;
    check(!page.has_more(), || {
        format!("{path} has more than one page; the demo is expected to fit in one")
    })?;
    Ok(page)
}

/// Every run of every benchmark version owned by an agent, as the API lists them.
async fn expected_runs(server: &Server) -> Result<Vec<ExpectedRun>, BoxError> {
    let agents: AgentListPage = get_list(server, "/api/v1/agents?limit=200").await?;
    let benchmarks: BenchmarkPage = get_list(server, "/api/v1/benchmarks?limit=200").await?;
    let mut expected = Vec::new();
    for benchmark in benchmarks.items.iter().filter(|benchmark| {
        agents
            .items
            .iter()
            .any(|agent| benchmark.agent_id.as_deref() == Some(agent.agent_id.as_str()))
    }) {
        let path = format!("/api/v1/eval/{}/runs?limit=200", benchmark.bench_id);
        let runs: EvalRunPage = get_list(server, &path).await?;
        expected.extend(runs.items.into_iter().map(|run| {
            ExpectedRun {
                bench_id: run.bench_id.clone(),
                name: run
                    .display_name
                    .filter(|name| !name.trim().is_empty())
                    .unwrap_or_else(|| run.eval_run_id.clone()),
                eval_run_id: run.eval_run_id,
            }
        }));
    }
    check(!expected.is_empty(), || {
        "the demo API lists no runs".to_owned()
    })?;
    Ok(expected)
}

/// The runs the picker lists for one benchmark version, once it lists `count` of them.
async fn listed_runs(
    browser: &Client,
    bench_id: &str,
    count: usize,
) -> Result<Vec<ExpectedRun>, BoxError> {
    browser
        .wait()
        .at_most(PAGE_TIMEOUT)
        .for_element(Locator::Css("table.runs-table tbody tr[data-run-id]"))
        .await?;
    let mut listed = Vec::new();
    for row in browser
        .find_all(Locator::Css("table.runs-table tbody tr[data-run-id]"))
        .await?
    {
        let eval_run_id = row.attr("data-run-id").await?.unwrap_or_default();
        let name = row.find(Locator::Css(".run-name")).await?.text().await?;
        listed.push(ExpectedRun {
            bench_id: bench_id.to_owned(),
            eval_run_id,
            name,
        });
    }
    check(listed.len() == count, || {
        format!(
            "the picker lists {} runs of {bench_id}, the API {count}",
            listed.len()
        )
    })?;
    Ok(listed)
}

/// Opens the picker on each benchmark version (the `bench` query parameter) and checks it lists
/// exactly that version's runs.
async fn check_runs_listed(
    browser: &Client,
    server: &Server,
    expected: &[ExpectedRun],
) -> Result<(), BoxError> {
    let mut benches: Vec<&str> = expected.iter().map(|run| run.bench_id.as_str()).collect();
    benches.sort_unstable();
    benches.dedup();
    check(!benches.is_empty(), || {
        "the demo lists no benchmark".to_owned()
    })?;
    for bench_id in benches {
        let mut wanted: Vec<ExpectedRun> = expected
            .iter()
            .filter(|run| run.bench_id == bench_id)
            .cloned()
            .collect();
        browser
            .goto(&format!("{}/?bench={bench_id}", server.base_url()))
            .await?;
        let mut listed = listed_runs(browser, bench_id, wanted.len()).await?;
        listed.sort_by(|a, b| a.eval_run_id.cmp(&b.eval_run_id));
        wanted.sort_by(|a, b| a.eval_run_id.cmp(&b.eval_run_id));
        check(listed == wanted, || {
            format!("the picker lists {listed:#?}\nthe API has {wanted:#?}")
        })?;
        let errors = browser.find_all(Locator::Css(".error-panel")).await?;
        check(errors.is_empty(), || "an error panel is shown".to_owned())?;
    }
    Ok(())
}

#[tokio::test]
async fn the_page_lists_every_demo_run_under_its_benchmark() -> Result<(), BoxError> {
    let server = Server::start_demo(&[])?;
    let expected = expected_runs(&server).await?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = check_runs_listed(&browser, &server, &expected).await;
    finish(browser, outcome).await
}

/// Opens the page while the API fails, checks the error panel, retries, and checks the runs.
async fn check_error_then_retry(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.goto(&format!("{}/", server.base_url())).await?;
    let title = error_panel_title(browser, PAGE_TIMEOUT).await?;
    check(title == "The server failed (HTTP 503)", || {
        format!("unexpected error title {title:?}")
    })?;
    // Read only now: the API's first three agent-list answers are the injected failures.
    let expected = expected_runs(server).await?;
    let retry = browser.find(Locator::Css(".error-panel button")).await?;
    check(retry.text().await? == "Retry", || {
        "no Retry button".to_owned()
    })?;
    retry.click().await?;
    browser
        .wait()
        .at_most(PAGE_TIMEOUT)
        .for_element(Locator::Css("table.runs-table tbody tr[data-run-id]"))
        .await?;
    let rows = browser
        .find_all(Locator::Css("table.runs-table tbody tr[data-run-id]"))
        .await?;
    check(!rows.is_empty(), || "no run listed after Retry".to_owned())?;
    for row in rows {
        let id = row.attr("data-run-id").await?.unwrap_or_default();
        check(expected.iter().any(|run| run.eval_run_id == id), || {
            format!("the picker lists {id}, which the API does not have")
        })?;
    }
    let errors = browser.find_all(Locator::Css(".error-panel")).await?;
    check(errors.is_empty(), || "the error panel stayed".to_owned())
}

#[tokio::test]
async fn a_failing_api_shows_the_error_and_retry_recovers() -> Result<(), BoxError> {
    // The client tries each request three times (two retries): fail the first three agent-list
    // requests so the page shows the error, and let the fourth (Retry) through.
    let server = Server::start_demo(&[
        "--fault",
        "5xx:path=/api/v1/agents:nth=1",
        "--fault",
        "5xx:path=/api/v1/agents:nth=2",
        "--fault",
        "5xx:path=/api/v1/agents:nth=3",
    ])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = check_error_then_retry(&browser, &server).await;
    finish(browser, outcome).await
}
