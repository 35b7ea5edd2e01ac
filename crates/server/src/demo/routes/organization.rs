//! `GET /api/v1/organizations/current`.

use std::collections::BTreeMap;

use axum::Json;
use eval_compare_core::api::Organization;

use crate::dataset::catalog::ORGANIZATION_ID;

/// The caller's organization.
pub async fn current() -> Json<Organization> {
    let mut fields = BTreeMap::new();
    fields.insert("organization_id".to_owned(), ORGANIZATION_ID.to_owned());
    Json(Organization(fields))
}
