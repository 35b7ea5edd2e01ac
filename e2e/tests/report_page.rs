//! The comparison report in real headless Chromium, served by the real server with the built
//! viewer, checked against `eval-compare report` (the CLI) over the same API:
//!
//! 1. the picker's one-click default comparison renders, and its numbers are the CLI's;
//! 2. its share link reproduces the report in a new browser session;
//! 3. a task-table filter survives a reload;
//! 4. a 500 on one page names the run, and Retry completes the report;
//! 5. a hostile or malformed query shows a clear message, never runs script, never crashes;
//! 6. the API key never reaches the URL, a link, the copied link or an export;
//! 7. a comparison of 20,000 tasks × 4 samples (`--demo-scale`), its run set built and its
//!    bootstrap drawn over many slices, is the CLI's report too;
//! 8. a slow load says how much of the runs' items is read and, once its pace is known, about
//!    how long is left; the line goes with the load, and another comparison's load opened in
//!    the same page has a pace of its own.
//!
//! Every server runs with `--running-eval-secs 0`: the demo's running evaluation is finished
//! from the start, so the browser and the CLI read the same data whenever they read it.

use std::path::Path;

use eval_compare_core::testing::json_close::json_close;
use eval_compare_e2e::cli::{
    at, cli_report_json, count, interval_points, mean, number, ok, p_value, signed_points, string,
};
use eval_compare_e2e::page::{
    check, click_button, copy_link, copy_link_by_hand, download, error_panel_title, finish,
    headline_cards, js, poll, query_param, run_summary_rows, text_of, wait_for_report, wait_js,
    HeadlineCard, RunSummaryRow, PAGE_TIMEOUT, SHORT_TIMEOUT,
};
use eval_compare_e2e::{BoxError, ChromeDriver, Server, TempDir};
use fantoccini::{Client, Locator};
use serde_json::Value;

/// The demo with its running evaluation already finished (stable data).
const DEMO: &[&str] = &["--running-eval-secs", "0"];

/// The page's URL.
async fn current_url(browser: &Client) -> Result<url::Url, BoxError> {
    Ok(browser.current_url().await?)
}

/// The baseline and candidates a report URL names.
fn runs_of(url: &url::Url) -> Result<(String, Vec<String>), BoxError> {
    let baseline = query_param(url, "base").ok_or_else(|| format!("{url} names no `base`"))?;
    let candidates: Vec<String> = query_param(url, "cand")
        .ok_or_else(|| format!("{url} names no `cand`"))?
        .split(',')
        .map(str::to_owned)
        .collect();
    Ok((baseline, candidates))
}

/// Opens `path` (with its query) on the server and waits for the complete report.
async fn open_report(browser: &Client, server: &Server, path: &str) -> Result<(), BoxError> {
    browser
        .goto(&format!("{}{path}", server.base_url()))
        .await?;
    wait_for_report(browser).await
}

/// Downloads "Download report JSON" and parses it.
async fn download_report_json(
    browser: &Client,
    dir: &Path,
) -> Result<(String, String, Value), BoxError> {
    let (name, text) = download(browser, dir, "Download report JSON", "json").await?;
    let value = serde_json::from_str(&text)
        .map_err(|error| format!("the downloaded {name} is not JSON: {error}"))?;
    Ok((name, text, value))
}

/// How far a number of the viewer's report JSON may be from the CLI's, relatively: not at all.
/// The viewer runs the same core code compiled to wasm32, and the core computes its logarithms
/// and exponentials with the same code on every target (crates/core/src/math.rs).
const RELATIVE_TOLERANCE: f64 = 0.0;

/// Checks that the viewer's export and the CLI's output are the same report.
fn check_same_report(viewer: &Value, cli: &Value, what: &str) -> Result<(), BoxError> {
    json_close(viewer, cli, RELATIVE_TOLERANCE).map_err(|difference| {
        format!(
            "{what}: the viewer's report JSON differs from `eval-compare report --format json` \
             at {difference}"
        )
        .into()
    })
}

/// The confidence level as the page writes it ("95").
fn level_text(report: &Value) -> Result<String, BoxError> {
    Ok(format!(
        "{}",
        (number(report, "/settings/level")? * 100.0).round()
    ))
}

