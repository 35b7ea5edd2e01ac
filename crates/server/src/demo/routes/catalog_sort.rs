//! The `sort` parameter of the catalog lists (agents, benchmarks): creation time (the
//! default), update time, name, the resource's id, or its count column.

use std::fmt;

use crate::demo::query::Query;
use crate::error::ApiError;

/// The column a catalog list is sorted by; displays as its `sort` value.
#[derive(Debug, Clone, Copy)]
pub struct CatalogSort {
    /// `created_at`, `updated_at`, `name`, then the id and count columns.
    columns: [&'static str; 5],
    /// Index of the chosen column.
    chosen: usize,
}

/// The sortable fields of one catalog item.
#[derive(Debug, Clone, Copy)]
pub struct CatalogRow<'a> {
    /// Creation time.
    pub created_at: &'a str,
    /// Last update time.
    pub updated_at: &'a str,
    /// Name.
    pub name: &'a str,
    /// Identifier.
    pub id: &'a str,
    /// The counted quantity (benchmarks of an agent, runs of a benchmark), wide enough for
    /// either list's count type.
    pub count: i128,
}

impl CatalogSort {
    /// Reads `sort` of a list whose id and count columns are named `id` and `count`
    /// (422 for any other value).
    pub fn from_query(
        query: &Query,
        id: &'static str,
        count: &'static str,
    ) -> Result<Self, ApiError> {
        let columns = ["created_at", "updated_at", "name", id, count];
        let sort = query.sort(&columns)?;
        let chosen = columns.iter().position(|&c| c == sort).unwrap_or(0);
        Ok(Self { columns, chosen })
    }

    /// The value `row` sorts by; counts are zero-padded so they sort as numbers.
    pub fn value(&self, row: CatalogRow<'_>) -> String {
        match self.chosen {
            1 => row.updated_at.to_owned(),
            2 => row.name.to_owned(),
            3 => row.id.to_owned(),
            4 => format!("{:020}", row.count),
            _ => row.created_at.to_owned(),
        }
    }
}

impl fmt::Display for CatalogSort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.columns[self.chosen])
    }
}
