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
pub mod cache;
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
pub mod stream;
pub mod viewer;

use std::future::Future;
use std::sync::Arc;

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
    app_with(config, Extras::default())
}

/// What [`app_with`] adds to [`app`].
#[derive(Debug, Clone)]
pub struct Extras {
    /// The proxy keeps finished runs' lists here (see [`cache`]); ignored by the demo.
    pub cache: Option<Arc<cache::ListCache>>,
    /// Whether the list streams ([`stream`]) are served (on by default; off to measure the
    /// viewer's contract paging against the same server).
    pub list_streams: bool,
}

impl Default for Extras {
    fn default() -> Self {
        Self {
            cache: None,
            list_streams: true,
        }
    }
}

/// [`app`] with [`Extras`]: the list streams (both modes) and the proxy's cache.
pub fn app_with(config: &Config, extras: Extras) -> Result<Router, StartupError> {
    let faults = faults::Faults::new(&config.faults);
    let (api, origin) = match &config.mode {
        Mode::Demo(demo) => {
            let state = demo::DemoState::scaled(demo.seed, demo.scale, demo.running_duration);
            let mut router =
                demo::router(state).layer(from_fn(api_version::require_supported_version));
            if let Some(key) = &demo.key {
                let keys = demo_key::DemoKeys {
                    full: key.clone(),
                    without_billing: demo.key_without_billing.clone(),
                };
                router = router.layer(from_fn_with_state(keys, demo_key::require_key));
            }
            // The streams read the demo through the same faults as its callers do.
            let origin = stream::PageOrigin::Demo(if faults.is_empty() {
                router.clone()
            } else {
                router
                    .clone()
                    .layer(from_fn_with_state(Arc::clone(&faults), faults::inject))
            });
            (router, origin)
        }
        Mode::Proxy { upstream, limits } => {
            let upstream = proxy::Upstream::new(upstream, *limits)?;
            let origin = stream::PageOrigin::of_upstream(&upstream);
            let router = Router::new()
                .route("/api/{*rest}", any(proxy::forward))
                .route("/v1/{*rest}", any(proxy::forward))
                .with_state(upstream);
            (router, origin)
        }
    };
    let cache = extras
        .cache
        .filter(|_| matches!(config.mode, Mode::Proxy { .. }));
    let api = if extras.list_streams {
        api.merge(stream::router(stream::StreamState::new(origin, cache)))
    } else {
        api
    };
    let mut app = api.fallback_service(viewer::router(config.dist.clone()));
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
