//! A position in JSON text read forward, for the plain form (see [`super`]): plain strings,
//! numbers converted exactly when one operation gives serde_json's value, objects and arrays
//! handed member by member to their reader, and the length of a value found by its brackets.

/// Powers of ten a `f64` holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Integers a `f64` holds exactly are below this.
const EXACT_INTEGERS: u64 = 1 << 53;

/// A JSON number as written: its digits as an integer (`None` past [`EXACT_INTEGERS`]), the
/// power of ten they are scaled by, and its form.
#[derive(Debug, Clone, Copy)]
struct Number {
    negative: bool,
    digits: Option<u64>,
    /// Digit count of the integer part and fraction together.
    digit_count: usize,
    /// `None` when the exponent is too long to matter here.
    exponent: Option<i32>,
    /// Written without a fraction or an exponent.
    integer: bool,
}

impl Number {
    /// Its value, when one exact operation gives it (as serde_json computes it then).
    fn exact_f64(self) -> Option<f64> {
        let digits = self.digits? as f64;
        let exponent = self.exponent?;
        let power = *EXACT_POWERS_OF_TEN.get(exponent.unsigned_abs() as usize)?;
        let magnitude = if exponent >= 0 {
            digits * power
        } else {
            digits / power
        };
        Some(if self.negative { -magnitude } else { magnitude })
    }

    /// Whether an `i64` field takes it (an integer serde_json reads as one: not `-0`, which
    /// it reads as a float).
    fn fits_i64(self) -> bool {
        self.integer && self.digit_count <= 18 && !(self.negative && self.digits == Some(0))
    }
}

