//! Long content cut for display: the first part of a text, never splitting a character, with
//! the full size known so the page can offer "show all".

/// Characters shown of a long text before "show all".
pub const DEFAULT_EXCERPT_CHARS: usize = 2_000;
/// Lines shown of a long text before "show all".
pub const DEFAULT_EXCERPT_LINES: usize = 40;

/// The start of a text, as much as fits the limits, and how much there is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Excerpt<'a> {
    /// The part shown: a prefix of the text ending on a character boundary.
    pub shown: &'a str,
    /// Characters of the whole text.
    pub total_chars: usize,
    /// Lines of the whole text (0 for empty text; a final newline ends the last line).
    pub total_lines: usize,
    /// Bytes of the whole text (UTF-8).
    pub total_bytes: usize,
}

impl Excerpt<'_> {
    /// Whether some of the text is not shown.
    pub fn is_cut(&self) -> bool {
        self.shown.len() < self.total_bytes
    }

    /// Characters left out.
    pub fn hidden_chars(&self) -> usize {
        self.total_chars - self.shown.chars().count()
    }
}

/// The start of `text`: at most `max_chars` characters and `max_lines` lines (a cut at a line
/// limit ends before that line's newline; a limit of 0 lines shows the first). Reads the whole
/// text once to count it.
pub fn excerpt(text: &str, max_chars: usize, max_lines: usize) -> Excerpt<'_> {
    let max_lines = max_lines.max(1);
    let mut end = None;
    let mut chars = 0;
    let mut lines = 0;
    for (offset, c) in text.char_indices() {
        if end.is_none() && chars == max_chars {
            end = Some(offset);
        }
        chars += 1;
        if c == '\n' {
            lines += 1;
            if end.is_none() && lines == max_lines && offset + 1 < text.len() {
                end = Some(offset);
            }
        }
    }
    let total_lines = if text.is_empty() || text.ends_with('\n') {
        lines
    } else {
        lines + 1
    };
    let end = end.unwrap_or(text.len());
    Excerpt {
        shown: &text[..end],
        total_chars: chars,
        total_lines,
        total_bytes: text.len(),
    }
}

/// [`excerpt`] with [`DEFAULT_EXCERPT_CHARS`] and [`DEFAULT_EXCERPT_LINES`].
pub fn default_excerpt(text: &str) -> Excerpt<'_> {
    excerpt(text, DEFAULT_EXCERPT_CHARS, DEFAULT_EXCERPT_LINES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_shown_whole() {
        let cut = excerpt("a\nb\n", 10, 10);
        assert_eq!(cut.shown, "a\nb\n");
        assert!(!cut.is_cut());
        assert_eq!(
            (cut.total_chars, cut.total_lines, cut.total_bytes),
            (4, 2, 4)
        );
        assert_eq!(excerpt("", 0, 0).total_lines, 0);
        assert!(!excerpt("", 0, 0).is_cut());
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        let text = "é🙂x".repeat(10);
        for limit in 0..32 {
            let cut = excerpt(&text, limit, 100);
            assert_eq!(cut.shown.chars().count(), limit.min(30));
            assert_eq!(cut.hidden_chars(), 30 - limit.min(30));
            assert_eq!(cut.total_bytes, text.len());
        }
    }

    #[test]
    fn a_cut_at_the_line_limit_ends_before_the_newline() {
        let cut = excerpt("1\n2\n3\n4", 100, 2);
        assert_eq!(cut.shown, "1\n2");
        assert!(cut.is_cut());
        assert_eq!(cut.total_lines, 4);
        // Exactly two lines ending in a newline: nothing hidden.
        assert!(!excerpt("1\n2\n", 100, 2).is_cut());
    }
}
