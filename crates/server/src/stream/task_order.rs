//! A run's trajectories are walked in task order (`sort=task_id&order=asc`), the order the API
//! lists the run's rewards in: the viewer's join of the two lists then reads both front to
//! back instead of the trajectories at random places (measured: 2 × 100,000 × 8 opened from
//! the cache, the join's id checks 318 → 48 ms of the page's main thread). The contract leaves
//! `sort`'s values open, so an API may refuse `task_id`: a first page refused with 400 or 422
//! is asked again in the API's default order, and once that is answered the server asks this
//! API in its default order from then on (it serves one upstream). Where the API lists in an
//! order of its own instead, nothing changes but the speed: the viewer's join takes any order.

use std::sync::atomic::{AtomicBool, Ordering};

/// What the server has learnt of its API's task order.
#[derive(Debug, Default)]
pub struct TaskOrder {
    refused: AtomicBool,
}

impl TaskOrder {
    /// Whether to ask for a run's trajectories in task order (not once the API refused it).
    pub fn asked(&self) -> bool {
        !self.refused.load(Ordering::Relaxed)
    }

    /// Notes that the API refused a listing in task order which it answered in its own.
    pub fn note_refused(&self) {
        self.refused.store(true, Ordering::Relaxed);
    }
}

/// Whether a first page refused with `status` is asked again in the API's default order: the
/// refusals an unknown `sort` value gets (a malformed or validation error), nothing else.
pub fn asks_again(status: u16) -> bool {
    matches!(status, 400 | 422)
}
