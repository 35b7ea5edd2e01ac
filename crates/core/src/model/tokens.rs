//! Token counts of trajectories, read on request from their transcripts (the lists carry none)
//! and attached to the run set by id: a trajectory is either not read, read without a count
//! (its transcript records none, or not on every model call: never taken as 0), or counted.

use std::collections::HashMap;

use super::run_set::RunSet;

/// The tokens of one trajectory: summed over its transcript's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenCount {
    /// Prompt tokens, summed over its model calls.
    pub prompt: u64,
    /// Completion tokens, summed over its model calls.
    pub completion: u64,
}

impl TokenCount {
    /// Prompt and completion tokens together.
    pub fn total(self) -> u64 {
        self.prompt.saturating_add(self.completion)
    }
}

/// What is known of a trajectory's tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenState {
    /// Its transcript was not read.
    NotRead,
    /// Read, but it records no count on every model call: "no count", never 0.
    NoCount,
    /// Read and counted.
    Counted(TokenCount),
}

/// Token reads by trajectory id (`None`: read, no count).
pub type TokenMap = HashMap<String, Option<TokenCount>>;

impl RunSet {
    /// Attaches the token reads of `tokens` (by trajectory id) to the set, replacing those
    /// attached before; returns how many the set now holds.
    pub fn attach_token_counts(&mut self, tokens: &TokenMap) -> usize {
        self.token_counts = std::sync::Arc::new(tokens.clone());
        self.token_counts.len()
    }

    /// What is known of the tokens of trajectory `trajectory_id`.
    pub fn token_state(&self, trajectory_id: &str) -> TokenState {
        match self.token_counts.get(trajectory_id) {
            None => TokenState::NotRead,
            Some(None) => TokenState::NoCount,
            Some(Some(count)) => TokenState::Counted(*count),
        }
    }

    /// Whether any trajectory's tokens were read.
    pub fn has_token_reads(&self) -> bool {
        !self.token_counts.is_empty()
    }
}
