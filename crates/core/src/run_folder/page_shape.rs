//! Whether a list file's first value is an API page, told without keeping the value: every
//! member is skipped as a page read skips a member it does not know ([`IgnoredAny`]), so the
//! answer is the one a typed read of the page gives. A `serde_json::Value` would refuse what
//! a page read accepts (a number out of any Rust number's range, `1e400`, in an item's unknown
//! member) and the file would be read as items, one read of a file answering otherwise than
//! another.

use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A JSON value's answer to "is it a page": an object whose `items` member is an array (the
/// last `items`, when repeated). Reads any JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct IsPage(pub(super) bool);

impl<'de> Deserialize<'de> for IsPage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Shape { members: true }
            .deserialize(deserializer)
            .map(IsPage)
    }
}

/// Reads a value, skipping it: `true` for an array (`members: false`), or for an object whose
/// `items` is one (`members: true`).
#[derive(Clone, Copy)]
struct Shape {
    members: bool,
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Shape {
    type Value = bool;
    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(!self.members)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut page = false;
        while let Some(key) = map.next_key::<std::borrow::Cow<'_, str>>()? {
            if self.members && key == "items" {
                page = map.next_value_seed(Shape { members: false })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(self.members && page)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_page(json: &str) -> Option<bool> {
        serde_json::from_str::<IsPage>(json).ok().map(|page| page.0)
    }

    #[test]
    fn a_page_is_an_object_with_an_items_array() {
        assert_eq!(is_page(r#"{"items": [], "has_more": false}"#), Some(true));
        assert_eq!(is_page(r#"{"items": [{"items": 1}]}"#), Some(true));
        assert_eq!(is_page(r#"{"items": {"items": []}}"#), Some(false));
        assert_eq!(is_page(r#"{"items": [], "items": null}"#), Some(false));
        assert_eq!(is_page(r#"{"task_id": "t"}"#), Some(false));
        for other in [
            r#"[{"items": []}]"#,
            "1",
            "\"items\"",
            "null",
            "true",
            "-2.5",
        ] {
            assert_eq!(is_page(other), Some(false), "{other}");
        }
        assert_eq!(is_page(r#"{"items": [}"#), None);
    }

    /// What a page read skips, the answer skips too: a number no Rust number holds in an
    /// item's member (a `Value` refuses it).
    #[test]
    fn a_number_out_of_range_in_an_item_leaves_a_page_a_page() {
        let page = r#"{"items": [{"task_id": "t", "future_field": 1e400}], "x": -1e400}"#;
        assert_eq!(is_page(page), Some(true));
        assert!(serde_json::from_str::<serde_json::Value>(page).is_err());
    }
}
