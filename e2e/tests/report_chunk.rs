//! The report's code is a wasm chunk of its own (`scripts/build-viewer.sh`): the run picker
//! starts without it and fetches it when Compare gets the focus, and when it cannot be fetched a
//! report page says so and Retry loads it once it is back.

use std::path::{Path, PathBuf};

use eval_compare_e2e::page::{
    check, click_button, error_panel_title, finish, js, js_strings, wait_for_picker,
    wait_for_report, wait_js, PAGE_TIMEOUT,
};
use eval_compare_e2e::{server_bin, viewer_dist, BoxError, ChromeDriver, Server, TempDir};
use fantoccini::Client;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

/// The chunk's file name, as `scripts/build-viewer.sh` writes it.
const CHUNK: &str = "split_report_pages.wasm";

/// A report link of the demo data.
const REPORT: &str = "/compare?base=eval_base_v2&cand=eval_ckpt_s400";

/// The names of the `.wasm` files the page has fetched.
async fn fetched_wasm(browser: &Client) -> Result<Vec<String>, BoxError> {
    js_strings(
        browser,
        "return performance.getEntriesByType('resource').map((r) => r.name.split('/').pop()).filter((n) => n.endsWith('.wasm'));",
    )
    .await
}

async fn picker_then_report(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser.goto(&format!("{}/", server.base_url())).await?;
    wait_for_picker(browser).await?;
    let wasm = fetched_wasm(browser).await?;
    check(wasm == ["eval-compare-viewer_bg.wasm"], || {
        format!("the picker fetched {wasm:?}, not only the app's module")
    })?;
    // The focus on Compare (like the pointer on it) fetches the chunk ahead of the click.
    js(
        browser,
        "document.querySelector('.compare-bar button').focus();",
        vec![],
    )
    .await?;
    wait_js(
        browser,
        "the chunk fetched once Compare has the focus",
        PAGE_TIMEOUT,
        "return performance.getEntriesByType('resource').some((r) => r.name.endsWith('/' + arguments[0]));",
        vec![CHUNK.into()],
    )
    .await?;
    click_button(browser, Some(".compare-bar"), "Compare").await?;
    wait_for_report(browser).await
}

#[tokio::test]
async fn the_picker_starts_without_the_report_chunk_and_prefetches_it() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = picker_then_report(&browser, &server).await;
    finish(browser, outcome).await
}

/// Copies the folder `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) -> Result<(), BoxError> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let path = entry?.path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_tree(&path, &target)?;
        } else {
            std::fs::copy(&path, &target)?;
        }
    }
    Ok(())
}

/// The chunk's files in a copy of the build: the chunk and its gzipped copy, if any.
fn chunk_files(dist: &Path) -> Result<Vec<PathBuf>, BoxError> {
    for entry in std::fs::read_dir(dist)? {
        let chunk = entry?.path().join(CHUNK);
        if chunk.is_file() {
            let gzipped = chunk.with_extension("wasm.gz");
            return Ok(std::iter::once(chunk)
                .chain(gzipped.is_file().then_some(gzipped))
                .collect());
        }
    }
    Err(format!("no {CHUNK} in a folder of {}", dist.display()).into())
}

/// Moves each file to the folder `to` (`back`: from there to where it was).
fn move_files(files: &[PathBuf], to: &Path, back: bool) -> Result<(), BoxError> {
    for file in files {
        let saved = to.join(file.file_name().unwrap_or_default());
        let (from, into) = if back { (&saved, file) } else { (file, &saved) };
        std::fs::rename(from, into)?;
    }
    Ok(())
}

async fn missing_chunk_then_retry(
    browser: &Client,
    server: &Server,
    chunk: &[PathBuf],
    saved: &Path,
) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}{REPORT}", server.base_url()))
        .await?;
    let title = error_panel_title(browser, PAGE_TIMEOUT).await?;
    check(title == "The report's code could not be loaded", || {
        format!("without its chunk, the report page says {title:?}")
    })?;
    move_files(chunk, saved, true)?;
    click_button(browser, Some(".error-panel"), "Retry").await?;
    wait_for_report(browser).await
}

#[tokio::test]
async fn a_chunk_that_fails_to_load_is_reported_and_retried() -> Result<(), BoxError> {
    let dist = TempDir::new("dist-without-chunk")?;
    copy_tree(&viewer_dist()?, dist.path())?;
    let chunk = chunk_files(dist.path())?;
    let saved = TempDir::new("saved-chunk")?;
    move_files(&chunk, saved.path(), false)?;
    let server = Server::start_demo_from(&server_bin()?, dist.path(), DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = missing_chunk_then_retry(&browser, &server, &chunk, saved.path()).await;
    finish(browser, outcome).await
}
