//! `GET /api/v1/organizations/current`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The caller's organization: a string map that holds at least `organization_id`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Organization(pub BTreeMap<String, String>);

impl Organization {
    /// The organization's id, when the response carries it.
    pub fn organization_id(&self) -> Option<&str> {
        self.0.get("organization_id").map(String::as_str)
    }
}
