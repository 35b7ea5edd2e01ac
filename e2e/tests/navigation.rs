//! Moving between the viewer's pages in real headless Chromium: links and Compare navigate in
//! place (no page load), Back and Forward follow the history, the header marks the current page,
//! and an unknown path says so.

use eval_compare_e2e::page::{
    check, click_button, finish, js, js_strings, wait_for_picker, wait_for_report, wait_js,
    PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server};
use fantoccini::{Client, Locator};

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

/// Waits until the page's path is `path`.
async fn wait_for_path(browser: &Client, path: &str) -> Result<(), BoxError> {
    wait_js(
        browser,
        &format!("the path {path}"),
        PAGE_TIMEOUT,
        "return location.pathname === arguments[0];",
        vec![path.into()],
    )
    .await
    .map(|_| ())
}

/// The header links marked as the current page.
async fn current_links(browser: &Client) -> Result<Vec<String>, BoxError> {
    js_strings(
        browser,
        "return Array.from(document.querySelectorAll('.app-nav a[aria-current=\"page\"]')).map((a) => a.textContent.trim());",
    )
    .await
}

/// Fails when the document was loaded again since the marker was set.
async fn check_same_document(browser: &Client, what: &str) -> Result<(), BoxError> {
    let same = js(browser, "return window.__e2eSameDocument === true;", vec![]).await?;
    check(same == true, || format!("{what} loaded the page again"))
}

async fn walk_the_pages(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.goto(&format!("{}/", server.base_url())).await?;
    wait_for_picker(browser).await?;
    check(current_links(browser).await? == ["Runs"], || {
        "on the picker, the header marks Runs".to_owned()
    })?;
    js(browser, "window.__e2eSameDocument = true;", vec![]).await?;

    click_button(browser, Some(".compare-bar"), "Compare").await?;
    wait_for_path(browser, "/compare").await?;
    wait_for_report(browser).await?;
    check_same_document(browser, "Compare").await?;
    let report_url = browser.current_url().await?;
    check(current_links(browser).await?.is_empty(), || {
        "on a report, no header link is the current page".to_owned()
    })?;

    browser.back().await?;
    wait_for_path(browser, "/").await?;
    wait_for_picker(browser).await?;
    check_same_document(browser, "Back").await?;
    check(current_links(browser).await? == ["Runs"], || {
        "after Back, the header marks Runs".to_owned()
    })?;

    browser.forward().await?;
    wait_for_path(browser, "/compare").await?;
    wait_for_report(browser).await?;
    check_same_document(browser, "Forward").await?;
    let forward_url = browser.current_url().await?;
    check(forward_url == report_url, || {
        format!("Forward returned to {forward_url}, not {report_url}")
    })?;

    browser
        .find(Locator::Css(".app-nav a[href='/files']"))
        .await?
        .click()
        .await?;
    wait_for_path(browser, "/files").await?;
    check_same_document(browser, "the Files link").await?;
    check(current_links(browser).await? == ["Files"], || {
        "on the files page, the header marks Files".to_owned()
    })?;

    browser
        .goto(&format!("{}/no/such/page", server.base_url()))
        .await?;
    wait_js(
        browser,
        "the page-not-found message",
        PAGE_TIMEOUT,
        "return document.body.textContent.includes('Page not found');",
        vec![],
    )
    .await?;
    Ok(())
}

#[tokio::test]
async fn links_back_and_forward_navigate_in_place() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = walk_the_pages(&browser, &server).await;
    finish(browser, outcome).await
}
