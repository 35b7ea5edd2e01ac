//! Routed pages: the run picker (`/`), a report over the API (`/compare`), run folders from disk
//! (`/files`, `/files/compare`), and "not found".

pub mod files;
pub mod not_found;
pub mod report;
pub mod runs;
