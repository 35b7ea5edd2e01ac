//! A Trajectory API run's trajectories on the task: [`lines`] copies them out of the run set and
//! [`rows`] lays them out, [`details`] fetches a trajectory's error and reward components on
//! demand ([`load_all`] every one of the task's at once) and [`details_view`] shows them.

pub mod details;
pub mod details_view;
pub mod lines;
pub mod load_all;
pub mod rows;
