//! Money beside quality on the comparison page (issue 37 §2, §3), in real headless Chromium over
//! the demo API:
//!
//! 1. with a key that may read billing, step 400's card says what it costs per task beside its
//!    Δ ("· +0.40 ¢ per task", with its "?"), the same figure as the CLI's report JSON; the cost
//!    panel lists both runs' costs and the quality–cost table and chart;
//! 2. with a key the demo refuses billing (`--demo-key-without-billing`), the card says "cost
//!    unavailable: the API key may not read billing", never a cost of 0, and the panel says why.

use eval_compare_core::report::signed_cents;
use eval_compare_e2e::cli::{cli_report_json, number};
use eval_compare_e2e::page::{check, finish, js, poll, wait_for_report, SHORT_TIMEOUT};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde::Deserialize;

const FULL_KEY: &str = "k-cost-full-4e1d";
const NO_BILLING_KEY: &str = "k-cost-nobill-9a7c";
const BASELINE: &str = "eval_base_v2";
const STEP_400: &str = "eval_ckpt_s400";

/// What the page shows of the cost.
#[derive(Debug, Deserialize)]
struct Shown {
    /// The cost beside the first card's Δ.
    card_line: String,
    /// Whether that line has its "?".
    explained: bool,
    /// The cost panel's run rows, each row's cells.
    rows: Vec<Vec<String>>,
    /// The quality–cost table's rows.
    quality_rows: Vec<Vec<String>>,
    /// Whether the quality–cost chart has an SVG.
    chart: bool,
}

const SHOWN_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const line = document.querySelector('article.headline-card .headline-cost');
const cells = (table) => table ? Array.from(table.querySelectorAll('tbody tr'))
  .map((tr) => Array.from(tr.querySelectorAll('td')).map(text)) : [];
const panel = document.querySelector('section.cost-panel');
return {
  card_line: text(line),
  explained: !!line && !!line.querySelector('button'),
  rows: cells(panel && panel.querySelector('table.cost-runs')),
  quality_rows: cells(panel && panel.querySelector('table.quality-cost')),
  chart: !!panel && !!panel.querySelector('.chart-svg svg'),
};
"#;

/// Opens the comparison of step 400 against the baseline with `key` kept for the tab.
async fn open_with_key(browser: &Client, server: &Server, key: &str) -> Result<(), BoxError> {
    browser.set_window_size(1280, 800).await?;
    browser.goto(&format!("{}/", server.base_url())).await?;
    js(
        browser,
        "sessionStorage.setItem('eval-compare.api-key', arguments[0]);",
        vec![serde_json::Value::from(key)],
    )
    .await?;
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={STEP_400}",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await
}

/// Waits until the card shows a cost line, and returns what the page shows.
async fn shown(browser: &Client) -> Result<Shown, BoxError> {
    poll("the cost beside the verdict", SHORT_TIMEOUT, || async {
        let now: Shown = serde_json::from_value(js(browser, SHOWN_JS, vec![]).await?)?;
        Ok((!now.card_line.is_empty() && !now.rows.is_empty()).then_some(now))
    })
    .await
}

async fn with_billing(browser: &Client, server: &Server) -> Result<(), BoxError> {
    open_with_key(browser, server, FULL_KEY).await?;
    let page = shown(browser).await?;
    let (cli, _) = cli_report_json(
        server.base_url(),
        BASELINE,
        &[STEP_400.to_owned()],
        &[],
        Some(FULL_KEY),
    )?;
    let delta = number(&cli, "/cost/candidates/0/per_attempted_task/Ok/delta")?;
    let expected = format!("· {} per task", signed_cents(delta));
    check(delta > 0.0, || {
        format!("step 400 takes more turns, so it should cost more per task: {delta}")
    })?;
    check(
        page.card_line.starts_with(&expected) && page.explained,
        || {
            format!(
                "the card's cost reads {:?} (with a \"?\": {}), the CLI's {expected:?}",
                page.card_line, page.explained
            )
        },
    )?;
    check(
        page.rows.len() == 2 && page.rows.iter().all(|row| row[2].ends_with(" ¢")),
        || format!("the cost table shows {:?}", page.rows),
    )?;
    check(page.quality_rows.len() == 2 && page.chart, || {
        format!(
            "the quality–cost view shows {:?} (chart drawn: {})",
            page.quality_rows, page.chart
        )
    })
}

async fn without_billing(browser: &Client, server: &Server) -> Result<(), BoxError> {
    open_with_key(browser, server, NO_BILLING_KEY).await?;
    let page = shown(browser).await?;
    check(
        page.card_line
            .starts_with("· cost unavailable: the API key may not read billing"),
        || format!("without billing the card's cost reads {:?}", page.card_line),
    )?;
    check(!page.card_line.contains("0.00 ¢"), || {
        format!("an unavailable cost is shown as 0: {:?}", page.card_line)
    })?;
    check(
        page.rows
            .iter()
            .all(|row| row[2].starts_with("unavailable: the API key may not read billing")),
        || format!("the cost table shows {:?}", page.rows),
    )?;
    check(!page.chart, || {
        "a chart is drawn without any cost".to_owned()
    })
}

#[tokio::test]
async fn the_card_shows_the_cost_per_task_or_why_it_is_unavailable() -> Result<(), BoxError> {
    let server = Server::start_demo(&[
        "--running-eval-secs",
        "0",
        "--demo-key",
        FULL_KEY,
        "--demo-key-without-billing",
        NO_BILLING_KEY,
    ])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = with_billing(&browser, &server).await;
    finish(browser, outcome).await?;
    // A fresh session: its own storage, so no key is left from the first.
    let browser = driver.open_browser().await?;
    let outcome = without_billing(&browser, &server).await;
    finish(browser, outcome).await
}
