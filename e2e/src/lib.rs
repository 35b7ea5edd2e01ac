//! End-to-end test support: the server and chromedriver as child processes that are stopped
//! when dropped (also when a test fails), and a headless Chromium session through WebDriver.
//!
//! Paths come from the environment, with workspace defaults:
//! `EVAL_COMPARE_SERVER_BIN` (default `target/server/eval-compare-server`, the profile
//! `scripts/test.sh` and `scripts/demo.sh` build),
//! `EVAL_COMPARE_DIST` (default `dist`, built by `trunk build --release`),
//! `CHROMEDRIVER` (default `/usr/bin/chromedriver`), `CHROME_BIN` (default `/usr/bin/chromium`),
//! `EVAL_COMPARE_CLI_BIN` (default `target/debug/eval-compare`, built by
//! `cargo build -p eval-compare-cli`).
//!
//! [`page`] reads and drives the viewer's pages; [`cli`] runs `eval-compare report` and
//! formats its JSON values the way the viewer shows them; [`cdp`] sends DevTools commands.

pub mod cdp;
pub mod cli;
pub mod page;

use std::error::Error;
use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Errors of the e2e support and tests.
pub type BoxError = Box<dyn Error + Send + Sync>;

/// How long a child process may take to become ready.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// The workspace root (the e2e crate lives one level below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A path from `variable`, or `default` (relative defaults are under the workspace root).
fn configured_path(variable: &str, default: &str) -> PathBuf {
    std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join(default))
}

/// A file or directory the tests need, with how to make it when it is missing.
fn require(path: PathBuf, what: &str, how: &str) -> Result<PathBuf, BoxError> {
    if path.exists() {
        Ok(path)
    } else {
        Err(format!("{what} not found at {}: {how}", path.display()).into())
    }
}

/// A child process killed and reaped on drop. A guard made by [`ChildGuard::group_leader`]
/// kills the child's whole process group, so the browsers chromedriver started go too.
#[derive(Debug)]
struct ChildGuard {
    name: &'static str,
    child: Child,
    whole_group: bool,
}

impl ChildGuard {
    /// Guards a child started with `process_group(0)` (it leads its own group).
    fn group_leader(name: &'static str, child: Child) -> Self {
        Self {
            name,
            child,
            whole_group: true,
        }
    }

    /// Guards a child without children of its own.
    fn single(name: &'static str, child: Child) -> Self {
        Self {
            name,
            child,
            whole_group: false,
        }
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if self.whole_group {
            // The group id is the leader's pid; `kill -KILL -PGID` signals every member.
            let group = format!("-{}", self.child.id());
            let killed = Command::new("kill")
                .args(["-KILL", "--", &group])
                .stderr(Stdio::null())
                .status();
            if !killed.is_ok_and(|status| status.success()) {
                eprintln!("could not stop the process group of {}", self.name);
            }
        }
        if let Ok(None) = self.child.try_wait() {
            if let Err(error) = self.child.kill() {
                eprintln!("could not stop {}: {error}", self.name);
            }
        }
        // Reap it so no zombie outlives the test.
        let _ = self.child.wait();
    }
}

/// The server binary the tests run: `EVAL_COMPARE_SERVER_BIN`, by default the `server` profile's.
pub fn server_bin() -> Result<PathBuf, BoxError> {
    require(
        configured_path(
            "EVAL_COMPARE_SERVER_BIN",
            "target/server/eval-compare-server",
        ),
        "the server binary",
        "build it with `cargo build --profile server -p eval-compare-server` or set \
         EVAL_COMPARE_SERVER_BIN",
    )
}

/// The viewer's build the tests serve: `EVAL_COMPARE_DIST`, by default `dist`.
pub fn viewer_dist() -> Result<PathBuf, BoxError> {
    require(
        configured_path("EVAL_COMPARE_DIST", "dist"),
        "the built viewer",
        "build it with `trunk build --release` or set EVAL_COMPARE_DIST",
    )
}

