//! The form a stream sends its items in: the API's pages as they came, or (`?form=kept`) the
//! kept form of the trajectories and their rewards, only the fields the model keeps or the
//! full type requires ([`eval_compare_core::large_list::kept_trajectory_page`]). Trials and
//! tasks have no kept form: asked for it, they are sent as the API's.
//!
//! The cache keeps each form on its own, the kept one under the list's name and `+kept`
//! (`trajectories+kept`): the CLI's `--cache` reads the API's form under the plain name, and
//! a page asking for the kept form is served the smaller list, not the full one projected
//! again at every serve.

use eval_compare_core::client::list_stream::{StreamedList, KEPT_FORM};
use eval_compare_core::large_list::{kept_reward_page, kept_trajectory_page};

/// The form of a stream's items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ItemForm {
    /// The API's pages as they came.
    #[default]
    Api,
    /// The kept form of the trajectories (and their rewards).
    Kept,
}

impl ItemForm {
    /// The form `list` is sent in when `kept` is asked for (or not).
    pub fn of(list: StreamedList, kept: bool) -> Self {
        match list {
            StreamedList::Rewards | StreamedList::Trajectories if kept => ItemForm::Kept,
            _ => ItemForm::Api,
        }
    }

    /// The name `list` in this form is kept under in the cache.
    pub fn cache_name(self, list: StreamedList) -> String {
        match self {
            ItemForm::Api => list.name().to_owned(),
            ItemForm::Kept => format!("{}+{KEPT_FORM}", list.name()),
        }
    }

    /// A page line of `list` in this form (the line as it came when the page is not plain).
    pub fn line(self, list: StreamedList, line: Vec<u8>) -> Vec<u8> {
        let kept = match (self, list) {
            (ItemForm::Kept, StreamedList::Trajectories) => kept_trajectory_page(&line),
            (ItemForm::Kept, StreamedList::Rewards) => kept_reward_page(&line),
            _ => None,
        };
        kept.unwrap_or(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_large_lists_have_a_kept_form_kept_apart() {
        assert_eq!(ItemForm::of(StreamedList::Trials, true), ItemForm::Api);
        assert_eq!(ItemForm::of(StreamedList::Tasks, true), ItemForm::Api);
        assert_eq!(
            ItemForm::of(StreamedList::Trajectories, false),
            ItemForm::Api
        );
        let kept = ItemForm::of(StreamedList::Trajectories, true);
        assert_eq!(
            kept.cache_name(StreamedList::Trajectories),
            "trajectories+kept"
        );
        assert_eq!(
            ItemForm::Api.cache_name(StreamedList::Rewards),
            "trajectory-rewards"
        );
        let line = br#"{"items":[{"trajectory_id":"t","reward":1,"task_id":null,"x":2}],"has_more":false,"eval_run_id":"r"}"#.to_vec();
        let rewards = ItemForm::Kept.line(StreamedList::Rewards, line.clone());
        assert!(!String::from_utf8(rewards).unwrap().contains("\"x\""));
        assert_eq!(
            ItemForm::Api.line(StreamedList::Rewards, line.clone()),
            line
        );
    }
}
