//! Serves the built viewer (`dist/`, written by `trunk build --release`): files as they are
//! (gzip-compressed for browsers that accept it: the wasm goes over the wire at ~40% of its
//! size; a file's `.gz` copy, when the build wrote one, is sent instead of compressing it again),
//! and `index.html` for client routes (paths whose last segment has no extension). The
//! build's files live in a folder named by their content hash (`/pkg-<hash>/`), so browsers may
//! keep them for good; `index.html` is revalidated on every visit. Without a build, a page says
//! how to make one.
//!
//! `index.html` (at `/`, `/index.html` and every client route) is read on each request and
//! carries the page's Content-Security-Policy with the hashes of its inline scripts
//! ([`crate::security_headers::page_policy`]), so a rebuilt viewer is served with its own.

use std::path::{Path, PathBuf};

use axum::extract::Request;
use axum::handler::HandlerWithoutStateExt;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

use crate::security_headers::{inline_script_hashes, page_policy};

/// A router serving `dist`, for use as the application's fallback.
pub fn router(dist: PathBuf) -> Router {
    let index_dir = dist.clone();
    let fallback = move |uri: Uri| {
        let dist = index_dir.clone();
        async move { client_route(&dist, uri.path()).await }
    };
    let index_dir = dist.clone();
    let index = move || {
        let dist = index_dir.clone();
        async move { index_page(&dist).await }
    };
    Router::new()
        .route("/", get(index.clone()))
        .route("/index.html", get(index))
        .merge(crate::favicon::router())
        .fallback_service(
            ServeDir::new(dist)
                .precompressed_gzip()
                .append_index_html_on_directories(false)
                .fallback(fallback.into_service()),
        )
        .layer(middleware::from_fn(cache_build_files))
        .layer(CompressionLayer::new())
}

/// The folder of one build's files: its name changes whenever any of them does.
const BUILD_FOLDER_PREFIX: &str = "/pkg-";

/// Lets browsers keep the files of a build's folder without asking again.
async fn cache_build_files(request: Request, next: Next) -> Response {
    let immutable = request.uri().path().starts_with(BUILD_FOLDER_PREFIX);
    let mut response = next.run(request).await;
    if immutable && response.status().is_success() {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
    }
    response
}

/// Whether a path names a file (its last segment has an extension) rather than a client route.
fn names_a_file(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|segment| segment.contains('.'))
}

async fn client_route(dist: &Path, path: &str) -> Response {
    if names_a_file(path) {
        return (
            StatusCode::NOT_FOUND,
            format!("{path} is not part of the built viewer.\n"),
        )
            .into_response();
    }
    index_page(dist).await
}

/// `index.html` with the policy allowing exactly its inline scripts.
async fn index_page(dist: &Path) -> Response {
    let Ok(html) = tokio::fs::read(dist.join("index.html")).await else {
        return not_built(dist);
    };
    let policy = page_policy(&inline_script_hashes(&String::from_utf8_lossy(&html)));
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        html,
    )
        .into_response();
    if let Ok(policy) = HeaderValue::from_str(&policy) {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    response
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The page shown when the viewer has not been built into `dist`.
fn not_built(dist: &Path) -> Response {
    let dist = escape(&dist.display().to_string());
    let page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Eval Compare: viewer not built</title></head>\n\
         <body style=\"font-family: system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; line-height: 1.5\">\n\
         <h1>The viewer is not built</h1>\n\
         <p>This server found no <code>index.html</code> in <code>{dist}</code>.</p>\n\
         <p>Build the viewer from the repository root with <code>trunk build --release</code> \
         (or run <code>scripts/demo.sh</code>, which installs the tools and builds it), then reload this page. \
         Use <code>--dist DIR</code> to serve a build from another directory.</p>\n\
         <p>The API is served meanwhile, e.g. <a href=\"/api/v1/agents\">/api/v1/agents</a>.</p>\n\
         </body></html>\n"
    );
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::CACHE_CONTROL, "no-store".to_owned()),
            (header::CONTENT_SECURITY_POLICY, page_policy(&[])),
        ],
        Html(page),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_client_routes() {
        assert!(names_a_file("/app-1234.wasm"));
        assert!(names_a_file("/assets/style.css"));
        assert!(!names_a_file("/"));
        assert!(!names_a_file("/compare"));
        assert!(!names_a_file("/runs/eval_base_v2"));
    }
}