/// What a headline card must show, made from the CLI's report.
fn expected_card(report: &Value, index: usize) -> Result<HeadlineCard, BoxError> {
    let candidate = at(report, &format!("/candidates/{index}"))?;
    let run_index = at(candidate, "/run")?
        .as_u64()
        .ok_or("a candidate's `run` is not an index")?;
    let run = report["runs"]
        .as_array()
        .and_then(|runs| {
            runs.iter()
                .find(|run| run["index"].as_u64() == Some(run_index))
        })
        .ok_or_else(|| format!("no run has index {run_index}"))?;
    let level = level_text(report)?;
    let several = report["candidates"].as_array().map_or(0, Vec::len) > 1;
    let headline = string(report, "/settings/headline")?;
    let analysis = at(candidate, &format!("/{headline}"))?;
    let estimate = ok(analysis, "/estimate")?;
    // The headline interval the report names: the t interval, or Tango's score interval for a
    // small binary paired set.
    let (interval, method) = match string(analysis, "/interval_method")? {
        "t" => (ok(estimate, "/t_interval")?, "t interval"),
        "tango_score" => (ok(analysis, "/score_interval")?, "Tango score interval"),
        other => return Err(format!("unknown interval method {other:?}").into()),
    };
    let delta = format!(
        "{} points ({level}% CI {}, {method})",
        signed_points(number(estimate, "/delta")?),
        interval_points(interval)?
    );
    let mut p_values = vec![
        format!(
            "t {}",
            p_value(number(ok(analysis, "/t_test")?, "/p_value")?)
        ),
        format!(
            "Wilcoxon (Pratt) {}",
            p_value(number(ok(analysis, "/wilcoxon_pratt")?, "/p_value")?)
        ),
        format!(
            "sign {}",
            p_value(number(ok(analysis, "/sign_test")?, "/p_value")?)
        ),
    ];
    if !analysis["mcnemar"].is_null() {
        p_values.push(format!(
            "McNemar {}",
            p_value(number(ok(analysis, "/mcnemar")?, "/p_exact")?)
        ));
    }
    if several {
        let holm = ok(candidate, "/p_holm")?.as_f64().ok_or("p_holm")?;
        let bh = ok(candidate, "/p_bh")?.as_f64().ok_or("p_bh")?;
        p_values.push(format!("Holm {}", p_value(holm)));
        p_values.push(format!("BH {}", p_value(bh)));
    }
    let wtl = ok(analysis, "/win_tie_loss")?;
    let wtl = format!(
        "{} / {} / {}",
        count(wtl["wins"].as_u64().ok_or("wins")?),
        count(wtl["ties"].as_u64().ok_or("ties")?),
        count(wtl["losses"].as_u64().ok_or("losses")?)
    );
    let both =
        |cell: &dyn Fn(&Value) -> Result<String, BoxError>| -> Result<Vec<String>, BoxError> {
            Ok(vec![
                cell(at(candidate, "/primary")?)?,
                cell(at(candidate, "/sensitivity")?)?,
            ])
        };
    let mut details = std::collections::BTreeMap::new();
    details.insert(
        "Tasks".to_owned(),
        both(&|a| Ok(count(a["n"].as_u64().ok_or("n")?)))?,
    );
    details.insert(
        "Δ (points)".to_owned(),
        both(&|a| Ok(signed_points(number(ok(a, "/estimate")?, "/delta")?)))?,
    );
    details.insert(
        format!("t interval ({level}%)"),
        both(&|a| interval_points(ok(ok(a, "/estimate")?, "/t_interval")?))?,
    );
    details.insert(
        "Bootstrap percentile".to_owned(),
        both(&|a| interval_points(at(ok(a, "/bootstrap")?, "/percentile")?))?,
    );
    details.insert(
        "Bootstrap BCa".to_owned(),
        both(&|a| interval_points(ok(ok(a, "/bootstrap")?, "/bca")?))?,
    );
    details.insert(
        "Paired t-test p".to_owned(),
        both(&|a| {
            let t = ok(a, "/t_test")?;
            Ok(format!(
                "{} (t = {:.3}, df {:.0})",
                p_value(number(t, "/p_value")?),
                number(t, "/t")?,
                number(t, "/df")?
            ))
        })?,
    );
    let mut stats = std::collections::BTreeMap::new();
    stats.insert("Wins / ties / losses".to_owned(), wtl);
    Ok(HeadlineCard {
        run_id: string(run, "/id")?.to_owned(),
        title: string(run, "/name")?.to_owned(),
        verdict: match string(candidate, "/verdict/decision")? {
            "better" => "better",
            "worse" => "worse",
            "no_detectable_difference" => "no detectable difference",
            "inconclusive" => "inconclusive",
            "too_few_paired_tasks" => "too few paired tasks",
            "not_comparable" => "not comparable",
            "unreliable" => "unreliable",
            "not_computable" => "not computable",
            other => return Err(format!("unknown verdict {other:?}").into()),
        }
        .to_owned(),
        sentence: format!("{}.", string(candidate, "/sentence")?),
        delta,
        p_values,
        stats,
        details,
    })
}

/// Checks every headline card against the CLI's report: run, sentence, Δ and its interval,
/// p-values, wins/ties/losses, paired n, t-test, bootstrap intervals.
fn check_cards(cards: &[HeadlineCard], report: &Value) -> Result<(), BoxError> {
    let candidates = report["candidates"].as_array().map_or(0, Vec::len);
    check(cards.len() == candidates, || {
        format!(
            "the page shows {} headline cards, the CLI's report has {candidates} candidates",
            cards.len()
        )
    })?;
    for (index, card) in cards.iter().enumerate() {
        let want = expected_card(report, index)?;
        let context = format!("headline card {index} ({})", want.run_id);
        check(card.run_id == want.run_id, || {
            format!("{context}: shows run {}", card.run_id)
        })?;
        check(card.title == want.title, || {
            format!(
                "{context}: title {:?}, expected {:?}",
                card.title, want.title
            )
        })?;
        check(card.verdict == want.verdict, || {
            format!(
                "{context}: verdict {:?}, expected {:?}",
                card.verdict, want.verdict
            )
        })?;
        check(card.sentence == want.sentence, || {
            format!(
                "{context}: sentence {:?}\nexpected {:?}",
                card.sentence, want.sentence
            )
        })?;
        check(card.delta == want.delta, || {
            format!("{context}: Δ {:?}, expected {:?}", card.delta, want.delta)
        })?;
        check(card.p_values == want.p_values, || {
            format!(
                "{context}: p-values {:?}, expected {:?}",
                card.p_values, want.p_values
            )
        })?;
        for (label, value) in &want.stats {
            check(card.stats.get(label) == Some(value), || {
                format!(
                    "{context}: {label:?} is {:?}, expected {value:?}",
                    card.stats.get(label)
                )
            })?;
        }
        for (label, value) in &want.details {
            check(card.details.get(label) == Some(value), || {
                format!(
                    "{context}: details {label:?} are {:?}, expected {value:?}",
                    card.details.get(label)
                )
            })?;
        }
    }
    Ok(())
}

