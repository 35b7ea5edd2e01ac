//! The form a stream sends its items in: the API's pages as they came, (`?form=kept`) the kept
//! form of the trajectories and their rewards, only the fields the model keeps or the full
//! type requires ([`eval_compare_core::large_list::kept_trajectory_page`]), or
//! (`?form=packed`) that kept form packed, each page line the codec packs sent as its frame
//! ([`eval_compare_core::large_list::encode_trajectory_page`]). A benchmark's tasks have a
//! kept form (id, label, split, categories:
//! [`eval_compare_core::large_list::kept_task_page`]), sent when either is asked for; trials
//! have neither, and are sent as the API's.
//!
//! The cache keeps each form on its own, under the list's name and `+kept` or `+packed`
//! (`trajectories+kept`): the CLI's `--cache` reads the API's form under the plain name, and
//! a page asking for the kept or packed form is served it as stored, not the full one
//! projected again at every serve.

use eval_compare_core::client::list_stream::{StreamedList, KEPT_FORM, PACKED_FORM};
use eval_compare_core::large_list::{
    encode_reward_page, encode_trajectory_page, kept_reward_page, kept_task_page,
    kept_trajectory_page,
};

/// The form of a stream's items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ItemForm {
    /// The API's pages as they came.
    #[default]
    Api,
    /// The kept form of the trajectories (and their rewards).
    Kept,
    /// The kept form packed: frames where the codec packs a page, kept lines elsewhere.
    Packed,
}

impl ItemForm {
    /// The form a request's `form` value asks for: `kept`, `packed` (absent: the API's form).
    pub fn asked(value: &str) -> Result<Self, crate::error::ApiError> {
        match value {
            KEPT_FORM => Ok(ItemForm::Kept),
            PACKED_FORM => Ok(ItemForm::Packed),
            _ => Err(crate::error::ApiError::invalid_request(
                eval_compare_core::client::list_stream::FORM_PARAM,
                "`form` is `kept`, `packed` or absent (the API's form).",
            )),
        }
    }

    /// The form `list` is sent in when `asked` is asked for: the API's for the lists that
    /// have no other form.
    pub fn of(list: StreamedList, asked: ItemForm) -> Self {
        match list {
            StreamedList::Rewards | StreamedList::Trajectories => asked,
            StreamedList::Tasks if asked != ItemForm::Api => ItemForm::Kept,
            StreamedList::Trials | StreamedList::Tasks => ItemForm::Api,
        }
    }

    /// The name `list` in this form is kept under in the cache.
    pub fn cache_name(self, list: StreamedList) -> String {
        match self {
            ItemForm::Api => list.name().to_owned(),
            ItemForm::Kept => format!("{}+{KEPT_FORM}", list.name()),
            ItemForm::Packed => format!("{}+{PACKED_FORM}", list.name()),
        }
    }

    /// A page line of `list` in this form (the line as it came when the page is not plain;
    /// in the packed form, the kept line when the codec leaves the page as it is).
    pub fn line(self, list: StreamedList, line: Vec<u8>) -> Vec<u8> {
        let kept = match (self, list) {
            (ItemForm::Kept | ItemForm::Packed, StreamedList::Trajectories) => {
                kept_trajectory_page(&line)
            }
            (ItemForm::Kept | ItemForm::Packed, StreamedList::Rewards) => kept_reward_page(&line),
            (ItemForm::Kept | ItemForm::Packed, StreamedList::Tasks) => kept_task_page(&line),
            _ => None,
        };
        let kept = kept.unwrap_or(line);
        match self {
            ItemForm::Packed => packed(list, kept),
            ItemForm::Api | ItemForm::Kept => kept,
        }
    }
}

/// A page line of `list` (in its kept form) as its frame, or as it is when the codec leaves
/// it (a page it does not pack, or too large for a frame).
pub fn packed(list: StreamedList, line: Vec<u8>) -> Vec<u8> {
    let frame = match list {
        StreamedList::Trajectories => encode_trajectory_page(&line),
        StreamedList::Rewards => encode_reward_page(&line),
        StreamedList::Trials | StreamedList::Tasks => None,
    };
    frame.unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::api::CursorPage;
    use eval_compare_core::large_list::{decode_reward_page, is_frame_start};

    #[test]
    fn the_large_lists_have_a_kept_and_a_packed_form_the_tasks_a_kept_one() {
        for asked in [ItemForm::Kept, ItemForm::Packed] {
            assert_eq!(ItemForm::of(StreamedList::Trials, asked), ItemForm::Api);
            assert_eq!(ItemForm::of(StreamedList::Tasks, asked), ItemForm::Kept);
        }
        assert_eq!(
            ItemForm::of(StreamedList::Trajectories, ItemForm::Api),
            ItemForm::Api
        );
        let kept = ItemForm::of(StreamedList::Trajectories, ItemForm::Kept);
        assert_eq!(
            kept.cache_name(StreamedList::Trajectories),
            "trajectories+kept"
        );
        assert_eq!(
            ItemForm::Packed.cache_name(StreamedList::Rewards),
            "trajectory-rewards+packed"
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
        let frame = ItemForm::Packed.line(StreamedList::Rewards, line.clone());
        assert!(is_frame_start(frame[0]));
        let page = decode_reward_page(&frame).expect("a frame");
        assert_eq!(page.items().len(), 1);
        // A line the codec does not pack is sent as its kept line.
        let not_a_page = b"{\"items\":7}".to_vec();
        assert_eq!(
            ItemForm::Packed.line(StreamedList::Rewards, not_a_page.clone()),
            not_a_page
        );
    }
}
