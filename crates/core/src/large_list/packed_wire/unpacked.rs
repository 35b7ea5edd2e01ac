//! The pages the load engine reads that have no packed form: a benchmark's tasks, a Chronicle
//! job's trials, and the API's records whole (a run folder's). They implement [`PackedPage`] so
//! that one stream reader serves every list; they are never asked for in the packed form, and a
//! frame where one of them is read is refused.

use super::{error, PackedPage, PackedPageError};
use crate::api::{
    BenchmarkTaskPage, ChronicleTrialPage, EvalTrajectoryReward, EvalTrajectoryRewardsPage,
    TrajectoryPage,
};

macro_rules! no_packed_form {
    ($($page:ty),* $(,)?) => {$(
        impl PackedPage for $page {
            fn encode_packed(_line: &[u8]) -> Option<Vec<u8>> {
                None
            }
            fn decode_packed(_frame: &[u8]) -> Result<Self, PackedPageError> {
                Err(error("a frame where a list without a packed form was read", 0))
            }
        }
    )*};
}

no_packed_form!(
    BenchmarkTaskPage,
    ChronicleTrialPage,
    EvalTrajectoryRewardsPage<EvalTrajectoryReward>,
    TrajectoryPage,
);
