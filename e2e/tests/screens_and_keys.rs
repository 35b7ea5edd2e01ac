//! Screens and keys, in real headless Chromium over the demo API:
//!
//! 1. the tab's title names the page, and a report's names its comparison; the page links to
//!    its icon; the Compare bar says "Baseline" once; the settings' placeholders fit their
//!    fields;
//! 2. in the side-by-side view n/p/N/P change the samples again and again: the focus stays in
//!    the view (j then still moves between rows);
//! 3. with five candidates on a 1920-pixel window the task table uses the width there is: no
//!    sideways scrolling, and a task column wider than before (16rem);
//! 4. the picker keeps the chosen checkpoints when the benchmark version changes, so a
//!    baseline of another version can be chosen, and the report's audit says why the scores
//!    are not comparable.

use eval_compare_e2e::page::{
    check, finish, js, poll, wait_for_picker, wait_for_report, PAGE_TIMEOUT, SHORT_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::Client;
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

/// The tab's title once it is `wanted` (`None`: once it names a comparison).
async fn title_when(browser: &Client, wanted: Option<&str>) -> Result<String, BoxError> {
    let last = std::cell::RefCell::new(String::new());
    let seen = poll("the tab's title", SHORT_TIMEOUT, || async {
        let title = js(browser, "return document.title;", vec![]).await?;
        let title = title.as_str().unwrap_or_default().to_owned();
        let done = match wanted {
            Some(wanted) => title == wanted,
            None => title.contains(" against "),
        };
        *last.borrow_mut() = title.clone();
        Ok(done.then_some(title))
    })
    .await;
    seen.map_err(|error| format!("{error}; the title reads {:?}", last.borrow()).into())
}

/// Every placeholder of the settings form whose text is wider than its field's text box.
const CUT_PLACEHOLDERS_JS: &str = r#"
const canvas = document.createElement('canvas').getContext('2d');
return Array.from(document.querySelectorAll('.settings-form input[placeholder]')).filter((input) => {
  const style = getComputedStyle(input);
  canvas.font = style.font;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - (input.type === 'number' ? 16 : 0);
  return canvas.measureText(input.placeholder).width > room;
}).map((input) => input.placeholder);
"#;

async fn titles_and_small_things(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.goto(server.base_url()).await?;
    wait_for_picker(browser).await?;
    title_when(browser, Some("Choose runs · Eval Compare")).await?;
    let page = js(
        browser,
        r#"
        const icon = document.querySelector('link[rel="icon"]');
        const bar = document.querySelector('.compare-summary');
        return {
          icon: icon ? icon.getAttribute('href') : null,
          bar: bar ? bar.textContent.replace(/\s+/g, ' ').trim() : null,
        };
        "#,
        vec![],
    )
    .await?;
    check(page["icon"] == "/favicon.svg", || {
        format!("the page's icon link: {}", page["icon"])
    })?;
    let bar = page["bar"].as_str().unwrap_or_default();
    check(
        bar.starts_with("Baseline qwen3-235b") && !bar.contains("Baseline Baseline"),
        || format!("the Compare bar reads {bar:?}"),
    )?;

    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s300,eval_ckpt_s400",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let title = title_when(browser, None).await?;
    let heading = js(
        browser,
        "return document.querySelector('.report-header .page-heading').textContent.trim();",
        vec![],
    )
    .await?;
    check(
        heading
            .as_str()
            .is_some_and(|heading| title == format!("{heading} · Eval Compare")),
        || format!("the report's title {title:?} does not name its heading {heading}"),
    )?;
    let cut = js(browser, CUT_PLACEHOLDERS_JS, vec![]).await?;
    check(cut.as_array().is_some_and(Vec::is_empty), || {
        format!("placeholders cut by their fields: {cut}")
    })?;
    // Back on the picker, the title is the picker's again.
    browser.back().await?;
    title_when(browser, Some("Choose runs · Eval Compare"))
        .await
        .map(|_| ())
}

#[tokio::test]
async fn titles_name_the_page_and_the_small_things_read_right() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = titles_and_small_things(&browser, &server).await;
    finish(browser, outcome).await
}

