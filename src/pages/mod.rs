//! How the app reaches its pages: the report pages (`/compare`, `/files`, `/files/compare`,
//! `/backtests/compare`, in [`crate::report`], and the Chronicle job picker `/backtests`, in
//! [`crate::picker::backtests`]) through [`lazy`], the split point the release build cuts into a
//! wasm chunk of their own, and "not found". The run picker (`/`) is [`crate::picker::page`].
//!
//! May import: `report` and `picker::backtests` (only in `lazy`, behind the split),
//! `components`, `state`, `route`.

pub mod lazy;
pub mod not_found;
