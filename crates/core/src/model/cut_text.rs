//! Shown texts cut when a run set is built, for being over
//! [`MAX_SHOWN_FIELD_BYTES`](crate::text::MAX_SHOWN_FIELD_BYTES): a run's display name, a
//! task's or category's label. Each cut is kept (the field and the size it had) so the coverage
//! ledger warns about it; no renderer ever holds the whole field.

use serde::{Deserialize, Serialize};

use crate::text::{cut_copy, cut_to_bytes, shorten, MAX_SHOWN_FIELD_BYTES, SHOWN_NAME_CHARS};

/// One text cut to [`MAX_SHOWN_FIELD_BYTES`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutText {
    /// What was cut, e.g. `display name`, `label of task \`t1\``.
    pub field: String,
    /// Its size as read, in bytes.
    pub bytes: u64,
}

/// How many cut task and category labels a [`CutLabels`] keeps as examples.
pub const CUT_LABEL_EXAMPLES: usize = 5;

/// Task and category labels cut when the set was built.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CutLabels {
    /// Labels cut.
    pub count: u64,
    /// The first [`CUT_LABEL_EXAMPLES`] of them.
    pub examples: Vec<CutText>,
}

impl CutLabels {
    /// Cuts `label` when it is too long, recording it as the label of `owner` (e.g. `task`)
    /// `id`.
    pub(crate) fn cut(&mut self, label: &mut String, owner: &str, id: &str) {
        if let Some(bytes) = cut_to_bytes(label, MAX_SHOWN_FIELD_BYTES) {
            self.count += 1;
            if self.examples.len() < CUT_LABEL_EXAMPLES {
                self.examples.push(CutText {
                    field: format!("label of {owner} `{}`", shorten(id, SHOWN_NAME_CHARS)),
                    bytes: bytes as u64,
                });
            }
        }
    }
}

/// Cuts a run's display name when it is too long, recording the cut in `cut`.
pub(crate) fn cut_display_name(display_name: &mut Option<String>, cut: &mut Vec<CutText>) {
    if let Some(name) = display_name {
        if let Some(bytes) = cut_to_bytes(name, MAX_SHOWN_FIELD_BYTES) {
            cut.push(CutText {
                field: "display name".to_owned(),
                bytes: bytes as u64,
            });
        }
    }
}

/// A copy of a run's display name as [`cut_display_name`] leaves it, copying no more than
/// is kept of a long one; the cut is recorded in `cut`.
pub(crate) fn copied_display_name(
    display_name: Option<&str>,
    cut: &mut Vec<CutText>,
) -> Option<String> {
    let name = display_name?;
    let Some(copy) = cut_copy(name, MAX_SHOWN_FIELD_BYTES) else {
        return Some(name.to_owned());
    };
    cut.push(CutText {
        field: "display name".to_owned(),
        bytes: name.len() as u64,
    });
    Some(copy)
}
