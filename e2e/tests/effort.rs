//! Turns and endings beside quality on the comparison page (issue 37 §3), in real headless
//! Chromium over the demo API, step 400 against the baseline (the demo's step 400 takes clearly
//! more turns):
//!
//! 1. the card says how many more turns beside its Δ ("· +X% turns", with its "?"), the same
//!    figure as the CLI's report JSON, and the effort panel has its turn-limit line;
//! 2. a click on the task table's "Turns" header sorts by the candidate's turns, a second one
//!    reverses it, and the "Hit turn limit" filter keeps only tasks whose ending cell counts
//!    turn-limit hits; both live in the URL and survive a reload of the link.

use eval_compare_core::report::signed_percent;
use eval_compare_e2e::cli::{cli_report_json, number};
use eval_compare_e2e::page::{check, finish, js, poll, wait_for_report, wait_js, SHORT_TIMEOUT};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::{Client, Locator};
use serde::Deserialize;

const BASELINE: &str = "eval_base_v2";
const STEP_400: &str = "eval_ckpt_s400";

/// What the page shows of the effort.
#[derive(Debug, PartialEq, Deserialize)]
struct Shown {
    /// The turns beside the first card's Δ.
    card_line: String,
    /// Whether that line has its "?".
    explained: bool,
    /// The effort panel's turn-limit sentence of the candidate.
    turn_limit_line: String,
    /// The task table's rendered rows: (task id, candidate turns, ending cell).
    rows: Vec<(String, String, String)>,
    /// The sort of the turns column (`aria-sort`), if sorted by it.
    turns_sort: Option<String>,
    /// The pressed filter button.
    filter: Option<String>,
}

const SHOWN_JS: &str = r#"
const text = (e) => {
  if (!e) return '';
  const copy = e.cloneNode(true);
  copy.querySelectorAll('.explain, .explain-pop').forEach((x) => x.remove());
  return copy.textContent.replace(/\s+/g, ' ').trim();
};
const line = document.querySelector('article.headline-card .headline-effort');
const pressed = document.querySelector('.filter-button[aria-pressed=true]');
const head = document.querySelector('table.tasks th[data-sort-key=turns]');
return {
  card_line: text(line),
  explained: !!line && !!line.querySelector('button'),
  turn_limit_line: text(document.querySelector('section.effort-panel li.effort-turn-limit')),
  rows: Array.from(document.querySelectorAll('table.tasks tr.task-row')).map((tr) => [
    tr.getAttribute('data-task-id'),
    text(tr.querySelector('.task-turns-candidate')),
    text(tr.querySelector('.task-ending')),
  ]),
  turns_sort: head ? head.getAttribute('aria-sort') : null,
  filter: pressed ? pressed.getAttribute('data-filter') : null,
};
"#;

async fn shown(browser: &Client) -> Result<Shown, BoxError> {
    Ok(serde_json::from_value(
        js(browser, SHOWN_JS, vec![]).await?,
    )?)
}

/// Waits until the page shows the effort (the card's line and table rows).
async fn shown_when_ready(browser: &Client) -> Result<Shown, BoxError> {
    poll("the effort on the page", SHORT_TIMEOUT, || async {
        let now = shown(browser).await?;
        Ok((!now.card_line.is_empty() && !now.rows.is_empty()).then_some(now))
    })
    .await
}

/// The rows' candidate turns as numbers, the rows without turns ("—") left out.
fn turns(rows: &[(String, String, String)]) -> Vec<f64> {
    rows.iter()
        .filter_map(|(_, turns, _)| turns.parse::<f64>().ok())
        .collect()
}

async fn click(browser: &Client, css: &str) -> Result<(), BoxError> {
    browser.find(Locator::Css(css)).await?.click().await?;
    Ok(())
}

async fn wait_for_query(browser: &Client, what: &str, part: &str) -> Result<(), BoxError> {
    wait_js(
        browser,
        what,
        SHORT_TIMEOUT,
        "return new URLSearchParams(location.search).getAll(arguments[0].split('=')[0]).includes(arguments[0].split('=')[1]);",
        vec![serde_json::Value::from(part)],
    )
    .await
    .map(|_| ())
}

