//! Probability distributions written for this crate (no external numerics): standard normal,
//! Student's t and binomial, on top of log-gamma, incomplete beta and erfc in the private
//! `special` module.
//!
//! Accuracy target: about 1e-13 relative against scipy over the ranges the statistics use,
//! including the tails (checked in `tests/stats_reference.rs`).

pub mod binomial;
pub mod normal;
mod special;
pub mod student_t;

pub use binomial::{binomial_test_two_sided, Binomial};
pub use student_t::StudentT;
