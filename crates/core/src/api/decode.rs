//! Decoding JSON bodies with errors that name the failing field.

use serde::de::DeserializeSeed;
use serde::Deserialize;

/// What kind of problem stopped decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The bytes are not valid JSON.
    Syntax,
    /// Valid JSON whose shape or values do not match the expected type.
    Data,
    /// The body ended before the JSON value was complete (for example a truncated response).
    Eof,
}

/// A JSON body that could not be decoded, with the path of the failing field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe(self))]
pub struct DecodeError {
    /// JSON path of the failing field, e.g. `items[3].reward`; `.` for the document itself.
    pub path: String,
    /// 1-based line of the failure in the body (0 when unknown).
    pub line: usize,
    /// 1-based column of the failure in the body (0 when unknown).
    pub column: usize,
    /// What kind of problem it is.
    pub kind: DecodeErrorKind,
    /// serde's description of the problem, without position.
    pub message: String,
}

fn describe(error: &DecodeError) -> String {
    let what = match error.kind {
        DecodeErrorKind::Syntax => "the body is not valid JSON",
        DecodeErrorKind::Data => "the body does not have the expected shape",
        DecodeErrorKind::Eof => "the body ended early (truncated)",
    };
    format!(
        "{what}: at `{}` (line {}, column {}): {}",
        error.path, error.line, error.column, error.message
    )
}

/// Decodes a JSON body into `T`, naming the JSON path, line and column of any failure.
///
/// JSON text is UTF-8 (RFC 8259 §8.1): the body is checked to be UTF-8 once, whole, and then
/// decoded as text, so the decoder does not check every string it borrows again (a third
/// faster on the API's pages). A body that is not UTF-8 is a syntax error at its first invalid
/// byte, or the body ended early when it ends inside a character.
///
/// A valid body is decoded once on serde_json's fast path. For a failing body, the path of the
/// failing field is found by walking the JSON text up to the error's position (see [`path_at`]):
/// no second, path-tracking decoder is instantiated for every type, which keeps the wasm small.
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, DecodeError> {
    decode_str(bytes, utf8(bytes)?)
}

/// [`decode`] of `bytes` already checked as UTF-8 (`text`, from [`decode_text`]), with the
/// same errors.
pub(crate) fn decode_str<'a, T: Deserialize<'a>>(
    bytes: &[u8],
    text: &'a str,
) -> Result<T, DecodeError> {
    serde_json::from_str(text).map_err(|error| located(bytes, error))
}

/// `bytes` as JSON text, or [`decode`]'s error when they are not UTF-8.
pub(crate) fn decode_text(bytes: &[u8]) -> Result<&str, DecodeError> {
    utf8(bytes)
}

/// [`decode`] through a seed (e.g. one appending a list's items to a vector as they are read),
/// with the same errors.
pub fn decode_seed<'a, S: DeserializeSeed<'a>>(
    bytes: &'a [u8],
    seed: S,
) -> Result<S::Value, DecodeError> {
    let mut deserializer = serde_json::Deserializer::from_str(utf8(bytes)?);
    seed.deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|error| located(bytes, error))
}

/// `bytes` as text, or the error at its first byte that is not UTF-8.
fn utf8(bytes: &[u8]) -> Result<&str, DecodeError> {
    std::str::from_utf8(bytes).map_err(|error| {
        let offset = error.valid_up_to();
        let line_start = bytes[..offset]
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |newline| newline + 1);
        let (kind, message) = match error.error_len() {
            None => (DecodeErrorKind::Eof, "the last character is cut off"),
            Some(_) => (
                DecodeErrorKind::Syntax,
                "a byte that is not UTF-8 (JSON text is UTF-8)",
            ),
        };
        DecodeError {
            path: path_at(bytes, offset, None),
            line: 1 + bytes[..offset]
                .iter()
                .filter(|&&byte| byte == b'\n')
                .count(),
            column: offset - line_start + 1,
            kind,
            message: message.to_owned(),
        }
    })
}