/// Checks the compared-runs table against the CLI's report: ids, names, graded tasks, means
/// and the interval of the task-weighted mean.
fn check_run_rows(rows: &[RunSummaryRow], report: &Value) -> Result<(), BoxError> {
    let runs = report["runs"].as_array().ok_or("the report has no runs")?;
    check(rows.len() == runs.len(), || {
        format!(
            "the page lists {} runs, the CLI's report {}",
            rows.len(),
            runs.len()
        )
    })?;
    let optional_mean = |value: &Value| value.as_f64().map_or_else(|| "—".to_owned(), mean);
    for (row, run) in rows.iter().zip(runs) {
        let id = string(run, "/id")?;
        let context = format!("run row {id}");
        check(row.run_id == id, || {
            format!("{context}: the page shows {}", row.run_id)
        })?;
        check(row.name == string(run, "/name")?, || {
            format!("{context}: name {:?}", row.name)
        })?;
        check(row.cells.len() >= 7, || {
            format!("{context}: cells {:?}", row.cells)
        })?;
        let tasks = count(run["tasks_scored"].as_u64().ok_or("tasks_scored")?);
        check(row.cells[3] == tasks, || {
            format!(
                "{context}: graded tasks {:?}, expected {tasks:?}",
                row.cells[3]
            )
        })?;
        let weighted = optional_mean(&run["task_weighted_mean"]);
        check(row.cells[4] == weighted, || {
            format!(
                "{context}: task-weighted mean {:?}, expected {weighted:?}",
                row.cells[4]
            )
        })?;
        let interval = ok(run, "/task_weighted_interval")?;
        let interval = format!(
            "{} to {}",
            mean(number(interval, "/lower")?),
            mean(number(interval, "/upper")?)
        );
        check(row.details[4] == [interval.clone()], || {
            format!(
                "{context}: interval {:?}, expected {interval:?}",
                row.details[4]
            )
        })?;
        let pooled = optional_mean(&run["pooled_mean"]);
        check(row.cells[5] == pooled, || {
            format!(
                "{context}: pooled mean {:?}, expected {pooled:?}",
                row.cells[5]
            )
        })?;
        let platform = optional_mean(&run["platform_reward_mean"]);
        check(row.cells[6] == platform, || {
            format!(
                "{context}: platform mean {:?}, expected {platform:?}",
                row.cells[6]
            )
        })?;
    }
    Ok(())
}

/// The baseline and candidates the picker has chosen (its radio and checkboxes).
async fn picker_choice(browser: &Client) -> Result<(Vec<String>, Vec<String>), BoxError> {
    let value = wait_js(
        browser,
        "the picker with a baseline and candidates chosen",
        PAGE_TIMEOUT,
        r#"
        const button = document.querySelector('.compare-bar button');
        if (!button || button.disabled) return null;
        const rows = Array.from(document.querySelectorAll('table.runs-table tbody tr[data-run-id]'));
        const chosen = (type) => rows
          .filter((row) => { const input = row.querySelector(`input[type=${type}]`); return input && input.checked; })
          .map((row) => row.getAttribute('data-run-id'));
        return [chosen('radio'), chosen('checkbox')];
        "#,
        vec![],
    )
    .await?;
    Ok(serde_json::from_value(value)?)
}

async fn default_comparison_matches_cli(
    browser: &Client,
    server: &Server,
    downloads: &Path,
) -> Result<(), BoxError> {
    browser.goto(&format!("{}/", server.base_url())).await?;
    let (picked_baseline, picked_candidates) = picker_choice(browser).await?;
    check(
        picked_baseline.len() == 1 && !picked_candidates.is_empty(),
        || {
            format!("the picker's default choice: baseline {picked_baseline:?}, candidates {picked_candidates:?}")
        },
    )?;
    click_button(browser, Some(".compare-bar"), "Compare").await?;
    wait_for_report(browser).await?;

    let url = current_url(browser).await?;
    check(url.path() == "/compare", || format!("Compare opened {url}"))?;
    let (baseline, candidates) = runs_of(&url)?;
    check(baseline == picked_baseline[0], || {
        format!("the report's baseline is {baseline}, the picker chose {picked_baseline:?}")
    })?;
    let mut sorted = candidates.clone();
    sorted.sort();
    let mut picked = picked_candidates.clone();
    picked.sort();
    check(sorted == picked, || {
        format!("the report compares {candidates:?}, the picker chose {picked_candidates:?}")
    })?;

    let (cli, cli_text) = cli_report_json(server.base_url(), &baseline, &candidates, &[], None)?;
    let (name, text, exported) = download_report_json(browser, downloads).await?;
    check(
        name.starts_with(&format!("eval-compare-{baseline}-vs-")),
        || format!("the report JSON downloads as {name}"),
    )?;
    check_same_report(&exported, &cli, "default comparison")?;
    check(text.trim_end() == cli_text.trim_end(), || {
        "the report JSON export has the CLI's values but not its exact text".to_owned()
    })?;

    check_cards(&headline_cards(browser).await?, &cli)?;
    check_run_rows(&run_summary_rows(browser).await?, &cli)?;

    // The CSV export has one row per task of the report.
    let (csv_name, csv) = download(browser, downloads, "Download CSV", "csv").await?;
    let tasks = cli["tasks"].as_array().ok_or("the report has no tasks")?;
    let lines: Vec<&str> = csv.lines().filter(|line| !line.is_empty()).collect();
    check(lines.len() == tasks.len() + 1, || {
        format!(
            "{csv_name} has {} lines for {} tasks (plus a header)",
            lines.len(),
            tasks.len()
        )
    })?;
    for (line, task) in lines[1..].iter().zip(tasks) {
        let id = string(task, "/task_id")?;
        check(line.contains(id), || {
            format!("{csv_name}: the row {line:?} is not task {id}")
        })?;
    }
    Ok(())
}

#[tokio::test]
async fn the_default_comparison_renders_the_cli_report() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("default")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = default_comparison_matches_cli(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}

/// Opens a comparison of two runs of 20,000 tasks × 4 samples and checks that its report is the
/// CLI's: at that size the run set is built, and the bootstrap drawn, over many slices.
async fn large_comparison_matches_cli(
    browser: &Client,
    server: &Server,
    dir: &Path,
) -> Result<(), BoxError> {
    let (baseline, candidate) = ("eval_base_v2", "eval_ckpt_s400");
    open_report(
        browser,
        server,
        &format!("/compare?base={baseline}&cand={candidate}"),
    )
    .await?;
    let (_, text, exported) = download_report_json(browser, dir).await?;
    let candidates = vec![candidate.to_owned()];
    let (cli, cli_text) = cli_report_json(server.base_url(), baseline, &candidates, &[], None)?;
    let tasks = cli["tasks"].as_array().map_or(0, Vec::len);
    check(tasks >= 20_000, || {
        format!("the scaled demo's comparison has {tasks} tasks, not 20,000 or more")
    })?;
    check_same_report(&exported, &cli, "20,000 tasks × 4 samples")?;
    check(text.trim_end() == cli_text.trim_end(), || {
        "the large report's JSON export has the CLI's values but not its exact text".to_owned()
    })
}

