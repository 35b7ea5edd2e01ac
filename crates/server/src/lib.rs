//! Eval Compare server: serves the built viewer, a faithful demo of the Trajectory and
//! Chronicle read APIs over a generated dataset, and a proxy to a real API.
//!
//! [`app`] builds the whole application from a [`Config`]; [`serve`] runs it on a listener.
//! `main` and the integration tests share both.
//!
//! May import: the core (for the contract's types it serves as JSON) and native crates (tokio,
//! axum, tower-http, reqwest). The demo's dataset and outcome rules are its own, written from the
//! contract (`../shared/trajectory-api/`), not from the core's client: a faithful, independent
//! implementation that the client is tested against.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod api_version;
pub mod cli;
pub mod config;
pub mod connections;
pub mod dataset;
pub mod demo;
pub mod demo_key;
pub mod error;
pub mod faults;
pub mod favicon;
pub mod proxy;
pub mod request_id;
pub mod request_limits;
pub mod security_headers;
pub mod viewer;

use std::future::Future;

use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::any;
use axum::Router;
use tokio::net::TcpListener;

pub use config::{Config, DemoConfig, Mode};
pub use connections::ConnectionLimits;
pub use error::StartupError;
pub use proxy::ProxyLimits;

/// The application: API routes (demo or proxy), the viewer as fallback, and the middleware
/// (security headers and request ids on every response, no request bodies, faults, the demo
/// key, the contract version check).
pub fn app(config: &Config) -> Result<Router, StartupError> {
    let api = match &config.mode {
        Mode::Demo(demo) => {
            let state = demo::DemoState::scaled(demo.seed, demo.scale, demo.running_duration);
            let mut router =
                demo::router(state).layer(from_fn(api_version::require_supported_version));
            if let Some(key) = &demo.key {
                router = router.layer(from_fn_with_state(key.clone(), demo_key::require_key));
            }
            router
        }
        Mode::Proxy { upstream, limits } => {
            let upstream = proxy::Upstream::new(upstream, *limits)?;
            Router::new()
                .route("/api/{*rest}", any(proxy::forward))
                .route("/v1/{*rest}", any(proxy::forward))
                .with_state(upstream)
        }
    };
    let mut app = api.fallback_service(viewer::router(config.dist.clone()));
    let faults = faults::Faults::new(&config.faults);
    if !faults.is_empty() {
        app = app.layer(from_fn_with_state(faults, faults::inject));
    }
    Ok(app
        .layer(from_fn(request_limits::refuse_request_bodies))
        .layer(from_fn_with_state(
            request_id::RequestIds::new(),
            request_id::add_request_id,
        ))
        .layer(from_fn(security_headers::add_security_headers)))
}

/// Serves `app` on `listener` with the default [`ConnectionLimits`] until `shutdown`
/// completes.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    serve_with_limits(listener, app, ConnectionLimits::default(), shutdown).await
}

/// Serves `app` on `listener` within `limits` until `shutdown` completes (then lets open
/// requests finish, for a few seconds at most).
pub async fn serve_with_limits(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    connections::serve_connections(listener, app, limits, shutdown).await;
    Ok(())
}
