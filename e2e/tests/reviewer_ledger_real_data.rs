//! The reviewer's ledger walked through on real data, in headless Chromium: SWE-bench Pro's
//! GPT-5 250-turn run against Claude Sonnet 4.5 (shared/real-data), opened on the Files page.
//! The reviewer opens "Find candidates…", previews the group of tasks whose attempt in one run
//! ended in an execution error and sets it aside as an infrastructure error, then the group
//! that ended without a submission (the preview says each candidate's verdict and Δ with the
//! group set aside, and the page then shows exactly that). The ledger holds the 114 tasks
//! per_instance.csv names (read here independently); the cards show both verdicts; the
//! downloaded ledger given to `eval-compare report --exclusions` prints the page's report JSON
//! byte for byte; and the copied link, opened in a fresh browser over the same folders, shows
//! the same ledger and verdicts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use eval_compare_core::ledger::{Ledger, Reason, Target};
use eval_compare_e2e::cli::cli_bin;
use eval_compare_e2e::page::{
    check, click_button, copy_link, download, finish, js, poll, wait_for_report, wait_js,
    PAGE_TIMEOUT,
};
use eval_compare_e2e::{workspace_root, BoxError, ChromeDriver, Server, TempDir};
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

const CLAUDE: &str = "claude-45sonnet-10132025";
const GPT5: &str = "gpt-5-250-turns-10132025";

fn real_data() -> PathBuf {
    workspace_root().join("../shared/real-data/swe-bench-pro")
}

/// The tasks per_instance.csv says either run ended in ERROR or MISSING_SUBMIT.
fn csv_set_aside() -> Result<BTreeSet<String>, BoxError> {
    let text = std::fs::read_to_string(real_data().join("per_instance.csv"))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("empty csv")?.trim().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).ok_or("no column");
    let (system, task, reason) = (
        column("system")?,
        column("task_id")?,
        column("termination_reason")?,
    );
    Ok(lines
        .map(|line| line.trim().split(',').collect::<Vec<_>>())
        .filter(|f| [CLAUDE, GPT5].contains(&f[system]))
        .filter(|f| ["ERROR", "MISSING_SUBMIT"].contains(&f[reason]))
        .map(|f| f[task].to_owned())
        .collect())
}

/// The two run folders, copied into `dir` (the Files page opens a folder of run folders).
fn copy_runs(dir: &Path) -> Result<(), BoxError> {
    for run in [CLAUDE, GPT5] {
        let to = dir.join(run);
        std::fs::create_dir_all(&to)?;
        for entry in std::fs::read_dir(real_data().join(run))? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                std::fs::copy(entry.path(), to.join(entry.file_name()))?;
            }
        }
    }
    Ok(())
}

/// Opens `folders` on the Files page, then goes to `path_and_query` (a comparison of them).
async fn open_comparison(
    browser: &Client,
    server: &Server,
    folders: &Path,
    path_and_query: &str,
) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}/files", server.base_url()))
        .await?;
    wait_js(
        browser,
        "the folder picker",
        PAGE_TIMEOUT,
        "return !!document.querySelector('.drop-zone input[type=file]');",
        vec![],
    )
    .await?;
    browser
        .find(Locator::Css(".drop-zone input[type=file]"))
        .await?
        .send_keys(&folders.display().to_string())
        .await?;
    wait_js(
        browser,
        "the opened runs",
        PAGE_TIMEOUT,
        "return document.querySelectorAll('tr[data-run-id]').length >= 2 || null;",
        vec![],
    )
    .await?;
    js(
        browser,
        "history.pushState(null, '', arguments[0]); dispatchEvent(new PopStateEvent('popstate', { state: null })); return true;",
        vec![json!(path_and_query)],
    )
    .await?;
    wait_for_report(browser).await
}

