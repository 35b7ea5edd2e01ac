//! How the app reaches its pages: the report pages (`/compare`, `/files`, `/files/compare`,
//! in [`crate::report`]) through [`lazy`], the split point the release build cuts into a wasm
//! chunk of their own, and "not found". The run picker (`/`) is [`crate::picker::page`].
//!
//! May import: `report` (only in `lazy`, behind the split), `components`, `state`, `route`.

pub mod lazy;
pub mod not_found;
