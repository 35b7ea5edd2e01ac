//! Agents: `GET /api/v1/agents` and `GET /api/v1/agents/name/{name}`.

use serde::{Deserialize, Serialize};

use super::page::impl_cursor_page;
use super::shared_fields::structs_sharing_fields;

structs_sharing_fields! {
    /// One agent (`AgentResponse`).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Agent {
        /// Stable identifier.
        pub agent_id: String,
        /// Owning organization.
        pub organization_id: String,
        /// Human-readable name.
        pub name: String,
        /// Optional description of the agent's purpose.
        #[serde(default)]
        pub description: Option<String>,
        /// Creation time (RFC 3339).
        pub created_at: String,
        /// Last update time (RFC 3339).
        pub updated_at: String,
        /// Number of benchmark snapshots owned by the agent.
        pub benchmark_count: u64,
        /// Production model slug, independent of the display name.
        pub production_model_slug: Option<String>,
    }

    // `AgentListItem` has every field of `Agent` first, then these.
    /// One agent of the agent list (`AgentListItem`).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct AgentListItem {
        /// Whether the agent owns an active deployed model.
        pub is_deployed: bool,
    }
}

/// A page of agents (`AgentListResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentListPage {
    /// Agents of this page.
    pub items: Vec<AgentListItem>,
    /// Cursor of the next page; null on the last page.
    #[serde(default)]
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
    /// Number of agents matching the search and filters.
    pub total_count: u64,
}

impl_cursor_page!(AgentListPage, AgentListItem);
