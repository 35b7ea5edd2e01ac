//! Routed pages: the run picker (`/`) and "not found".

pub mod not_found;
pub mod runs;
