//! What a request of the client asks for, as far as kept lists care: the record of a run or a
//! job (its answer is the API's consent), a page of a list that may be kept, the server's
//! stream of one, or anything else. Read from the request's URL, whose paths the core's
//! `client::paths` and `list_stream` wrote; ids are percent-decoded as they were encoded.

use eval_compare_core::client::list_stream::{StreamedList, CURSOR_PARAM, STREAM_PREFIX};
use eval_compare_core::client::paths::{CHRONICLE_JOBS, RUN_PARAM, TRAJECTORIES};
use percent_encoding::percent_decode_str;
use reqwest::Url;

/// What owns a kept list: a run (rewards, trajectories) or a Chronicle job (trials).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Owner {
    /// An evaluation run, by id.
    Run(String),
    /// A Chronicle job, by id.
    Job(String),
}

impl Owner {
    /// The owner of `list` of `id`.
    pub fn of(list: StreamedList, id: &str) -> Self {
        match list {
            StreamedList::Trials => Owner::Job(id.to_owned()),
            _ => Owner::Run(id.to_owned()),
        }
    }

    /// The list whose finished record this is judged by (rewards stand for both of a run's).
    pub fn record_list(&self) -> StreamedList {
        match self {
            Owner::Run(_) => StreamedList::Rewards,
            Owner::Job(_) => StreamedList::Trials,
        }
    }
}

/// What a request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// The record of a run or job.
    Record(Owner),
    /// A page of `list` of `owner`: the first (`cursor` `None`) or the one after a cursor.
    Page {
        /// The list.
        list: StreamedList,
        /// The run or job id.
        owner: String,
        /// The page's cursor.
        cursor: Option<String>,
    },
    /// The server's stream of `list` of `owner`, from its start (`fresh`) or resumed.
    Stream {
        /// The list.
        list: StreamedList,
        /// The run or job id.
        owner: String,
        /// Whether it starts at the first page.
        fresh: bool,
    },
    /// Anything else.
    Other,
}

/// What `url` asks of the API at `base` (the client's base URL).
pub fn asked(base: &str, url: &str) -> Asked {
    let (Ok(base), Ok(url)) = (Url::parse(base), Url::parse(url)) else {
        return Asked::Other;
    };
    if base.origin() != url.origin() {
        return Asked::Other;
    }
    let Some(path) = url.path().strip_prefix(base.path().trim_end_matches('/')) else {
        return Asked::Other;
    };
    let query = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    let segments: Vec<String> = path
        .split('/')
        .skip(1)
        .map(|segment| percent_decode_str(segment).decode_utf8_lossy().into_owned())
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let page = |list: StreamedList, owner: &str| Asked::Page {
        list,
        owner: owner.to_owned(),
        cursor: query(CURSOR_PARAM),
    };
    let stream = |list: StreamedList, owner: &str| Asked::Stream {
        list,
        owner: owner.to_owned(),
        fresh: query(CURSOR_PARAM).is_none(),
    };
    let jobs: Vec<&str> = CHRONICLE_JOBS.split('/').skip(1).collect();
    let stream_prefix: Vec<&str> = STREAM_PREFIX.split('/').skip(1).collect();
    match segments.as_slice() {
        ["api", "v1", "eval", run] => Asked::Record(Owner::Run((*run).to_owned())),
        ["api", "v1", "eval", run, "trajectory-rewards"] => page(StreamedList::Rewards, run),
        [api, v1, list] if format!("/{api}/{v1}/{list}") == TRAJECTORIES => {
            match query(RUN_PARAM) {
                Some(run) => page(StreamedList::Trajectories, &run),
                None => Asked::Other,
            }
        }
        [a, b, c, job] if [*a, *b, *c] == jobs[..] => Asked::Record(Owner::Job((*job).to_owned())),
        [a, b, c, job, "trials"] if [*a, *b, *c] == jobs[..] => page(StreamedList::Trials, job),
        [s, v, rest @ ..] if [*s, *v] == stream_prefix[..] => match rest {
            ["eval", run, "trajectory-rewards"] => stream(StreamedList::Rewards, run),
            ["eval", run, "trajectories"] => stream(StreamedList::Trajectories, run),
            ["backtests", "jobs", job, "trials"] => stream(StreamedList::Trials, job),
            _ => Asked::Other,
        },
        _ => Asked::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use eval_compare_core::client::{paths, percent_encode};

    const BASE: &str = "http://127.0.0.1:8080";

    fn of(path: &str) -> Asked {
        asked(BASE, &format!("{BASE}{path}"))
    }

    #[test]
    fn the_core_paths_are_told_apart() {
        let id = "er 1/ü";
        let encoded = percent_encode(id);
        assert_eq!(
            of(&paths::eval_run(&encoded)),
            Asked::Record(Owner::Run(id.into()))
        );
        assert_eq!(
            of(&format!(
                "{}?limit=200",
                paths::trajectory_rewards(&encoded)
            )),
            Asked::Page {
                list: StreamedList::Rewards,
                owner: id.into(),
                cursor: None
            }
        );
        assert_eq!(
            of(&format!(
                "{}&cursor=c%202&limit=200",
                paths::trajectories_of_run(&encoded)
            )),
            Asked::Page {
                list: StreamedList::Trajectories,
                owner: id.into(),
                cursor: Some("c 2".into())
            }
        );
        assert_eq!(
            of(&paths::chronicle_job("j1")),
            Asked::Record(Owner::Job("j1".into()))
        );
        assert_eq!(
            of(&format!("{}?limit=100", paths::chronicle_trials("j1"))),
            Asked::Page {
                list: StreamedList::Trials,
                owner: "j1".into(),
                cursor: None
            }
        );
        for list in [
            StreamedList::Rewards,
            StreamedList::Trajectories,
            StreamedList::Trials,
        ] {
            let path = list.path(id).unwrap();
            assert_eq!(
                of(&path),
                Asked::Stream {
                    list,
                    owner: id.into(),
                    fresh: true
                }
            );
            assert_eq!(
                of(&format!("{path}?cursor=x&pages_read=1&items_read=2")),
                Asked::Stream {
                    list,
                    owner: id.into(),
                    fresh: false
                }
            );
        }
        for other in [
            StreamedList::Tasks.path("b1").unwrap(),
            paths::benchmark_tasks("b1"),
            paths::trajectory_with_components("t1"),
            "/api/v1/trajectories?limit=200".to_owned(),
            paths::job_results("s1", "j1"),
        ] {
            assert_eq!(of(&other), Asked::Other, "{other}");
        }
        assert_eq!(
            asked(BASE, &format!("http://elsewhere{}", paths::eval_run("r"))),
            Asked::Other
        );
        assert_eq!(
            asked(
                "http://h/prefix/",
                &format!("http://h/prefix{}", paths::eval_run("r"))
            ),
            Asked::Record(Owner::Run("r".into()))
        );
    }
}
