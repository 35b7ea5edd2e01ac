//! What the [`LoadStore`](super::LoadStore) keeps of the reads made one trajectory at a time on
//! request ([`TrajectoryReads`]): reward components ([`ComponentReads`], by
//! [`load_components`](super::load_components)) and token counts (by
//! [`load_tokens`](super::load_tokens)).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use crate::client::ApiError;
use crate::model::RewardComponent;

use super::component_stop::ComponentStop;

/// What was read per trajectory so far (a value `V` each), and the reads that failed.
#[derive(Debug)]
pub struct TrajectoryReads<V> {
    /// Values by trajectory id.
    pub(super) read: RefCell<HashMap<String, V>>,
    /// The last error of each trajectory whose read failed (ids in order).
    pub(super) failed: RefCell<BTreeMap<String, ApiError>>,
    /// Reads claimed by a load in progress (queued or in flight).
    pub(super) pending: RefCell<HashSet<String>>,
    /// Why the last load gave up, until the next one starts.
    pub(super) stopped: RefCell<Option<ComponentStop>>,
}

impl<V> Default for TrajectoryReads<V> {
    fn default() -> Self {
        Self {
            read: RefCell::default(),
            failed: RefCell::default(),
            pending: RefCell::default(),
            stopped: RefCell::default(),
        }
    }
}

/// The components read so far (an empty list: the trajectory logged none).
pub type ComponentReads = TrajectoryReads<Vec<RewardComponent>>;
