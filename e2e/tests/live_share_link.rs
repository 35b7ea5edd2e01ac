//! The share link of a running comparison, in real headless Chromium over the demo API with
//! eval_ckpt_s500 still running:
//!
//! 1. "Copy link" records when the link was taken and the headline then (`taken`, `seen`,
//!    `then`); a finished comparison's link records none;
//! 2. opened later, the link says how far the numbers moved since it was taken;
//! 3. "Show the numbers as of this link" puts `asof=1` in the address and says so.

use std::time::Duration;

use eval_compare_e2e::page::{
    check, click_button, copy_link, finish, js, poll, query_param, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;

/// The running evaluation finishes this long after the server started.
const DEMO: &[&str] = &["--running-eval-secs", "120"];

const NOTICE_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const notice = document.querySelector('.link-snapshot');
if (!notice) return null;
return {
  sentence: text(notice.querySelector('.link-snapshot-sentence')),
  shown: text(notice.querySelector('.link-snapshot-shown')),
  meaning: text(notice.querySelector('.link-as-of-meaning')),
};
"#;

async fn live_link(browser: &Client, server: &Server) -> Result<(), BoxError> {
    // A finished comparison's link records no snapshot.
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s400",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let finished = url::Url::parse(&copy_link(browser).await?)?;
    check(query_param(&finished, "taken").is_none(), || {
        format!("a finished comparison's link records a time: {finished}")
    })?;

    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s500",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let copied = url::Url::parse(&copy_link(browser).await?)?;
    let taken = query_param(&copied, "taken").unwrap_or_default();
    let then = query_param(&copied, "then").unwrap_or_default();
    check(
        taken.parse::<i64>().is_ok_and(|t| t > 1_700_000_000)
            && query_param(&copied, "seen").is_some_and(|s| s.parse::<i64>().is_ok())
            && then.contains('~'),
        || format!("the running comparison's link records no snapshot: {copied}"),
    )?;

    // Later, while the run goes on, the link tells how far the numbers moved.
    tokio::time::sleep(Duration::from_secs(15)).await;
    browser.goto(copied.as_str()).await?;
    wait_for_report(browser).await?;
    let moved = poll("the link's movement notice", PAGE_TIMEOUT, || async {
        let notice = js(browser, NOTICE_JS, vec![]).await?;
        let sentence = notice["sentence"].as_str().unwrap_or_default().to_owned();
        Ok(sentence
            .starts_with("Numbers have moved since this link was taken at ")
            .then_some(notice))
    })
    .await?;
    let sentence = moved["sentence"].as_str().unwrap_or_default();
    check(
        sentence.contains("Δ ") && sentence.contains(" → ") && sentence.contains("tasks"),
        || format!("the movement does not say by how much: {moved}"),
    )?;
    check(moved["shown"] == "Shown now.", || {
        format!("the notice does not say the numbers are now: {moved}")
    })?;

    click_button(
        browser,
        Some(".link-snapshot"),
        "Show the numbers as of this link",
    )
    .await?;
    let as_of = poll("the numbers as of the link", PAGE_TIMEOUT, || async {
        let notice = js(browser, NOTICE_JS, vec![]).await?;
        Ok((notice["shown"] == "Shown as of this link.").then_some(notice))
    })
    .await?;
    let url = browser.current_url().await?;
    check(query_param(&url, "asof").as_deref() == Some("1"), || {
        format!("the address does not keep as of: {url}")
    })?;
    check(
        as_of["meaning"]
            .as_str()
            .is_some_and(|m| m.contains("cannot be reconstructed")),
        || format!("as of does not say what it cannot reconstruct: {as_of}"),
    )
}

#[tokio::test]
async fn a_running_comparisons_link_records_when_it_was_taken_and_shows_the_movement(
) -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = live_link(&browser, &server).await;
    finish(browser, outcome).await
}
