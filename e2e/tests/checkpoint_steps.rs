//! Checkpoints against each other on the comparison page (issue 36 §3), in real headless
//! Chromium over the demo API: with the demo's checkpoints of one training run as candidates,
//! the page shows each step against the previous one ("Step 400 vs step 300" with its verdict);
//! picking a step puts `versus=` in the URL and adds the comparisons against it; the tasks whose
//! state changes across the steps are listed with a mean per step, and "Show these tasks in the
//! task table" sets the table's filter `changing`, which shows exactly those tasks. A pass
//! threshold set in the form goes into the link (`pass=0.5`) and makes pass@k appear for the
//! demo's continuous rewards.

use eval_compare_e2e::page::{
    check, click_button, finish, js, poll, query_param, wait_for_report, SHORT_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::{Client, Locator};
use serde::Deserialize;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

const QUERY: &str = "base=eval_base_v2&cand=eval_ckpt_s200,eval_ckpt_s300,eval_ckpt_s400";

/// What the checkpoint panel shows.
#[derive(Debug, Deserialize)]
struct Panel {
    /// Each row of the step-against-previous table: (step, against, decision, first cell).
    previous: Vec<(String, String, String, String)>,
    /// Rows of the table against the chosen step.
    chosen: Vec<(String, String)>,
    /// Tasks listed with a path.
    paths: usize,
    /// Cells of the first path row.
    first_path: Vec<String>,
    /// The line counting the tasks that change.
    line: String,
    /// Whether the page shows a pass@k table.
    pass_k_text: bool,
}

const PANEL_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const panel = document.querySelector('section.checkpoint-steps');
if (!panel) return null;
const rows = (css) => Array.from(panel.querySelectorAll(css + ' tbody tr'));
return {
  previous: rows('table.step-vs-previous').map((tr) => [tr.dataset.step, tr.dataset.against,
    tr.dataset.decision, text(tr.querySelector('td'))]),
  chosen: rows('table.step-vs-chosen').map((tr) => [tr.dataset.step, tr.dataset.against]),
  paths: rows('table.task-paths').length,
  first_path: rows('table.task-paths').slice(0, 1).flatMap((tr) =>
    Array.from(tr.querySelectorAll('td')).map(text)),
  line: text(panel.querySelector('.task-paths-line')),
  pass_k_text: !!document.querySelector('table.pass-k-table'),
};
"#;

async fn panel(browser: &Client) -> Result<Option<Panel>, BoxError> {
    Ok(serde_json::from_value(
        js(browser, PANEL_JS, vec![]).await?,
    )?)
}

async fn panel_when(
    browser: &Client,
    what: &str,
    done: impl Fn(&Panel) -> bool,
) -> Result<Panel, BoxError> {
    let last = std::cell::RefCell::new(None);
    let seen = poll(what, SHORT_TIMEOUT * 3, || async {
        let now = panel(browser).await?;
        if let Some(now) = now {
            if done(&now) {
                return Ok(Some(now));
            }
            *last.borrow_mut() = Some(format!("{now:?}"));
        }
        Ok(None)
    })
    .await;
    seen.map_err(|error| format!("{error}; the panel shows {:?}", last.borrow()).into())
}

async fn steps(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}/compare?{QUERY}", server.base_url()))
        .await?;
    wait_for_report(browser).await?;
    let shown = panel_when(browser, "the steps against the previous one", |p| {
        p.previous.len() == 2
    })
    .await?;
    check(
        shown.previous[0].0 == "300"
            && shown.previous[0].1 == "200"
            && shown.previous[0].3 == "Step 300 vs step 200"
            && shown.previous[1].3 == "Step 400 vs step 300"
            && shown.previous.iter().all(|row| !row.2.is_empty())
            && shown.chosen.is_empty(),
        || format!("the step-against-previous lines show {shown:?}"),
    )?;
    check(
        shown.paths > 0
            && shown.line.ends_with("across the checkpoints.")
            // task, baseline, three steps, path
            && shown.first_path.len() == 6,
        || format!("the task paths show {shown:?}"),
    )?;

    // Pick step 200: every other step against it, and `versus=200` in the URL.
    let select = browser.find(Locator::Css("select[name=versus]")).await?;
    select.select_by_value("200").await?;
    let chosen = panel_when(browser, "the steps against step 200", |p| {
        p.chosen.len() == 2
    })
    .await?;
    check(
        chosen.chosen
            == [
                ("300".to_owned(), "200".to_owned()),
                ("400".to_owned(), "200".to_owned()),
            ],
        || format!("the steps against the chosen one show {chosen:?}"),
    )?;
    let url = browser.current_url().await?;
    check(
        query_param(&url, "versus").as_deref() == Some("200"),
        || format!("the URL {url} does not carry versus=200"),
    )?;

    // The path filter: exactly the listed tasks (all of them when there are few).
    click_button(
        browser,
        Some("section.checkpoint-steps"),
        "Show these tasks in the task table",
    )
    .await?;
    let url = poll("filter=changing in the URL", SHORT_TIMEOUT, || async {
        let url = browser.current_url().await?;
        Ok((query_param(&url, "filter").as_deref() == Some("changing")).then_some(url))
    })
    .await?;
    let active = js(
        browser,
        "return document.querySelector('button.filter-button[data-filter=changing]')?.getAttribute('aria-pressed')",
        vec![],
    )
    .await?;
    check(active.as_str() == Some("true"), || {
        format!("the filter button `changing` is not pressed at {url}: {active:?}")
    })?;
    Ok(())
}

async fn threshold(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}/compare?{QUERY}", server.base_url()))
        .await?;
    wait_for_report(browser).await?;
    let before = panel_when(browser, "the panel", |_| true).await?;
    let input = browser.find(Locator::Css("input[name=pass]")).await?;
    input.send_keys("0.5").await?;
    click_button(browser, Some("section.pass-threshold"), "Apply").await?;
    let url = poll("pass=0.5 in the URL", SHORT_TIMEOUT, || async {
        let url = browser.current_url().await?;
        Ok((query_param(&url, "pass").as_deref() == Some("0.5")).then_some(url))
    })
    .await?;
    wait_for_report(browser).await?;
    let after = panel_when(browser, "pass@k with the threshold", |p| p.pass_k_text).await?;
    check(!before.pass_k_text && after.pass_k_text, || {
        format!("pass@k before {before:?}, after {after:?} at {url}")
    })?;
    let state = js(
        browser,
        "return document.querySelector('.pass-threshold-state')?.textContent",
        vec![],
    )
    .await?;
    check(
        state
            .as_str()
            .is_some_and(|s| s.contains("at least 0.5 passes")),
        || format!("the threshold's state reads {state:?}"),
    )
}

#[tokio::test]
async fn each_checkpoint_is_judged_against_the_previous_one_and_paths_filter_the_table(
) -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = steps(&browser, &server).await;
    finish(browser, outcome).await
}

#[tokio::test]
async fn a_pass_threshold_in_the_link_makes_pass_at_k_appear() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = threshold(&browser, &server).await;
    finish(browser, outcome).await
}
