//! `bench-report`: how long the demo report takes to show after opening its share link, in real
//! headless Chromium, each time in a fresh browser session (a new profile: empty HTTP cache, no
//! compiled-wasm cache, no storage).
//!
//! ```sh
//! cargo run -p eval-compare-e2e --release --bin bench-report -- [--runs N] [--url-query Q]
//! ```
//!
//! At scale: `--server-arg=--demo-scale --server-arg=100000x8` serves the demo with 100,000
//! tasks of 8 samples (opening the link is the Compare; `table`, `longMax` and `wasmMB` say
//! when the task table appeared, the longest main-thread block and the tab's wasm memory).
//!
//! Flags: `--runs N` measured iterations (default 10); `--warmup N` unmeasured ones first
//! (default 1); `--url-query Q` the report's query (`base=…&cand=…`) instead of the picker's
//! default comparison; `--running-eval-secs S` passed to the server (without it the demo's
//! running evaluation is live, as in `scripts/demo.sh`); `--server-arg ARG` (repeatable) any
//! other server flag, e.g. `--server-arg=--fault --server-arg=latency:ms=20`; `--settle-ms MS`
//! pause between opening the browser and navigating (default 1000: the browser's own start-up
//! work is not measured); `--json` also prints each iteration's raw figures as JSON lines;
//! `--replay` then replays the iteration's API requests from plain JavaScript in the same page
//! (same order and concurrency as the loader, bodies parsed with `JSON.parse`): the floor of the
//! API phase without the viewer's work per page (column `replay`); `--replay-without SUBSTR`
//! replays only the requests whose URL does not contain SUBSTR (what if a list were not read);
//! `--cpu-profile FILE` writes the CPU profile of the page from navigation to the full report,
//! and through `--interactions` and `--then-url-query` when given (DevTools' `.cpuprofile`;
//! `scripts/bench/profile_blocks.py FILE` names what fills each long main-thread block). Names of wasm functions need a build that keeps them: `scripts/build-viewer.sh`
//! with `EVAL_COMPARE_KEEP_NAMES=1`. `--replay-in-worker` replays from a worker instead, the
//! page parsing each body: the floor of the API phase with the requests off the main thread.
//! `--replay-bytes` replays reading each body as bytes, none parsed: the floor the requests
//! alone set (the browser's work per request and the server's).
//! `--then-url-query Q` (repeatable), after the first report, opens comparison Q in the same
//! tab as a link inside the app does, and prints how long its report took, the wasm memory's
//! peak so far and the longest main-thread task since: whether switching comparisons grows
//! the memory. `--interactions` then times the table's filters, sort, search, focus switch
//! (with several candidates) and scrolling, each from the input to the next paint.
//!
//! `--files DIR --url-query Q` measures the Files page instead: in a fresh browser each time,
//! DIR is picked with the folder picker (every run folder under it is read), then
//! `/files/compare?Q` is opened inside the app; it prints how long the reading took, the
//! comparison's headline, table and full report after Compare, the longest main-thread task of
//! each phase (and how many passed 200 ms), and the wasm memory's peak; then it opens the
//! folder and the comparison again in the same tab, `--files-rounds N` times in all (default
//! 3: does the memory grow?); `--screenshots DIR` saves a picture of the reading and of each
//! report (without `--files`: of the load once its lists are a third read, and of the report;
//! `--dark` in dark mode); `--cpu-profile FILE` profiles the first round, from the
//! pick to the report.
//!
//! `--scorecard Q` measures the scorecard `/scorecard?Q` instead (`scorecard.rs`).
//!
//! `--proxy` measures the link behind `eval-compare-server --upstream` with its finished-run
//! cache, cold then warm (`proxy.rs`; `--proxy-arg ARG` passes a flag to the proxy,
//! `--count-upstream` counts the requests that reach the upstream).
//!
//! Environment: `EVAL_COMPARE_SERVER_BIN` (default: the first of `target/{server,release,debug}/
//! eval-compare-server` that exists; `scripts/demo.sh` builds the `server` profile), `EVAL_COMPARE_DIST` (default `dist`), `CHROMEDRIVER`,
//! `CHROME_BIN`.
//!
//! Times are milliseconds since navigation start (`performance.now()` in the page). A script
//! installed before any page script runs (CDP `Page.addScriptToEvaluateOnNewDocument`) records
//! when things appear with a MutationObserver, times `WebAssembly.instantiate*`, and collects
//! long tasks; the Resource Timing entries give the downloads and API requests. WebDriver only
//! collects the figures at the end, so its polling latency is not part of any measurement.

#[path = "bench_report/proxy.rs"]
mod proxy;
#[path = "bench_report/scorecard.rs"]
mod scorecard;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use eval_compare_e2e::cdp::{
    bypass_csp, prefer_color_scheme, run_before_page_scripts, start_cpu_profile, stop_cpu_profile,
};
use eval_compare_e2e::page::{finish, poll, wait_js};
use eval_compare_e2e::{viewer_dist, workspace_root, BoxError, ChromeDriver, Server};
use fantoccini::{Client, Locator};
use serde::Deserialize;
use serde_json::{json, Value};

/// The product requirement: the report is visible this soon after opening the link.
const TARGET_MS: f64 = 1500.0;
/// How long one page may take before the iteration counts as failed.
const PAGE_TIMEOUT: Duration = Duration::from_secs(600);

/// The CPU profiler's sampling interval with `--cpu-profile`, in microseconds.
const CPU_PROFILE_INTERVAL_US: u32 = 1000;

