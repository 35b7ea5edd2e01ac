//! The scorecard from run folders (issue 36 §2, "Run folders too"): the demo's training run's
//! evaluations exported with `eval-compare export`, opened on the Files page, which offers the
//! training run's scorecard; the page builds it with no API, and its downloads (JSON, markdown,
//! HTML) are byte for byte `eval-compare scorecard --folders DIR`'s. A cell opens the report of
//! its two folders, which links back; the copied link names the folders' page and, opened in a
//! fresh browser (no folder open there), says it needs the same folders.
//!
//! The server runs with `--running-eval-secs 0` (stable data, as in `scorecard.rs`).

use std::path::Path;
use std::process::{Command, Stdio};

use eval_compare_e2e::cli::cli_bin;
use eval_compare_e2e::page::{
    check, copy_link_in, download, finish, wait_for_report, wait_js, PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::{Client, Locator};
use serde_json::Value;

const DEMO: &[&str] = &["--running-eval-secs", "0"];
const TRAINING: &str = "train_codefix_grpo";

/// Runs the CLI with `args` (no key), and returns its stdout; fails on a non-zero exit.
fn cli(args: &[&str]) -> Result<String, BoxError> {
    let output = Command::new(cli_bin()?)
        .args(args)
        .env_remove("TRAJECTORY_API_KEY")
        .stdin(Stdio::null())
        .output()?;
    check(output.status.success(), || {
        format!(
            "`eval-compare {}` exited with {}: {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    Ok(String::from_utf8(output.stdout)?)
}

/// Exports into `dir` (a folder per run) every run the API's scorecard compares: each compared
/// cell's baseline and candidate.
fn export_scorecard_runs(base: &str, dir: &Path) -> Result<usize, BoxError> {
    let card: Value = serde_json::from_str(&cli(&[
        "scorecard",
        "--server",
        base,
        "--training-run",
        TRAINING,
        "--format",
        "json",
        "-q",
    ])?)?;
    let mut ids: Vec<String> = Vec::new();
    for cell in card["cells"].as_array().into_iter().flatten() {
        if cell["state"] != "compared" {
            continue;
        }
        for key in ["baseline_run_id", "candidate_run_id"] {
            if let Some(id) = cell[key].as_str().filter(|id| !ids.iter().any(|i| i == id)) {
                ids.push(id.to_owned());
            }
        }
    }
    for id in &ids {
        let to = dir.join(id);
        cli(&[
            "export",
            "--server",
            base,
            id,
            "--quiet",
            &to.display().to_string(),
        ])?;
    }
    Ok(ids.len())
}

/// `eval-compare scorecard --folders DIR` in `format`, as the page's download is compared with.
fn cli_from_folders(dir: &Path, base: &str, format: &str) -> Result<String, BoxError> {
    cli(&[
        "scorecard",
        "--folders",
        &dir.display().to_string(),
        "--format",
        format,
        "--link-base",
        base,
        "-q",
    ])
}

/// Waits until every cell is computed (the downloads are enabled) and returns the grid's text,
/// its rows and the recommendation.
async fn wait_for_scorecard(browser: &Client) -> Result<Value, BoxError> {
    wait_js(
        browser,
        "the complete scorecard from folders",
        PAGE_TIMEOUT * 3,
        r#"
        const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
        const failure = document.querySelector('.error-panel, .load-failure');
        if (failure) { return { failure: text(failure) }; }
        const grid = document.querySelector('table.scorecard-grid');
        const button = Array.from(document.querySelectorAll('.export-buttons button'))
          .find((b) => b.textContent.includes('Download JSON'));
        if (!grid || !button || button.disabled) { return null; }
        return {
          grid: text(grid),
          rows: grid.querySelectorAll('tbody tr').length,
          pick: text(document.querySelector('.scorecard-pick')),
          intro: text(document.querySelector('.scorecard-page .page-intro')),
        };
        "#,
        vec![],
    )
    .await
    .and_then(|shown| match shown.get("failure") {
        Some(failure) => Err(format!("the scorecard page shows a failure: {failure}").into()),
        None => Ok(shown),
    })
}

fn first_difference(page: &str, cli: &str) -> String {
    let at = page
        .bytes()
        .zip(cli.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(page.len().min(cli.len()));
    let from = at.saturating_sub(80);
    format!(
        "differs at byte {at} (page {} bytes, CLI {}):\n page: {:?}\n  CLI: {:?}",
        page.len(),
        cli.len(),
        page.get(from..(at + 80).min(page.len())),
        cli.get(from..(at + 80).min(cli.len()))
    )
}

#[tokio::test]
async fn the_scorecard_of_opened_folders_is_the_clis() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let base = server.base_url().to_owned();
    let folders = TempDir::new("scorecard-folders")?;
    let exported = export_scorecard_runs(&base, folders.path())?;
    check(exported >= 8, || format!("only {exported} runs exported"))?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("scorecard-folders-downloads")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = async {
        // The Files page opens the folders and offers the training run's scorecard.
        browser.goto(&format!("{base}/files")).await?;
        wait_js(
            &browser,
            "the folder picker",
            PAGE_TIMEOUT,
            "return !!document.querySelector('.drop-zone input[type=file]');",
            vec![],
        )
        .await?;
        browser
            .find(Locator::Css(".drop-zone input[type=file]"))
            .await?
            .send_keys(&folders.path().display().to_string())
            .await?;
        wait_js(
            &browser,
            "every exported folder opened",
            PAGE_TIMEOUT,
            "return document.querySelectorAll('.opened-folders li').length === arguments[0] || null;",
            vec![exported.into()],
        )
        .await?;
        let offer = format!(
            ".folder-scorecards li[data-training-run-id='{TRAINING}'] a[href='/files/scorecard?training={TRAINING}']"
        );
        wait_js(
            &browser,
            "the offer of the training run's scorecard",
            PAGE_TIMEOUT,
            "return !!document.querySelector(arguments[0]) || null;",
            vec![offer.clone().into()],
        )
        .await?;
        browser.find(Locator::Css(&offer)).await?.click().await?;
        let shown = wait_for_scorecard(&browser).await?;
        check(shown["rows"].as_u64() >= Some(4), || {
            format!("the grid has too few rows: {shown}")
        })?;
        check(
            shown["intro"]
                .as_str()
                .is_some_and(|intro| intro.contains("not the data")),
            || format!("the page does not say its link keeps no data: {shown}"),
        )?;

        // Its downloads are the CLI's bytes from the same folders.
        for (label, extension, format) in [
            ("Download JSON", "json", "json"),
            ("Download markdown", "md", "text"),
            ("Download HTML scorecard", "html", "html"),
        ] {
            let (name, page) = download(&browser, downloads.path(), label, extension).await?;
            check(name == format!("scorecard-{TRAINING}.{extension}"), || {
                format!("{label} downloads as {name}")
            })?;
            let cli = cli_from_folders(folders.path(), &base, format)?;
            check(page == cli, || {
                format!("{label}: the page's {}", first_difference(&page, &cli))
            })?;
        }

        // A cell opens the report of its two folders, which links back to this scorecard.
        browser
            .find(Locator::Css("td.scorecard-cell a.scorecard-delta"))
            .await?
            .click()
            .await?;
        wait_for_report(&browser).await?;
        let report = browser.current_url().await?;
        check(report.path() == "/files/compare", || {
            format!("a cell opened {report}")
        })?;
        browser
            .find(Locator::Css("a.scorecard-back-link"))
            .await?
            .click()
            .await?;
        let back = wait_for_scorecard(&browser).await?;
        check(back["grid"] == shown["grid"], || {
            format!("back from the report, the scorecard differs: {back} vs {shown}")
        })?;

        // The link names the folders' page; where no folder is open it asks for them.
        let link = copy_link_in(&browser, ".report-actions").await?;
        check(
            link.starts_with(&format!("{base}/files/scorecard?training={TRAINING}")),
            || format!("the copied link is {link}"),
        )?;
        let fresh = driver.open_browser().await?;
        let reopened = async {
            fresh.goto(&link).await?;
            wait_js(
                &fresh,
                "the request for the same folders",
                PAGE_TIMEOUT,
                r#"
                const notice = document.querySelector('.scorecard-page .notice-info');
                const picker = document.querySelector('.drop-zone input[type=file]');
                return notice && picker ? notice.textContent.replace(/\s+/g, ' ').trim() : null;
                "#,
                vec![],
            )
            .await
        }
        .await;
        let notice = finish(fresh, reopened).await?;
        check(
            notice
                .as_str()
                .is_some_and(|text| text.contains("Open the same folders")),
            || format!("the link opened elsewhere says {notice}"),
        )?;
        Ok(())
    }
    .await;
    finish(browser, outcome).await
}