#[tokio::test]
async fn a_comparison_of_20000_tasks_renders_the_cli_report() -> Result<(), BoxError> {
    let server = Server::start_demo(&["--running-eval-secs", "0", "--demo-scale", "20000x4"])?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("large")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = large_comparison_matches_cli(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}

/// Point 8: the load panel's line on the whole load, while every list page is slowed down; then
/// on another comparison opened in the same page, whose load has a pace of its own.
async fn slow_load_says_its_pace(browser: &Client, server: &Server) -> Result<(), BoxError> {
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand=eval_ckpt_s400",
            server.base_url()
        ))
        .await?;
    pace_lines_of_one_load(browser, "the first load").await?;
    // Another comparison inside the app, as a link in the page opens it (the router follows
    // `popstate`): the loader and its panel stay, the load is new. The page notes when the
    // line first shows and when its estimate does.
    js(
        browser,
        r#"
        const seen = window.__pace = {};
        setInterval(() => {
          const p = document.querySelector('.load-pace');
          if (!p) return;
          seen.line ??= performance.now();
          if (/ left$/.test(p.textContent)) seen.estimate ??= performance.now();
        }, 20);
        history.pushState(null, '', '/compare?base=eval_base_v1&cand=eval_ckpt_s100');
        dispatchEvent(new PopStateEvent('popstate'));
        "#,
        vec![],
    )
    .await?;
    pace_lines_of_one_load(browser, "the second load").await?;
    // Its pace is its own: no estimate before 2 s of it (1.5 s allows for the sampling), as a
    // pace carried over from the first load would give at once.
    let seen = js(browser, "return window.__pace;", vec![]).await?;
    let waited =
        seen["estimate"].as_f64().unwrap_or(f64::NAN) - seen["line"].as_f64().unwrap_or(f64::NAN);
    check(waited >= 1_500.0, || {
        format!("the second load's estimate came {waited:.0} ms after its line: {seen}")
    })
}

/// One load's line: first the share read alone (the pace is not known in its first 2 s), then
/// with an estimate of the time left, and no line once the report is up.
async fn pace_lines_of_one_load(browser: &Client, which: &str) -> Result<(), BoxError> {
    // The line as shown, and whether it reads as the share alone or the share and an estimate
    // (matched in the page: the e2e crate has no regular expressions of its own).
    const LINE_JS: &str = r#"
    const p = document.querySelector('.load-panel .load-pace');
    if (!p) return null;
    const text = p.textContent;
    const share = /^\d{1,3}% of the runs' items read$/.test(text);
    const estimate = /^\d{1,3}% of the runs' items read · (a few seconds|about \d+ s|about \d+ min) left$/.test(text);
    if (arguments[0] && !estimate) return null;
    return { text, share, estimate };
    "#;
    let first = wait_js(
        browser,
        &format!("{which}'s share read"),
        PAGE_TIMEOUT,
        LINE_JS,
        vec![false.into()],
    )
    .await?;
    check(first["share"] == true, || {
        format!(
            "{which}'s line first reads {}, not the share alone",
            first["text"]
        )
    })?;
    // The pace is known 2 s after the load was first seen, long before its end here.
    let later = wait_js(
        browser,
        &format!("{which}'s estimate of the time left"),
        PAGE_TIMEOUT,
        LINE_JS,
        vec![true.into()],
    )
    .await?;
    check(later["estimate"] == true, || {
        format!("{which}'s line with its estimate reads {}", later["text"])
    })?;
    wait_for_report(browser).await?;
    let left = js(
        browser,
        "return document.querySelectorAll('.load-pace').length;",
        vec![],
    )
    .await?;
    check(left == 0, || {
        format!("{left} load lines are still shown after {which}")
    })
}

#[tokio::test]
async fn a_slow_load_says_how_far_it_is_and_the_time_left() -> Result<(), BoxError> {
    // 4,000 items a run (20 pages a list), each list page 250 ms late: over 5 s a list, so the
    // estimate (2 s after the lengths are known) shows well before the end.
    let server = Server::start_demo(&[
        "--running-eval-secs",
        "0",
        "--demo-scale",
        "1000x4",
        "--fault",
        "latency:ms=250:path=/trajector",
    ])?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = slow_load_says_its_pace(&browser, &server).await;
    finish(browser, outcome).await
}

/// Types `value` into the settings field labelled `label`.
async fn set_setting(browser: &Client, label: &str, value: &str) -> Result<(), BoxError> {
    let input = browser
        .find(Locator::XPath(&format!(
            "//form[contains(@class,'settings-form')]//label[span[normalize-space()='{label}']]/input"
        )))
        .await?;
    input.clear().await?;
    input.send_keys(value).await?;
    Ok(())
}

/// Everything a shared link must reproduce.
#[derive(Debug, PartialEq)]
struct Shown {
    cards: Vec<HeadlineCard>,
    runs: Vec<RunSummaryRow>,
    task_count: Option<String>,
    pressed_filter: Option<String>,
}

async fn shown(browser: &Client) -> Result<Shown, BoxError> {
    let pressed = js(
        browser,
        "const b = document.querySelector('.filter-button[aria-pressed=true]'); return b ? b.getAttribute('data-filter') : null;",
        vec![],
    )
    .await?;
    Ok(Shown {
        cards: headline_cards(browser).await?,
        runs: run_summary_rows(browser).await?,
        task_count: text_of(browser, ".task-count").await?,
        pressed_filter: pressed.as_str().map(str::to_owned),
    })
}

