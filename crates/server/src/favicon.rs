//! The viewer's icon: a baseline bar beside a taller candidate bar, one SVG kept in the server
//! (`assets/favicon.svg`), so it is there with or without a built viewer. `index.html` names
//! `/favicon.svg`; `/favicon.ico`, which browsers and crawlers ask for by habit, answers the
//! same image instead of a 404.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The icon's SVG.
pub const FAVICON_SVG: &[u8] = include_bytes!("../assets/favicon.svg");

/// The paths of the icon.
pub const FAVICON_PATHS: [&str; 2] = ["/favicon.svg", "/favicon.ico"];

/// Routes serving the icon at [`FAVICON_PATHS`], cached for a day.
pub fn router() -> Router {
    FAVICON_PATHS
        .into_iter()
        .fold(Router::new(), |router, path| router.route(path, get(icon)))
}

async fn icon() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        FAVICON_SVG,
    )
}
