//! The form a store keeps a run's two large lists in: packed for a comparison (what the model
//! reads, a quarter of the memory), or the API's full records for a run folder written to disk.

use std::fmt::Debug;

use crate::large_list::{PackedPage, PlainItem};

use crate::api::{
    CursorPage, EvalTrajectoryReward, EvalTrajectoryRewardsPage, TrajectoryMetadata, TrajectoryPage,
};
use crate::large_list::{
    AsRewardFacts, AsTrajectoryFacts, PackedReward, PackedRewardsPage, PackedTrajectory,
    PackedTrajectoryPage,
};

/// The form of a run's trajectory rewards and trajectories in a [`super::LoadStore`], and the
/// pages they are decoded from. Both forms accept and refuse the same pages.
pub trait ListForm: Debug + Default + 'static {
    /// A trajectory reward as kept.
    type Reward: AsRewardFacts + Debug + Clone + PartialEq;
    /// A listed trajectory as kept.
    type Trajectory: AsTrajectoryFacts + Debug + Clone + PartialEq;
    /// A page of rewards, decoded into that form.
    type RewardsPage: CursorPage<Item = Self::Reward> + PlainItem + PackedPage;
    /// A page of trajectories, decoded into that form.
    type TrajectoryPage: CursorPage<Item = Self::Trajectory> + PlainItem + PackedPage;
    /// Whether its pages are read from the packed wire form's frames (else the server's
    /// streams are asked for the kept form, which every form reads).
    const PACKED_WIRE: bool;
}

/// What a comparison reads of each item, its strings in one allocation ([`PackedReward`],
/// [`PackedTrajectory`]): the viewer's and the CLI's reports.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Packed;

impl ListForm for Packed {
    type Reward = PackedReward;
    type Trajectory = PackedTrajectory;
    type RewardsPage = PackedRewardsPage;
    type TrajectoryPage = PackedTrajectoryPage;
    const PACKED_WIRE: bool = true;
}

/// The API's records whole ([`EvalTrajectoryReward`], [`TrajectoryMetadata`]): a run written to
/// disk as a run folder.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FullRecords;

impl ListForm for FullRecords {
    type Reward = EvalTrajectoryReward;
    type Trajectory = TrajectoryMetadata;
    type RewardsPage = EvalTrajectoryRewardsPage;
    type TrajectoryPage = TrajectoryPage;
    /// A frame holds only what the model keeps, not the records whole.
    const PACKED_WIRE: bool = false;
}