/// The project's server running on a free port.
#[derive(Debug)]
pub struct Server {
    _process: ChildGuard,
    base_url: String,
}

impl Server {
    /// Starts `eval-compare-server --demo --addr 127.0.0.1:0 --dist DIST` plus `extra_args`,
    /// and waits for its `listening on http://…` line.
    pub fn start_demo(extra_args: &[&str]) -> Result<Self, BoxError> {
        Self::start_demo_from(&server_bin()?, &viewer_dist()?, extra_args)
    }

    /// Like [`Self::start_demo`], with the server binary `bin` and the viewer's build `dist`
    /// given rather than read from the environment.
    pub fn start_demo_from(bin: &Path, dist: &Path, extra_args: &[&str]) -> Result<Self, BoxError> {
        let mut child = Command::new(bin)
            .args(["--demo", "--addr", "127.0.0.1:0", "--dist"])
            .arg(dist)
            .args(extra_args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| format!("could not start {}: {error}", bin.display()))?;
        let stdout = child.stdout.take();
        let process = ChildGuard::single("eval-compare-server", child);
        let stdout = stdout.ok_or("the server's stdout was not captured")?;
        let base_url = read_listening_line(stdout)?;
        Ok(Self {
            _process: process,
            base_url,
        })
    }

    /// Starts the server binary `bin` with exactly `args` (e.g. a proxy's `--upstream URL
    /// --addr 127.0.0.1:0 --dist DIST`), and waits for its `listening on http://…` line.
    pub fn start_from(bin: &Path, args: &[&str]) -> Result<Self, BoxError> {
        let mut child = Command::new(bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| format!("could not start {}: {error}", bin.display()))?;
        let stdout = child.stdout.take();
        let process = ChildGuard::single("eval-compare-server", child);
        let stdout = stdout.ok_or("the server's stdout was not captured")?;
        let base_url = read_listening_line(stdout)?;
        Ok(Self {
            _process: process,
            base_url,
        })
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}

/// Reads the server's stdout until `listening on URL`, then keeps draining it in the background
/// so the server never blocks on a full pipe.
fn read_listening_line(stdout: impl std::io::Read + Send + 'static) -> Result<String, BoxError> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut sent = false;
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if !sent {
                if let Some(url) = line.strip_prefix("listening on ") {
                    sent = sender
                        .send(url.trim().trim_end_matches('/').to_owned())
                        .is_ok();
                    continue;
                }
            }
            println!("[server] {line}");
        }
    });
    receiver
        .recv_timeout(STARTUP_TIMEOUT)
        .map_err(|_| "the server did not print `listening on http://…` in time".into())
}

/// Where chromedriver's ports begin: well above the well-known and registered services.
const DRIVER_PORTS_START: u32 = 20_000;

/// How many times chromedriver is started on another port when the one chosen was taken.
const DRIVER_ATTEMPTS: usize = 4;

/// A port for chromedriver that nothing listens on right now.
///
/// It lies below the range the system hands out for port 0, where the servers the tests start
/// bind: a port picked there and checked free could be given to a server before chromedriver
/// binds it, and chromedriver (bound on `::1` only) would be reached at 127.0.0.1 through the
/// server. Each call tries the next port of this process, starting where its pid points.
fn driver_port() -> Result<u16, BoxError> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let end = ephemeral_ports_start().max(DRIVER_PORTS_START + 1_000);
    let span = end - DRIVER_PORTS_START;
    let first = std::process::id().wrapping_mul(97);
    for _ in 0..span.min(1_000) {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let port = DRIVER_PORTS_START + first.wrapping_add(n) % span;
        let port = u16::try_from(port)?;
        if TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok() {
            return Ok(port);
        }
    }
    Err("no free port for chromedriver below the ephemeral range".into())
}

/// The first port of the system's ephemeral range (`ip_local_port_range`; 32768 when unread).
fn ephemeral_ports_start() -> u32 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse().ok())
        .unwrap_or(32_768)
}

