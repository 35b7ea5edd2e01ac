//! Routed pages: the run picker (`/`), a report over the API (`/compare`), and "not found".

pub mod not_found;
pub mod report;
pub mod runs;