/// The side-by-side view: its two heads' trajectory ids (once both transcripts are read),
/// whether the focus is on its rows, and the current row.
const VIEW_JS: &str = r#"
const heads = Array.from(document.querySelectorAll('.sbs-head')).map((h) => h.dataset.trajectoryId);
const rows = document.querySelector('.sbs-rows');
if (heads.length !== 2 || !rows || !rows.querySelector('.sbs-cell')) return null;
const active = document.activeElement;
return {
  heads,
  focus_on_rows: active === rows,
  focus: active ? active.tagName + '.' + active.className : null,
  current: rows.querySelector('.sbs-current') ? rows.querySelector('.sbs-current').dataset.row : null,
};
"#;

/// Presses `key` where the focus is, and waits for the view to show another pair, whose
/// baseline (`side` 0) or candidate (`side` 1) changed.
async fn press_for_pair(
    browser: &Client,
    key: &str,
    before: &Value,
    side: usize,
) -> Result<Value, BoxError> {
    browser.active_element().await?.send_keys(key).await?;
    let after = poll(&format!("the pair after {key}"), SHORT_TIMEOUT, || async {
        let now = js(browser, VIEW_JS, vec![]).await?;
        Ok((!now.is_null() && now["heads"] != before["heads"]).then_some(now))
    })
    .await
    .map_err(|error| {
        format!("{error}: after {key} the view still shows {before}, the focus on the page body?")
    })?;
    check(
        after["heads"][side] != before["heads"][side]
            && after["heads"][1 - side] == before["heads"][1 - side],
        || format!("{key} changed {} to {}", before["heads"], after["heads"]),
    )?;
    // The new rows take the focus once read.
    poll(
        &format!("the focus on the rows after {key}"),
        SHORT_TIMEOUT,
        || async {
            let now = js(browser, VIEW_JS, vec![]).await?;
            Ok((now["focus_on_rows"] == true).then_some(now))
        },
    )
    .await
}

async fn sample_keys(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s400&task=cf-0282\
             &attempts=trj_basev2_cf-0282_0,trj_s400_cf-0282_1",
            server.base_url()
        ))
        .await?;
    let mut view = poll("the side-by-side view", PAGE_TIMEOUT, || async {
        let now = js(browser, VIEW_JS, vec![]).await?;
        Ok((!now.is_null()).then_some(now))
    })
    .await?;
    js(
        browser,
        "document.querySelector('.sbs-rows').focus();",
        vec![],
    )
    .await?;
    for (key, side) in [("n", 1), ("n", 1), ("p", 1), ("N", 0), ("P", 0)] {
        view = press_for_pair(browser, key, &view, side).await?;
    }
    browser.active_element().await?.send_keys("j").await?;
    let moved = poll("j after the sample keys", SHORT_TIMEOUT, || async {
        let now = js(browser, VIEW_JS, vec![]).await?;
        Ok((!now.is_null() && !now["current"].is_null()).then_some(now))
    })
    .await?;
    check(moved["focus_on_rows"] == true, || {
        format!("after j the focus is on {}", moved["focus"])
    })
}

#[tokio::test]
async fn sample_keys_keep_the_focus_in_the_side_by_side_view() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = sample_keys(&browser, &server).await;
    finish(browser, outcome).await
}

/// The task table's widths: its section, the scroll area's content and box, the task column.
const TABLE_JS: &str = r#"
const section = document.querySelector('.task-table');
const scroll = document.querySelector('.task-scroll');
const task = document.querySelector('.tasks th.col-head-task');
if (!section || !scroll || !task) return null;
return {
  section: section.getBoundingClientRect().width,
  left: section.getBoundingClientRect().left,
  content: scroll.scrollWidth,
  box: scroll.clientWidth,
  task: task.getBoundingClientRect().width,
  window: document.documentElement.clientWidth,
  page: document.documentElement.scrollWidth,
};
"#;