async fn share_link_reproduces(
    driver: &ChromeDriver,
    browser: &Client,
    server: &Server,
    downloads: &Path,
) -> Result<(), BoxError> {
    open_report(
        browser,
        server,
        "/compare?base=eval_base_v2&cand=eval_ckpt_s200,eval_ckpt_s400",
    )
    .await?;
    // A view that differs from the defaults: settings and a table filter.
    set_setting(browser, "Confidence level (%)", "90").await?;
    set_setting(browser, "Bootstrap resamples B", "2000").await?;
    set_setting(browser, "Bootstrap seed", "4242").await?;
    click_button(browser, Some(".settings-form"), "Apply").await?;
    wait_js(
        browser,
        "the settings in the URL",
        SHORT_TIMEOUT,
        "const s = location.search; return s.includes('seed=4242') && s.includes('B=2000') && s.includes('ci=90');",
        vec![],
    )
    .await?;
    browser
        .find(Locator::Css(".filter-button[data-filter=improvements]"))
        .await?
        .click()
        .await?;
    wait_js(
        browser,
        "the filter in the URL",
        SHORT_TIMEOUT,
        "return location.search.includes('filter=improvements');",
        vec![],
    )
    .await?;
    wait_for_report(browser).await?;
    let status = text_of(browser, ".settings-status")
        .await?
        .unwrap_or_default();
    check(status.contains("drawing it (B = 2,000)"), || {
        format!("the settings status says {status:?}")
    })?;

    let link = copy_link(browser).await?;
    let here = current_url(browser).await?;
    check(link == here.as_str(), || {
        format!("Copy link copied {link:?}, the page is at {here}")
    })?;
    let original = shown(browser).await?;
    check(
        original.cards.len() == 2 && original.cards[0].delta.contains("90% CI"),
        || format!("the report before sharing: {:#?}", original.cards),
    )?;
    check(
        original.pressed_filter.as_deref() == Some("improvements"),
        || format!("pressed filter {:?}", original.pressed_filter),
    )?;
    let (_, original_text, _) = download_report_json(browser, downloads).await?;

    // A new WebDriver session: a fresh browser profile that has seen nothing of the first.
    let second_downloads = TempDir::new("share-second")?;
    let second = driver
        .open_browser_downloading_to(second_downloads.path())
        .await?;
    let outcome = async {
        second.goto(&link).await?;
        wait_for_report(&second).await?;
        let reproduced = shown(&second).await?;
        check(reproduced == original, || {
            format!(
                "the shared link shows another report\nfirst session: {original:#?}\nnew session: {reproduced:#?}"
            )
        })?;
        let (_, text, value) = download_report_json(&second, second_downloads.path()).await?;
        check(text == original_text, || {
            "the shared link's report JSON differs from the original's".to_owned()
        })?;
        // And it is the CLI's report with the same settings.
        let (cli, _) = cli_report_json(
            server.base_url(),
            "eval_base_v2",
            &["eval_ckpt_s200".to_owned(), "eval_ckpt_s400".to_owned()],
            &["--seed", "4242", "--resamples", "2000", "--confidence", "0.9"],
            None,
        )?;
        check_same_report(&value, &cli, "shared link")?;
        check_cards(&reproduced.cards, &cli)

    }
    .await;
    finish(second, outcome).await
}

#[tokio::test]
async fn the_share_link_reproduces_the_report_in_a_new_session() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("share")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = share_link_reproduces(&driver, &browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}

/// The task table's state: URL query, filter buttons, category, search, count and the rows
/// rendered (id and Δ text).
#[derive(Debug, PartialEq, serde::Deserialize)]
struct TableState {
    search: String,
    pressed: Vec<String>,
    category: String,
    query_text: String,
    count: String,
    rows: Vec<(String, String, String)>,
}

async fn table_state(browser: &Client) -> Result<TableState, BoxError> {
    let value = js(
        browser,
        r#"
        const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
        const selects = document.querySelectorAll('.task-filters select.filter-select');
        return {
          search: location.search,
          pressed: Array.from(document.querySelectorAll('.filter-button[aria-pressed=true]'))
            .map((b) => b.getAttribute('data-filter')),
          category: selects.length ? selects[0].value : '',
          query_text: (document.querySelector('.task-filters input[type=search]') || {}).value || '',
          count: text(document.querySelector('.task-count')),
          rows: Array.from(document.querySelectorAll('table.tasks tr.task-row')).map((tr) => [
            tr.getAttribute('data-task-id'),
            text(tr.querySelector('.task-category')),
            text(tr.lastElementChild),
          ]),
        };
        "#,
        vec![],
    )
    .await?;
    Ok(serde_json::from_value(value)?)
}

async fn filter_survives_reload(browser: &Client, server: &Server) -> Result<(), BoxError> {
    open_report(
        browser,
        server,
        "/compare?base=eval_base_v2&cand=eval_ckpt_s400",
    )
    .await?;
    let cards = headline_cards(browser).await?;
    let losses: usize = cards
        .first()
        .and_then(|card| card.stats.get("Wins / ties / losses"))
        .and_then(|wtl| wtl.split(" / ").nth(2))
        .and_then(|losses| losses.replace(',', "").parse().ok())
        .ok_or("no wins / ties / losses on the headline card")?;
    let before = table_state(browser).await?;
    let total = before
        .count
        .split(" of ")
        .nth(1)
        .ok_or_else(|| format!("task count {:?}", before.count))?
        .to_owned();

    // Regressions: the paired tasks the candidate lost, as many as the headline's losses.
    browser
        .find(Locator::Css(".filter-button[data-filter=regressions]"))
        .await?
        .click()
        .await?;
    let expected_count = format!("{losses} of {total}");
    poll("the regressions filter", SHORT_TIMEOUT, || async {
        let state = table_state(browser).await?;
        Ok(
            (state.search.contains("filter=regressions") && state.count == expected_count)
                .then_some(()),
        )
    })
    .await?;
    // Then one category: the category of the first regression shown.
    let category = table_state(browser)
        .await?
        .rows
        .first()
        .map(|row| row.1.split(", ").next().unwrap_or_default().to_owned())
        .filter(|category| !category.is_empty())
        .ok_or("no regression row with a category is shown")?;
    browser
        .find(Locator::Css(".task-filters select.filter-select"))
        .await?
        .select_by_value(&category)
        .await?;
    let filtered = poll("the category filter", SHORT_TIMEOUT, || async {
        let state = table_state(browser).await?;
        Ok((state.category == category && state.search.contains("cat=")).then_some(state))
    })
    .await?;
    check(filtered.pressed == ["regressions"], || {
        format!("pressed filters {:?}", filtered.pressed)
    })?;
    check(!filtered.rows.is_empty(), || "no row is shown".to_owned())?;
    for (task, categories, delta) in &filtered.rows {
        check(categories.split(", ").any(|c| c == category), || {
            format!("task {task} ({categories}) is shown under category {category}")
        })?;
        check(delta.starts_with('\u{2212}'), || {
            format!("task {task} is shown as a regression with Δ {delta:?}")
        })?;
    }
    let shown: usize = filtered
        .count
        .split(" of ")
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("task count {:?}", filtered.count))?;
    check(shown > 0 && shown < losses, || {
        format!("{shown} regressions in {category}, of {losses}")
    })?;

    browser.refresh().await?;
    wait_for_report(browser).await?;
    let reloaded = poll("the table after the reload", SHORT_TIMEOUT, || async {
        let state = table_state(browser).await?;
        Ok((!state.rows.is_empty()).then_some(state))
    })
    .await?;
    check(reloaded == filtered, || {
        format!("after a reload the table shows\n{reloaded:#?}\nbefore it showed\n{filtered:#?}")
    })
}

