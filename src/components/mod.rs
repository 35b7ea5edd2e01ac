//! Small presentational components; each takes plain data (or signals of it) and renders it.
//!
//! May import: the core, `format`, `failure`, `state` (to read the source settings); never a
//! feature folder (`picker`, `report`, `pages`, `source_panel`).

pub mod api_error;
pub mod button;
pub mod disclosure;
pub mod error_panel;
pub mod explain;
pub mod loading;
pub mod stat_text;
pub mod status_badge;
