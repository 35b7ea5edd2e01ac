//! Which reward component moved, in real headless Chromium over the demo API:
//!
//! 1. the components panel offers to read the comparison's components with their cost; reading
//!    them fills the table (the weight-0 component marked informative), and the page's report
//!    JSON is then the CLI's `report --components` byte for byte;
//! 2. a trajectory whose read keeps failing is named, the table covers the rest, and Resume is
//!    offered; a 429 storm stops the read after ten failures in a row, saying so, with Resume;
//! 3. a transcript's per-step rewards and errors are read on request and each step is named at
//!    the first turn it added.

use eval_compare_e2e::cli::cli_report_json;
use eval_compare_e2e::page::{
    check, click_button, download, finish, js, poll, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::Client;
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];
const BASELINE: &str = "eval_base_v2";
const CANDIDATE: &str = "eval_ckpt_s400";

/// The components panel: its status line, its button labels and the table's rows.
const PANEL_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const panel = document.querySelector('section.components');
if (!panel) return null;
return {
  status: text(panel.querySelector('.component-reads-text')),
  buttons: Array.from(panel.querySelectorAll('.component-reads button')).map(text),
  error: text(panel.querySelector('.details-error')),
  rows: Array.from(panel.querySelectorAll('.components-table tbody tr')).map((row) => ({
    cells: Array.from(row.children).map(text),
    informative: row.classList.contains('component-informative'),
  })),
};
"#;

async fn panel_when(
    browser: &Client,
    what: &str,
    ready: impl Fn(&Value) -> bool,
) -> Result<Value, BoxError> {
    poll(what, PAGE_TIMEOUT, || async {
        let value = js(browser, PANEL_JS, vec![]).await?;
        Ok((!value.is_null() && ready(&value)).then_some(value))
    })
    .await
}

fn status(panel: &Value) -> &str {
    panel["status"].as_str().unwrap_or_default()
}

async fn read_components_match_the_cli(
    browser: &Client,
    server: &Server,
    downloads: &std::path::Path,
) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let offer = panel_when(browser, "the offer to read components", |panel| {
        status(panel).starts_with("These runs' lists carry no reward components")
    })
    .await?;
    check(offer["rows"].as_array().is_some_and(Vec::is_empty), || {
        format!("the table shows rows before any read: {offer}")
    })?;
    click_button(browser, Some("section.components"), "Read components").await?;
    let read = panel_when(browser, "every component read", |panel| {
        status(panel).starts_with("Components read for all")
    })
    .await?;
    let rows = read["rows"].as_array().cloned().unwrap_or_default();
    let names: Vec<&str> = rows
        .iter()
        .filter_map(|row| row["cells"][0].as_str())
        .collect();
    check(
        names.contains(&"tests_passed") && names.contains(&"patch_applies"),
        || format!("the table lists {names:?}"),
    )?;
    let informative: Vec<&Value> = rows
        .iter()
        .filter(|row| row["informative"] == true)
        .collect();
    check(
        informative.len() == 1 && informative[0]["cells"][1] == "0 (informative)",
        || format!("the weight-0 component is not marked informative: {rows:?}"),
    )?;
    for row in &rows {
        let delta = row["cells"][6].as_str().unwrap_or_default();
        check(delta != "—" && !delta.is_empty(), || {
            format!("a component has no paired Δ: {row}")
        })?;
    }

    // The page's report, components included, is the CLI's.
    let (_, text) = download(browser, downloads, "Download report JSON", "json").await?;
    let (_, cli_text) = cli_report_json(
        server.base_url(),
        BASELINE,
        &[CANDIDATE.to_owned()],
        &["--components"],
        None,
    )?;
    check(text.trim_end() == cli_text.trim_end(), || {
        "with components read, the page's report JSON is not `eval-compare report --components`"
            .to_owned()
    })?;
    let exported: Value = serde_json::from_str(&text)?;
    let components = exported["candidates"][0]["components"]
        .as_array()
        .map_or(0, Vec::len);
    check(components == rows.len(), || {
        format!(
            "the export has {components} components, the table {}",
            rows.len()
        )
    })
}

#[tokio::test]
async fn components_read_on_request_fill_the_table_and_match_the_cli() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("components")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = read_components_match_the_cli(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}

/// A trajectory of the candidate whose every read fails.
const BROKEN: &str = "trj_s400_cf-0282_1";