async fn card_and_panel(browser: &Client, server: &Server) -> Result<(), BoxError> {
    let page = shown_when_ready(browser).await?;
    let (cli, _) = cli_report_json(
        server.base_url(),
        BASELINE,
        &[STEP_400.to_owned()],
        &[],
        None,
    )?;
    let ratio = number(&cli, "/effort/candidates/0/turns/relative/Ok/ratio")?;
    check(ratio > 0.05, || {
        format!("the demo's step 400 should take clearly more turns: {ratio}")
    })?;
    let expected = format!("· {} turns", signed_percent(ratio));
    check(page.card_line == expected && page.explained, || {
        format!(
            "the card's turns read {:?} (with a \"?\": {}), the CLI's {expected:?}",
            page.card_line, page.explained
        )
    })?;
    check(page.turn_limit_line.contains("turn limit"), || {
        format!(
            "the effort panel's turn-limit line: {:?}",
            page.turn_limit_line
        )
    })
}

async fn sort_and_filter(browser: &Client) -> Result<Shown, BoxError> {
    click(browser, "table.tasks th[data-sort-key=turns] button").await?;
    wait_for_query(browser, "the turns sort in the URL", "sort=turns").await?;
    let ascending = shown(browser).await?;
    let values = turns(&ascending.rows);
    check(
        ascending.turns_sort.as_deref() == Some("ascending")
            && values.len() > 1
            && values.windows(2).all(|w| w[0] <= w[1]),
        || format!("sorted by turns ascending: {ascending:?}"),
    )?;
    click(browser, "table.tasks th[data-sort-key=turns] button").await?;
    wait_for_query(browser, "the reversed turns sort in the URL", "sort=-turns").await?;
    let descending = shown(browser).await?;
    let values = turns(&descending.rows);
    check(
        descending.turns_sort.as_deref() == Some("descending")
            && values.len() > 1
            && values.windows(2).all(|w| w[0] >= w[1])
            && values.first() > turns(&ascending.rows).first(),
        || format!("sorted by turns descending: {descending:?}"),
    )?;
    click(browser, ".filter-button[data-filter=turn_limit]").await?;
    wait_for_query(
        browser,
        "the turn-limit filter in the URL",
        "filter=turn_limit",
    )
    .await?;
    let filtered = poll("the turn-limit rows", SHORT_TIMEOUT, || async {
        let now = shown(browser).await?;
        Ok((now.filter.as_deref() == Some("turn_limit")).then_some(now))
    })
    .await?;
    check(
        !filtered.rows.is_empty()
            && descending
                .rows
                .iter()
                .any(|(_, _, ending)| !ending.contains("turn limit"))
            && filtered
                .rows
                .iter()
                .all(|(_, _, ending)| ending.contains("turn limit")),
        || format!("the turn-limit filter shows {:?}", filtered.rows),
    )?;
    let values = turns(&filtered.rows);
    check(values.windows(2).all(|w| w[0] >= w[1]), || {
        format!("the filtered rows keep the turns sort: {:?}", filtered.rows)
    })?;
    Ok(filtered)
}

async fn effort_on_the_page(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.set_window_size(1280, 800).await?;
    browser
        .goto(&format!(
            "{}/compare?base={BASELINE}&cand={STEP_400}",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    card_and_panel(browser, server).await?;
    let before = sort_and_filter(browser).await?;
    let link = browser.current_url().await?;
    // The link opened afresh shows the same rows, sort and filter.
    browser.goto(link.as_str()).await?;
    wait_for_report(browser).await?;
    let after = shown_when_ready(browser).await?;
    check(after == before, || {
        format!("after a reload of {link}: {after:#?}\nbefore: {before:#?}")
    })
}

#[tokio::test]
async fn turns_show_beside_the_verdict_and_sort_and_filter_the_table() -> Result<(), BoxError> {
    let server = Server::start_demo(&["--running-eval-secs", "0"])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = effort_on_the_page(&browser, &server).await;
    finish(browser, outcome).await
}
