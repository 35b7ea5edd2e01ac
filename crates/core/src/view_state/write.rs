//! Writing a [`ViewState`] as a query string: only what differs from the defaults, in a fixed
//! order, so links stay short and readable (tests pin the format byte for byte).

use super::encoding::encode_component;
use super::state::ViewState;
use super::tenths::tenths_text;

impl ViewState {
    /// Writes the query string (without the leading `?`): only non-default values, fixed order.
    pub fn to_query(&self) -> String {
        let defaults = ViewState::default();
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let Some(a) = &self.agent {
            pairs.push(("agent", a.clone()));
        }
        if let Some(b) = &self.bench {
            pairs.push(("bench", b.clone()));
        }
        if let Some(b) = &self.baseline {
            pairs.push(("base", b.clone()));
        }
        if !self.candidates.is_empty() {
            let joined: Vec<String> = self
                .candidates
                .iter()
                .map(|c| encode_component(c))
                .collect();
            // Commas separate candidates; each id is encoded on its own so an id with a comma survives.
            pairs.push(("cand", joined.join(",")));
        }
        if self.focus != defaults.focus {
            pairs.push(("focus", self.focus.to_string()));
        }
        if self.filter != defaults.filter {
            pairs.push(("filter", self.filter.as_str().to_owned()));
        }
        if let Some(c) = &self.category {
            pairs.push(("cat", c.clone()));
        }
        if let Some(q) = &self.search {
            pairs.push(("q", q.clone()));
        }
        if self.sort != defaults.sort {
            let sign = if self.sort.descending { "-" } else { "" };
            pairs.push(("sort", format!("{sign}{}", self.sort.key.as_str())));
        }
        if let Some(t) = &self.task {
            pairs.push(("task", t.clone()));
        }
        if !self.attempts.is_empty() {
            let joined: Vec<String> = self.attempts.iter().map(|a| encode_component(a)).collect();
            pairs.push(("attempts", joined.join(",")));
        }
        if self.seed != defaults.seed {
            pairs.push(("seed", self.seed.to_string()));
        }
        if self.resamples != defaults.resamples {
            pairs.push(("B", self.resamples.to_string()));
        }
        if self.confidence_percent != defaults.confidence_percent {
            pairs.push(("ci", self.confidence_percent.to_string()));
        }
        if self.analysis != defaults.analysis {
            pairs.push(("analysis", "sensitivity".to_owned()));
        }
        if self.target_tenths != defaults.target_tenths {
            pairs.push(("target", tenths_text(self.target_tenths)));
        }
        if let Some(k) = self.project_samples {
            pairs.push(("kprime", k.to_string()));
        }
        if let Some(pass) = self.pass_thousandths {
            pairs.push(("pass", super::thousandths::thousandths_text(pass)));
        }
        if let Some(step) = self.versus_step {
            pairs.push(("versus", step.to_string()));
        }
        if let Some(snapshot) = &self.snapshot {
            pairs.push(("taken", snapshot.taken.to_string()));
            if let Some(seen) = snapshot.seen {
                pairs.push(("seen", seen.to_string()));
            }
            if !snapshot.then.is_empty() {
                let then: Vec<String> = snapshot.then.iter().map(|h| h.text()).collect();
                pairs.push(("then", then.join(",")));
            }
            if self.as_of {
                pairs.push(("asof", "1".to_owned()));
            }
        }
        if let Some(ledger) = &self.ledger {
            pairs.push(("ledger", ledger.clone()));
        }
        pairs
            .into_iter()
            .map(|(k, v)| {
                if k == "cand" || k == "attempts" || k == "then" || k == "ledger" {
                    format!("{k}={v}")
                } else {
                    format!("{k}={}", encode_component(&v))
                }
            })
            .collect::<Vec<_>>()
            .join("&")
    }
}
