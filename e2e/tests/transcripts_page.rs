//! Transcripts in real headless Chromium over the demo API:
//!
//! 1. a regressing task opens its two attempts side by side (the default pair: a baseline sample
//!    that passed beside a candidate sample that failed), with the first divergence marked, and
//!    the link says so (`attempts=`);
//! 2. that share link, opened in a fresh browser profile, shows the same side-by-side view;
//! 3. a transcript whose tool output holds HTML, script tags and control characters renders them
//!    as inert text.

use eval_compare_e2e::page::{
    check, click_button, copy_link_in, finish, js, poll, query_param, wait_for_report, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];
/// A task on which step 400 regressed: every baseline sample passed, none of step 400's did.
const REPORT: &str = "/compare?base=eval_base_v2&cand=eval_ckpt_s400&task=cf-0282";
/// The default pair the panel shows first on that task.
const PAIR: [&str; 2] = ["trj_basev2_cf-0282_0", "trj_s400_cf-0282_1"];

/// What the side-by-side view shows: its two heads' trajectory ids, the divergence note and
/// whether a row is marked as the divergence.
const SIDE_BY_SIDE_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
const heads = Array.from(document.querySelectorAll('.sbs-head')).map((h) => h.dataset.trajectoryId);
const note = text(document.querySelector('.sbs-divergence-note'));
const marked = !!document.querySelector('.sbs-row-mark');
const rows = document.querySelectorAll('.sbs-rows .sbs-cell').length;
return heads.length === 2 && note && rows > 0 ? { heads, note, marked } : null;
"#;

async fn side_by_side(browser: &Client) -> Result<Value, BoxError> {
    poll("the side-by-side view", PAGE_TIMEOUT, || async {
        let value = js(browser, SIDE_BY_SIDE_JS, vec![]).await?;
        Ok((!value.is_null()).then_some(value))
    })
    .await
}

fn check_pair(view: &Value, what: &str) -> Result<(), BoxError> {
    check(view["heads"] == serde_json::json!(PAIR), || {
        format!("{what}: the view compares {}", view["heads"])
    })?;
    let note = view["note"].as_str().unwrap_or_default();
    check(
        note.starts_with("First divergence") && view["marked"] == true,
        || {
            format!(
                "{what}: the divergence reads {note:?}, marked {}",
                view["marked"]
            )
        },
    )
}

async fn regression_side_by_side(
    browser: &Client,
    server: &Server,
    driver: &ChromeDriver,
) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}{REPORT}", server.base_url()))
        .await?;
    wait_for_report(browser).await?;
    click_button(
        browser,
        Some(".task-comparison"),
        "Read both attempts side by side",
    )
    .await?;
    let view = side_by_side(browser).await?;
    check_pair(&view, "the opened view")?;
    let url = browser.current_url().await?;
    check(
        query_param(&url, "attempts").as_deref() == Some(&PAIR.join(",")),
        || format!("the link does not name the pair: {url}"),
    )?;

    // The panel covers the page's Copy link: it has its own.
    let link = copy_link_in(browser, ".task-panel-header").await?;
    let fresh = driver.open_browser().await?;
    let reopened = async {
        fresh.goto(&link).await?;
        let view = side_by_side(&fresh).await?;
        check_pair(&view, "the share link in a fresh profile")
    }
    .await;
    finish(fresh, reopened).await
}

#[tokio::test]
async fn a_regression_opens_side_by_side_and_its_link_reproduces_it() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = regression_side_by_side(&browser, &server, &driver).await;
    finish(browser, outcome).await
}

/// A trajectory whose verbose test run printed captured HTML (a script tag, an image from a
/// remote server, an inline handler) and terminal control codes.
const HOSTILE: (&str, &str) = ("cf-0399", "trj_s400_cf-0399_1");

async fn hostile_transcript(browser: &Client, server: &Server) -> Result<(), BoxError> {
    let (task, trajectory) = HOSTILE;
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s400&task={task}&attempts={trajectory}",
            server.base_url()
        ))
        .await?;
    let probe = format!(
        r#"
        const t = document.querySelector('.transcript[data-trajectory-id="{trajectory}"]');
        if (!t || !t.querySelector('.turn-text')) return null;
        const cut = t.querySelectorAll('button.turn-show-all');
        if (cut.length > 0) {{ for (const b of cut) b.click(); return null; }}
        return {{
          elements: t.querySelectorAll('script, img, iframe, [onclick], [onerror]').length,
          text: t.textContent,
        }};
        "#
    );
    let seen = poll("the hostile transcript", PAGE_TIMEOUT, || async {
        let value = js(browser, &probe, vec![]).await?;
        Ok((!value.is_null()).then_some(value))
    })
    .await?;
    check(seen["elements"] == 0, || {
        format!(
            "the transcript made {} elements from its text",
            seen["elements"]
        )
    })?;
    let text = seen["text"].as_str().unwrap_or_default();
    check(text.contains("<script"), || {
        "the transcript's captured HTML is not shown as text".to_owned()
    })
}

#[tokio::test]
async fn a_transcript_with_html_and_control_codes_renders_as_text() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = hostile_transcript(&browser, &server).await;
    finish(browser, outcome).await
}