/// The link's ledger, read the page's way.
async fn link_ledger(browser: &Client) -> Result<Ledger, BoxError> {
    let url = browser.current_url().await?;
    let text = url
        .query()
        .unwrap_or_default()
        .split('&')
        .find_map(|pair| pair.strip_prefix("ledger="))
        .unwrap_or_default()
        .to_owned();
    if text.is_empty() {
        return Ok(Ledger::default());
    }
    Ok(Ledger::from_link_text(&text)?)
}

const SEEN_JS: &str = r#"
const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
return {
  verdicts: Array.from(document.querySelectorAll('article.headline-card .ledger-verdicts')).map(text),
  rows: document.querySelectorAll('.ledger-panel table.ledger-table tbody tr').length,
  marks: document.querySelectorAll('.task-table .ledger-mark').length,
};
"#;

/// Previews the candidates of `kind` as infrastructure errors, checks the preview, sets them
/// aside and returns the preview's lines.
async fn take_group(browser: &Client, kind: &str) -> Result<Vec<String>, BoxError> {
    let group = format!(".ledger-panel .candidate-group[data-kind='{kind}']");
    let before = link_ledger(browser).await?.entries.len();
    wait_js(
        browser,
        "the candidate group",
        PAGE_TIMEOUT,
        "return !!document.querySelector(arguments[0]) || null;",
        vec![json!(group)],
    )
    .await?;
    js(
        browser,
        "const s = document.querySelector(arguments[0] + ' select'); s.value = 'infrastructure_error'; \
         s.dispatchEvent(new Event('change', { bubbles: true })); return true;",
        vec![json!(group)],
    )
    .await?;
    click_button(browser, Some(&group), "Preview").await?;
    let lines = wait_js(
        browser,
        "the preview",
        PAGE_TIMEOUT,
        "const items = document.querySelectorAll(arguments[0] + ' .candidate-preview li'); \
         return items.length ? Array.from(items).map((e) => e.textContent.replace(/\\s+/g, ' ').trim()) : null;",
        vec![json!(group)],
    )
    .await?;
    let lines: Vec<String> = serde_json::from_value(lines)?;
    check(
        lines.iter().any(|l| l.contains(" tasks set aside: ")),
        || format!("the preview of {kind} does not say the verdicts: {lines:?}"),
    )?;
    check(link_ledger(browser).await?.entries.len() == before, || {
        "the preview changed the ledger".to_owned()
    })?;
    click_button(browser, Some(&group), "Set these tasks aside").await?;
    poll("the group in the link", PAGE_TIMEOUT, || async {
        Ok((link_ledger(browser).await?.entries.len() > before).then_some(()))
    })
    .await?;
    wait_for_report(browser).await?;
    Ok(lines)
}

/// Clicks "Download ledger" and returns the file's text.
async fn download_ledger(browser: &Client, dir: &Path) -> Result<String, BoxError> {
    click_button(browser, Some(".ledger-panel"), "Download ledger").await?;
    let path = poll("the ledger download", PAGE_TIMEOUT, || async {
        let found = std::fs::read_dir(dir)?
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .find(|path| {
                path.file_name()
                    .is_some_and(|name| name == "eval-compare-ledger.json")
                    && std::fs::metadata(path).is_ok_and(|meta| meta.len() > 0)
            });
        Ok(found)
    })
    .await?;
    let text = std::fs::read_to_string(&path)?;
    std::fs::remove_file(&path)?;
    Ok(text)
}