async fn wide_table(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.set_window_size(1920, 1000).await?;
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s100,eval_ckpt_s200,eval_ckpt_s300,\
             eval_ckpt_s400,eval_ckpt_s500",
            server.base_url()
        ))
        .await?;
    wait_for_report(browser).await?;
    let table = poll("the task table", PAGE_TIMEOUT, || async {
        let now = js(browser, TABLE_JS, vec![]).await?;
        Ok((!now.is_null()).then_some(now))
    })
    .await?;
    let number = |name: &str| table[name].as_f64().unwrap_or(f64::NAN);
    check(number("content") <= number("box") + 1.0, || {
        format!("the five candidates' table scrolls sideways on a 1920-pixel window: {table}")
    })?;
    // Five run columns, the focused candidate's turns and ending, and Δ share the width.
    check(number("task") >= 360.0, || {
        format!("the task column is narrow: {table}")
    })?;
    check(
        number("left") >= 0.0 && number("page") <= number("window"),
        || format!("the table leaves the window: {table}"),
    )
}

#[tokio::test]
async fn five_candidates_use_the_width_of_a_wide_window() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = wide_table(&browser, &server).await;
    finish(browser, outcome).await
}

/// Clicks the first element matching `css` whose text contains `text` (`""`: any).
async fn click_where(browser: &Client, css: &str, text: &str) -> Result<(), BoxError> {
    let script = r#"
    const found = Array.from(document.querySelectorAll(arguments[0]))
      .find((e) => e.closest('label, tr, div').textContent.includes(arguments[1]));
    if (!found) return false;
    found.click();
    return true;
    "#;
    poll(&format!("{css} ({text})"), SHORT_TIMEOUT, || async {
        let clicked = js(browser, script, vec![css.into(), text.into()]).await?;
        Ok((clicked == true).then_some(()))
    })
    .await
}

async fn cross_version(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/?bench=bench_codefix_v2&base=eval_base_v2&cand=eval_ckpt_s300,eval_ckpt_s400",
            server.base_url()
        ))
        .await?;
    wait_for_picker(browser).await?;
    click_where(browser, ".version-choice input", "bench_codefix_v1").await?;
    click_where(
        browser,
        "section.benchmark[data-bench-id=\"bench_codefix_v1\"] tr[data-run-id=\"eval_base_v1\"] input[type=radio]",
        "",
    )
    .await?;
    let bar = poll(
        "the Compare bar of the mixed choice",
        SHORT_TIMEOUT,
        || async {
            let text = js(
                browser,
                "const b = document.querySelector('.compare-summary'); \
             return b ? b.textContent.replace(/\\s+/g, ' ').trim() : '';",
                vec![],
            )
            .await?;
            let text = text.as_str().unwrap_or_default().to_owned();
            Ok(text.contains("codefix v1").then_some(text))
        },
    )
    .await?;
    check(
        bar.contains(" (bench_codefix_v2)") && bar.contains("different benchmark versions"),
        || format!("the Compare bar reads {bar:?}"),
    )?;
    click_where(browser, ".compare-bar button", "").await?;
    let audit = poll("the report's audit", PAGE_TIMEOUT, || async {
        let text = js(
            browser,
            "const a = document.querySelector('section.audit'); \
             return a ? a.textContent.replace(/\\s+/g, ' ') : '';",
            vec![],
        )
        .await?;
        let text = text.as_str().unwrap_or_default().to_owned();
        Ok(text.contains("Benchmark version differs").then_some(text))
    })
    .await?;
    let url = browser.current_url().await?;
    let query: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    let has = |name: &str, value: &str| query.iter().any(|(k, v)| k == name && v == value);
    check(
        url.path() == "/compare"
            && has("base", "eval_base_v1")
            && has("cand", "eval_ckpt_s300,eval_ckpt_s400"),
        || format!("Compare opened {url}"),
    )?;
    check(audit.contains("not comparable"), || {
        format!("the audit does not say why: {audit}")
    })
}

#[tokio::test]
async fn a_baseline_of_another_version_can_be_chosen() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = cross_version(&browser, &server).await;
    finish(browser, outcome).await
}
