//! Decoding JSON bodies with errors that name the failing field.

use serde::de::DeserializeOwned;

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
/// The common case (a valid body) takes serde_json's fast path; only a failing body is decoded
/// a second time with path tracking, to name the field.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    serde_json::from_slice(bytes).map_err(|_| decode_with_path::<T>(bytes))
}

/// The error of a body that failed to decode, with the path of the failing field.
fn decode_with_path<T: DeserializeOwned>(bytes: &[u8]) -> DecodeError {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
        Err(error) => {
            let path = error.path().to_string();
            from_json_error(path, error.into_inner())
        }
        Ok(_) => match deserializer.end() {
            Err(error) => from_json_error(".".to_owned(), error),
            // Both decoders agree on every input; should they not, say so plainly.
            Ok(()) => DecodeError {
                path: ".".to_owned(),
                line: 0,
                column: 0,
                kind: DecodeErrorKind::Data,
                message: "the body could not be decoded".to_owned(),
            },
        },
    }
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
