//! What the agent did: [`loader`] reads a trajectory's transcript on demand and [`view`] shows
//! it ([`lines`] its text), with each step's reward and error read on request by
//! [`step_rewards`]. [`side_by_side`] shows the baseline's attempt beside the focused
//! candidate's: the [`flip_table`] of both sides' samples, then the [`aligned_rows`] of the two
//! transcripts.

pub mod aligned_rows;
pub mod flip_table;
pub mod lines;
pub mod loader;
pub mod side_by_side;
pub mod step_rewards;
pub mod view;
