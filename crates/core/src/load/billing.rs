//! Cost and effort read beside the runs: each run's billing row (one walk of the
//! organization's billing list for every run still without one) and its rollout statistics.
//!
//! Neither ever stops a run's load nor counts as its failure: a read that fails leaves the run's
//! cost unavailable with the reason (403: the key may not read billing; a run the list does not
//! hold: not listed; anything else: the error), never 0. A settled answer (a cost, not listed,
//! forbidden) is kept; a failed or cancelled read is tried again by the next load.
//!
//! Which loads make them is the store's ([`super::BesideRuns`]): a comparison shows costs, a
//! scorecard does not; turned on later (a comparison opened from a scorecard's cell), the next
//! load reads only them for runs already read.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use futures::future::{join, join_all};

use crate::api::{BillingRunCost, EvalRolloutStatistics};
use crate::client::{ApiError, TrajectoryClient, Transport};
use crate::model::{CostUnavailable, Lookup, RunCost};

use super::progress::LoadEvent;

/// What the cost reads found, by run id, and whether the load makes them (off by default:
/// a caller that shows costs turns them on with [`CostReads::enable`]).
#[derive(Debug, Default)]
pub struct CostReads {
    enabled: std::cell::Cell<bool>,
    costs: RefCell<HashMap<String, RunCost>>,
    statistics: RefCell<HashMap<String, Lookup<EvalRolloutStatistics>>>,
    /// The billing rows read, by run id (kept whole for run folders).
    rows: RefCell<HashMap<String, BillingRunCost>>,
    /// The runs whose cost and statistics a load started to read (whatever came of it).
    asked: RefCell<HashSet<String>>,
}

/// Whether an answer is final: a cost, or a reason that another read would not change.
fn settled(cost: &RunCost) -> bool {
    !matches!(
        cost,
        RunCost::Unavailable(CostUnavailable::NotRead | CostUnavailable::Failed(_))
    )
}

/// Why a failed billing read leaves costs unavailable.
fn unavailable(error: &ApiError) -> CostUnavailable {
    match error.status() {
        Some(403) => CostUnavailable::Forbidden,
        _ => CostUnavailable::Failed(error.to_string()),
    }
}

impl CostReads {
    /// Makes every later [`load_runs`](super::load_runs) read the runs' costs and rollout
    /// statistics too.
    pub fn enable(&self) {
        self.enabled.set(true);
    }

    /// Whether loads read costs.
    pub fn is_enabled(&self) -> bool {
        self.enabled.get()
    }

    /// Makes later loads read costs or not; what was read stays either way.
    pub(super) fn set_enabled(&self, enabled: bool) {
        self.enabled.set(enabled);
    }

    /// Whether a load started to read the cost and statistics of every run of `run_ids`
    /// (read, failed or cancelled alike: only a Retry reads a stopped one again).
    pub(super) fn asked_for_all(&self, run_ids: &[String]) -> bool {
        let asked = self.asked.borrow();
        run_ids.iter().all(|id| asked.contains(id))
    }

    /// The cost of `run_id` as read so far (not read yet: [`CostUnavailable::NotRead`]).
    pub fn cost(&self, run_id: &str) -> RunCost {
        self.costs.borrow().get(run_id).cloned().unwrap_or_default()
    }

    /// The rollout statistics of `run_id` as read so far.
    pub fn statistics(&self, run_id: &str) -> Lookup<EvalRolloutStatistics> {
        self.statistics
            .borrow()
            .get(run_id)
            .cloned()
            .unwrap_or_default()
    }

    /// The billing row of `run_id`, when billing listed it.
    pub fn billing_row(&self, run_id: &str) -> Option<BillingRunCost> {
        self.rows.borrow().get(run_id).cloned()
    }

    /// The runs of `run_ids` whose cost is still to be read.
    fn unsettled_costs(&self, run_ids: &[String]) -> Vec<String> {
        let costs = self.costs.borrow();
        run_ids
            .iter()
            .filter(|id| !costs.get(id.as_str()).is_some_and(settled))
            .cloned()
            .collect()
    }

    fn statistics_needed(&self, run_id: &str) -> bool {
        !matches!(self.statistics.borrow().get(run_id), Some(Lookup::Read(_)))
    }
}

/// Reads the billing rows of the runs of `run_ids` still without a cost (one walk of the list)
/// and the rollout statistics of those without them, into `reads`; tells `notify` when each
/// ended.
pub async fn load_costs<T: Transport>(
    client: &TrajectoryClient<T>,
    reads: &CostReads,
    run_ids: &[String],
    notify: &dyn Fn(LoadEvent<'_>),
) {
    if !reads.is_enabled() {
        return;
    }
    reads.asked.borrow_mut().extend(run_ids.iter().cloned());
    let billing = async {
        let wanted = reads.unsettled_costs(run_ids);
        if wanted.is_empty() {
            return;
        }
        let answer = client.billing_rows_of(&wanted).await;
        {
            let mut costs = reads.costs.borrow_mut();
            let mut rows = reads.rows.borrow_mut();
            match answer {
                Ok(found) => {
                    for id in &wanted {
                        costs.insert(id.clone(), RunCost::of_run(&found, id));
                    }
                    for row in found {
                        rows.insert(row.run_id.clone(), row);
                    }
                }
                Err(error) => {
                    let why = unavailable(&error);
                    for id in &wanted {
                        costs.insert(id.clone(), RunCost::Unavailable(why.clone()));
                    }
                }
            }
        }
        notify(LoadEvent::Moved);
    };
    let statistics = join_all(run_ids.iter().filter(|id| reads.statistics_needed(id)).map(
        |id| async move {
            let read = match client.rollout_statistics(id).await {
                Ok(statistics) => Lookup::Read(statistics),
                Err(error) => Lookup::Failed(error.to_string()),
            };
            reads.statistics.borrow_mut().insert(id.clone(), read);
            notify(LoadEvent::Moved);
        },
    ));
    join(billing, statistics).await;
}