/// `eval-compare report --format json -q --exclusions LEDGER CLAUDE GPT5` over `folders`.
fn cli_json(folders: &Path, ledger: &Path) -> Result<String, BoxError> {
    let output = Command::new(cli_bin()?)
        .args(["report", "--format", "json", "-q", "--exclusions"])
        .arg(ledger)
        .arg(folders.join(CLAUDE))
        .arg(folders.join(GPT5))
        .stdin(Stdio::null())
        .output()?;
    check(output.status.success(), || {
        format!(
            "the CLI failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    Ok(String::from_utf8(output.stdout)?)
}

async fn walk_through(
    browser: &Client,
    driver: &ChromeDriver,
    server: &Server,
    folders: &Path,
    downloads: &Path,
) -> Result<(), BoxError> {
    let path = format!("/files/compare?base=er_{CLAUDE}&cand=er_{GPT5}");
    open_comparison(browser, server, folders, &path).await?;
    click_button(browser, Some(".ledger-panel"), "Find candidates…").await?;
    take_group(browser, "execution_failures").await?;
    let preview = take_group(browser, "no_submission").await?;

    let ledger = link_ledger(browser).await?;
    let tasks: BTreeSet<String> = ledger
        .entries
        .iter()
        .filter(|e| matches!(e.target, Target::Task(_)) && e.reason == Reason::InfrastructureError)
        .map(|e| e.target.id().to_owned())
        .collect();
    let expected = csv_set_aside()?;
    check(tasks == expected && ledger.entries.len() == 114, || {
        format!(
            "the ledger has {} entries on {} tasks; per_instance.csv names {}",
            ledger.entries.len(),
            tasks.len(),
            expected.len()
        )
    })?;
    let seen = js(browser, SEEN_JS, vec![]).await?;
    let verdicts: Vec<String> = serde_json::from_value(seen["verdicts"].clone())?;
    check(
        verdicts.len() == 1 && verdicts[0].starts_with("With 114 tasks set aside: "),
        || format!("the cards' ledger sentences: {verdicts:?}"),
    )?;
    // The preview of the last group said what the page now shows.
    check(
        preview.iter().any(|line| line.ends_with(&verdicts[0])),
        || format!("the preview {preview:?} is not what the page shows: {verdicts:?}"),
    )?;
    check(seen["rows"] == 114, || format!("the ledger panel: {seen}"))?;

    // The downloaded ledger gives the CLI the page's report.
    let ledger_text = download_ledger(browser, downloads).await?;
    check(Ledger::parse(ledger_text.as_bytes())? == ledger, || {
        "the downloaded ledger is not the link's".to_owned()
    })?;
    let files = TempDir::new("ledger-real-file")?;
    let file = files.path().join("ledger.json");
    std::fs::write(&file, &ledger_text)?;
    let cli = cli_json(folders, &file)?;
    let (_, page) = download(browser, downloads, "Download report JSON", "json").await?;
    check(page.trim_end() == cli.trim_end(), || {
        "the page's report JSON is not `eval-compare report --exclusions`'s".to_owned()
    })?;
    let cli_report: Value = serde_json::from_str(&cli)?;
    check(cli_report["ledger"]["tasks_set_aside"] == 114, || {
        format!("the CLI's ledger: {}", cli_report["ledger"])
    })?;

    // The copied link, in a fresh browser over the same folders, shows the same.
    let link = url::Url::parse(&copy_link(browser).await?)?;
    let again = format!("{}?{}", link.path(), link.query().unwrap_or_default());
    let fresh = driver.open_browser().await?;
    let outcome = async {
        open_comparison(&fresh, server, folders, &again).await?;
        let fresh_ledger = link_ledger(&fresh).await?;
        check(fresh_ledger == ledger, || {
            "the fresh browser's ledger is not the copied one".to_owned()
        })?;
        let seen = poll("the fresh ledger panel", PAGE_TIMEOUT, || async {
            let seen = js(&fresh, SEEN_JS, vec![]).await?;
            Ok((seen["rows"] == 114).then_some(seen))
        })
        .await?;
        check(seen["verdicts"] == json!(verdicts), || {
            format!("the fresh browser shows {seen}, the first {verdicts:?}")
        })
    }
    .await;
    finish(fresh, outcome).await
}

#[tokio::test]
async fn a_reviewer_sets_aside_the_errors_and_missing_submissions_of_swe_bench_pro(
) -> Result<(), BoxError> {
    let folders = TempDir::new("ledger-real-folders")?;
    copy_runs(folders.path())?;
    let downloads = TempDir::new("ledger-real-downloads")?;
    let server = Server::start_demo(&[])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = walk_through(&browser, &driver, &server, folders.path(), downloads.path()).await;
    finish(browser, outcome).await
}
