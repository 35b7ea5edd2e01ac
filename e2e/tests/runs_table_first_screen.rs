//! The table of compared runs at the top of the comparison page is one line per run at 1280
//! and 1920 pixels wide, never scrolling sideways, so with five candidates the first verdict is
//! on the first screen (1280×800); the run id and the training run, shown only where the table
//! has room for them, are in the tooltip. In real headless Chromium over the demo API.

use eval_compare_e2e::page::{check, finish, js, wait_for_report};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde::Deserialize;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

const REPORT: &str = "/compare?base=eval_base_v2\
    &cand=eval_ckpt_s100,eval_ckpt_s200,eval_ckpt_s300,eval_ckpt_s400,eval_ckpt_s500";

/// What the page shows of the runs table and the first verdict.
#[derive(Debug, Deserialize)]
struct Shown {
    /// The window's inner height.
    viewport: f64,
    /// The bottom of the first card's verdict badge.
    badge_bottom: f64,
    /// Per row: its run id and how many lines its cells' text takes.
    lines: Vec<(String, usize)>,
    /// Whether the table is wider than its box (scrolls sideways).
    scrolls: bool,
    /// The first candidate's name tooltip.
    name_title: String,
    /// The widths of the first candidate's run id and training run on screen.
    id_width: f64,
    training_width: f64,
}

const SHOWN_JS: &str = r#"
// The lines a cell's text sits on: its text boxes grouped by their vertical middle.
const lines = (cell) => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  const middles = Array.from(range.getClientRects())
    .filter((r) => r.width > 1 && r.height > 1)
    .map((r) => (r.top + r.bottom) / 2)
    .sort((a, b) => a - b);
  let count = 0, last = -Infinity;
  for (const m of middles) { if (m - last > 8) { count += 1; last = m; } }
  return count;
};
const rows = Array.from(document.querySelectorAll('table.runs-summary tbody tr'));
const candidate = rows[1];
const scroll = document.querySelector('.report-header .table-scroll');
return {
  viewport: window.innerHeight,
  badge_bottom: document.querySelector('article.headline-card .verdict-badge')
    .getBoundingClientRect().bottom,
  lines: rows.map((tr) => [tr.dataset.runId,
    Math.max(...Array.from(tr.querySelectorAll('th, td')).map(lines))]),
  scrolls: scroll.scrollWidth > scroll.clientWidth,
  name_title: candidate.querySelector('.run-name').getAttribute('title') || '',
  id_width: candidate.querySelector('.run-id').getBoundingClientRect().width,
  training_width: candidate.querySelector('.training-run').getBoundingClientRect().width,
};
"#;

async fn shown(browser: &Client) -> Result<Shown, BoxError> {
    Ok(serde_json::from_value(
        js(browser, SHOWN_JS, vec![]).await?,
    )?)
}

async fn first_screen(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.set_window_size(1280, 800).await?;
    browser
        .goto(&format!("{}{REPORT}", server.base_url()))
        .await?;
    wait_for_report(browser).await?;
    let laptop = shown(browser).await?;
    check(
        laptop.lines.len() == 6 && laptop.lines.iter().all(|(_, lines)| *lines == 1),
        || format!("the runs are not one line each at 1280: {laptop:?}"),
    )?;
    check(!laptop.scrolls, || {
        format!("the runs table scrolls sideways at 1280: {laptop:?}")
    })?;
    check(laptop.badge_bottom <= laptop.viewport, || {
        format!("the first verdict is below the first screen: {laptop:?}")
    })?;
    check(
        laptop.name_title == "Step 100\nrun eval_ckpt_s100"
            && laptop.id_width <= 1.0
            && laptop.training_width <= 1.0,
        || format!("at 1280 the id and training run are not in the tooltip only: {laptop:?}"),
    )?;
    browser.set_window_size(1920, 1080).await?;
    let wide = shown(browser).await?;
    check(
        wide.lines.iter().all(|(_, lines)| *lines == 1) && !wide.scrolls,
        || format!("at 1920 the rows are not one line each: {wide:?}"),
    )
}

#[tokio::test]
async fn five_candidates_leave_the_first_verdict_on_the_first_screen() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = first_screen(&browser, &server).await;
    finish(browser, outcome).await
}