/// Installed in every new document before its own scripts: records into `window.__bench`.
const PROBE_JS: &str = r#"
(() => {
  if (window.__bench) return;
  const b = window.__bench = { marks: {}, longtasks: [], wasm: [], elements: [], status: null, cards: 0,
    memories: [], wasm_peak: 0 };
  // The wasm memory's size, sampled: it only grows, so the last sample is the peak.
  const sample = () => { for (const m of b.memories) b.wasm_peak = Math.max(b.wasm_peak, m.buffer.byteLength); };
  setInterval(sample, 50);
  const mark = (name) => { if (!(name in b.marks)) b.marks[name] = performance.now(); };
  try { performance.setResourceTimingBufferSize(100000); } catch (e) {}
  // The observers' callbacks wait for an idle moment, which a page busy with slices may not
  // have for seconds: `b.flush()` takes what they hold before any figure is read.
  const observers = [];
  b.flush = () => { for (const [o, take] of observers) o.takeRecords().forEach(take); };
  const observe = (type, take) => {
    try {
      const o = new PerformanceObserver((list) => list.getEntries().forEach(take));
      o.observe({ type, buffered: true });
      observers.push([o, take]);
    } catch (e) {}
  };
  observe('longtask', (e) => b.longtasks.push([e.startTime, e.duration]));
  observe('element', (e) => b.elements.push([e.identifier, e.renderTime || e.loadTime]));
  for (const name of ['instantiateStreaming', 'instantiate', 'compileStreaming', 'compile']) {
    const original = WebAssembly[name];
    if (typeof original !== 'function') continue;
    WebAssembly[name] = function (...args) {
      const start = performance.now();
      const result = original.apply(this, args);
      result.then((r) => {
        b.wasm.push([name, start, performance.now()]);
        const exports = ((r && r.instance) || r || {}).exports || {};
        for (const value of Object.values(exports)) {
          if (value instanceof WebAssembly.Memory) b.memories.push(value);
        }
      }, () => {});
      return result;
    };
  }
  addEventListener('EvalCompareStarted', () => mark('app_started'));
  const hasDigits = (e) => !!e && /\d/.test(e.textContent);
  const check = () => {
    if (document.querySelector('.app-main')) mark('app_dom');
    if (document.querySelector('.load-panel')) mark('load_panel');
    else if ('load_panel' in b.marks) mark('load_panel_gone');
    const cards = Array.from(document.querySelectorAll('article.headline-card'));
    for (const card of cards) {
      const delta = card.querySelector('.headline-delta');
      if (delta && !delta.hasAttribute('elementtiming')) delta.setAttribute('elementtiming', 'headline-delta');
    }
    if (cards.length > 0 && !('cards' in b.marks)
        && cards.every((card) => hasDigits(card.querySelector('.headline-delta')))) {
      mark('cards');
      b.cards = cards.length;
      requestAnimationFrame(() => mark('cards_frame'));
    }
    if (document.querySelector('.task-table tbody tr')) mark('table');
    // The Files page: a reading of picked folders shows a status in the drop zone until done.
    if (document.querySelector('.drop-zone [role=status]')) mark('files_reading');
    else if ('files_reading' in b.marks) mark('files_read');
    sample();
    const status = document.querySelector('.settings-status');
    // After an in-app switch (--then-url-query), the previous report's status must go first.
    if (b.await_gone && !status) b.await_gone = false;
    if (!b.await_gone && status && /drawing it \(B =/.test(status.textContent) && !('bootstrap' in b.marks)) {
      mark('bootstrap');
      b.status = status.textContent.replace(/\s+/g, ' ').trim();
    }
    const failure = document.querySelector('.error-panel, .load-failure, .app-main .empty-state');
    if (failure && !b.failure) {
      mark('failure');
      b.failure = failure.textContent.replace(/\s+/g, ' ').trim().slice(0, 300);
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})();
"#;

/// Whether the page is done (the bootstrap report shown) or failed.
const DONE_JS: &str = r#"
const b = window.__bench;
if (!b) return null;
return ('bootstrap' in b.marks && 'cards_frame' in b.marks) || 'failure' in b.marks;
"#;

/// `--then-url-query`: opens another comparison in the same tab, as a link inside the app
/// does (the router follows `popstate`), and forgets the previous report's bootstrap mark.
/// The switch runs in a task of its own, as a click's would: work done inside WebDriver's own
/// script call is not seen by the long-task observer.
const OPEN_IN_APP_JS: &str = r#"
const b = window.__bench;
const path = arguments[0];
delete b.marks.bootstrap;
b.status = null;
b.await_gone = true;
b.opened_at = performance.now();
setTimeout(() => {
  b.opened_at = performance.now();
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate', { state: null }));
}, 0);
"#;

/// After [`OPEN_IN_APP_JS`]: the comparison's report with its bootstrap, how long it took, the
/// wasm memory's peak and the longest main-thread task since the switch; `null` until done.
const OPENED_JS: &str = r#"
const b = window.__bench;
b.flush();
if (b.failure) return { failure: b.failure };
if (!('bootstrap' in b.marks)) return null;
const since = b.longtasks.filter(([start]) => start >= b.opened_at).map(([, d]) => d);
return { ms: b.marks.bootstrap - b.opened_at, wasm_mb: b.wasm_peak / 1e6,
  long_max: since.length ? Math.max(...since) : 0 };
"#;

/// `--interactions`: each table interaction a reader makes, timed from the input to the next
/// paint after it (an animation frame, then a task), as Interaction to Next Paint counts it;
/// `arguments[0]` is called with `[[name, ms], …]`. Each waits for its change to show (the
/// task count, the sort attribute, the first row drawn) before the next.
const INTERACTIONS_JS: &str = r#"
const done = arguments[arguments.length - 1];
const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const count = () => (document.querySelector('.task-table .task-count') || {}).textContent;
const firstRow = () => { const row = document.querySelector('.task-table tbody tr[data-task-id]'); return row && row.getAttribute('data-task-id'); };
const results = [];
const timed = async (name, act, changed) => {
  await painted();
  const before = { count: count(), row: firstRow() };
  const start = performance.now();
  act();
  await painted();
  let ms = performance.now() - start;
  for (let i = 0; i < 200 && !changed(before); i++) { await painted(); ms = performance.now() - start; }
  results.push([name, changed(before) ? ms : -1]);
};
const click = (selector) => () => document.querySelector(selector).click();
const search = (text) => () => {
  const input = document.querySelector('.task-table .filter-input');
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  // Enter applies the search at once (typing alone waits for the debounce).
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
};
const scroller = () => document.querySelector('.task-table .task-scroll');
(async () => {
  await timed('filter regressions', click('.task-table .filter-button[data-filter="regressions"]'), (b) => count() !== b.count);
  await timed('filter all', click('.task-table .filter-button[data-filter="all"]'), (b) => count() !== b.count);
  await timed('sort by task', click('.task-table th[data-sort-key="task"] .sort-button'), (b) => firstRow() !== b.row);
  await timed('sort by task again', click('.task-table th[data-sort-key="task"] .sort-button'), (b) => firstRow() !== b.row);
  await timed('search (Enter)', search('task-01234'), (b) => count() !== b.count);
  await timed('search cleared (Enter)', search(''), (b) => count() !== b.count);
  // With several candidates: the table and per-task charts switched to the next one.
  const focusChoices = document.querySelectorAll('.focus-selector input[type="radio"]');
  const deltaHead = () => (document.querySelector('.task-table th.col-head-delta .head-name') || {}).textContent;
  if (focusChoices.length > 1) {
    const other = Array.from(focusChoices).find((input) => !input.checked);
    const before = deltaHead();
    await timed('focus switch', () => other.click(), () => deltaHead() !== before);
  }
  await timed('scroll 40,000 px', () => { scroller().scrollTop += 40000; }, (b) => firstRow() !== b.row);
  await timed('scroll to the end', () => { scroller().scrollTop = scroller().scrollHeight; }, (b) => firstRow() !== b.row);
  done(results);
})().catch((e) => done([['failed: ' + e, -1]]));
"#;

/// Everything the page recorded.
const COLLECT_JS: &str = r#"
const b = window.__bench;
b.flush();
const nav = performance.getEntriesByType('navigation')[0];
return {
  marks: b.marks, longtasks: b.longtasks, wasm: b.wasm, elements: b.elements,
  status: b.status, cards: b.cards, failure: b.failure || null, wasm_peak: b.wasm_peak,
  nav: nav ? { response_end: nav.responseEnd, dom_content_loaded: nav.domContentLoadedEventEnd,
               load: nav.loadEventEnd } : null,
  paints: performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]),
  resources: performance.getEntriesByType('resource').map((e) => ({
    name: e.name, initiator: e.initiatorType, start: e.startTime, request_start: e.requestStart,
    response_start: e.responseStart, end: e.responseEnd, transfer: e.transferSize,
    encoded: e.encodedBodySize, decoded: e.decodedBodySize, protocol: e.nextHopProtocol })),
};
"#;

/// What both replays start with: the page's API requests as read (`records`, each once) and
/// as lists of cursor pages (`lists`), in the order they were made, less those whose URL
/// contains `arguments[0]` (`--replay-without`).
const REPLAY_REQUESTS_JS: &str = r#"
const done = arguments[arguments.length - 1];
const without = arguments[0];
const api = performance.getEntriesByType('resource')
  .filter((e) => { const p = new URL(e.name).pathname; return p.startsWith('/api/') || p.startsWith('/v1/'); })
  .filter((e) => !without || !e.name.includes(without))
  .sort((a, b) => a.startTime - b.startTime);
const lists = new Map();
const records = [];
for (const e of api) {
  const url = new URL(e.name);
  if (!url.searchParams.has('limit')) { records.push(e.name); continue; }
  url.searchParams.delete('cursor');
  const key = url.toString();
  if (!lists.has(key)) lists.set(key, []);
  lists.get(key).push(e.name);
}
"#;

/// After [`REPLAY_REQUESTS_JS`] and a replay's `get` (one of the three below): the run
/// records first, then every list page after page (each list's pages in order, the lists
/// concurrently), as the viewer's loader does; resolves to the elapsed ms.
const REPLAY_RUN_JS: &str = r#"
const start = performance.now();
Promise.all(records.map(get))
  .then(() => Promise.all(Array.from(lists.values()).map(async (urls) => { for (const u of urls) await get(u); })))
  .then(() => done(performance.now() - start), (e) => done(-1));
"#;

/// `--replay`: the page's API requests replayed from plain JavaScript in the loaded page
/// ([`REPLAY_RUN_JS`]), each body parsed with `JSON.parse`: the floor of the API phase
/// (network, server, browser) without the viewer's work per page.
const REPLAY_JS: &str = r#"
const get = async (u) => JSON.parse(await (await fetch(u, { cache: 'no-store' })).text());
"#;

/// `--replay-bytes`: the same replay with each body read as bytes and not parsed: the floor
/// of the API phase set by the requests alone (the browser's work per request and the
/// server's), whatever any page does with the pages.
const REPLAY_BYTES_JS: &str = r#"
const get = async (u) => (await (await fetch(u, { cache: 'no-store' })).arrayBuffer()).byteLength;
"#;

/// `--replay-in-worker`: the same replay, but a worker fetches each page and hands its body to
/// the page (transferred, not copied), which parses it: the floor of the API phase with the
/// requests off the main thread. Needs a worker from a blob URL (CSP bypassed for it).
const REPLAY_WORKER_JS: &str = r#"
const source = `onmessage = async (m) => {
  const r = await fetch(m.data.url, { cache: 'no-store' });
  const body = await r.arrayBuffer();
  postMessage({ id: m.data.id, body }, [body]);
};`;
const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
const waiting = new Map();
let next = 0;
worker.onmessage = (m) => { const w = waiting.get(m.data.id); waiting.delete(m.data.id); w(m.data.body); };
const decoder = new TextDecoder();
const get = (url) => new Promise((resolve) => {
  const id = next++;
  waiting.set(id, (body) => resolve(JSON.parse(decoder.decode(body))));
  worker.postMessage({ id, url });
});
"#;

#[derive(Debug, Clone, Deserialize)]
struct Collected {
    marks: BTreeMap<String, f64>,
    longtasks: Vec<(f64, f64)>,
    wasm: Vec<(String, f64, f64)>,
    elements: Vec<(String, f64)>,
    status: Option<String>,
    cards: usize,
    failure: Option<String>,
    /// The largest size of the app's wasm memory seen, bytes.
    wasm_peak: f64,
    nav: Option<NavTiming>,
    paints: Vec<(String, f64)>,
    resources: Vec<Resource>,
}

#[derive(Debug, Clone, Deserialize)]
struct NavTiming {
    response_end: f64,
    dom_content_loaded: f64,
    #[allow(dead_code)]
    load: f64,
}

#[derive(Debug, Clone, Deserialize)]
struct Resource {
    name: String,
    #[allow(dead_code)]
    initiator: String,
    start: f64,
    request_start: f64,
    response_start: f64,
    end: f64,
    transfer: f64,
    encoded: f64,
    #[allow(dead_code)]
    decoded: f64,
    #[allow(dead_code)]
    protocol: String,
}

/// The figures of one iteration (ms since navigation start unless said otherwise).
#[derive(Debug, Clone, Default)]
struct Figures {
    load1: f64,
    /// Headline cards with numbers painted (Element Timing, else the next animation frame).
    visible: f64,
    /// Headline cards with numbers in the DOM.
    cards_dom: f64,
    /// The report with the bootstrap shown.
    bootstrap: f64,
    /// The first row of the per-task table in the DOM.
    table: f64,
    html_end: f64,
    fcp: f64,
    wasm_end: f64,
    wasm_fetch: f64,
    wasm_kb: f64,
    /// `WebAssembly.instantiate*` call to its end (compile + instantiate, overlaps the fetch).
    wasm_inst: f64,
    /// The app's `main` returned (index.html's `EvalCompareStarted`).
    app: f64,
    api_n: f64,
    api_first: f64,
    api_last: f64,
    api_kb: f64,
    /// Most API requests on the wire at once (sent, response not complete).
    api_conc: f64,
    /// Median time to first byte of an API request (request sent to first byte).
    api_ttfb: f64,
    /// Median whole duration of an API request (sent to last byte).
    api_dur: f64,
    /// Longest wait of an API request for a connection (fetch called to request sent).
    api_queue: f64,
    /// Median time between a page's response and the request of the next page of the same
    /// list: the viewer's work per page (decode, store, progress render) plus scheduling.
    api_gap: f64,
    /// The same API requests replayed from plain JavaScript (`--replay`), ms.
    replay: f64,
    /// From the last API response to the cards in the DOM: run set, report, render.
    after_api: f64,
    /// The viewer's own report timings (from its settings status line).
    view_first: f64,
    view_full: f64,
    /// Main-thread long tasks before the cards were visible: count and total.
    long_n: f64,
    long_ms: f64,
    /// The longest main-thread long task of the whole iteration (to the bootstrap shown).
    long_max: f64,
    /// The app's wasm memory at its largest, MB.
    wasm_mb: f64,
}

/// (phase of the load, the figure at which it ends)
type PhaseEnd = (&'static str, fn(&Figures) -> f64);

/// (column header, accessor, decimals)
type Column = (&'static str, fn(&Figures) -> f64, usize);

const COLUMNS: &[Column] = &[
    ("visible", |f| f.visible, 0),
    ("cardsDOM", |f| f.cards_dom, 0),
    ("boot", |f| f.bootstrap, 0),
    ("table", |f| f.table, 0),
    ("html", |f| f.html_end, 0),
    ("FCP", |f| f.fcp, 0),
    ("wasmEnd", |f| f.wasm_end, 0),
    ("wasmDL", |f| f.wasm_fetch, 0),
    ("wasmKB", |f| f.wasm_kb, 0),
    ("inst", |f| f.wasm_inst, 0),
    ("app", |f| f.app, 0),
    ("api#", |f| f.api_n, 0),
    ("api1st", |f| f.api_first, 0),
    ("apiLast", |f| f.api_last, 0),
    ("apiKB", |f| f.api_kb, 0),
    ("conc", |f| f.api_conc, 0),
    ("ttfb", |f| f.api_ttfb, 0),
    ("reqDur", |f| f.api_dur, 0),
    ("queue", |f| f.api_queue, 0),
    ("pageGap", |f| f.api_gap, 1),
    ("replay", |f| f.replay, 0),
    ("api→DOM", |f| f.after_api, 0),
    ("vFirst", |f| f.view_first, 0),
    ("vFull", |f| f.view_full, 0),
    ("long#", |f| f.long_n, 0),
    ("longMs", |f| f.long_ms, 0),
    ("longMax", |f| f.long_max, 0),
    ("wasmMB", |f| f.wasm_mb, 0),
    ("load1", |f| f.load1, 2),
];

#[derive(Debug, Clone)]
struct Options {
    runs: usize,
    warmup: usize,
    url_query: Option<String>,
    running_eval_secs: Option<String>,
    server_args: Vec<String>,
    settle: Duration,
    json: bool,
    replay: bool,
    replay_without: Option<String>,
    /// Replay from a worker instead (`--replay-in-worker`).
    replay_in_worker: bool,
    /// Replay reading the bodies as bytes, none parsed (`--replay-bytes`).
    replay_bytes: bool,
    /// Where to write the last iteration's CPU profile (`--cpu-profile FILE`).
    cpu_profile: Option<PathBuf>,
    /// Comparisons opened in the same tab after the first report, in order
    /// (`--then-url-query Q`, repeatable): their time and the wasm memory after each.
    then_queries: Vec<String>,
    /// Time the table's interactions after the first report (`--interactions`).
    interactions: bool,
    /// Open this folder on the Files page instead (`--files DIR`), then compare `--url-query`.
    files: Option<PathBuf>,
    /// How many times `--files` opens the folder and compares in the same tab
    /// (`--files-rounds N`, default 3).
    files_rounds: usize,
    /// Where to save screenshots (`--screenshots DIR`): of the load a third read and of the
    /// report, or with `--files` of the reading and of each report.
    screenshots: Option<PathBuf>,
    /// The page in dark mode (`--dark`: `prefers-color-scheme: dark`).
    dark: bool,
    /// Measure the scorecard `/scorecard?Q` instead (`--scorecard Q`, see `scorecard.rs`).
    scorecard: Option<String>,
    /// Measure behind our server as a proxy (`--proxy`, see `proxy.rs`).
    proxy: proxy::ProxyFlags,
}

fn parse_options() -> Result<Options, BoxError> {
    let mut options = Options {
        runs: 10,
        warmup: 1,
        url_query: None,
        running_eval_secs: None,
        server_args: Vec::new(),
        settle: Duration::from_millis(1000),
        json: false,
        replay: false,
        replay_without: None,
        cpu_profile: None,
        replay_in_worker: false,
        replay_bytes: false,
        then_queries: Vec::new(),
        interactions: false,
        files: None,
        files_rounds: 3,
        screenshots: None,
        dark: false,
        scorecard: None,
        proxy: proxy::ProxyFlags::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name.to_owned(), Some(value)),
            _ => (arg.clone(), None),
        };
        let mut value = || -> Result<String, BoxError> {
            match inline {
                Some(value) => Ok(value.to_owned()),
                None => args
                    .next()
                    .ok_or_else(|| format!("{name} needs a value").into()),
            }
        };
        match name.as_str() {
            "--runs" => options.runs = value()?.parse()?,
            "--warmup" => options.warmup = value()?.parse()?,
            "--url-query" => {
                options.url_query = Some(value()?.trim_start_matches('?').to_owned());
            }
            "--running-eval-secs" => options.running_eval_secs = Some(value()?),
            "--server-arg" => options.server_args.push(value()?),
            "--settle-ms" => options.settle = Duration::from_millis(value()?.parse()?),
            "--json" => options.json = true,
            "--replay" => options.replay = true,
            "--cpu-profile" => options.cpu_profile = Some(PathBuf::from(value()?)),
            "--interactions" => options.interactions = true,
            "--files" => options.files = Some(PathBuf::from(value()?)),
            "--files-rounds" => options.files_rounds = value()?.parse::<usize>()?.max(1),
            "--screenshots" => options.screenshots = Some(PathBuf::from(value()?)),
            "--dark" => options.dark = true,
            "--scorecard" => {
                options.scorecard = Some(value()?.trim_start_matches('?').to_owned());
            }
            "--proxy" => options.proxy.on = true,
            "--proxy-arg" => options.proxy.args.push(value()?),
            "--count-upstream" => options.proxy.count = true,
            "--then-url-query" => options
                .then_queries
                .push(value()?.trim_start_matches('?').to_owned()),
            "--replay-in-worker" => {
                options.replay = true;
                options.replay_in_worker = true;
            }
            "--replay-bytes" => {
                options.replay = true;
                options.replay_bytes = true;
            }
            "--replay-without" => {
                options.replay = true;
                options.replay_without = Some(value()?);
            }
            "-h" | "--help" => {
                println!(
                    "bench-report [--runs N] [--warmup N] [--url-query Q] [--running-eval-secs S] \
                     [--server-arg ARG]... [--settle-ms MS] [--json] [--replay] [--replay-without SUBSTR]\n\
                     [--cpu-profile FILE] [--replay-in-worker] [--replay-bytes] [--then-url-query Q]... [--interactions]\n\
                     [--files DIR --url-query Q [--files-rounds N] [--screenshots DIR] [--dark]]\n\
                     [--proxy [--proxy-arg ARG]... [--count-upstream]] [--scorecard Q]\n\
                     env: EVAL_COMPARE_SERVER_BIN, EVAL_COMPARE_DIST, CHROMEDRIVER, CHROME_BIN"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (see --help)").into()),
        }
    }
    if options.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    if options.files.is_some() && options.url_query.is_none() {
        return Err("--files needs --url-query: the runs of the folders to compare".into());
    }
    Ok(options)
}

/// The server binary and what kind of build it is.
fn server_binary() -> Result<(PathBuf, String), BoxError> {
    let (path, source) = match std::env::var_os("EVAL_COMPARE_SERVER_BIN") {
        Some(path) => (PathBuf::from(path), "EVAL_COMPARE_SERVER_BIN"),
        None => {
            let built = ["server", "release", "debug"]
                .iter()
                .map(|profile| {
                    workspace_root().join(format!("target/{profile}/eval-compare-server"))
                })
                .find(|path| path.exists());
            match built {
                Some(path) => (path, "default: the most optimized build present"),
                None => (
                    workspace_root().join("target/server/eval-compare-server"),
                    "default",
                ),
            }
        }
    };
    if !path.exists() {
        return Err(format!(
            "no server binary at {}: `cargo build --profile server -p eval-compare-server`",
            path.display()
        )
        .into());
    }
    let path = path.canonicalize()?;
    let components: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let kind = if components.iter().any(|c| c == "server") {
        "SERVER profile build (optimized; path under target/server)"
    } else if components.iter().any(|c| c == "release") {
        "RELEASE build (path under target/release)"
    } else if components.iter().any(|c| c == "debug") {
        "DEBUG build (path under target/debug)"
    } else {
        "build profile unknown (not under target/server, target/release or target/debug)"
    };
    Ok((path, format!("{kind}; {source}")))
}

fn dist_dir() -> Result<PathBuf, BoxError> {
    let dist = viewer_dist()?;
    if !dist.join("index.html").exists() {
        return Err(format!(
            "no built viewer in {}: `trunk build --release` or set EVAL_COMPARE_DIST",
            dist.display()
        )
        .into());
    }
    Ok(dist.canonicalize()?)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| text.trim().to_owned())
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn load1() -> f64 {
    loadavg()
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::NAN)
}

/// The files of the viewer's build (`dist/` and its `pkg-<hash>/` folder) that browsers
/// download: `.wasm`, `.js` and `.css`.
fn build_files(dist: &Path) -> Result<Vec<PathBuf>, BoxError> {
    let mut files = Vec::new();
    let mut folders = vec![dist.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "wasm" || ext == "js" || ext == "css")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The sizes of the viewer's files, raw and `gzip -9`: what every page downloads first, and the
/// report pages' chunk (`split_*.wasm`), fetched when a report page is shown.
fn download_sizes(dist: &Path) -> Result<(), BoxError> {
    let mut totals = [(0u64, 0u64); 2];
    println!("viewer files (raw and gzip -9; the server gzips them for browsers):");
    for path in build_files(dist)? {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let on_demand = name.starts_with("split_");
        let raw = std::fs::metadata(&path)?.len();
        let gz = Command::new("gzip")
            .args(["-9", "-c"])
            .arg(&path)
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| out.stdout.len() as u64);
        let total = &mut totals[usize::from(on_demand)];
        total.0 += raw;
        total.1 += gz.unwrap_or(0);
        println!(
            "  {:<40} {:>9} B raw  {:>9} gzip -9{}",
            name,
            raw,
            gz.map_or_else(|| "?".to_owned(), |gz| format!("{gz} B")),
            if on_demand {
                "  (report pages, on demand)"
            } else {
                ""
            }
        );
    }
    let [initial, chunk] = totals;
    println!(
        "  {:<40} {:>9} B raw  {:>9} B gzip -9",
        "initial download (every page)", initial.0, initial.1
    );
    println!(
        "  {:<40} {:>9} B raw  {:>9} B gzip -9",
        "+ a report page's chunk", chunk.0, chunk.1
    );
    Ok(())
}

/// Opens the picker, lets it choose its default comparison, clicks Compare and returns the
/// report's URL (path and query).
async fn default_link(browser: &Client, base: &str) -> Result<String, BoxError> {
    browser.goto(&format!("{base}/")).await?;
    wait_js(
        browser,
        "the picker to enable Compare",
        PAGE_TIMEOUT,
        "const b = document.querySelector('.compare-bar button'); return !!b && !b.disabled;",
        vec![],
    )
    .await?;
    browser
        .find(Locator::XPath(
            "//*[contains(@class,'compare-bar')]//button[normalize-space()='Compare']",
        ))
        .await?
        .click()
        .await?;
    poll("Compare to open a report", PAGE_TIMEOUT, || async {
        let url = browser.current_url().await?;
        Ok((url.path() == "/compare")
            .then(|| format!("/compare?{}", url.query().unwrap_or_default())))
    })
    .await
}

/// `--files` (the Files page's empty state is no failure here; the issues opening met are
/// printed): after the folder is picked, how long reading it took, the longest main-thread
/// task meanwhile and the wasm memory's peak; `null` until the reading is done.
const FILES_READ_JS: &str = r#"
const b = window.__bench;
b.flush();
if (!('files_read' in b.marks)) return null;
const since = b.longtasks.filter(([start]) => start >= b.opened_at).map(([, d]) => d);
return { ms: b.marks.files_read - b.opened_at, wasm_mb: b.wasm_peak / 1e6,
  long_max: since.length ? Math.max(...since) : 0, long_count: since.filter((d) => d > 200).length,
  issues: (document.querySelector('.notice-caution[role=alert]') || {}).textContent || '' };
"#;

/// `--files`: the comparison's figures once its report shows the bootstrap: the headline and
/// the full report after the switch, the longest main-thread task since and the number over
/// 200 ms, the wasm memory's peak.
const FILES_COMPARED_JS: &str = r#"
const b = window.__bench;
b.flush();
const error = document.querySelector('.error-panel');
if (error) return { failure: error.textContent.replace(/\s+/g, ' ').trim().slice(0, 300) };
if (!('bootstrap' in b.marks) || !('cards' in b.marks)) return null;
const since = b.longtasks.filter(([start]) => start >= b.opened_at).map(([, d]) => d);
return { headline: b.marks.cards - b.opened_at, table: (b.marks.table || NaN) - b.opened_at,
  full: b.marks.bootstrap - b.opened_at, wasm_mb: b.wasm_peak / 1e6,
  long_max: since.length ? Math.max(...since) : 0, long_count: since.filter((d) => d > 200).length };
"#;

/// `--files DIR`: opens the Files page in a fresh browser, picks DIR with the folder picker
/// (every run folder under it), waits for the reading, then opens `/files/compare?Q` inside
/// the app and waits for its report; prints both phases' figures. Then goes back to the Files
/// page and does it again (the runs opened again replace the first ones): whether the wasm
/// memory grows with each opening.
async fn measure_files(
    driver: &ChromeDriver,
    base: &str,
    dir: &Path,
    options: &Options,
) -> Result<(), BoxError> {
    let browser = driver.open_browser().await?;
    let outcome = measure_files_in(&browser, base, dir, options).await;
    finish(browser, outcome).await
}

async fn measure_files_in(
    browser: &Client,
    base: &str,
    dir: &Path,
    options: &Options,
) -> Result<(), BoxError> {
    run_before_page_scripts(browser, PROBE_JS).await?;
    if options.dark {
        prefer_color_scheme(browser, true).await?;
    }
    tokio::time::sleep(options.settle).await;
    println!("  load1 {:.2}", load1());
    browser.goto(&format!("{base}/files")).await?;
    for round in 1..=options.files_rounds {
        let round = match round {
            1 => "first opening".to_owned(),
            n => format!("opening {n} (the same runs replaced)"),
        };
        pick_and_compare(browser, dir, options, &round).await?;
        if round.starts_with("first") && options.interactions {
            print_interactions(browser).await?;
        }
        // Back to the Files page inside the app, the report's marks forgotten.
        browser
            .execute(OPEN_IN_APP_JS, vec![json!("/files")])
            .await?;
        browser
            .execute(
                "const m = window.__bench.marks; for (const k of ['files_reading', 'files_read', 'cards', 'cards_frame', 'table', 'bootstrap']) delete m[k];",
                vec![],
            )
            .await?;
    }
    Ok(())
}

/// One round of `--files`: picks `dir` on the Files page, waits for the reading, opens the
/// comparison inside the app and waits for its report; prints both phases' figures.
async fn pick_and_compare(
    browser: &Client,
    dir: &Path,
    options: &Options,
    round: &str,
) -> Result<(), BoxError> {
    wait_js(
        browser,
        "the folder picker",
        PAGE_TIMEOUT,
        "return !!document.querySelector('.drop-zone input[type=file]');",
        vec![],
    )
    .await?;
    let picker = browser
        .find(Locator::Css(".drop-zone input[type=file]"))
        .await?;
    let profile = options
        .cpu_profile
        .as_ref()
        .filter(|_| round.starts_with("first"));
    if profile.is_some() {
        start_cpu_profile(browser, CPU_PROFILE_INTERVAL_US).await?;
    }
    browser
        .execute("window.__bench.opened_at = performance.now();", vec![])
        .await?;
    picker.send_keys(&dir.display().to_string()).await?;
    if let Some(shots) = &options.screenshots {
        // The reading's progress, once it shows a share read.
        wait_js(
            browser,
            "the reading's progress",
            PAGE_TIMEOUT,
            "const s = document.querySelector('.drop-zone [role=status]'); return !s || /% read/.test(s.textContent);",
            vec![],
        )
        .await?;
        save_screenshot(browser, shots, &format!("{round}-reading")).await?;
    }
    let read = wait_js(
        browser,
        "the folders to be read",
        PAGE_TIMEOUT,
        FILES_READ_JS,
        vec![],
    )
    .await?;
    let number =
        |value: &Value, key: &str| value.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN);
    println!(
        "  {round}: read {:.0} ms from the pick to the folders read; longest task {:.0} ms ({} over 200 ms); wasm memory peak {:.0} MB{}",
        number(&read, "ms"),
        number(&read, "long_max"),
        number(&read, "long_count"),
        number(&read, "wasm_mb"),
        read.get("issues")
            .and_then(Value::as_str)
            .filter(|issues| !issues.trim().is_empty() && !issues.contains("this folder replaces it"))
            .map(|issues| format!("; issues: {}", issues.trim()))
            .unwrap_or_default()
    );
    let query = options.url_query.clone().unwrap_or_default();
    let path = format!("/files/compare?{query}");
    let compared = open_in_app(browser, &path, FILES_COMPARED_JS).await?;
    if let Some(path) = profile {
        let profile = stop_cpu_profile(browser).await?;
        std::fs::write(path, serde_json::to_vec(&profile)?)
            .map_err(|error| format!("could not write {}: {error}", path.display()))?;
    }
    if let Some(shots) = &options.screenshots {
        save_screenshot(browser, shots, &format!("{round}-report")).await?;
    }
    println!(
        "  {round}: compare: headline {:.0} ms, table {:.0} ms, report with the bootstrap {:.0} ms after Compare; longest task since {:.0} ms ({} over 200 ms); wasm memory peak {:.0} MB",
        number(&compared, "headline"),
        number(&compared, "table"),
        number(&compared, "full"),
        number(&compared, "long_max"),
        number(&compared, "long_count"),
        number(&compared, "wasm_mb"),
    );
    Ok(())
}

/// Opens `path` inside the app ([`OPEN_IN_APP_JS`]) and waits until `done` (a script giving
/// `null` until the page is ready) gives the figures; a failure the page shows is an error.
async fn open_in_app(browser: &Client, path: &str, done: &str) -> Result<Value, BoxError> {
    browser.execute(OPEN_IN_APP_JS, vec![json!(path)]).await?;
    let figures = wait_js(
        browser,
        &format!("{path} to complete"),
        PAGE_TIMEOUT,
        done,
        vec![],
    )
    .await?;
    match figures.get("failure") {
        Some(failure) => Err(format!("{path}: the page shows a failure: {failure}").into()),
        None => Ok(figures),
    }
}

/// `--interactions`: times the table's interactions on the report shown and prints them.
async fn print_interactions(browser: &Client) -> Result<(), BoxError> {
    let timed = browser.execute_async(INTERACTIONS_JS, vec![]).await?;
    let timed: Vec<(String, f64)> = serde_json::from_value(timed)?;
    let shown: Vec<String> = timed
        .iter()
        .map(|(name, ms)| {
            if *ms < 0.0 {
                format!("{name}: no change seen")
            } else {
                format!("{name} {ms:.0} ms")
            }
        })
        .collect();
    println!("  interactions (input to next paint): {}", shown.join(", "));
    Ok(())
}

/// True once the load panel shows measured bars and each is at least a third full, or once
/// the report is up (a small load may never show its bars).
const LOAD_THIRD_READ_JS: &str = r#"
if (document.querySelector('.headline-card')) return true;
const bars = Array.from(document.querySelectorAll('.load-list progress[max]'));
return bars.length > 0 && bars.every((bar) => bar.value >= bar.max / 3);
"#;

/// Saves the page as `DIR/NAME.png` (`--screenshots DIR`), spaces in NAME made dashes.
async fn save_screenshot(browser: &Client, dir: &Path, name: &str) -> Result<(), BoxError> {
    std::fs::create_dir_all(dir)?;
    let file: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let path = dir.join(format!("{file}.png"));
    std::fs::write(&path, browser.screenshot().await?)
        .map_err(|error| format!("could not write {}: {error}", path.display()))?;
    println!("  screenshot: {}", path.display());
    Ok(())
}

/// One measured page load in a fresh browser session.
async fn measure(
    driver: &ChromeDriver,
    link: &str,
    options: &Options,
) -> Result<(Figures, Collected), BoxError> {
    let browser = driver.open_browser().await?;
    let outcome = measure_in(&browser, link, options).await;
    finish(browser, outcome).await
}

async fn measure_in(
    browser: &Client,
    link: &str,
    options: &Options,
) -> Result<(Figures, Collected), BoxError> {
    run_before_page_scripts(browser, PROBE_JS).await?;
    if options.replay_in_worker {
        bypass_csp(browser).await?;
    }
    if options.dark {
        prefer_color_scheme(browser, true).await?;
    }
    tokio::time::sleep(options.settle).await;
    let load1 = load1();
    if options.cpu_profile.is_some() {
        start_cpu_profile(browser, CPU_PROFILE_INTERVAL_US).await?;
    }
    browser.goto(link).await?;
    if let Some(shots) = &options.screenshots {
        // The load's progress, once every list with a known length is a third read.
        wait_js(
            browser,
            "the load's progress",
            PAGE_TIMEOUT,
            LOAD_THIRD_READ_JS,
            vec![],
        )
        .await?;
        save_screenshot(browser, shots, "api-loading").await?;
    }
    wait_js(
        browser,
        "the report to complete",
        PAGE_TIMEOUT,
        DONE_JS,
        vec![],
    )
    .await?;
    if let Some(shots) = &options.screenshots {
        save_screenshot(browser, shots, "api-report").await?;
    }
    let collected: Collected = serde_json::from_value(browser.execute(COLLECT_JS, vec![]).await?)?;
    if let Some(failure) = &collected.failure {
        return Err(format!("the page shows a failure: {failure}").into());
    }
    let mut figures = figures_of(&collected);
    figures.load1 = load1;
    if options.interactions {
        print_interactions(browser).await?;
    }
    for query in &options.then_queries {
        let path = format!("/compare?{query}");
        let opened = open_in_app(browser, &path, OPENED_JS).await?;
        let number = |key: &str| opened.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN);
        println!(
            "  then {path}: report with the bootstrap {:.0} ms after the switch; wasm memory peak so far {:.0} MB; longest task since {:.0} ms",
            number("ms"),
            number("wasm_mb"),
            number("long_max")
        );
    }
    if let Some(path) = &options.cpu_profile {
        let profile = stop_cpu_profile(browser).await?;
        std::fs::write(path, serde_json::to_vec(&profile)?)
            .map_err(|error| format!("could not write {}: {error}", path.display()))?;
    }
    if options.replay {
        // After the bootstrap; the page is idle but for the running run's 10 s refresh.
        let without = options
            .replay_without
            .clone()
            .map_or(Value::Null, Value::from);
        // Replaying 16,000 requests takes longer than WebDriver's default script timeout.
        browser
            .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
                Some(PAGE_TIMEOUT),
                None,
                None,
            ))
            .await?;
        let replay = if options.replay_in_worker {
            REPLAY_WORKER_JS
        } else if options.replay_bytes {
            REPLAY_BYTES_JS
        } else {
            REPLAY_JS
        };
        let script = format!("{REPLAY_REQUESTS_JS}{replay}{REPLAY_RUN_JS}");
        let elapsed = browser.execute_async(&script, vec![without]).await?;
        figures.replay = elapsed.as_f64().filter(|ms| *ms >= 0.0).unwrap_or(f64::NAN);
    }
    Ok((figures, collected))
}

