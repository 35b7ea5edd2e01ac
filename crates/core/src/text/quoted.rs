//! The `` `quoted` `` names in the report's own phrases (an option key, a status, a split) set
//! apart from the words around them, so each renderer shows them as code rather than as
//! backticks: the page as `<code>` elements, the markdown as code spans, the HTML report as
//! `<code>`.

/// One part of a phrase: words, or a quoted part without its backticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotedPart<'a> {
    /// Words, shown as they are.
    Words(&'a str),
    /// What stood between two backticks, shown as code.
    Code(&'a str),
}

/// `text` cut at its quotes: a pair of backticks around a name (letters, digits, `_`, `-`,
/// `.`, `:`, `/`) encloses a [`QuotedPart::Code`]; any other backtick (quoted data that is no
/// name, a lone one) stays in the words, for the renderer to escape. Empty parts are left out.
pub fn quoted_parts(text: &str) -> Vec<QuotedPart<'_>> {
    let mut parts = Vec::new();
    let mut words_from = 0;
    let mut at = 0;
    while let Some(open) = text[at..].find('`').map(|i| at + i) {
        let Some(close) = text[open + 1..].find('`').map(|i| open + 1 + i) else {
            break;
        };
        let inside = &text[open + 1..close];
        if is_name(inside) {
            if words_from < open {
                parts.push(QuotedPart::Words(&text[words_from..open]));
            }
            parts.push(QuotedPart::Code(inside));
            words_from = close + 1;
            at = close + 1;
        } else {
            at = open + 1;
        }
    }
    if words_from < text.len() {
        parts.push(QuotedPart::Words(&text[words_from..]));
    }
    parts
}

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_backticks_enclose_code_and_a_lone_one_stays() {
        assert_eq!(
            quoted_parts("7200 (evaluation default, `execution_timeout_seconds`)"),
            [
                QuotedPart::Words("7200 (evaluation default, "),
                QuotedPart::Code("execution_timeout_seconds"),
                QuotedPart::Words(")"),
            ]
        );
        assert_eq!(
            quoted_parts("a `b` c `d"),
            [
                QuotedPart::Words("a "),
                QuotedPart::Code("b"),
                QuotedPart::Words(" c `d")
            ]
        );
        // Quoted data that is no name stays words, backticks and all.
        assert_eq!(
            quoted_parts("status `x![i](http://t)` is `ok`"),
            [
                QuotedPart::Words("status `x![i](http://t)` is "),
                QuotedPart::Code("ok")
            ]
        );
        assert_eq!(quoted_parts("plain"), [QuotedPart::Words("plain")]);
        assert_eq!(quoted_parts(""), []);
    }
}
