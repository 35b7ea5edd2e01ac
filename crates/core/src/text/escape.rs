//! Untrusted text (ids, names, statuses, labels, messages that quote API data) made safe to
//! print: in a terminal ([`visible`]), in markdown ([`markdown_text`], [`markdown_code`]) and in
//! HTML ([`html_text`]).
//!
//! The rules:
//! - Every character a reader cannot see, or that changes how the text around it is shown, is
//!   written as a visible escape `\u{…}` (upper-case hex): control characters (C0 with tab,
//!   newline and carriage return, DEL, C1 — so NUL and the ESC of terminal sequences too), the
//!   bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), zero-width
//!   and other invisible format characters (U+00AD, U+180E, U+200B–U+200D, U+2060–U+2064,
//!   U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB, the tag characters U+E0000–U+E007F) and the line
//!   and paragraph separators U+2028–U+2029. A literal backslash stays as it is.
//! - In markdown text, the characters that could change the document's structure or inject
//!   markup are escaped: `\`, `` ` ``, `|` (a table cell), `[` and `]` (links and images) with
//!   a backslash; `<`, `>` and `&` (HTML, autolinks, entities) as HTML entities, but a `<`
//!   before a space, which opens nothing (`p < 0.0001` reads as written). Emphasis
//!   characters (`*`, `_`, `~`) are left alone: they can only change emphasis, and ids use `_`.
//! - In a markdown code span nothing but the fence is special: the fence is one backtick longer
//!   than the longest run of backticks inside. Text with a `|` is written as escaped markdown
//!   text instead, because a table cell ends at a `|` even inside a code span.
//! - In HTML (element content, SVG `<text>` and quoted attribute values alike) `&`, `<`, `>`,
//!   `"` and `'` become entities and hidden characters visible escapes, so no text can open a
//!   tag, end an attribute or start an entity.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` is shown as a visible escape (see the module doc).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{AD}'
                | '\u{61C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// `text` with every hidden character written as `\u{…}`, e.g. `run\u{1B}[2J`; borrowed when
/// there is none. For messages on a terminal (the CLI's stderr) and inside markdown.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

fn push_visible(out: &mut String, c: char) {
    if is_hidden(c) {
        let _ = write!(out, "\\u{{{:X}}}", u32::from(c));
    } else {
        out.push(c);
    }
}

/// Untrusted text as markdown text: hidden characters made visible, markup escaped (see the
/// module doc). Safe in a paragraph, a list item, a heading and a table cell.
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '|' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            // Before a space (`p < 0.0001`) a `<` opens no tag nor autolink: it stays as read.
            '<' if chars.peek() == Some(&' ') => out.push('<'),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            _ => push_visible(&mut out, c),
        }
    }
    out
}

/// Untrusted text as a markdown code span (e.g. an id): `` `er_1` ``, with a longer fence
/// around backticks; text with a `|`, or empty text, as [`markdown_text`] instead.
pub fn markdown_code(text: &str) -> String {
    if text.is_empty() || text.contains('|') {
        return markdown_text(text);
    }
    let shown = visible(text);
    let longest_run = shown
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest_run + 1);
    // A space is stripped from each end of a code span that starts and ends with one, and it
    // keeps a backtick apart from the fence.
    let pad = shown.starts_with(['`', ' ']) || shown.ends_with(['`', ' ']);
    let pad = if pad { " " } else { "" };
    format!("{fence}{pad}{shown}{pad}{fence}")
}

/// Untrusted text as HTML: hidden characters made visible, `&`, `<`, `>`, `"` and `'` written
/// as entities. Safe in element content, SVG `<text>` and a quoted attribute value.
pub fn html_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => push_visible(&mut out, c),
        }
    }
    out
}

/// Whether `link` is an absolute http(s) address: only such a link (the share link of an HTML
/// report, the CLI's `--link-base`) is written as one; any other is shown as text.
pub fn is_web_link(link: &str) -> bool {
    let lower = link.get(..8).unwrap_or(link).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_links_are_links() {
        assert!(is_web_link("http://x/compare"));
        assert!(is_web_link("HTTPS://x"));
        assert!(!is_web_link("javascript:alert(1)"));
        assert!(!is_web_link("/compare"));
        assert!(!is_web_link(""));
    }

    #[test]
    fn plain_text_is_unchanged_and_borrowed() {
        assert!(matches!(visible("er_gpt-4 Step 400 é"), Cow::Borrowed(_)));
        assert_eq!(
            markdown_text("gpt-3.5-turbo bench_humaneval"),
            "gpt-3.5-turbo bench_humaneval"
        );
        assert_eq!(markdown_code("er_gpt-4"), "`er_gpt-4`");
    }

    #[test]
    fn hidden_characters_become_visible_escapes() {
        assert_eq!(visible("a\u{1b}[2Jb"), "a\\u{1B}[2Jb");
        assert_eq!(visible("nul\0"), "nul\\u{0}");
        assert_eq!(visible("a\nb\tc\r"), "a\\u{A}b\\u{9}c\\u{D}");
        assert_eq!(visible("\u{7f}\u{85}\u{9b}"), "\\u{7F}\\u{85}\\u{9B}");
        assert_eq!(visible("abc\u{202E}fed"), "abc\\u{202E}fed");
        assert_eq!(visible("\u{2066}x\u{2069}"), "\\u{2066}x\\u{2069}");
        assert_eq!(
            visible("a\u{200B}b\u{200D}\u{FEFF}"),
            "a\\u{200B}b\\u{200D}\\u{FEFF}"
        );
        assert_eq!(visible("tag\u{E0041}"), "tag\\u{E0041}");
    }

    #[test]
    fn markdown_text_escapes_markup() {
        assert_eq!(
            markdown_text("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(markdown_text("a|b"), "a\\|b");
        assert_eq!(markdown_text("end\\"), "end\\\\");
        assert_eq!(
            markdown_text("![x](http://t/p.png)"),
            "!\\[x\\](http://t/p.png)"
        );
        assert_eq!(markdown_text("&#x202E;"), "&amp;#x202E;");
        assert_eq!(markdown_text("`code`"), "\\`code\\`");
        assert_eq!(markdown_text("p < 0.0001"), "p < 0.0001");
        assert_eq!(markdown_text("a <b> c<"), "a &lt;b&gt; c&lt;");
        assert_eq!(markdown_text("line\n# heading"), "line\\u{A}# heading");
    }

    #[test]
    fn html_text_escapes_markup_and_quotes() {
        assert_eq!(
            html_text("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(
            html_text("\"><img src=x onerror='a()'>"),
            "&quot;&gt;&lt;img src=x onerror=&#39;a()&#39;&gt;"
        );
        assert_eq!(html_text("&amp;"), "&amp;amp;");
        assert_eq!(html_text("a\u{202E}b\n"), "a\\u{202E}b\\u{A}");
        assert_eq!(html_text("Step 400 é"), "Step 400 é");
    }

    #[test]
    fn code_spans_fence_backticks_and_leave_pipes_to_text() {
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("`x``"), "``` `x`` ```");
        assert_eq!(markdown_code("<b>"), "`<b>`");
        assert_eq!(markdown_code("a\u{1b}b"), "`a\\u{1B}b`");
        assert_eq!(markdown_code("a|b"), "a\\|b");
        assert_eq!(markdown_code(""), "");
    }
}
