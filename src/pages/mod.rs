//! Routed pages.

pub mod not_found;
pub mod runs;
