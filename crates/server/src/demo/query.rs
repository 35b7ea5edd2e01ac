//! Query-string parameters, read like the platform reads them: repeated keys for lists, the
//! last value for scalars, unknown keys ignored, invalid values answered with 422.

use axum::extract::{FromRequestParts, RawQuery};
use axum::http::request::Parts;

use crate::error::ApiError;

/// The default page size of every list.
pub const DEFAULT_LIMIT: usize = 25;

/// The parsed query string of a request.
#[derive(Debug, Clone, Default)]
pub struct Query(Vec<(String, String)>);

/// Sort direction (`order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Ascending.
    Asc,
    /// Descending.
    Desc,
}

impl Query {
    /// Parses a raw query string.
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let pairs = serde_urlencoded::from_str::<Vec<(String, String)>>(raw.unwrap_or(""))
            .map_err(|e| {
                ApiError::validation("query", format!("The query string cannot be parsed: {e}."))
            })?;
        Ok(Self(pairs))
    }

    /// The value of a scalar parameter (the last one when repeated).
    pub fn one(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Every value of a repeated parameter, in order.
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
            .collect()
    }

    /// `limit`: an integer in `1..=max`, 25 when absent.
    pub fn limit(&self, max: usize) -> Result<usize, ApiError> {
        let Some(raw) = self.one("limit") else {
            return Ok(DEFAULT_LIMIT.min(max));
        };
        let invalid = || {
            ApiError::validation(
                "limit",
                format!("`limit` must be an integer from 1 to {max}; got `{raw}`."),
            )
        };
        let limit: i64 = raw.trim().parse().map_err(|_| invalid())?;
        if (1..=max as i64).contains(&limit) {
            Ok(limit as usize)
        } else {
            Err(invalid())
        }
    }

    /// `cursor`, as given.
    pub fn cursor(&self) -> Option<&str> {
        self.one("cursor")
    }

    /// A boolean parameter (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`).
    pub fn flag(&self, name: &str, default: bool) -> Result<bool, ApiError> {
        match self.one(name).map(str::to_ascii_lowercase).as_deref() {
            None => Ok(default),
            Some("true" | "1" | "yes" | "on") => Ok(true),
            Some("false" | "0" | "no" | "off") => Ok(false),
            Some(other) => Err(ApiError::validation(
                name,
                format!("`{name}` must be a boolean; got `{other}`."),
            )),
        }
    }

    /// A boolean parameter that filters only when given: `None` when absent.
    pub fn optional_flag(&self, name: &str) -> Result<Option<bool>, ApiError> {
        self.one(name).map(|_| self.flag(name, false)).transpose()
    }

    /// A non-negative integer parameter.
    pub fn count(&self, name: &str) -> Result<Option<u32>, ApiError> {
        self.one(name)
            .map(|raw| {
                raw.trim().parse::<u32>().map_err(|_| {
                    ApiError::validation(
                        name,
                        format!("`{name}` must be a non-negative integer; got `{raw}`."),
                    )
                })
            })
            .transpose()
    }

    /// A parameter restricted to `allowed` values.
    pub fn choice(
        &self,
        name: &str,
        allowed: &[&'static str],
    ) -> Result<Option<&'static str>, ApiError> {
        self.one(name)
            .map(|value| Self::check(name, value, allowed))
            .transpose()
    }

    /// Every value of a repeated parameter restricted to `allowed` values.
    pub fn choices(
        &self,
        name: &str,
        allowed: &[&'static str],
    ) -> Result<Vec<&'static str>, ApiError> {
        self.all(name)
            .into_iter()
            .map(|value| Self::check(name, value, allowed))
            .collect()
    }

    fn check(name: &str, value: &str, allowed: &[&'static str]) -> Result<&'static str, ApiError> {
        allowed
            .iter()
            .copied()
            .find(|&a| a == value)
            .ok_or_else(|| {
                ApiError::validation(
                    name,
                    format!(
                        "`{name}` must be one of {}; got `{value}`.",
                        allowed.join(", ")
                    ),
                )
            })
    }

    /// `sort`: one of `allowed`, the first of them when absent.
    pub fn sort(&self, allowed: &[&'static str]) -> Result<&'static str, ApiError> {
        Ok(self.choice("sort", allowed)?.unwrap_or(allowed[0]))
    }

    /// `order`: `asc` or `desc` (the default).
    pub fn order(&self) -> Result<Order, ApiError> {
        Ok(match self.choice("order", &["asc", "desc"])? {
            Some("asc") => Order::Asc,
            _ => Order::Desc,
        })
    }

    /// A non-empty text parameter (an empty value counts as absent).
    pub fn text(&self, name: &str) -> Option<&str> {
        self.one(name).filter(|value| !value.is_empty())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Query {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let RawQuery(raw) = RawQuery::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::validation("query", "The query string cannot be read."))?;
        Self::parse(raw.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(raw: &str) -> Query {
        Query::parse(Some(raw)).unwrap_or_default()
    }

    #[test]
    fn limit_defaults_and_bounds() {
        assert_eq!(q("").limit(200).ok(), Some(25));
        assert_eq!(q("limit=7").limit(200).ok(), Some(7));
        assert_eq!(q("limit=200").limit(200).ok(), Some(200));
        for bad in ["limit=0", "limit=201", "limit=-1", "limit=abc", "limit="] {
            let error = q(bad).limit(200).err();
            assert_eq!(
                error.map(|e| (e.status.as_u16(), e.code)),
                Some((422, "validation_error")),
                "{bad}"
            );
        }
        assert!(q("limit=101").limit(100).is_err());
    }

    #[test]
    fn repeated_and_scalar_parameters() {
        let query = q("status=running&status=completed&name=a&name=b&x=%20y");
        assert_eq!(query.all("status"), vec!["running", "completed"]);
        assert_eq!(query.one("name"), Some("b"));
        assert_eq!(query.one("x"), Some(" y"));
        assert_eq!(
            query.choices("status", &["running", "completed"]).ok(),
            Some(vec!["running", "completed"])
        );
        assert!(query.choices("status", &["running"]).is_err());
    }

    #[test]
    fn flags_and_order() {
        assert_eq!(q("a=true").flag("a", false).ok(), Some(true));
        assert_eq!(q("a=0").flag("a", true).ok(), Some(false));
        assert_eq!(q("").flag("a", true).ok(), Some(true));
        assert!(q("a=maybe").flag("a", true).is_err());
        assert_eq!(q("order=asc").order().ok(), Some(Order::Asc));
        assert_eq!(q("").order().ok(), Some(Order::Desc));
        assert!(q("order=up").order().is_err());
    }
}