/// A serde_json error on `bytes` with the JSON path of the failing field.
fn located(bytes: &[u8], error: serde_json::Error) -> DecodeError {
    let offset = byte_offset(bytes, error.line(), error.column());
    // A data error reported on an object's closing brace is about the object itself (a
    // missing field), not about its last member. One reported on an array's closing bracket
    // is about the array when it is a wrong length or the array is empty (`[]` read whole
    // by an untagged enum); otherwise it is about the last element, read whole first.
    let empty_before = bytes[..offset].trim_ascii_end().last() == Some(&b'[');
    let closing = match bytes.get(offset) {
        _ if error.classify() != serde_json::error::Category::Data => None,
        Some(b'}') => Some(Closing::Object),
        Some(b']') if empty_before || error.to_string().starts_with("invalid length ") => {
            Some(Closing::Array)
        }
        _ => None,
    };
    let path = path_at(bytes, offset, closing);
    from_json_error(path, error)
}

/// Byte offset of serde_json's 1-based (line, column) position: the last byte it consumed.
fn byte_offset(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut line_start = 0;
    if line > 1 {
        let mut newlines = 0;
        for (index, byte) in bytes.iter().enumerate() {
            if *byte == b'\n' {
                newlines += 1;
                if newlines == line - 1 {
                    line_start = index + 1;
                    break;
                }
            }
        }
    }
    (line_start + column).saturating_sub(1).min(bytes.len())
}

/// The container a data error was reported on the closing bracket of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Closing {
    Object,
    Array,
}

/// One open container while walking JSON text.
enum Frame {
    /// An object and the key of the member being read (none before the first key).
    Object(Option<String>),
    /// An array and the index of the element being read.
    Array(usize),
}

/// The JSON path (`items[3].reward`, `.` for the document) of the value being read at byte
/// `offset` of `bytes`. With `closing`, the path names the innermost container itself: the key of
/// an object or the index of an array is left out.
///
/// Only brackets, commas and strings are followed, so this works on invalid and truncated text.
fn path_at(bytes: &[u8], offset: usize, closing: Option<Closing>) -> String {
    let end = offset.min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut expecting_key = false;
    let mut index = 0;
    while index < end {
        match bytes[index] {
            b'{' => {
                stack.push(Frame::Object(None));
                expecting_key = true;
            }
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(element)) => *element += 1,
                Some(Frame::Object(_)) => expecting_key = true,
                None => {}
            },
            b'"' => {
                let start = index + 1;
                let mut close = start;
                while close < end && bytes[close] != b'"' {
                    close += if bytes[close] == b'\\' { 2 } else { 1 };
                }
                if expecting_key {
                    if let Some(Frame::Object(key)) = stack.last_mut() {
                        let text = &bytes[start..close.min(end)];
                        *key = Some(String::from_utf8_lossy(text).into_owned());
                    }
                    expecting_key = false;
                }
                index = close;
            }
            _ => {}
        }
        index += 1;
    }
    match (closing, stack.last_mut()) {
        (Some(Closing::Object), Some(Frame::Object(key))) => *key = None,
        (Some(Closing::Array), Some(Frame::Array(_))) => {
            stack.pop();
        }
        _ => {}
    }
    render_path(&stack)
}

fn render_path(stack: &[Frame]) -> String {
    let mut path = String::new();
    for frame in stack {
        match frame {
            Frame::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Object(None) => {}
            Frame::Array(element) => {
                path.push('[');
                path.push_str(&element.to_string());
                path.push(']');
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

fn from_json_error(path: String, error: serde_json::Error) -> DecodeError {
    use serde_json::error::Category;
    let kind = match error.classify() {
        Category::Eof => DecodeErrorKind::Eof,
        Category::Syntax | Category::Io => DecodeErrorKind::Syntax,
        Category::Data => DecodeErrorKind::Data,
    };
    DecodeError {
        path,
        line: error.line(),
        column: error.column(),
        kind,
        message: strip_position(&error.to_string()),
    }
}

/// serde_json appends " at line L column C" to its messages; the position is kept separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
}