/// Waits until chromedriver answers its status on `port`. An error when the process ends, when
/// something else answers there (another server took the port), or after [`STARTUP_TIMEOUT`].
fn wait_for_chromedriver(port: u16, process: &mut ChildGuard) -> Result<(), BoxError> {
    let deadline = Instant::now() + STARTUP_TIMEOUT;
    while Instant::now() < deadline {
        if let Some(status) = process.child.try_wait()? {
            return Err(format!("chromedriver on port {port} ended ({status})").into());
        }
        match driver_status(port) {
            Ok(Some(true)) => return Ok(()),
            Ok(Some(false)) => {
                return Err(format!("port {port} answers, but not as chromedriver").into())
            }
            Ok(None) | Err(_) => thread::sleep(Duration::from_millis(50)),
        }
    }
    Err(format!("chromedriver did not listen on port {port} in time").into())
}

/// `GET /status` on `port`: `None` when nothing listens, whether the answer is chromedriver's
/// (a WebDriver status naming its build) otherwise.
fn driver_status(port: u16) -> Result<Option<bool>, BoxError> {
    use std::io::Write;
    let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, port)) else {
        return Ok(None);
    };
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    write!(
        stream,
        "GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )?;
    let body = response_body(stream)?;
    let status = serde_json::from_slice::<serde_json::Value>(&body).ok();
    Ok(Some(status.is_some_and(|status| {
        status.pointer("/value/build/version").is_some()
    })))
}

/// The body of the HTTP response on `stream`, as long as its `Content-Length` says (chromedriver
/// keeps the connection open after answering, though it says it closes it), or up to the end
/// of the stream without one.
fn response_body(stream: TcpStream) -> Result<Vec<u8>, BoxError> {
    use std::io::Read;
    let mut reader = BufReader::new(stream);
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(Vec::new());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = Vec::new();
    match length {
        Some(length) => {
            body.resize(length, 0);
            reader.read_exact(&mut body)?;
        }
        None => {
            reader.read_to_end(&mut body)?;
        }
    }
    Ok(body)
}

/// chromedriver running on a port of its own.
#[derive(Debug)]
pub struct ChromeDriver {
    _process: ChildGuard,
    port: u16,
}

impl ChromeDriver {
    /// Starts chromedriver and waits until it answers its status; on another port when the one
    /// chosen turns out to be taken.
    pub fn start() -> Result<Self, BoxError> {
        let bin = require(
            configured_path("CHROMEDRIVER", "/usr/bin/chromedriver"),
            "chromedriver",
            "run ./scripts/setup.sh or set CHROMEDRIVER",
        )?;
        let mut failures = Vec::new();
        for _ in 0..DRIVER_ATTEMPTS {
            let port = driver_port()?;
            let child = Command::new(&bin)
                .arg(format!("--port={port}"))
                .process_group(0)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(|error| format!("could not start {}: {error}", bin.display()))?;
            let mut process = ChildGuard::group_leader("chromedriver", child);
            match wait_for_chromedriver(port, &mut process) {
                Ok(()) => {
                    return Ok(Self {
                        _process: process,
                        port,
                    })
                }
                Err(error) => failures.push(error.to_string()),
            }
        }
        Err(format!("chromedriver did not start: {}", failures.join("; ")).into())
    }

    /// Opens a headless Chromium session with the arguments of the workspace's `webdriver.json`.
    /// Each session has a profile of its own (chromedriver makes a fresh one): no storage,
    /// cookies or history are shared between sessions.
    pub async fn open_browser(&self) -> Result<fantoccini::Client, BoxError> {
        self.connect(chrome_capabilities()?).await
    }

