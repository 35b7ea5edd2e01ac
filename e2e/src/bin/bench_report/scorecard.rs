//! `--scorecard Q`: how long a training run's scorecard (`/scorecard?Q`, e.g.
//! `training=train_codefix_grpo`) takes to show after opening its link in a fresh browser, the
//! longest main-thread task meanwhile, and the API requests it made per run.
//!
//! At scale: `--server-arg=--demo-scale --server-arg=500x4 --server-arg=--demo-scorecard
//! --server-arg=10x500` (10 checkpoints × 6 benchmarks × ~500 tasks × 4 samples).
//!
//! Per iteration it prints: `grid` the grid first painted (the animation frame after it
//! entered the DOM), `cell` the first compared cell in the DOM, `built` every comparison made
//! (the "Computing the scorecard" status gone, the grid painted after it), the longest
//! main-thread task of the load (before the grid) and of the build (after it), how many
//! passed 200 ms, the wasm memory's peak and the API requests made until built. After the last
//! iteration, the requests per run (and per benchmark's task list, per agent listing): the
//! record reads, and each list's readings (a reading is a request without a `cursor`: a list
//! read twice shows 2) and requests; a line names any run whose record or list was read more
//! than once (a running run's record is read again by the page's refresh every 10 s; its lists
//! go on from their cursor, no new reading). `--cpu-profile FILE` profiles the last iteration
//! from navigation to built; `--screenshots DIR` saves the built scorecard (`--dark`).

use std::collections::BTreeMap;
use std::time::Duration;

use eval_compare_e2e::cdp::{
    prefer_color_scheme, run_before_page_scripts, start_cpu_profile, stop_cpu_profile,
};
use eval_compare_e2e::page::{finish, wait_js};
use eval_compare_e2e::{BoxError, ChromeDriver};
use fantoccini::Client;

use super::{
    load1, loadavg, save_screenshot, Collected, Options, Resource, COLLECT_JS,
    CPU_PROFILE_INTERVAL_US, PAGE_TIMEOUT, PROBE_JS,
};

/// A main-thread task longer than this is a block the scorecard must not have.
const BLOCK_MS: f64 = 200.0;

