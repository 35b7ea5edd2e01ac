//! The API key: a secret that never prints, and the header that carries it.

use std::fmt;

/// Header carrying the API key.
pub const API_KEY_HEADER: &str = "X-API-Key";
/// An organization API key. Never shown: `Debug` and `Display` print `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

/// Why a string is not usable as an API key (the message never contains the key).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidApiKey {
    /// Nothing but whitespace.
    #[error("the API key is empty")]
    Empty,
    /// A character that cannot be sent in an HTTP header.
    #[error("the API key has a character that cannot be sent in a header (at position {position}); paste the key again")]
    BadCharacter {
        /// 1-based position of the first bad character.
        position: usize,
    },
}

impl ApiKey {
    /// Accepts a key, trimming surrounding whitespace; it must be visible ASCII.
    pub fn new(raw: &str) -> Result<Self, InvalidApiKey> {
        let key = raw.trim();
        if key.is_empty() {
            return Err(InvalidApiKey::Empty);
        }
        if let Some(index) = key.chars().position(|c| !c.is_ascii_graphic()) {
            return Err(InvalidApiKey::BadCharacter {
                position: index + 1,
            });
        }
        Ok(Self(key.to_owned()))
    }

    /// The key itself, for the transport header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}