/// A position in JSON text, read forward.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    /// At the start of `text`.
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    /// Bytes read.
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    /// The text not read yet.
    pub(crate) fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// Consumes `length` bytes another reader read.
    pub(crate) fn advance(&mut self, length: usize) {
        self.at += length;
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// The next byte after whitespace, not consumed.
    pub(crate) fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        while let Some(&byte) = bytes.get(self.at) {
            if !matches!(byte, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    /// Consumes `byte` when it comes next (after whitespace).
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    /// Consumes `word` when it comes next (after whitespace).
    fn word(&mut self, word: &[u8]) -> bool {
        self.peek();
        let next = self.bytes()[self.at..].starts_with(word);
        if next {
            self.at += word.len();
        }
        next
    }

    /// Consumes `null` when it comes next.
    pub(crate) fn null(&mut self) -> bool {
        self.word(b"null")
    }

    /// A string without escapes or control characters, its quotes consumed. Never inlined:
    /// inlined in an item scanner, its loop kept the position in memory (a store a byte, the
    /// scanner a sixth slower).
    #[inline(never)]
    pub(crate) fn string(&mut self) -> Option<&'a str> {
        // Most strings follow their delimiter at once: the quote is checked before `eat`'s
        // whitespace loop.
        if self.bytes().get(self.at) == Some(&b'"') {
            self.at += 1;
        } else if !self.eat(b'"') {
            return None;
        }
        let start = self.at;
        let end = start + plain_string_length(&self.bytes()[start..])?;
        self.at = end + 1;
        // The text is UTF-8 and the quotes are ASCII, so both ends are character boundaries.
        self.text.get(start..end)
    }

    /// A string, or null.
    pub(crate) fn optional_string(&mut self) -> Option<Option<&'a str>> {
        if self.null() {
            Some(None)
        } else {
            self.string().map(Some)
        }
    }

    /// A number in JSON's grammar.
    fn number(&mut self) -> Option<Number> {
        self.peek();
        let bytes = self.bytes();
        let mut at = self.at;
        let negative = bytes.get(at) == Some(&b'-');
        at += usize::from(negative);
        let mut digits = Some(0u64);
        let mut digit_count = 0;
        let push = |digit: u8, digits: &mut Option<u64>| {
            *digits = digits
                .map(|value| value * 10 + u64::from(digit - b'0'))
                .filter(|&value| value < EXACT_INTEGERS);
        };
        match bytes.get(at) {
            Some(b'0') => {
                at += 1;
                digit_count += 1;
                if bytes.get(at).is_some_and(u8::is_ascii_digit) {
                    return None;
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(&digit) = bytes.get(at).filter(|byte| byte.is_ascii_digit()) {
                    push(digit, &mut digits);
                    digit_count += 1;
                    at += 1;
                }
            }
            _ => return None,
        }
        let mut scale: i64 = 0;
        let mut integer = true;
        if bytes.get(at) == Some(&b'.') {
            integer = false;
            at += 1;
            let first = at;
            while let Some(&digit) = bytes.get(at).filter(|byte| byte.is_ascii_digit()) {
                push(digit, &mut digits);
                digit_count += 1;
                scale -= 1;
                at += 1;
            }
            if at == first {
                return None;
            }
        }
        let mut exponent = Some(scale);
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            integer = false;
            at += 1;
            let negative_exponent = bytes.get(at) == Some(&b'-');
            at += usize::from(matches!(bytes.get(at), Some(b'+' | b'-')));
            let first = at;
            let mut written: Option<i64> = Some(0);
            while let Some(&digit) = bytes.get(at).filter(|byte| byte.is_ascii_digit()) {
                written = written
                    .map(|value| value * 10 + i64::from(digit - b'0'))
                    .filter(|&value| value < 1 << 20);
                at += 1;
            }
            if at == first {
                return None;
            }
            exponent = written.map(|written| match negative_exponent {
                true => scale - written,
                false => scale + written,
            });
        }
        // A number the text's end may cut: the caller's next byte must be a delimiter.
        self.at = at;
        Some(Number {
            negative,
            digits,
            digit_count,
            exponent: exponent.and_then(|exponent| i32::try_from(exponent).ok()),
            integer,
        })
    }

    /// A number read as an `f64` field reads it, when exact (see the module).
    pub(crate) fn f64(&mut self) -> Option<f64> {
        self.number()?.exact_f64()
    }

    /// A number or null, as an `Option<f64>` field reads it.
    pub(crate) fn optional_f64(&mut self) -> Option<Option<f64>> {
        if self.null() {
            Some(None)
        } else {
            self.f64().map(Some)
        }
    }

    /// Null, or an integer an `Option<i64>` field takes; not kept.
    pub(crate) fn optional_i64(&mut self) -> Option<()> {
        if self.null() {
            return Some(());
        }
        self.number()?.fits_i64().then_some(())
    }

    /// Null, or an integer an `Option<i64>` field takes, kept: its value when its digits are
    /// below 2^53 (`None`, not plain, beyond: serde reads it then).
    pub(crate) fn optional_integer(&mut self) -> Option<Option<i64>> {
        if self.null() {
            return Some(None);
        }
        let number = self.number()?;
        if !number.fits_i64() {
            return None;
        }
        // Below 2^53: exact in i64.
        let magnitude = i64::try_from(number.digits?).ok()?;
        Some(Some(if number.negative {
            -magnitude
        } else {
            magnitude
        }))
    }

    /// Null, true or false, as an `Option<bool>` field reads it.
    pub(crate) fn optional_bool(&mut self) -> Option<Option<bool>> {
        if self.null() {
            Some(None)
        } else if self.word(b"true") {
            Some(Some(true))
        } else if self.word(b"false") {
            Some(Some(false))
        } else {
            None
        }
    }

    /// A value of a field not read: null, a boolean, a plain string or a number.
    pub(crate) fn skip_scalar(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'-' | b'0'..=b'9' => self.number().map(drop),
            _ => self.optional_bool().map(drop),
        }
    }

    /// An array, each element read by `element` (the cursor before it).
    pub(crate) fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        if !self.eat(b'[') {
            return None;
        }
        if self.eat(b']') {
            return Some(());
        }
        loop {
            element(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// An object, each member handed to `member` with its key (the cursor before its value);
    /// `member` reads the value or answers `None`. A key seen twice answers `None` only when
    /// `member` says so (it knows which keys it reads).
    pub(crate) fn object(
        &mut self,
        mut member: impl FnMut(&'a str, &mut Self) -> Option<()>,
    ) -> Option<()> {
        let mut members = self.members()?;
        while let Some(key) = members.next_key(self)? {
            member(key, self)?;
        }
        Some(())
    }

    /// An object's members, read one at a time by their reader's loop ([`Members::next_key`]):
    /// [`Self::object`] without a closure, for the item scanners (their reader, inlined, is
    /// compiled for each field table).
    #[inline(always)]
    pub(crate) fn members(&mut self) -> Option<Members> {
        self.eat(b'{').then_some(Members { first: true })
    }
}

/// Where a reader is in an object's members ([`Cursor::members`]).
pub(crate) struct Members {
    /// No member read yet.
    first: bool,
}

impl Members {
    /// The next member's key (the cursor then before its value, which the caller reads), or
    /// `None` at the object's end (consumed); `None` outside when the object is not JSON.
    #[inline(always)]
    pub(crate) fn next_key<'a>(&mut self, cursor: &mut Cursor<'a>) -> Option<Option<&'a str>> {
        if std::mem::replace(&mut self.first, false) {
            if cursor.eat(b'}') {
                return Some(None);
            }
        } else {
            match cursor.peek()? {
                b',' => cursor.at += 1,
                b'}' => {
                    cursor.at += 1;
                    return Some(None);
                }
                _ => return None,
            }
        }
        let key = cursor.string()?;
        cursor.eat(b':').then_some(Some(key))
    }
}

