//! The scorecard's walk (issue 36, "Done when"): from the picker, open the demo's training
//! run's scorecard, see the grid, set a primary benchmark and a guardrail, read the decision,
//! open a cell's comparison report and come back, copy the link and open it in a fresh browser
//! session showing the same grid, download the HTML scorecard (byte for byte `eval-compare
//! scorecard --format html`) and its JSON (= `--format json`), and get the same decision from
//! the CLI's gate.
//!
//! The server runs with `--running-eval-secs 0` (stable data, as in `html_report.rs`).

use std::process::{Command, Stdio};

use eval_compare_e2e::cli::cli_bin;
use eval_compare_e2e::page::{
    check, copy_link_in, download, finish, js, wait_for_picker, wait_for_report, wait_js,
    PAGE_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::{Client, Locator};

const DEMO: &[&str] = &["--running-eval-secs", "0"];
const TRAINING: &str = "train_codefix_grpo";
const PRIMARY: &str = "bench_codefix_v2";
const GUARDRAIL: &str = "bench_sqlfix_v1";

/// Waits until every cell is computed (the downloads are enabled) and returns what the page
/// shows: the grid's text, the decisions and the recommendation.
async fn wait_for_scorecard(browser: &Client) -> Result<serde_json::Value, BoxError> {
    wait_js(
        browser,
        "the complete scorecard",
        PAGE_TIMEOUT * 3,
        r#"
        const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : null;
        const failure = document.querySelector('.error-panel, .load-failure');
        if (failure) { return { failure: text(failure) }; }
        const grid = document.querySelector('table.scorecard-grid');
        const button = Array.from(document.querySelectorAll('.export-buttons button'))
          .find((b) => b.textContent.includes('Download HTML scorecard'));
        if (!grid || !button || button.disabled) { return null; }
        return {
          grid: text(grid),
          rows: grid.querySelectorAll('tbody tr').length,
          steps: grid.querySelectorAll('thead th').length - 5,
          missing: Array.from(grid.querySelectorAll('td.scorecard-cell'))
            .filter((c) => text(c).startsWith('not evaluated')).length,
          zeros: Array.from(grid.querySelectorAll('td.scorecard-cell .scorecard-delta'))
            .filter((c) => text(c) === '0' || text(c) === '+0.0').length,
          decisions: Array.from(document.querySelectorAll('.scorecard-decisions li')).map(text),
          pick: text(document.querySelector('.scorecard-pick')),
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

/// Sets `bench`'s role in the rule ("primary", "guardrail") and, for a guardrail, its margin.
async fn set_role(
    browser: &Client,
    bench: &str,
    role: &str,
    margin: Option<&str>,
) -> Result<(), BoxError> {
    js(
        browser,
        r#"
        const select = document.querySelector(`.scorecard-role[data-bench-id="${arguments[0]}"] select`);
        select.value = arguments[1];
        select.dispatchEvent(new Event('change', { bubbles: true }));
        return true;
        "#,
        vec![bench.into(), role.into()],
    )
    .await?;
    if let Some(margin) = margin {
        let input = wait_js(
            browser,
            "the guardrail's margin field",
            PAGE_TIMEOUT,
            r#"return !!document.querySelector(`.scorecard-role[data-bench-id="${arguments[0]}"] input`);"#,
            vec![bench.into()],
        )
        .await?;
        check(input == true, || "no margin field".to_owned())?;
        js(
            browser,
            r#"
            const input = document.querySelector(`.scorecard-role[data-bench-id="${arguments[0]}"] input`);
            input.value = arguments[1];
            input.dispatchEvent(new Event('change', { bubbles: true }));
            return true;
            "#,
            vec![bench.into(), margin.into()],
        )
        .await?;
    }
    Ok(())
}

/// `eval-compare scorecard` with the walk's rule, its stdout and exit code.
fn cli_scorecard(base_url: &str, extra: &[&str]) -> Result<(String, Option<i32>), BoxError> {
    let output = Command::new(cli_bin()?)
        .args([
            "scorecard",
            "--server",
            base_url,
            "--training-run",
            TRAINING,
        ])
        .args([
            "--primary",
            PRIMARY,
            "--guardrail",
            &format!("{GUARDRAIL}=2"),
        ])
        .args(["--link-base", base_url])
        .args(extra)
        .env_remove("TRAJECTORY_API_KEY")
        .stdin(Stdio::null())
        .output()?;
    Ok((String::from_utf8(output.stdout)?, output.status.code()))
}

fn first_difference(page: &str, cli: &str) -> String {
    let at = page
        .bytes()
        .zip(cli.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(page.len().min(cli.len()));
    let from = at.saturating_sub(80);
    format!(
        "differs at byte {at}:\n page: {:?}\n  CLI: {:?}",
        page.get(from..(at + 80).min(page.len())),
        cli.get(from..(at + 80).min(cli.len()))
    )
}

#[tokio::test]
async fn the_scorecard_walk() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("scorecard")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let base = server.base_url().to_owned();
    let outcome = async {
        // The picker offers the training run's scorecard.
        browser.goto(&format!("{base}/")).await?;
        wait_for_picker(&browser).await?;
        browser
            .find(Locator::Css(&format!(
                "a[href='/scorecard?training={TRAINING}']"
            )))
            .await?
            .click()
            .await?;
        let first = wait_for_scorecard(&browser).await?;
        check(
            first["rows"].as_u64() >= Some(4) && first["steps"].as_u64() >= Some(2),
            || format!("the grid has too few rows or steps: {first}"),
        )?;
        check(first["missing"].as_u64() >= Some(1), || {
            format!("no cell is shown as not evaluated: {first}")
        })?;

        // The rule: a primary benchmark and a guardrail of 2 points, carried by the link.
        set_role(&browser, PRIMARY, "primary", None).await?;
        set_role(&browser, GUARDRAIL, "guardrail", Some("2")).await?;
        let ruled = wait_for_scorecard(&browser).await?;
        let url = browser.current_url().await?;
        check(
            url.query().is_some_and(|q| {
                q.contains(&format!("primary={PRIMARY}"))
                    && q.contains(&format!("guardrails={GUARDRAIL}:2"))
            }),
            || format!("the link does not carry the rule: {url}"),
        )?;
        let decisions: Vec<String> = serde_json::from_value(ruled["decisions"].clone())?;
        check(
            decisions.iter().all(|d| {
                d.contains("meets the rule")
                    || d.contains("fails:")
                    || d.contains("cannot tell yet")
            }) && !decisions.is_empty(),
            || format!("the decisions do not read as the rule's: {decisions:?}"),
        )?;

        // A cell opens its comparison report, which links back to the same scorecard.
        browser
            .find(Locator::Css(&format!(
                "tr[data-bench-id='{PRIMARY}'] a.scorecard-delta"
            )))
            .await?
            .click()
            .await?;
        wait_for_report(&browser).await?;
        // The scorecard read no costs; the comparison shows them, so it reads them now.
        wait_js(
            &browser,
            "the cell's comparison showing its runs' costs",
            PAGE_TIMEOUT,
            "return Array.from(document.querySelectorAll('section.cost-panel table.cost-runs td'))
               .some((td) => td.textContent.trim().endsWith('¢'));",
            vec![],
        )
        .await?;
        browser
            .find(Locator::Css("a.scorecard-back-link"))
            .await?
            .click()
            .await?;
        let back = wait_for_scorecard(&browser).await?;
        check(
            back["grid"] == ruled["grid"] && back["decisions"] == ruled["decisions"],
            || format!("back from the report, the scorecard differs: {back} vs {ruled}"),
        )?;

        // Its link, opened in a fresh browser session, shows the same grid.
        let link = copy_link_in(&browser, ".report-actions").await?;
        let fresh = driver.open_browser().await?;
        let reopened = async {
            fresh.goto(&link).await?;
            wait_for_scorecard(&fresh).await
        }
        .await;
        let reopened = finish(fresh, reopened).await?;
        check(
            reopened["grid"] == ruled["grid"] && reopened["pick"] == ruled["pick"],
            || format!("the link {link} shows another scorecard: {reopened} vs {ruled}"),
        )?;

        // The downloads are the CLI's bytes; the CLI's decision and gate agree with the page.
        let (name, html) = download(
            &browser,
            downloads.path(),
            "Download HTML scorecard",
            "html",
        )
        .await?;
        check(name == format!("scorecard-{TRAINING}.html"), || {
            format!("the HTML scorecard downloads as {name}")
        })?;
        let (cli_html, _) = cli_scorecard(&base, &["--format", "html"])?;
        check(html == cli_html, || {
            format!("the HTML scorecard {}", first_difference(&html, &cli_html))
        })?;
        let (_, json) = download(&browser, downloads.path(), "Download JSON", "json").await?;
        let (cli_json, _) = cli_scorecard(&base, &["--format", "json"])?;
        check(json == cli_json, || {
            format!("the JSON scorecard {}", first_difference(&json, &cli_json))
        })?;
        let card: serde_json::Value = serde_json::from_str(&cli_json)?;
        let pick = ruled["pick"].as_str().unwrap_or_default().to_owned();
        match card["recommended"]["step"].as_i64() {
            Some(step) => {
                check(pick.contains(&format!("Step {step}")), || {
                    format!("the CLI recommends step {step}, the page says {pick:?}")
                })?;
                let (_, code) =
                    cli_scorecard(&base, &["--fail-unless-deployable", &step.to_string()])?;
                check(code == Some(0), || {
                    format!("the gate refuses the recommended step {step}: exit {code:?}")
                })?;
            }
            None => check(pick.contains("No checkpoint meets the rule"), || {
                format!("the CLI recommends none, the page says {pick:?}")
            })?,
        }
        let failing = decisions.iter().find_map(|d| {
            d.contains("fails:")
                .then(|| {
                    d.trim_start_matches("Step ")
                        .split(':')
                        .next()
                        .map(str::to_owned)
                })
                .flatten()
        });
        if let Some(step) = failing {
            let (_, code) = cli_scorecard(&base, &["--fail-unless-deployable", &step])?;
            check(code == Some(12), || {
                format!("the gate lets step {step} through, which the page says fails: {code:?}")
            })?;
        }
        Ok(())
    }
    .await;
    finish(browser, outcome).await
}
