//! Shared helpers of the CLI's integration tests: running the built binary, the real run
//! folders, and the demo server started in-process.
#![allow(dead_code, clippy::unwrap_used)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use eval_compare_server::config::{Config, DemoConfig, Mode};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::{app, serve};

/// The variable the CLI reads the key from.
pub const KEY_ENV: &str = "TRAJECTORY_API_KEY";

/// The binary under test, with no key in its environment.
pub fn eval_compare() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_eval-compare"));
    command.env_remove(KEY_ENV);
    command
}

/// What a run printed, and how it ended.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary with these arguments.
pub fn run(command: &mut Command) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

/// The shared real-data directory (CI places `shared/` beside the clone).
pub fn real_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-data")
}

/// A SWE-bench Pro run folder by run name.
pub fn swe_bench_pro(run: &str) -> PathBuf {
    real_data().join("swe-bench-pro").join(run)
}

/// The demo server on a free port, stopped when dropped.
pub struct DemoServer {
    pub url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DemoServer {
    /// Starts the demo (default seed), requiring `key` when given, with these `--fault` specs.
    pub fn start(key: Option<&str>, faults: &[&str]) -> DemoServer {
        Self::start_with_billing_key(key, None, faults)
    }

    /// [`DemoServer::start`], also accepting `without_billing` (`--demo-key-without-billing`):
    /// a key that reads everything but billing (403).
    pub fn start_with_billing_key(
        key: Option<&str>,
        without_billing: Option<&str>,
        faults: &[&str],
    ) -> DemoServer {
        let config = Config {
            mode: Mode::Demo(DemoConfig {
                seed: eval_compare_server::dataset::DEFAULT_SEED,
                scale: eval_compare_server::dataset::scale::DemoScale::DEFAULT,
                key: key.map(ApiKey::new),
                key_without_billing: without_billing.map(ApiKey::new),
                running_duration: Duration::from_secs(1800),
            }),
            dist: PathBuf::from("/nonexistent-viewer-build"),
            faults: faults.iter().map(|spec| spec.parse().unwrap()).collect(),
        };
        let router = app(&config).unwrap();
        let (addr_tx, addr_rx) = std::sync::mpsc::channel::<SocketAddr>();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                serve(listener, router, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
            });
        });
        let addr = addr_rx.recv_timeout(Duration::from_secs(30)).unwrap();
        DemoServer {
            url: format!("http://{addr}"),
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Every file of a directory: name and contents.
pub fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}