/// How deep an item read by serde alone ([`Cursor::item_sharing`](super::PlainItem)) may nest: far below
/// serde_json's limit of 128, which counts the page and array around an item when the page is
/// read whole, and not when the item is read alone; within this depth both read it alike.
const MAX_ITEM_DEPTH: usize = 64;

/// The length of the JSON value at the start of `bytes` (no whitespace before it), found by
/// its brackets and strings alone, when it nests at most [`MAX_ITEM_DEPTH`] deep; not
/// checked otherwise (serde reads it next). `None` when it does not end within `bytes`.
/// Strings are passed over eight bytes at a time ([`string_body_length`]); the rest a byte at
/// a time (between strings, a value's text is a few bytes: passing it a word at a time, to the
/// next quote or bracket, made a page's scan half again as slow).
pub(crate) fn value_length(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => {
                // Past the closing quote.
                at += string_body_length(bytes.get(at + 1..)?)? + 2;
                if depth == 0 {
                    return Some(at);
                }
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_ITEM_DEPTH {
                    return None;
                }
            }
            b'}' | b']' if depth == 0 => return Some(at),
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            b',' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return Some(at),
            _ => {}
        }
        at += 1;
    }
    None
}

/// Bytes in a word.
const WORD: usize = 8;
/// A word of ones: `ONES * byte` is `byte` in each of a word's bytes.
const ONES: u64 = u64::from_le_bytes([0x01; WORD]);
/// The high bit of each byte of a word.
const HIGHS: u64 = u64::from_le_bytes([0x80; WORD]);

/// The high bit of each byte of `word` that is zero: exact up to the first such byte (a borrow
/// only runs past a zero byte), which is all that is read of it.
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

/// The high bit of each byte of `word` that is `byte` (exact up to the first).
fn bytes_equal(word: u64, byte: u8) -> u64 {
    zero_bytes(word ^ (ONES * u64::from(byte)))
}

/// The high bit of each byte of `word` that is a quote or below 0x20, a control character
/// (exact up to the first): flipping bit 1 swaps the quote (0x22) and the space (0x20) and
/// keeps the controls below 0x20, so these are the bytes then below 0x21, found by a borrow
/// without the high bit set before.
fn quote_or_control_bytes(word: u64) -> u64 {
    let flipped = word ^ (ONES * 0x02);
    flipped.wrapping_sub(ONES * 0x21) & !flipped & HIGHS
}

