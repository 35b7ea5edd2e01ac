//! Size limits on untrusted text that is shown (names, labels, ids): one home for both.
//!
//! - When a run set is built, a run's display name and a task's or category's label over
//!   [`MAX_SHOWN_FIELD_BYTES`] is cut there ([`cut_to_bytes`]) and the cut is reported (a
//!   coverage warning names the field, the run or task, and the size it had), so no renderer
//!   ever holds a 200 MB name.
//! - Where a name, label or id is shown in a heading, a table cell or a message, it is
//!   [`shorten`]ed to a number of characters ([`SHOWN_NAME_CHARS`] for names and labels); the
//!   full value stays in the report's JSON and, in HTML, in the element's `title`.

use std::borrow::Cow;

/// Largest size, in bytes, of a run's display name or a task's or category's label as read:
/// a longer one is cut to this (at a character boundary) when the run set is built, with a
/// warning. 4 KiB is far beyond any real name and bounds every report that repeats it.
pub const MAX_SHOWN_FIELD_BYTES: usize = 4096;

/// How many characters of a name or label a heading, table cell or message shows before
/// cutting it with `…`.
pub const SHOWN_NAME_CHARS: usize = 120;

/// The marker a shortened text ends with.
pub const ELLIPSIS: char = '…';

/// `text` cut to at most `max_chars` characters: the first `max_chars − 1` followed by `…`
/// when it is longer, else `text` itself (borrowed). A `max_chars` of 0 gives `…` for any
/// non-empty text.
pub fn shorten(text: &str, max_chars: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max_chars) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let keep = max_chars.saturating_sub(1);
            let end = text
                .char_indices()
                .nth(keep)
                .map_or(text.len(), |(at, _)| at);
            let mut out = String::with_capacity(end + ELLIPSIS.len_utf8());
            out.push_str(&text[..end]);
            out.push(ELLIPSIS);
            Cow::Owned(out)
        }
    }
}

/// Cuts `text` to at most `max_bytes` bytes at a character boundary, ending it with `…`
/// (which fits within `max_bytes`), and frees what was cut. Returns the size it had in bytes
/// when it was cut, `None` when it fit.
pub fn cut_to_bytes(text: &mut String, max_bytes: usize) -> Option<usize> {
    let cut = cut_copy(text, max_bytes)?;
    let before = text.len();
    *text = cut;
    Some(before)
}

/// What [`cut_to_bytes`] leaves of `text`, copied (reading no more of it than is kept), when
/// `text` is over `max_bytes`; `None` when it fits.
pub fn cut_copy(text: &str, max_bytes: usize) -> Option<String> {
    if text.len() <= max_bytes {
        return None;
    }
    let mut end = max_bytes.saturating_sub(ELLIPSIS.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::with_capacity(max_bytes);
    out.push_str(&text[..end]);
    if ELLIPSIS.len_utf8() <= max_bytes {
        out.push(ELLIPSIS);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_whole_and_borrowed() {
        assert!(matches!(shorten("run a", 5), Cow::Borrowed("run a")));
        assert_eq!(shorten("", 0), "");
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary_with_an_ellipsis() {
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("ééééé", 3), "éé…");
        assert_eq!(shorten("🦀🦀🦀", 2), "🦀…");
        assert_eq!(shorten("abc", 0), "…");
        assert_eq!(shorten(&"x".repeat(10_000), 120).chars().count(), 120);
    }

    #[test]
    fn a_field_over_its_bytes_is_cut_within_them() {
        let mut name = "é".repeat(3000);
        assert_eq!(cut_to_bytes(&mut name, 4096), Some(6000));
        assert!(name.len() <= 4096);
        assert!(name.ends_with('…'));
        assert!(name.starts_with("éé"));
        let mut short = "run".to_owned();
        assert_eq!(cut_to_bytes(&mut short, 4096), None);
        assert_eq!(short, "run");
        let mut tiny = "abcdef".to_owned();
        assert_eq!(cut_to_bytes(&mut tiny, 2), Some(6));
        assert_eq!(tiny, "");
    }
}