async fn a_failed_read_is_named(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    click_button(browser, Some("section.components"), "Read components").await?;
    let read = panel_when(browser, "the read to end with a failure", |panel| {
        status(panel).ends_with("1 read failed.")
    })
    .await?;
    let error = read["error"].as_str().unwrap_or_default();
    check(error.contains(BROKEN), || {
        format!("the failure does not name the trajectory: {error:?}")
    })?;
    check(
        status(&read).contains("the table covers those only")
            && read["buttons"] == serde_json::json!(["Resume"]),
        || format!("after a failed read the panel says {read}"),
    )?;
    check(
        read["rows"].as_array().is_some_and(|rows| !rows.is_empty()),
        || "the components read are not shown".to_owned(),
    )
}

#[tokio::test]
async fn a_trajectory_that_cannot_be_read_is_named_and_the_rest_is_shown() -> Result<(), BoxError> {
    let fault = format!("5xx:path=/trajectories/{BROKEN}");
    let server = Server::start_demo(&["--running-eval-secs", "0", "--fault", &fault])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = a_failed_read_is_named(&browser, &server).await;
    finish(browser, outcome).await
}

async fn a_storm_stops_the_read(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    click_button(browser, Some("section.components"), "Read components").await?;
    let stopped = panel_when(browser, "the read to give up", |panel| {
        status(panel).starts_with("The read stopped")
    })
    .await?;
    check(
        status(&stopped).starts_with(
            "The read stopped after 10 reads in a row failed (HTTP 429 Too Many Requests); 20 of ",
        ) && status(&stopped).contains(" read; Resume continues.")
            && stopped["buttons"] == serde_json::json!(["Resume"]),
        || format!("after the storm the panel says {stopped}"),
    )
}

#[tokio::test]
async fn a_429_storm_stops_the_read_and_says_so_with_resume() -> Result<(), BoxError> {
    // Every read of a trajectory after the 20th is answered 429.
    let fault = "429:path=/api/v1/trajectories/:from=21:retry-after=0";
    let server = Server::start_demo(&["--running-eval-secs", "0", "--fault", fault])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = a_storm_stops_the_read(&browser, &server).await;
    finish(browser, outcome).await
}

/// A candidate attempt with several steps, one of which recorded an error.
const STEPPED: (&str, &str) = ("cf-0282", "trj_s400_cf-0282_1");

const STEPS_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const t = document.querySelector(`.transcript[data-trajectory-id="${arguments[0]}"]`);
if (!t) return null;
const read = t.querySelector('button.transcript-steps-read');
if (read) { read.click(); return null; }
const summary = text(t.querySelector('details.transcript-steps summary'));
if (!summary) return null;
return {
  summary,
  steps: t.querySelectorAll('.transcript-step-list li').length,
  named: Array.from(t.querySelectorAll('.turn-step')).map(text),
  errors: t.querySelectorAll('.turn-step-error').length,
};
"#;

async fn steps_are_named_at_their_turns(browser: &Client, server: &Server) -> Result<(), BoxError> {
    let (task, trajectory) = STEPPED;
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={CANDIDATE}&task={task}&attempts={trajectory}",
            server.base_url()
        ))
        .await?;
    let seen = poll("the per-step rewards", PAGE_TIMEOUT, || async {
        let value = js(browser, STEPS_JS, vec![Value::from(trajectory)]).await?;
        Ok((!value.is_null()).then_some(value))
    })
    .await?;
    let steps = seen["steps"].as_u64().unwrap_or(0);
    let named = seen["named"].as_array().map_or(0, Vec::len) as u64;
    check(steps > 1 && named == steps, || {
        format!("{steps} steps listed, {named} named at turns: {seen}")
    })?;
    let summary = seen["summary"].as_str().unwrap_or_default();
    check(summary.starts_with(&format!("{steps} steps:")), || {
        format!("the steps read as {summary:?}")
    })?;
    let errors = seen["errors"].as_u64().unwrap_or(0);
    check(
        (errors > 0) != summary.contains("no step recorded an error"),
        || format!("{errors} error steps marked, the summary says {summary:?}"),
    )
}

#[tokio::test]
async fn a_transcripts_steps_are_read_on_request_and_named_at_their_turns() -> Result<(), BoxError>
{
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = steps_are_named_at_their_turns(&browser, &server).await;
    finish(browser, outcome).await
}
