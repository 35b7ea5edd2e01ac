//! Eval Compare viewer: the browser app (Leptos CSR, compiled to wasm32 by
//! `scripts/build-viewer.sh`).
//!
//! `transport` talks HTTP with gloo-net for the core Trajectory client; `overview` loads what
//! the start page shows; `pages` and `components` render it; `route` names the pages and their
//! paths; `app` holds the router.

pub mod app;
pub mod charts;
pub mod components;
pub mod export;
pub mod failure;
pub mod format;
pub mod load;
pub mod overview;
pub mod pages;
pub mod route;
pub mod state;
pub mod table;
pub mod task_panel;
pub mod transport;