/// The offset of the first byte of `bytes` whose high bit `stops` marks in its word, eight
/// bytes at a time: the words in order, then the last bytes as a word padded with spaces
/// (which no caller stops at), so that no byte is read alone. Hand-written, not the `memchr`
/// crate (which the crate has): its wasm32 build (no SIMD) reads four bytes at a time, it looks
/// for at most three bytes and not for a range, and its setup outweighs its loop on strings of
/// a few words, as most here are.
#[inline(always)]
fn first_stop(bytes: &[u8], stops: impl Fn(u64) -> u64) -> Option<usize> {
    let words = bytes.chunks_exact(WORD);
    let tail = words.remainder();
    for (index, word) in words.enumerate() {
        let found = stops(u64::from_le_bytes(word.try_into().ok()?));
        if found != 0 {
            return Some(index * WORD + (found.trailing_zeros() / 8) as usize);
        }
    }
    let mut last = [b' '; WORD];
    last[..tail.len()].copy_from_slice(tail);
    let found = stops(u64::from_le_bytes(last));
    (found != 0).then(|| bytes.len() - tail.len() + (found.trailing_zeros() / 8) as usize)
}

/// The length of a string's text up to its closing quote, when it has no escape and no
/// control character; `None` otherwise, or when the quote is not in `bytes`.
fn plain_string_length(bytes: &[u8]) -> Option<usize> {
    let stop = first_stop(bytes, |word| {
        quote_or_control_bytes(word) | bytes_equal(word, b'\\')
    })?;
    (bytes[stop] == b'"').then_some(stop)
}

