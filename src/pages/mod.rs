//! Routed pages: the run picker (`/`), a report over the API (`/compare`), run folders from disk
//! (`/files`, `/files/compare`), and "not found". The app reaches the three report pages through
//! [`lazy`], which the release build splits into a wasm chunk of their own.

pub mod files;
pub mod lazy;
pub mod not_found;
pub mod report;
pub mod runs;
