//! The reward components read per trajectory ([`ComponentReads`]): what the
//! [`LoadStore`](super::LoadStore) keeps of the reads [`load_components`](super::load_components)
//! makes.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use crate::client::ApiError;
use crate::model::RewardComponent;

use super::component_stop::ComponentStop;

/// The components read so far, and the reads that failed.
#[derive(Debug, Default)]
pub struct ComponentReads {
    /// Components by trajectory id (an empty list: the trajectory logged none).
    pub(super) read: RefCell<HashMap<String, Vec<RewardComponent>>>,
    /// The last error of each trajectory whose read failed (ids in order).
    pub(super) failed: RefCell<BTreeMap<String, ApiError>>,
    /// Reads claimed by a load in progress (queued or in flight).
    pub(super) pending: RefCell<HashSet<String>>,
    /// Why the last load gave up, until the next one starts.
    pub(super) stopped: RefCell<Option<ComponentStop>>,
}
