//! Eval Compare viewer: the browser app (Leptos CSR, compiled to wasm32; built by Trunk with
//! `scripts/build-viewer.sh` as its hook, see Trunk.toml).
//!
//! The shell, at the root: [`app`] (the page frame and the match on the [`route`] table),
//! [`transport`] (gloo-net under the core's Trajectory client), and helpers every page uses,
//! [`format`] (API values as text), [`failure`] (a failed request explained) and [`links`]
//! (the rule of every link out of the viewer), [`page_title`] (the browser tab's title).
//! The features, one folder each:
//! - [`picker`]: the run picker, the start page;
//! - [`report`]: the report pages and everything only they use (the wasm split point cuts it
//!   into a chunk of its own);
//! - [`pages`]: how the app reaches its pages: the split point ([`pages::lazy`]) and "not found";
//! - [`source_panel`]: the API key and address settings of the header;
//! - [`state`]: the viewer's state (URL, history, source, loader, files, report memos);
//! - [`components`]: small presentational pieces.
//!
//! Imports run one way: the core ← `state`, `components` ← `picker`, `source_panel` ← `report`
//! ← `pages` ← `app`. `report` is reached only through `pages::lazy`.

pub mod app;
pub mod components;
pub mod failure;
pub mod format;
pub mod links;
pub mod page_title;
pub mod pages;
pub mod picker;
pub mod report;
pub mod route;
pub mod source_panel;
pub mod state;
pub mod transport;
pub mod yield_to_page;