#[tokio::test]
async fn a_task_filter_survives_a_reload() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = filter_survives_reload(&browser, &server).await;
    finish(browser, outcome).await
}

/// The failing run of the fault test and the page of its rewards that fails.
const FAILING_RUN: &str = "eval_ckpt_s300";

async fn page_error_then_retry(
    browser: &Client,
    server: &Server,
    downloads: &Path,
) -> Result<(), BoxError> {
    let body = reqwest::get(format!("{}/api/v1/eval/{FAILING_RUN}", server.base_url()))
        .await?
        .error_for_status()?
        .bytes()
        .await?;
    let run: Value = serde_json::from_slice(&body)?;
    let display_name = run["display_name"]
        .as_str()
        .filter(|name| !name.is_empty())
        .unwrap_or(FAILING_RUN)
        .to_owned();
    let candidates = [FAILING_RUN.to_owned(), "eval_ckpt_s400".to_owned()];
    browser
        .goto(&format!(
            "{}/compare?base=eval_base_v2&cand={}",
            server.base_url(),
            candidates.join(",")
        ))
        .await?;
    let failure = wait_js(
        browser,
        "the failure of the second page",
        PAGE_TIMEOUT,
        r#"
        const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
        const panel = document.querySelector('.load-panel');
        const failures = Array.from(document.querySelectorAll('.load-panel .load-failure'));
        if (!panel || failures.length === 0) return null;
        if (text(panel.querySelector('.panel-title')) !== 'Loading stopped early') return null;
        return {
          runs: failures.map((f) => f.closest('.load-run').getAttribute('data-run-id')),
          context: text(failures[0].querySelector('.error-context')),
          title: text(failures[0].querySelector('.error-title')),
          message: text(failures[0].querySelector('.error-message')),
          lists: Array.from(failures[0].closest('.load-run').querySelectorAll('.load-list')).map(
            (li) => [text(li.querySelector('.load-list-name')), text(li.querySelector('.load-list-text'))]),
        };
        "#,
        vec![],
    )
    .await?;
    check(failure["runs"] == serde_json::json!([FAILING_RUN]), || {
        format!("the load panel shows failures of {}", failure["runs"])
    })?;
    let context = failure["context"].as_str().unwrap_or_default();
    check(
        context == format!("{display_name} — trajectory rewards"),
        || format!("the failure is about {context:?}, expected the run {display_name:?}"),
    )?;
    check(
        failure["title"].as_str() == Some("The server failed (HTTP 500)"),
        || format!("the failure's title is {}", failure["title"]),
    )?;
    // The first page (200 items) was read, the second failed; the other lists are complete.
    let lists: Vec<(String, String)> = serde_json::from_value(failure["lists"].clone())?;
    for (name, text) in &lists {
        let fine = if name == "trajectory rewards" {
            text.starts_with("1 page · 200 of at most ") && text.ends_with("stopped: a page failed")
        } else {
            text.ends_with(" · done")
        };
        check(fine, || format!("the failing run's lists show {lists:?}"))?;
    }
    check(
        lists.iter().any(|(name, _)| name == "trajectory rewards"),
        || format!("the failing run's lists show {lists:?}"),
    )?;
    // Meanwhile the report is computed from what was read, with the run marked incomplete.
    wait_js(
        browser,
        "the partial report marking the run incomplete",
        PAGE_TIMEOUT,
        "const row = document.querySelector(`table.runs-summary tr[data-run-id='${arguments[0]}']`); return !!row && !!row.querySelector('.incomplete');",
        vec![FAILING_RUN.into()],
    )
    .await?;

    click_button(browser, Some(".load-panel"), "Retry").await?;
    wait_for_report(browser).await?;
    let incomplete = js(
        browser,
        "return document.querySelectorAll('table.runs-summary .incomplete').length;",
        vec![],
    )
    .await?;
    check(incomplete == 0, || {
        format!("{incomplete} runs are still marked incomplete after Retry")
    })?;
    let (cli, _) = cli_report_json(server.base_url(), "eval_base_v2", &candidates, &[], None)?;
    let (_, _, exported) = download_report_json(browser, downloads).await?;
    check_same_report(&exported, &cli, "after Retry")?;
    check_cards(&headline_cards(browser).await?, &cli)?;
    check_run_rows(&run_summary_rows(browser).await?, &cli)
}