    /// Like [`Self::open_browser`], with downloads saved to `dir` without asking.
    pub async fn open_browser_downloading_to(
        &self,
        dir: &Path,
    ) -> Result<fantoccini::Client, BoxError> {
        let mut capabilities = chrome_capabilities()?;
        if let Some(options) = capabilities
            .get_mut("goog:chromeOptions")
            .and_then(serde_json::Value::as_object_mut)
        {
            options.insert(
                "prefs".to_owned(),
                serde_json::json!({
                    "download.default_directory": dir.to_string_lossy(),
                    "download.prompt_for_download": false,
                    "download.directory_upgrade": true,
                    "safebrowsing.enabled": false,
                    "profile.default_content_setting_values.automatic_downloads": 1,
                }),
            );
        }
        self.connect(capabilities).await
    }

    async fn connect(
        &self,
        capabilities: serde_json::Map<String, serde_json::Value>,
    ) -> Result<fantoccini::Client, BoxError> {
        let client = fantoccini::ClientBuilder::rustls()?
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await?;
        Ok(client)
    }
}

/// A directory under the system's temporary directory, removed with its contents on drop.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates `$TMPDIR/eval-compare-e2e-<label>-<pid>-<n>`.
    pub fn new(label: &str) -> Result<Self, BoxError> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "eval-compare-e2e-{label}-{}-{n}",
            std::process::id()
        ));
        if path.exists() {
            std::fs::remove_dir_all(&path)?;
        }
        std::fs::create_dir_all(&path)?;
        Ok(Self { path })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// `webdriver.json` (shared with the wasm-bindgen browser tests), plus the Chromium binary and a
/// fixed window size.
fn chrome_capabilities() -> Result<serde_json::Map<String, serde_json::Value>, BoxError> {
    let path = workspace_root().join("webdriver.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|error| format!("could not read {}: {error}", path.display()))?;
    let mut capabilities: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text)
        .map_err(|error| format!("{} is not valid JSON: {error}", path.display()))?;
    let options = capabilities
        .entry("goog:chromeOptions")
        .or_insert_with(|| serde_json::json!({}))
        .as_object_mut()
        .ok_or("goog:chromeOptions in webdriver.json is not an object")?;
    let chrome = configured_path("CHROME_BIN", "/usr/bin/chromium");
    options.insert("binary".to_owned(), chrome.to_string_lossy().into());
    let args = options
        .entry("args")
        .or_insert_with(|| serde_json::json!([]))
        .as_array_mut()
        .ok_or("goog:chromeOptions.args in webdriver.json is not an array")?;
    args.push("--window-size=1280,900".into());
    Ok(capabilities)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// A server on a port of its own that answers one request with `status` and the JSON
    /// `body`, then keeps the connection open until the client is done; its port.
    fn answer_once(status: &'static str, body: &'static str) -> Result<u16, BoxError> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        let port = listener.local_addr()?.port();
        thread::spawn(move || {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let mut request = [0u8; 1024];
            let _ = stream.read(&mut request);
            let response = format!(
                "HTTP/1.1 {status}\r\nContent-Length:{}\r\nConnection:close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes());
            // Held open, as chromedriver does: the reader must stop at Content-Length.
            let _ = stream.read(&mut request);
        });
        Ok(port)
    }

    #[test]
    fn chromedriver_is_told_from_another_server_on_its_port() -> Result<(), BoxError> {
        let driver = r#"{"value":{"build":{"version":"156.0"},"ready":true}}"#;
        assert_eq!(driver_status(answer_once("200 OK", driver)?)?, Some(true));
        let other = r#"{"error":{"code":"request_body_not_accepted"}}"#;
        assert_eq!(
            driver_status(answer_once("400 Bad Request", other)?)?,
            Some(false)
        );
        Ok(())
    }

    #[test]
    fn chromedrivers_ports_are_below_the_ephemeral_range() -> Result<(), BoxError> {
        let first = driver_port()?;
        let second = driver_port()?;
        assert_ne!(first, second);
        for port in [first, second] {
            assert!(u32::from(port) >= DRIVER_PORTS_START);
            assert!(u32::from(port) < ephemeral_ports_start().max(DRIVER_PORTS_START + 1_000));
        }
        Ok(())
    }
}
