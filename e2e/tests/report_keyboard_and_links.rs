//! The report page from the keyboard, and a link to a run that is not there, in real headless
//! Chromium over the demo API:
//!
//! 1. Escape closes the task panel and puts the focus back on the row it was opened from;
//! 2. the skip link moves the focus to the task table;
//! 3. a link naming a run that does not exist says so once, naming the run, with no Retry;
//! 4. the "?" beside a statistic opens its explanation, and Escape closes it.

use eval_compare_e2e::page::{check, finish, js, poll, wait_for_report, PAGE_TIMEOUT};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

/// Where the focus is: the focused element's tag, its task id and whether it is a row of the
/// task table's body.
const FOCUS_JS: &str = r#"
const a = document.activeElement;
return {
  tag: a ? a.tagName : null,
  task: a ? a.getAttribute('data-task-id') : null,
  in_table: !!(a && a.closest('.task-table tbody')),
  panel_open: !!document.querySelector('.task-panel'),
};
"#;

async fn focus(browser: &Client) -> Result<Value, BoxError> {
    js(browser, FOCUS_JS, vec![]).await
}

async fn keyboard(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s400&task=cf-0282",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    poll("the task panel", PAGE_TIMEOUT, || async {
        Ok((focus(browser).await?["panel_open"] == true).then_some(()))
    })
    .await?;
    js(
        browser,
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));",
        vec![],
    )
    .await?;
    let after = poll("the focus back on the row", PAGE_TIMEOUT, || async {
        let now = focus(browser).await?;
        Ok((now["panel_open"] == false && now["tag"] == "TR").then_some(now))
    })
    .await?;
    check(after["task"] == "cf-0282", || {
        format!("after Escape the focus is on {after}")
    })?;

    js(
        browser,
        "document.activeElement.blur(); document.querySelector('.skip-link').click();",
        vec![],
    )
    .await?;
    let skipped = poll("the focus in the table", PAGE_TIMEOUT, || async {
        let now = focus(browser).await?;
        Ok((now["in_table"] == true).then_some(now))
    })
    .await?;
    check(skipped["tag"] == "TR", || {
        format!("the skip link focused {skipped}")
    })
}

#[tokio::test]
async fn escape_returns_to_the_row_and_the_skip_link_reaches_the_table() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = keyboard(&browser, &server).await;
    finish(browser, outcome).await
}

const MISSING_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const panel = document.querySelector('.load-panel');
if (!panel) return null;
return {
  title: text(panel.querySelector('.panel-title')),
  missing: Array.from(document.querySelectorAll('.load-missing')).map(text),
  failures: document.querySelectorAll('.load-failure').length,
  buttons: Array.from(panel.querySelectorAll('button')).map(text),
};
"#;

async fn missing_run(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_nope",
            server.base_url()
        ))
        .await?;
    let seen = poll("the missing run's notice", PAGE_TIMEOUT, || async {
        let value = js(browser, MISSING_JS, vec![]).await?;
        Ok((!value.is_null() && value["title"] != "Loading the runs…").then_some(value))
    })
    .await?;
    check(
        seen["title"] == "This link names a run that does not exist",
        || format!("the panel reads {seen}"),
    )?;
    let missing = seen["missing"].as_array().cloned().unwrap_or_default();
    check(
        missing.len() == 1
            && seen["failures"] == 1
            && missing[0]
                .as_str()
                .is_some_and(|text| text.starts_with("No run `eval_nope` at ")),
        || format!("the missing run is not said once: {seen}"),
    )?;
    check(
        seen["buttons"].as_array().is_some_and(Vec::is_empty),
        || {
            format!(
                "the panel offers {} for a run that does not exist",
                seen["buttons"]
            )
        },
    )
}

#[tokio::test]
async fn a_link_to_a_missing_run_says_so_once_without_retry() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = missing_run(&browser, &server).await;
    finish(browser, outcome).await
}

const EXPLAIN_JS: &str = r#"
const card = document.querySelector('article.headline-card');
const button = card && card.querySelector('.headline-head .explain');
if (!button) return null;
const pop = document.getElementById(button.getAttribute('popovertarget'));
return {
  topic: button.getAttribute('data-topic'),
  label: button.getAttribute('aria-label'),
  open: !!pop && pop.matches(':popover-open'),
  text: pop ? pop.innerText.replace(/\s+/g, ' ').trim() : null,
};
"#;

async fn explanation(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s400",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let closed = js(browser, EXPLAIN_JS, vec![]).await?;
    check(
        closed["topic"] == "verdict" && closed["open"] == false,
        || format!("the verdict's explanation before a click: {closed}"),
    )?;
    browser
        .find(fantoccini::Locator::Css(
            "article.headline-card .headline-head .explain",
        ))
        .await?
        .click()
        .await?;
    let open = poll("the verdict's explanation", PAGE_TIMEOUT, || async {
        let now = js(browser, EXPLAIN_JS, vec![]).await?;
        Ok((now["open"] == true).then_some(now))
    })
    .await?;
    let text = open["text"].as_str().unwrap_or_default();
    check(
        text.starts_with("What is the verdict? One decision per candidate")
            && text.contains("α = 0.05")
            && text.contains("2.0 points"),
        || format!("the verdict's explanation reads {open}"),
    )?;
    browser
        .active_element()
        .await?
        .send_keys(&fantoccini::key::Key::Escape.to_string())
        .await?;
    poll("the explanation closed by Escape", PAGE_TIMEOUT, || async {
        let now = js(browser, EXPLAIN_JS, vec![]).await?;
        Ok((now["open"] == false).then_some(()))
    })
    .await
}

#[tokio::test]
async fn a_statistic_explains_itself_and_escape_closes_it() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = explanation(&browser, &server).await;
    finish(browser, outcome).await
}