#[tokio::test]
async fn a_failed_page_names_the_run_and_retry_completes_the_report() -> Result<(), BoxError> {
    // The client tries each request three times: fail the three tries of the second page of
    // the run's trajectory rewards with a 500, and let the fifth request (Retry) through.
    let path = format!("/api/v1/eval/{FAILING_RUN}/trajectory-rewards");
    let faults: Vec<String> = (2..=4)
        .map(|nth| format!("5xx:status=500:path={path}:nth={nth}"))
        .collect();
    // The page reads the contract's pages here (`--no-list-streams`): the server's streamed
    // lists retry a failed page themselves and resume (crates/core/tests/load_stream.rs and
    // crates/server/tests/list_streams.rs test that path).
    let mut args: Vec<&str> = DEMO.to_vec();
    args.push("--no-list-streams");
    for fault in &faults {
        args.extend(["--fault", fault.as_str()]);
    }
    let server = Server::start_demo(&args)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("retry")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = page_error_then_retry(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}

/// Fails when a JavaScript dialog is open (an injected `alert` ran) or injected markup is in
/// the page.
async fn check_no_injection(browser: &Client, what: &str) -> Result<(), BoxError> {
    if let Ok(text) = browser.get_alert_text().await {
        return Err(format!("{what}: a script ran and opened an alert ({text:?})").into());
    }
    let injected = js(
        browser,
        r#"
        return {
          images: document.querySelectorAll('img[src="x"], [onerror]').length,
          scripts: document.querySelectorAll('body script, .app-main script').length,
          pwned: window.__e2ePwned === true,
          title: document.title,
        };
        "#,
        vec![],
    )
    .await?;
    check(
        injected["images"] == 0 && injected["scripts"] == 0 && injected["pwned"] == false,
        || format!("{what}: injected markup or script in the page: {injected}"),
    )
}

/// The lines of the "Part of this link was ignored" notice.
async fn ignored_lines(browser: &Client) -> Result<Vec<String>, BoxError> {
    let value = wait_js(
        browser,
        "the notice of the ignored query",
        PAGE_TIMEOUT,
        r#"
        const notice = document.querySelector('.notice-caution');
        if (!notice || !notice.textContent.includes('Part of this link was ignored')) return null;
        return Array.from(notice.querySelectorAll('li')).map((li) => li.textContent.trim());
        "#,
        vec![],
    )
    .await?;
    Ok(serde_json::from_value(value)?)
}

/// Checks that some ignored line names `param` and says `reason`.
fn check_ignored(lines: &[String], param: &str, reason: &str) -> Result<(), BoxError> {
    let prefix = format!("ignored `{param}`:");
    check(
        lines
            .iter()
            .any(|line| line.starts_with(&prefix) && line.contains(reason)),
        || format!("no notice line says {prefix} … {reason:?}; the notice lists {lines:#?}"),
    )
}

/// The page still works after a hostile link: the link to the picker opens it with its runs.
async fn check_app_alive(browser: &Client) -> Result<(), BoxError> {
    browser
        .find(Locator::Css(".app-header a[href='/']"))
        .await?
        .click()
        .await?;
    wait_js(
        browser,
        "the picker after a hostile link",
        PAGE_TIMEOUT,
        "return location.pathname === '/' && document.querySelectorAll('table.runs-table tr[data-run-id]').length > 0;",
        vec![],
    )
    .await?;
    Ok(())
}

async fn hostile_queries(browser: &Client, server: &Server) -> Result<(), BoxError> {
    let base = server.base_url();
    let script = "<script>window.__e2ePwned=true;alert(1)</script>";
    let image = "<img src=x onerror=\"window.__e2ePwned=true;alert(2)\">";

    // 1. Control characters, markup, unknown and out-of-range values, a key-like parameter.
    let hostile = format!(
        "{base}/compare?baseline=%00{script}&base=%00{script}&cand=eval_ckpt_s400&seed=-1\
         &sort=DROP&B=1e99&ci=100&focus=99999999999999999999999&filter={image}\
         &api_key=not-a-key&{image}=1"
    );
    browser.goto(&hostile).await?;
    let lines = ignored_lines(browser).await?;
    check_ignored(&lines, "baseline", "not a parameter of this page")?;
    check_ignored(&lines, "base", "control characters")?;
    check_ignored(&lines, "seed", "is not a whole number")?;
    check_ignored(&lines, "sort", "unknown sort `DROP`")?;
    check_ignored(&lines, "B", "is not a number of resamples")?;
    check_ignored(&lines, "ci", "is not a confidence level")?;
    check_ignored(&lines, "focus", "is not a candidate index")?;
    check_ignored(&lines, "filter", "unknown filter")?;
    check_ignored(&lines, "api_key", "API keys are never read from links")?;
    let empty = wait_js(
        browser,
        "the message that the link names no baseline",
        SHORT_TIMEOUT,
        "const e = document.querySelector('.app-main .empty-state'); return e ? e.textContent : null;",
        vec![],
    )
    .await?;
    check(
        empty
            .as_str()
            .is_some_and(|text| text.contains("This link names no baseline run.")),
        || format!("the page says {empty}"),
    )?;
    check_no_injection(browser, "hostile parameters").await?;

    // 2. Markup and a dot-segment as run ids: each run's failure names it, as text.
    let ids = [script.to_owned(), image.to_owned(), "..".to_owned()];
    browser
        .goto(&format!(
            "{base}/compare?base={}&cand={},{}",
            url_encoded(&ids[0]),
            url_encoded(&ids[1]),
            url_encoded(&ids[2])
        ))
        .await?;
    let failures = wait_js(
        browser,
        "a failure for each hostile run id",
        PAGE_TIMEOUT,
        r#"
        const runs = Array.from(document.querySelectorAll('.load-panel .load-run'));
        if (runs.length !== 3 || runs.some((run) => !run.querySelector('.load-failure'))) return null;
        return runs.map((run) => [run.getAttribute('data-run-id'), run.querySelector('.run-id').textContent,
                                  run.querySelector('.load-failure').textContent]);
        "#,
        vec![],
    )
    .await?;
    let failures: Vec<(String, String, String)> = serde_json::from_value(failures)?;
    for ((attribute, shown, failure), id) in failures.iter().zip(&ids) {
        check(
            attribute == id && shown == id && failure.contains(id.as_str()),
            || format!("the failure of run {id:?} shows {attribute:?} / {shown:?}: {failure:?}"),
        )?;
    }
    check_no_injection(browser, "hostile run ids").await?;

    // 3. Absurd lengths: one id over the limit, and a query over the limit.
    let long_id = "r".repeat(300);
    browser
        .goto(&format!(
            "{base}/compare?base={long_id}&cand=eval_ckpt_s400"
        ))
        .await?;
    check_ignored(
        &ignored_lines(browser).await?,
        "base",
        "longer than 256 characters",
    )?;
    let long_query = format!(
        "{base}/compare?base=eval_base_v2&cand={}",
        "eval_ckpt_s400,".repeat(2_000)
    );
    browser.goto(&long_query).await?;
    check_ignored(
        &ignored_lines(browser).await?,
        "(query)",
        "over the limit of 16384",
    )?;
    check_no_injection(browser, "absurd lengths").await?;
    check_app_alive(browser).await
}

/// `text` percent-encoded for a query value (everything but unreserved characters).
fn url_encoded(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

#[tokio::test]
async fn a_hostile_query_shows_a_message_and_runs_no_script() -> Result<(), BoxError> {
    let server = Server::start_demo(DEMO)?;
    let driver = ChromeDriver::start()?;
    let browser = driver.open_browser().await?;
    let outcome = hostile_queries(&browser, &server).await;
    finish(browser, outcome).await
}

/// The demo's API key in the key test: distinctive, so any copy of it is found.
const API_KEY: &str = "e2e-SECRET-4f9c1a7d2b6e";

/// Every place of the page the key must not reach: the URL, every link and URL-like attribute,
/// the whole markup, every field's value and localStorage.
async fn check_key_absent_from_page(browser: &Client, where_: &str) -> Result<(), BoxError> {
    let found = js(
        browser,
        r#"
        const key = arguments[0];
        const found = [];
        if (location.href.includes(key)) found.push('location: ' + location.href);
        for (const a of document.querySelectorAll('a[href]')) {
          if (a.href.includes(key) || a.getAttribute('href').includes(key)) found.push('link: ' + a.getAttribute('href'));
        }
        for (const e of document.querySelectorAll('[src], [action], [data-href]')) {
          if (e.outerHTML.includes(key)) found.push('attribute: ' + e.outerHTML.slice(0, 200));
        }
        if (document.documentElement.outerHTML.includes(key)) found.push('markup');
        for (const input of document.querySelectorAll('input, textarea')) {
          if ((input.value || '').includes(key)) found.push('field: ' + (input.id || input.name || input.type));
        }
        for (let i = 0; i < localStorage.length; i++) {
          const name = localStorage.key(i);
          if ((localStorage.getItem(name) || '').includes(key)) found.push('localStorage: ' + name);
        }
        if (document.title.includes(key)) found.push('title');
        return { found, links: document.querySelectorAll('a[href]').length,
                 in_session_storage: Object.keys(sessionStorage).some((k) => (sessionStorage.getItem(k) || '').includes(key)) };
        "#,
        vec![API_KEY.into()],
    )
    .await?;
    check(value_is_empty_array(&found["found"]), || {
        format!("{where_}: the API key is in {}", found["found"])
    })?;
    check(found["links"].as_u64().unwrap_or(0) > 0, || {
        format!("{where_}: the page has no link to check")
    })?;
    // The control: the key the user typed is kept for the tab, where the check above would
    // have found it, had it leaked into the page.
    check(found["in_session_storage"] == true, || {
        format!("{where_}: the typed key is not in sessionStorage; was it saved at all?")
    })
}

fn value_is_empty_array(value: &Value) -> bool {
    value.as_array().is_some_and(Vec::is_empty)
}

async fn key_never_leaks(
    browser: &Client,
    server: &Server,
    downloads: &Path,
) -> Result<(), BoxError> {
    browser.goto(&format!("{}/", server.base_url())).await?;
    // Without the key the API refuses; the error offers the key field.
    let title = error_panel_title(browser, PAGE_TIMEOUT).await?;
    check(title == "The API refused access", || {
        format!("without a key the page says {title:?}")
    })?;
    click_button(browser, Some(".error-panel"), "Enter API key").await?;
    let field = browser
        .wait()
        .at_most(SHORT_TIMEOUT)
        .for_element(Locator::Css("#source-key"))
        .await?;
    field.send_keys(API_KEY).await?;
    click_button(browser, Some(".source-panel"), "Save key").await?;
    wait_js(
        browser,
        "the key saved for this tab",
        SHORT_TIMEOUT,
        "const s = document.querySelector('.key-status'); return !!s && s.textContent.includes('kept for this tab');",
        vec![],
    )
    .await?;
    picker_choice(browser).await?;
    check_key_absent_from_page(browser, "the picker").await?;

    click_button(browser, Some(".compare-bar"), "Compare").await?;
    wait_for_report(browser).await?;
    check_key_absent_from_page(browser, "the report").await?;
    let url = current_url(browser).await?;
    let (baseline, candidates) = runs_of(&url)?;

    let copied = copy_link(browser).await?;
    check(!copied.contains(API_KEY), || {
        format!("Copy link copied the key: {copied}")
    })?;
    check(copied == url.as_str(), || {
        format!("Copy link copied {copied:?}, the page is at {url}")
    })?;
    let by_hand = copy_link_by_hand(browser).await?;
    check(by_hand == url.as_str(), || {
        format!("the link to copy by hand is {by_hand:?}, the page is at {url}")
    })?;
    let (json_name, json_text, exported) = download_report_json(browser, downloads).await?;
    check(!json_text.contains(API_KEY), || {
        format!("{json_name} contains the API key")
    })?;
    let (csv_name, csv) = download(browser, downloads, "Download CSV", "csv").await?;
    check(!csv.contains(API_KEY), || {
        format!("{csv_name} contains the API key")
    })?;
    check(!csv.is_empty() && json_text.len() > 1_000, || {
        "the exports are empty".to_owned()
    })?;
    check_key_absent_from_page(browser, "the report after copying and exporting").await?;

    // The CLI reads the same runs with the key from its environment, and prints no key either.
    let (cli, cli_text) = cli_report_json(
        server.base_url(),
        &baseline,
        &candidates,
        &[],
        Some(API_KEY),
    )?;
    check(!cli_text.contains(API_KEY), || {
        "the CLI's report contains the API key".to_owned()
    })?;
    check_same_report(&exported, &cli, "with an API key")?;

    // Back to the picker through the report's own link: still no key anywhere.
    browser
        .find(Locator::XPath(
            "//div[@class='report-actions']//a[normalize-space()='Change runs']",
        ))
        .await?
        .click()
        .await?;
    picker_choice(browser).await?;
    check_key_absent_from_page(browser, "the picker after Change runs").await
}

#[tokio::test]
async fn the_api_key_never_reaches_a_url_a_link_or_an_export() -> Result<(), BoxError> {
    let mut args = DEMO.to_vec();
    args.extend(["--demo-key", API_KEY]);
    let server = Server::start_demo(&args)?;
    let driver = ChromeDriver::start()?;
    let downloads = TempDir::new("key")?;
    let browser = driver.open_browser_downloading_to(downloads.path()).await?;
    let outcome = key_never_leaks(&browser, &server, downloads.path()).await;
    finish(browser, outcome).await
}