/// Installed after [`PROBE_JS`]: marks the scorecard's phases into `window.__bench.marks`.
const SCORECARD_PROBE_JS: &str = r#"
(() => {
  const b = window.__bench;
  if (!b || b.scorecard_probe) return;
  b.scorecard_probe = true;
  const mark = (name) => { if (!(name in b.marks)) b.marks[name] = performance.now(); };
  const framed = (name) => {
    if (name in b.marks) return;
    mark(name);
    requestAnimationFrame(() => mark(name + '_frame'));
  };
  const check = () => {
    const grid = document.querySelector('.scorecard-grid');
    if (!grid) return;
    framed('grid');
    if (grid.querySelector('a.scorecard-delta')) mark('first_cell');
    const computing = Array.from(document.querySelectorAll('.scorecard-page .loading'))
      .some((e) => /Computing the scorecard/.test(e.textContent));
    const pending = Array.from(grid.querySelectorAll('.scorecard-delta'))
      .some((e) => e.textContent.trim() === '…');
    if (!computing && !pending) {
      framed('built');
      b.scorecard_cells = grid.querySelectorAll('td.scorecard-cell').length;
      b.scorecard_compared = grid.querySelectorAll('a.scorecard-delta').length;
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})();
"#;

/// Done once the scorecard was built and painted, or the page shows a failure.
const BUILT_JS: &str = r#"
const b = window.__bench;
if (!b) return null;
return 'built_frame' in b.marks || 'failure' in b.marks;
"#;

/// The grid's cells and how many were compared, as the probe saw them when built.
const CELLS_JS: &str = r#"
const b = window.__bench;
return [b.scorecard_cells || 0, b.scorecard_compared || 0];
"#;

/// The figures of one iteration (ms since navigation start).
#[derive(Debug, Clone, Default)]
struct ScorecardFigures {
    grid: f64,
    first_cell: f64,
    built: f64,
    load_long_max: f64,
    build_long_max: f64,
    over_block: usize,
    wasm_mb: f64,
    api: usize,
    cells: usize,
    compared: usize,
    load1: f64,
}

/// `--scorecard Q`: the warm-up and measured iterations, each in a fresh browser, then the
/// last one's requests per run.
pub(super) async fn run_scorecard(
    driver: &ChromeDriver,
    base: &str,
    query: &str,
    options: &Options,
) -> Result<(), BoxError> {
    let link = format!("{base}/scorecard?{query}");
    println!("scorecard: {link}");
    println!(
        "{} warm-up + {} measured iterations, {} ms settle after the browser opens\n",
        options.warmup,
        options.runs,
        options.settle.as_millis()
    );
    println!(
        "{:>4} {:>8} {:>8} {:>8} {:>9} {:>9} {:>6} {:>7} {:>6} {:>11} {:>6}",
        "run",
        "grid",
        "cell",
        "built",
        "loadLong",
        "buildLong",
        ">200",
        "wasmMB",
        "api#",
        "cells",
        "load1"
    );
    let mut last = None;
    let mut measured = Vec::new();
    for iteration in 0..options.warmup + options.runs {
        let warm = iteration < options.warmup;
        let profile = !warm && iteration + 1 == options.warmup + options.runs;
        let browser = driver.open_browser().await?;
        let outcome = measure_scorecard(&browser, &link, options, profile).await;
        let (figures, collected) = finish(browser, outcome).await?;
        let label = if warm {
            format!("w{}", iteration + 1)
        } else {
            format!("{}", iteration + 1 - options.warmup)
        };
        println!(
            "{:>4} {:>8.0} {:>8.0} {:>8.0} {:>9.0} {:>9.0} {:>6} {:>7.0} {:>6} {:>11} {:>6.2}",
            label,
            figures.grid,
            figures.first_cell,
            figures.built,
            figures.load_long_max,
            figures.build_long_max,
            figures.over_block,
            figures.wasm_mb,
            figures.api,
            format!("{}/{}", figures.compared, figures.cells),
            figures.load1
        );
        if !warm {
            measured.push(figures);
            last = Some(collected);
        }
    }
    if measured.len() > 1 {
        let median = |get: fn(&ScorecardFigures) -> f64| {
            let mut values: Vec<f64> = measured.iter().map(get).collect();
            super::median_of(&mut values)
        };
        println!(
            "median: grid {:.0} ms, first cell {:.0} ms, built {:.0} ms, longest task {:.0} ms",
            median(|f| f.grid),
            median(|f| f.first_cell),
            median(|f| f.built),
            median(|f| f.load_long_max.max(f.build_long_max)),
        );
    }
    if let Some(collected) = &last {
        let mut blocks: Vec<(f64, f64)> = collected
            .longtasks
            .iter()
            .copied()
            .filter(|(_, duration)| *duration > BLOCK_MS)
            .collect();
        blocks.sort_by(|a, b| b.1.total_cmp(&a.1));
        let shown: Vec<String> = blocks
            .iter()
            .take(8)
            .map(|(start, duration)| format!("{duration:.0} ms at {start:.0}"))
            .collect();
        println!(
            "last run's tasks over {BLOCK_MS:.0} ms: {}",
            if shown.is_empty() {
                "none".to_owned()
            } else {
                shown.join(", ")
            }
        );
        println!();
        print_requests(collected);
    }
    println!();
    println!("load average at end: {}", loadavg());
    println!(
        "columns: grid = the grid first painted; cell = the first compared cell in the DOM; \
         built = every comparison made and painted; loadLong / buildLong = the longest \
         main-thread task before the grid / from the grid to built; >200 = tasks over 200 ms; \
         wasmMB = the wasm memory's peak; api# = API requests until built; cells = compared of \
         all cells; load1 = 1-min load average before the iteration."
    );
    Ok(())
}

/// One iteration in `browser`: opens `link`, waits until the scorecard is built and painted.
async fn measure_scorecard(
    browser: &Client,
    link: &str,
    options: &Options,
    last: bool,
) -> Result<(ScorecardFigures, Collected), BoxError> {
    run_before_page_scripts(browser, PROBE_JS).await?;
    run_before_page_scripts(browser, SCORECARD_PROBE_JS).await?;
    if options.dark {
        prefer_color_scheme(browser, true).await?;
    }
    tokio::time::sleep(options.settle).await;
    let load1 = load1();
    let profile = options.cpu_profile.as_ref().filter(|_| last);
    if profile.is_some() {
        start_cpu_profile(browser, CPU_PROFILE_INTERVAL_US).await?;
    }
    browser.goto(link).await?;
    wait_js(
        browser,
        "the scorecard to be built",
        PAGE_TIMEOUT,
        BUILT_JS,
        vec![],
    )
    .await?;
    // The built frame's own task ends before the figures are read.
    tokio::time::sleep(Duration::from_millis(100)).await;
    if let Some(path) = profile {
        let profile = stop_cpu_profile(browser).await?;
        std::fs::write(path, serde_json::to_vec(&profile)?)
            .map_err(|error| format!("could not write {}: {error}", path.display()))?;
    }
    if let Some(shots) = options.screenshots.as_ref().filter(|_| last) {
        let name = if options.dark {
            "scorecard-dark"
        } else {
            "scorecard"
        };
        save_screenshot(browser, shots, name).await?;
    }
    let collected: Collected = serde_json::from_value(browser.execute(COLLECT_JS, vec![]).await?)?;
    if let Some(failure) = &collected.failure {
        return Err(format!("the page shows a failure: {failure}").into());
    }
    let cells: (usize, usize) = serde_json::from_value(browser.execute(CELLS_JS, vec![]).await?)?;
    let mut figures = figures_of(&collected);
    figures.load1 = load1;
    (figures.cells, figures.compared) = cells;
    Ok((figures, collected))
}

/// The figures `collected` holds.
fn figures_of(collected: &Collected) -> ScorecardFigures {
    let mark = |name: &str| collected.marks.get(name).copied().unwrap_or(f64::NAN);
    let grid = mark("grid");
    let built = mark("built_frame");
    let longest = |from: f64, to: f64| {
        collected
            .longtasks
            .iter()
            .filter(|(start, _)| *start >= from && *start < to)
            .map(|(_, duration)| *duration)
            .fold(0.0, f64::max)
    };
    ScorecardFigures {
        grid: mark("grid_frame"),
        first_cell: mark("first_cell"),
        built,
        load_long_max: longest(0.0, grid),
        build_long_max: longest(grid, built + 1.0),
        over_block: collected
            .longtasks
            .iter()
            .filter(|(start, duration)| *start <= built && *duration > BLOCK_MS)
            .count(),
        wasm_mb: collected.wasm_peak / 1e6,
        api: until_built(collected).count(),
        cells: 0,
        compared: 0,
        load1: f64::NAN,
    }
}

/// The API requests (Trajectory pages and our server's streams) started before the scorecard
/// was built.
fn until_built(collected: &Collected) -> impl Iterator<Item = &Resource> {
    let built = collected
        .marks
        .get("built_frame")
        .copied()
        .unwrap_or(f64::INFINITY);
    collected
        .resources
        .iter()
        .filter(move |r| r.start <= built)
        .filter(|r| request_of(&r.name).is_some())
}

/// What one request read: whose (a run, a benchmark's tasks, an agent's listing, or another
/// read), which part, and whether it starts a reading (no `cursor`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Request {
    owner: String,
    part: String,
    starts: bool,
}

/// The request of `url`, or `None` when it is no API read.
fn request_of(url: &str) -> Option<Request> {
    let url = url::Url::parse(url).ok()?;
    let path = url.path();
    let (streamed, rest) = if let Some(rest) = path.strip_prefix("/stream/v1/") {
        (true, rest)
    } else if let Some(rest) = path.strip_prefix("/api/v1/") {
        (false, rest)
    } else {
        return None;
    };
    let param = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    let starts = param("cursor").is_none();
    let segments: Vec<String> = rest.split('/').map(percent_decoded).collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let (owner, part) = match segments.as_slice() {
        ["eval", "options"] => ("other".to_owned(), "evaluation defaults".to_owned()),
        ["eval", run] => (format!("run {run}"), "record".to_owned()),
        ["eval", run, list] => (format!("run {run}"), (*list).to_owned()),
        ["trajectories"] => match param("eval_run_id") {
            Some(run) => (format!("run {run}"), "trajectories".to_owned()),
            None => ("other".to_owned(), "trajectories".to_owned()),
        },
        ["benchmarks", bench, "tasks"] => (format!("tasks {bench}"), "tasks".to_owned()),
        ["agents", agent, "evaluation-runs"] => {
            let filter: Vec<String> = url
                .query_pairs()
                .filter(|(key, _)| key != "cursor" && key != "limit")
                .map(|(key, value)| format!("{key}={value}"))
                .collect();
            (
                format!("agent {agent}"),
                format!("listing {}", filter.join("&")),
            )
        }
        _ => ("other".to_owned(), path.to_owned()),
    };
    let part = if streamed {
        format!("{part} (stream)")
    } else {
        part
    };
    Some(Request {
        owner,
        part,
        starts,
    })
}

/// `segment` with its `%XX` escapes decoded (ids are ASCII in the demo).
fn percent_decoded(segment: &str) -> String {
    url::form_urlencoded::parse(format!("x={segment}").as_bytes())
        .next()
        .map(|(_, value)| value.into_owned())
        .unwrap_or_else(|| segment.to_owned())
}

/// Per owner and part: (readings, requests).
type Counts = BTreeMap<String, BTreeMap<String, (usize, usize)>>;

/// The requests of `collected` until built, counted per owner and part.
fn counts_of(collected: &Collected) -> Counts {
    let mut counts = Counts::new();
    for resource in until_built(collected) {
        let Some(request) = request_of(&resource.name) else {
            continue;
        };
        let entry = counts
            .entry(request.owner)
            .or_default()
            .entry(request.part)
            .or_default();
        entry.0 += usize::from(request.starts);
        entry.1 += 1;
    }
    counts
}

/// Prints the requests per run, benchmark and listing, and which were read more than once.
fn print_requests(collected: &Collected) {
    let counts = counts_of(collected);
    let runs = counts
        .keys()
        .filter(|owner| owner.starts_with("run "))
        .count();
    println!("API requests until built, per run (part: readings/requests; a reading starts without a cursor):");
    let mut twice = Vec::new();
    for (owner, parts) in &counts {
        let shown: Vec<String> = parts
            .iter()
            .map(|(part, (readings, requests))| format!("{part} {readings}/{requests}"))
            .collect();
        println!("  {owner}: {}", shown.join(", "));
        for (part, (readings, _)) in parts {
            if *readings > 1 && owner != "other" {
                twice.push(format!("{owner} {part} ×{readings}"));
            }
        }
    }
    println!(
        "{runs} runs read; read more than once: {}",
        if twice.is_empty() {
            "none".to_owned()
        } else {
            twice.join("; ")
        }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_name_their_run_part_and_reading() {
        let request = |url: &str| request_of(url).expect("an API request");
        assert_eq!(
            request("http://h/api/v1/eval/er_1"),
            Request {
                owner: "run er_1".into(),
                part: "record".into(),
                starts: true
            }
        );
        assert_eq!(
            request("http://h/api/v1/trajectories?eval_run_id=er%202&limit=500&cursor=c1"),
            Request {
                owner: "run er 2".into(),
                part: "trajectories".into(),
                starts: false
            }
        );
        assert_eq!(
            request("http://h/stream/v1/eval/er_3/trajectory-rewards?cursor=c2").part,
            "trajectory-rewards (stream)"
        );
        assert_eq!(
            request("http://h/api/v1/agents/ag/evaluation-runs?training_run_id=t&limit=100").part,
            "listing training_run_id=t"
        );
        assert_eq!(
            request("http://h/api/v1/benchmarks/b%2F1/tasks").owner,
            "tasks b/1"
        );
        assert!(request_of("http://h/pkg-1/app.wasm").is_none());
    }
}
