//! `eval-compare-server`: the demo (default), or a proxy with `--upstream URL`. See `--help`.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use eval_compare_server::cli::Cli;
use eval_compare_server::{app_with, serve_with_limits, Extras, Mode, StartupError};
use tokio::net::TcpListener;

/// jemalloc (with transparent huge pages, as the CLI's: `.cargo/config.toml`). Walking a list
/// for a caller reads every page into fresh buffers of a few hundred KiB; with glibc's
/// allocator each tokio worker's arena gave those pages back and faulted them in again, and
/// zeroing them was an eighth of the proxy's time while it walked 2 x 100,000 x 8.
#[cfg(unix)]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[tokio::main]
async fn main() -> ExitCode {
    match run(Cli::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("eval-compare-server: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), StartupError> {
    let config = cli.config();
    let cache = cli.list_cache().unwrap_or_else(|error| {
        eprintln!("eval-compare-server: finished runs will not be kept: {error}");
        None
    });
    if let Some(cache) = &cache {
        eprintln!("keeping finished runs' lists in {}", cache.path().display());
    }
    let extras = Extras {
        cache,
        list_streams: !cli.no_list_streams,
    };
    let app = app_with(&config, extras)?;
    let bind_error = |source| StartupError::Bind {
        addr: cli.addr.clone(),
        source,
    };
    let listener = TcpListener::bind(&cli.addr).await.map_err(bind_error)?;
    let addr = listener.local_addr().map_err(bind_error)?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "listening on http://{addr}").map_err(StartupError::Stdout)?;
    stdout.flush().map_err(StartupError::Stdout)?;
    drop(stdout);
    match &config.mode {
        Mode::Demo(demo) => eprintln!(
            "demo API (seed {}{}), viewer from {}",
            demo.seed,
            if demo.key.is_some() {
                ", API key required"
            } else {
                ""
            },
            config.dist.display()
        ),
        Mode::Proxy { upstream, .. } => eprintln!(
            "proxying reads of /api/ and /v1/ to {upstream}, viewer from {}",
            config.dist.display()
        ),
    }
    serve_with_limits(listener, app, cli.connection_limits(), async {
        // Without a Ctrl-C handler the server runs until it is killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    })
    .await
}
