//! A Chronicle run's trials on the task: [`view`] lists them with their scorers and error
//! ([`lines`], the raw trials from a [`source::TrialSource`]), [`details`] fetches a trial's
//! detail on demand ([`detail_row`] asks for it and shows it) and [`detail_view`] shows its
//! instruction, steps and artifacts ([`detail_lines`]).

pub mod detail_lines;
pub mod detail_row;
pub mod detail_view;
pub mod details;
pub mod lines;
pub mod source;
pub mod view;
