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
        if !self.eat(b'"') {
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
pub(crate) fn value_length(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
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

/// The length of a string's text up to its closing quote, when it has no escape and no
/// control character; `None` otherwise, or when the quote is not in `bytes`. Eight bytes at a
/// time (a word's quotes, backslashes and control characters found together), then a byte at a
/// time.
fn plain_string_length(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    /// The high bit of each byte of `word` that is zero: exact up to the first such byte
    /// (a borrow only runs past a zero byte), which is all that is read of it.
    fn zero_bytes(word: u64) -> u64 {
        word.wrapping_sub(ONES) & !word & HIGHS
    }
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let stops = zero_bytes(word ^ (ONES * u64::from(b'"')))
            | zero_bytes(word ^ (ONES * u64::from(b'\\')))
            // Below 0x20: a borrow, without the high bit set before.
            | (word.wrapping_sub(ONES * 0x20) & !word & HIGHS);
        if stops != 0 {
            let stop = at + (stops.trailing_zeros() / 8) as usize;
            return (bytes[stop] == b'"').then_some(stop);
        }
        at += 8;
    }
    for (offset, &byte) in bytes[at..].iter().enumerate() {
        if byte == b'"' {
            return Some(at + offset);
        }
        if byte == b'\\' || byte < 0x20 {
            return None;
        }
    }
    None
}