/// The length of a string's text up to its closing quote, escapes passed (a backslash and the
/// byte after it, whatever they are); `None` when the quote is not in `bytes`. Nothing else is
/// checked: [`value_length`] finds a value's end, serde reads it.
fn string_body_length(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        let stop = at
            + first_stop(bytes.get(at..)?, |word| {
                bytes_equal(word, b'"') | bytes_equal(word, b'\\')
            })?;
        if bytes[stop] == b'"' {
            return Some(stop);
        }
        at = stop + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`plain_string_length`] a byte at a time: the oracle of the word-at-a-time loop.
    fn plain_string_length_by_byte(bytes: &[u8]) -> Option<usize> {
        for (at, &byte) in bytes.iter().enumerate() {
            if byte == b'"' {
                return Some(at);
            }
            if byte == b'\\' || byte < 0x20 {
                return None;
            }
        }
        None
    }

    /// [`value_length`] a byte at a time (as it was written before strings were passed over a
    /// word at a time): its oracle.
    fn value_length_by_byte(bytes: &[u8]) -> Option<usize> {
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for (at, &byte) in bytes.iter().enumerate() {
            if in_string {
                match byte {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => {
                        in_string = false;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    depth += 1;
                    if depth > MAX_ITEM_DEPTH {
                        return None;
                    }
                }
                b'}' | b']' if depth == 0 => return Some(at),
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(at + 1);
                    }
                }
                b',' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return Some(at),
                _ => {}
            }
        }
        None
    }

    /// Bytes that stop or pass a string's loop: the stops, their neighbours, bytes whose low
    /// seven bits are a stop's, and UTF-8's lead and continuation bytes.
    const EDGE_BYTES: [u8; 18] = [
        b'"', b'\\', 0x00, 0x01, 0x1f, b'\n', b' ', b'!', b'#', b'[', b']', b'{', b'}', 0x80, 0xa2,
        0xdc, 0x9f, 0xff,
    ];

    /// A string's text of `length` bytes, `byte` at `at` (when within), then what may follow.
    fn text_with(length: usize, at: usize, byte: u8, after: &[u8]) -> Vec<u8> {
        let mut text = vec![b'a'; length];
        if let Some(slot) = text.get_mut(at) {
            *slot = byte;
        }
        text.extend_from_slice(after);
        text
    }

    #[test]
    fn a_stop_at_each_position_of_a_word_and_the_tail_is_found() {
        for length in 0..=18 {
            for at in 0..=16 {
                for byte in EDGE_BYTES {
                    // The string's end: a quote and more, a quote last, or the text's end.
                    for after in [&b"\",\"next\":1}"[..], b"\"", b""] {
                        let text = text_with(length, at, byte, after);
                        assert_eq!(
                            plain_string_length(&text),
                            plain_string_length_by_byte(&text),
                            "{text:?}"
                        );
                        // In a string at depth 0, and as brackets' bytes.
                        for open in [&b"\""[..], b"[", b"{\"k\":[1,"] {
                            let value = [open, &text].concat();
                            assert_eq!(
                                value_length(&value),
                                value_length_by_byte(&value),
                                "{value:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn an_escape_at_each_position_is_passed_by_value_length() {
        for length in 0..=18 {
            for at in 0..=length {
                for escaped in [b'"', b'\\', b'n', b'u'] {
                    let mut value = b"[\"".to_vec();
                    value.extend(std::iter::repeat_n(b'x', at));
                    value.extend_from_slice(&[b'\\', escaped]);
                    value.extend(std::iter::repeat_n(b'y', length - at));
                    value.extend_from_slice(b"\"]");
                    assert_eq!(value_length(&value), Some(value.len()), "{value:?}");
                    // Cut anywhere, it does not end.
                    for cut in 0..value.len() {
                        assert_eq!(value_length(&value[..cut]), None, "{value:?} at {cut}");
                    }
                }
            }
        }
    }

    #[test]
    fn strings_shorter_than_a_word_and_at_the_text_end() {
        let mut cursor = Cursor::new("\"\"");
        assert_eq!(cursor.string(), Some(""));
        assert_eq!(cursor.at(), 2);
        let mut cursor = Cursor::new(" \"ab\"");
        assert_eq!(cursor.string(), Some("ab"));
        assert_eq!(cursor.at(), 5);
        for text in ["\"", "\"ab", "\"abcdefghij", "\"ab\\\"", "\"a\tb\""] {
            assert_eq!(Cursor::new(text).string(), None, "{text}");
        }
        assert_eq!(value_length(b"\"abc"), None);
        assert_eq!(value_length(b"\"abc\\"), None);
        assert_eq!(value_length(b"\"abc\\\""), None);
        assert_eq!(value_length(b"\"a\\\"b\""), Some(6));
    }

    #[test]
    fn multi_byte_characters_are_text_at_any_position() {
        for character in ["é", "€", "𝄞", "\u{a2}", "\u{5c5c}"] {
            for at in 0..=16 {
                let string = format!("{}{character}{}", "a".repeat(at), "b".repeat(16 - at));
                let json = format!("\"{string}\",1");
                let mut cursor = Cursor::new(&json);
                assert_eq!(cursor.string(), Some(string.as_str()));
                assert_eq!(cursor.at(), string.len() + 2);
                assert_eq!(value_length(json.as_bytes()), Some(string.len() + 2));
            }
        }
    }

    /// Bytes of JSON-like text, its stops and brackets frequent.
    fn json_like() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop::sample::select(vec![
            &b"a"[..],
            b"0123456789",
            b"\"",
            b"\\",
            b"\\\"",
            b"\x00",
            b"\x1f",
            b" ",
            b",",
            b":",
            b"{",
            b"}",
            b"[",
            b"]",
            "é".as_bytes(),
            "𝄞".as_bytes(),
            &[0xa2, 0xdc],
        ]);
        prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn the_word_loops_read_as_a_byte_at_a_time(bytes in json_like()) {
            prop_assert_eq!(plain_string_length(&bytes), plain_string_length_by_byte(&bytes));
            prop_assert_eq!(value_length(&bytes), value_length_by_byte(&bytes));
            let mut value = b"{\"k\":\"".to_vec();
            value.extend_from_slice(&bytes);
            prop_assert_eq!(value_length(&value), value_length_by_byte(&value));
        }
    }
}