fn median_of(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// The viewer's "Computed in this browser: A ms without the bootstrap, then B ms drawing it
/// (B = …)".
fn viewer_timings(status: Option<&str>) -> (f64, f64) {
    let numbers: Vec<f64> = status
        .unwrap_or_default()
        .split(" ms")
        .filter_map(|part| part.rsplit([' ', ':']).next()?.parse().ok())
        .collect();
    (
        numbers.first().copied().unwrap_or(f64::NAN),
        numbers.get(1).copied().unwrap_or(f64::NAN),
    )
}

fn is_api(resource: &Resource) -> bool {
    url::Url::parse(&resource.name)
        .is_ok_and(|url| url.path().starts_with("/api/") || url.path().starts_with("/v1/"))
}

/// For each list read page by page (same path and query but the cursor), the time from one
/// page's response end to the next page's request start.
fn page_gaps(api: &[&Resource]) -> Vec<f64> {
    let mut lists: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in api {
        let Ok(url) = url::Url::parse(&r.name) else {
            continue;
        };
        let rest: Vec<String> = url
            .query_pairs()
            .filter(|(key, _)| key != "cursor")
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        lists
            .entry(format!("{}?{}", url.path(), rest.join("&")))
            .or_default()
            .push((r.start, r.end));
    }
    let mut gaps = Vec::new();
    for pages in lists.values_mut() {
        pages.sort_by(|a, b| a.0.total_cmp(&b.0));
        gaps.extend(pages.windows(2).map(|pair| pair[1].0 - pair[0].1));
    }
    gaps
}

/// Most intervals open at once.
fn max_overlap(intervals: &[(f64, f64)]) -> usize {
    let mut events: Vec<(f64, i32)> = intervals
        .iter()
        .flat_map(|&(start, end)| [(start, 1), (end, -1)])
        .collect();
    // Ends before starts at the same instant.
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let (mut open, mut most) = (0i32, 0i32);
    for (_, delta) in events {
        open += delta;
        most = most.max(open);
    }
    most.max(0) as usize
}

fn figures_of(c: &Collected) -> Figures {
    let mark = |name: &str| c.marks.get(name).copied().unwrap_or(f64::NAN);
    let element_paint = c
        .elements
        .iter()
        .filter(|(id, _)| id == "headline-delta")
        .map(|&(_, time)| time)
        .filter(|time| *time > 0.0)
        .fold(f64::NAN, f64::max);
    let visible = if element_paint.is_nan() {
        mark("cards_frame")
    } else {
        element_paint
    };
    let wasm = c.resources.iter().find(|r| r.name.ends_with("_bg.wasm"));
    let api: Vec<&Resource> = c.resources.iter().filter(|r| is_api(r)).collect();
    let api_last = api.iter().map(|r| r.end).fold(f64::NAN, f64::max);
    let mut ttfb: Vec<f64> = api
        .iter()
        .map(|r| r.response_start - r.request_start)
        .collect();
    let mut durations: Vec<f64> = api.iter().map(|r| r.end - r.request_start).collect();
    let on_wire: Vec<(f64, f64)> = api.iter().map(|r| (r.request_start, r.end)).collect();
    let long_before: Vec<&(f64, f64)> = c
        .longtasks
        .iter()
        .filter(|(start, _)| *start < visible)
        .collect();
    let (view_first, view_full) = viewer_timings(c.status.as_deref());
    let cards_dom = mark("cards");
    Figures {
        load1: f64::NAN,
        visible,
        cards_dom,
        bootstrap: mark("bootstrap"),
        table: mark("table"),
        html_end: c.nav.as_ref().map_or(f64::NAN, |n| n.response_end),
        fcp: c
            .paints
            .iter()
            .find(|(name, _)| name == "first-contentful-paint")
            .map_or(f64::NAN, |p| p.1),
        wasm_end: wasm.map_or(f64::NAN, |w| w.end),
        wasm_fetch: wasm.map_or(f64::NAN, |w| w.end - w.start),
        wasm_kb: wasm.map_or(f64::NAN, |w| w.transfer.max(w.encoded) / 1024.0),
        wasm_inst: c
            .wasm
            .iter()
            .map(|(_, start, end)| end - start)
            .fold(f64::NAN, f64::max),
        app: mark("app_started"),
        api_n: api.len() as f64,
        api_first: api.iter().map(|r| r.start).fold(f64::NAN, f64::min),
        api_last,
        api_kb: api.iter().map(|r| r.encoded).sum::<f64>() / 1024.0,
        api_conc: max_overlap(&on_wire) as f64,
        api_ttfb: median_of(&mut ttfb),
        api_dur: median_of(&mut durations),
        api_queue: api
            .iter()
            .map(|r| r.request_start - r.start)
            .fold(f64::NAN, f64::max),
        api_gap: median_of(&mut page_gaps(&api)),
        replay: f64::NAN,
        after_api: cards_dom - api_last,
        view_first,
        view_full,
        long_n: long_before.len() as f64,
        long_ms: long_before.iter().map(|(_, d)| d).sum(),
        long_max: c.longtasks.iter().map(|&(_, d)| d).fold(0.0, f64::max),
        wasm_mb: c.wasm_peak / 1e6,
    }
}

fn cell(value: f64, decimals: usize) -> String {
    if value.is_nan() {
        "-".to_owned()
    } else {
        format!("{value:.decimals$}")
    }
}

fn print_header() {
    let mut line = format!("{:>5}", "iter");
    for (name, _, _) in COLUMNS {
        line.push_str(&format!(" {name:>8}"));
    }
    println!("{line}");
}

fn print_row(label: &str, values: impl Iterator<Item = (f64, usize)>) {
    let mut line = format!("{label:>5}");
    for (value, decimals) in values {
        line.push_str(&format!(" {:>8}", cell(value, decimals)));
    }
    println!("{line}");
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn summary(all: &[Figures]) {
    type Stat = (&'static str, fn(&[f64]) -> f64);
    let stats: [Stat; 4] = [
        ("med", |v| {
            let mut v = v.to_vec();
            median_of(&mut v)
        }),
        ("p90", |v| percentile(v, 90.0)),
        ("min", |v| v.first().copied().unwrap_or(f64::NAN)),
        ("max", |v| v.last().copied().unwrap_or(f64::NAN)),
    ];
    for (label, stat) in stats {
        print_row(
            label,
            COLUMNS.iter().map(|(_, get, decimals)| {
                let mut values: Vec<f64> = all.iter().map(get).filter(|v| !v.is_nan()).collect();
                values.sort_by(f64::total_cmp);
                (stat(&values), *decimals)
            }),
        );
    }
}

/// The median timeline as phases.
fn breakdown(all: &[Figures]) {
    let med = |get: fn(&Figures) -> f64| {
        let mut values: Vec<f64> = all.iter().map(get).filter(|v| !v.is_nan()).collect();
        median_of(&mut values)
    };
    // Each phase ends at its mark and starts where the one before ended.
    let phase_ends: [PhaseEnd; 6] = [
        ("HTML + JS + wasm downloaded", |f| f.wasm_end),
        ("wasm compiled/instantiated, app mounted", |f| f.app),
        ("app mounted -> first API request", |f| f.api_first),
        ("API requests (first sent -> last answered)", |f| f.api_last),
        ("last API answer -> cards in the DOM", |f| f.cards_dom),
        ("cards in the DOM -> painted", |f| f.visible),
    ];
    println!("median timeline (ms since navigation start; phases of medians, approximate):");
    let mut from = 0.0;
    for (what, end) in phase_ends {
        let to = med(end);
        println!(
            "  {what:<44} {:>7} -> {:>7}  ({:>6} ms)",
            cell(from, 0),
            cell(to, 0),
            cell(to - from, 0)
        );
        from = to;
    }
    println!(
        "  (in that last gap the viewer computes the report without the bootstrap: median {} ms)",
        cell(med(|f| f.view_first), 0)
    );
    let visible = med(|f| f.visible);
    println!(
        "report visible: median {} ms, target {TARGET_MS:.0} ms: {}",
        cell(visible, 0),
        if visible <= TARGET_MS {
            "MET"
        } else {
            "NOT MET"
        }
    );
}

fn print_api_detail(collected: &Collected) {
    let api: Vec<&Resource> = collected.resources.iter().filter(|r| is_api(r)).collect();
    println!("API requests of the last iteration (ms; queue = wait for a connection):");
    println!(
        "  {:>7} {:>7} {:>7} {:>7} {:>8}  path",
        "start", "queue", "ttfb", "end", "bytes"
    );
    for r in api {
        let path = url::Url::parse(&r.name)
            .map(|url| {
                let mut path = url.path().to_owned();
                if let Some(query) = url.query() {
                    // Cursors are long and opaque: keep their first characters only.
                    let short: Vec<String> = query
                        .split('&')
                        .map(|pair| match pair.split_once('=') {
                            Some(("cursor", value)) => {
                                format!("cursor={}…", &value[..value.len().min(6)])
                            }
                            _ => pair.to_owned(),
                        })
                        .collect();
                    path.push('?');
                    path.push_str(&short.join("&"));
                }
                path
            })
            .unwrap_or_else(|_| r.name.clone());
        println!(
            "  {:>7.0} {:>7.0} {:>7.0} {:>7.0} {:>8.0}  {path}",
            r.start,
            r.request_start - r.start,
            r.response_start - r.request_start,
            r.end,
            r.encoded
        );
    }
    let mut long: Vec<&(f64, f64)> = collected.longtasks.iter().collect();
    long.sort_by(|a, b| a.0.total_cmp(&b.0));
    let tasks: Vec<String> = long
        .iter()
        .map(|(start, duration)| format!("{start:.0}+{duration:.0}"))
        .collect();
    println!("  long tasks (start+duration ms): {}", tasks.join(", "));
    println!(
        "  wasm calls: {}",
        collected
            .wasm
            .iter()
            .map(|(name, start, end)| format!("{name} {start:.0}->{end:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  status line: {}",
        collected.status.as_deref().unwrap_or("-")
    );
}

async fn run() -> Result<(), BoxError> {
    let options = parse_options()?;
    let (server_bin, kind) = server_binary()?;
    let dist = dist_dir()?;
    println!("bench-report: demo report visible after opening its link (fresh browser each run)");
    println!("server: {} [{kind}]", server_bin.display());
    println!("dist:   {}", dist.display());
    println!(
        "cpus: {}; load average at start: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        loadavg()
    );
    download_sizes(&dist)?;

    let mut server_args: Vec<String> = Vec::new();
    if let Some(secs) = &options.running_eval_secs {
        server_args.extend(["--running-eval-secs".to_owned(), secs.clone()]);
    }
    server_args.extend(options.server_args.iter().cloned());
    let server_args: Vec<&str> = server_args.iter().map(String::as_str).collect();
    println!("server flags: --demo --addr 127.0.0.1:0 --dist DIST {server_args:?}");
    if options.proxy.on {
        return proxy::run(&server_bin, &dist, &options).await;
    }
    let server = Server::start_demo_from(&server_bin, &dist, &server_args)?;
    let driver = ChromeDriver::start()?;
    let base = server.base_url().to_owned();
    if let Some(query) = &options.scorecard {
        return scorecard::run_scorecard(&driver, &base, query, &options).await;
    }

    if let Some(dir) = &options.files {
        println!(
            "files: {} picked on the Files page, then /files/compare?{}",
            dir.display(),
            options.url_query.clone().unwrap_or_default()
        );
        for iteration in 0..options.warmup + options.runs {
            let warm = iteration < options.warmup;
            println!(
                "{} {}:",
                if warm { "warm-up" } else { "run" },
                iteration + 1
            );
            measure_files(&driver, &base, dir, &options).await?;
        }
        println!("load average at end: {}", loadavg());
        return Ok(());
    }
    let path = match &options.url_query {
        Some(query) => format!("/compare?{query}"),
        None => {
            let browser = driver.open_browser().await?;
            let outcome = default_link(&browser, &base).await;
            let path = finish(browser, outcome).await?;
            println!("the picker's default comparison: {path}");
            path
        }
    };
    let link = format!("{base}{path}");
    println!("link: {link}");
    println!(
        "{} warm-up + {} measured iterations, {} ms settle after the browser opens\n",
        options.warmup,
        options.runs,
        options.settle.as_millis()
    );

    print_header();
    let mut all = Vec::new();
    let mut last = None;
    for iteration in 0..options.warmup + options.runs {
        let warm = iteration < options.warmup;
        let (figures, collected) = measure(&driver, &link, &options).await?;
        let label = if warm {
            format!("w{}", iteration + 1)
        } else {
            format!("{}", iteration + 1 - options.warmup)
        };
        print_row(
            &label,
            COLUMNS
                .iter()
                .map(|(_, get, decimals)| (get(&figures), *decimals)),
        );
        if options.json {
            println!(
                "{}",
                json!({ "iteration": label, "warmup": warm, "raw": {
                    "marks": collected.marks, "cards": collected.cards, "longtasks": collected.longtasks,
                    "status": collected.status, "elements": collected.elements,
                    "dom_content_loaded": collected.nav.as_ref().map(|n| n.dom_content_loaded),
                } })
            );
        }
        if !warm {
            all.push(figures);
            last = Some(collected);
        }
    }
    println!();
    print_header();
    summary(&all);
    println!();
    breakdown(&all);
    if let Some(collected) = &last {
        println!();
        print_api_detail(collected);
    }
    println!();
    println!("load average at end: {}", loadavg());
    println!(
        "columns: visible = headline cards with numbers painted (Element Timing; else next frame); \
         cardsDOM = in the DOM; boot = report with the bootstrap shown; table = first task-table \
         row in the DOM; html = document \
         downloaded; FCP = first contentful paint; wasmEnd/wasmDL/wasmKB = .wasm downloaded at, \
         its download time, size; inst = WebAssembly.instantiate* call time (compile + \
         instantiate, overlaps the download); app = app started (index.html's event); api# = API \
         requests; api1st/apiLast = first request started / last response ended; apiKB = API \
         bodies; conc = most API requests on the wire at once; ttfb/reqDur = median API time to \
         first byte / whole request; queue = longest wait for a connection; pageGap = median time from a page's response to the \
         request of the same list's next page (viewer work per page); api→DOM = last API \
         response to cards in the DOM; replay = the API requests replayed from plain JS (--replay); vFirst/vFull = the viewer's report compute times (without \
         / drawing the bootstrap); long#/longMs = main-thread long tasks before visible; longMax = \
         the longest main-thread task of the iteration; wasmMB = the wasm memory at its largest; \
         load1 = 1-min \
         load average before the iteration."
    );
    Ok(())
}

#[tokio::main]
async fn main() {
    if let Err(error) = run().await {
        eprintln!("bench-report: {error}");
        std::process::exit(1);
    }
}
