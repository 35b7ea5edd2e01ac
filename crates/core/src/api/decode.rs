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
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        from_json_error(path, error.into_inner())
    })?;
    deserializer
        .end()
        .map_err(|error| from_json_error(".".to_owned(), error))?;
    Ok(value)
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
