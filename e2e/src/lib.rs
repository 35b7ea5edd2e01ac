//! End-to-end test support (tests live in `tests/`).
