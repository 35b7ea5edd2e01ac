//! Reading whole runs from the Trajectory API into run folders (in memory): the run, its
//! trajectory rewards, its trajectories and its benchmark's tasks, with progress.

use std::collections::HashMap;

use eval_compare_core::api::{BenchmarkSpecTask, CursorPage};
use eval_compare_core::client::{ApiError, Paginator, TrajectoryClient, Transport};
use eval_compare_core::run_folder::RunFolder;
use serde::de::DeserializeOwned;

use crate::error::CliError;
use crate::progress::Progress;

/// Loads runs through a client. A list that fails part-way fails the whole load: nothing
/// partial is returned.
#[derive(Debug)]
pub struct ApiLoader<'p, T> {
    client: TrajectoryClient<T>,
    progress: &'p Progress,
    /// Task lists already read, by benchmark id (runs of one benchmark share it).
    tasks: HashMap<String, Vec<BenchmarkSpecTask>>,
}

impl<'p, T: Transport> ApiLoader<'p, T> {
    /// A loader over this client, reporting to `progress`.
    pub fn new(client: TrajectoryClient<T>, progress: &'p Progress) -> Self {
        Self {
            client,
            progress,
            tasks: HashMap::new(),
        }
    }

    /// Reads one evaluation run completely: the run, its trajectory rewards and trajectories,
    /// and its benchmark version's tasks.
    pub async fn load_run(&mut self, run_id: &str) -> Result<RunFolder, CliError> {
        let run = self.client.eval_run(run_id).await.map_err(|source| {
            self.api_error(
                format!("could not read run {run_id} (GET /api/v1/eval/{run_id})"),
                source,
            )
        })?;
        self.progress.fetched(&format!("{run_id}: run"));
        let rewards = self
            .read_list(
                &format!("{run_id}: trajectory-rewards"),
                &format!("trajectory-rewards of run {run_id} (GET /api/v1/eval/{run_id}/trajectory-rewards)"),
                self.client.trajectory_rewards(run_id),
            )
            .await?;
        let trajectories = self
            .read_list(
                &format!("{run_id}: trajectories"),
                &format!(
                    "trajectories of run {run_id} (GET /api/v1/trajectories?eval_run_id={run_id})"
                ),
                self.client.trajectories_of_run(run_id),
            )
            .await?;
        let tasks = self.benchmark_tasks(&run.bench_id).await?;
        Ok(RunFolder {
            run,
            rewards,
            trajectories,
            tasks: Some(tasks),
            truncated_files: Vec::new(),
        })
    }

    /// The tasks of a benchmark version, read once per version.
    async fn benchmark_tasks(
        &mut self,
        bench_id: &str,
    ) -> Result<Vec<BenchmarkSpecTask>, CliError> {
        if let Some(tasks) = self.tasks.get(bench_id) {
            return Ok(tasks.clone());
        }
        let tasks = self
            .read_list(
                &format!("{bench_id}: tasks"),
                &format!("tasks of benchmark {bench_id} (GET /api/v1/benchmarks/{bench_id}/tasks)"),
                self.client.benchmark_tasks(bench_id, None),
            )
            .await?;
        self.tasks.insert(bench_id.to_owned(), tasks.clone());
        Ok(tasks)
    }

    /// Reads every page of a list, or fails naming the list, how far it got and why.
    async fn read_list<P>(
        &self,
        label: &str,
        list: &str,
        paginator: Result<Paginator<'_, T, P>, ApiError>,
    ) -> Result<Vec<P::Item>, CliError>
    where
        P: CursorPage + DeserializeOwned,
    {
        let paginator =
            paginator.map_err(|source| self.api_error(format!("could not read {list}"), source))?;
        let progress = self.progress;
        let read = paginator
            .collect_all(|_, page| progress.page(label, page))
            .await;
        let (pages, items) = (read.pages_read, read.items.len());
        match read.error {
            None => {
                progress.finished(label, pages, items);
                Ok(read.items)
            }
            Some(source) => {
                progress.failed(label, pages, items);
                Err(self.api_error(
                    format!(
                        "could not read {list}: page {} failed ({pages} {} with {items} items read before it)",
                        pages + 1,
                        if pages == 1 { "page" } else { "pages" },
                    ),
                    source,
                ))
            }
        }
    }

    fn api_error(&self, what: String, source: ApiError) -> CliError {
        CliError::Api {
            what,
            source: Box::new(source),
            key_set: self.client.config().api_key.is_some(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::cell::RefCell;

    use eval_compare_core::client::{
        ClientConfig, HttpRequest, HttpResponse, RetryPolicy, TransportError,
    };

    /// Answers requests by URL substring, recording every URL asked for.
    struct Scripted {
        routes: Vec<(&'static str, u16, String)>,
        asked: RefCell<Vec<String>>,
    }

    impl Transport for Scripted {
        async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
            self.asked.borrow_mut().push(request.url.clone());
            let (_, status, body) = self
                .routes
                .iter()
                .find(|(pattern, _, _)| request.url.contains(pattern))
                .ok_or_else(|| TransportError::Connect(format!("no route for {}", request.url)))?;
            Ok(HttpResponse {
                status: *status,
                headers: Vec::new(),
                body: body.clone().into_bytes(),
            })
        }
        async fn sleep(&self, _ms: u64) {}
        fn now_unix_ms(&self) -> u64 {
            0
        }
    }

    const RUN: &str = r#"{"eval_run_id":"er_1","bench_id":"b_1","agent_id":"a_1","options":{},"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#;

    fn reward(id: &str) -> String {
        format!(r#"{{"trajectory_id":"{id}","reward":1.0,"task_id":"t_{id}"}}"#)
    }

    fn page(items: &[String], next: Option<&str>) -> String {
        let next_cursor = next.map_or("null".to_owned(), |cursor| format!("\"{cursor}\""));
        format!(
            r#"{{"eval_run_id":"er_1","items":[{}],"next_cursor":{next_cursor},"has_more":{}}}"#,
            items.join(","),
            next.is_some()
        )
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(future)
    }

    fn client(routes: Vec<(&'static str, u16, String)>) -> TrajectoryClient<Scripted> {
        let config = ClientConfig::new("http://api.test")
            .unwrap()
            .with_retry(RetryPolicy {
                max_retries: 0,
                ..RetryPolicy::default()
            });
        TrajectoryClient::new(
            config,
            Scripted {
                routes,
                asked: RefCell::new(Vec::new()),
            },
        )
    }

    #[test]
    fn reads_every_page_of_every_list_and_the_tasks_once_per_benchmark() {
        let routes = vec![
            (
                "/trajectory-rewards?cursor=c2",
                200,
                page(&[reward("x3")], None),
            ),
            (
                "/trajectory-rewards",
                200,
                page(&[reward("x1"), reward("x2")], Some("c2")),
            ),
            ("/trajectories?", 200, page(&[], None)),
            (
                "/benchmarks/b_1/tasks",
                200,
                page(&[r#"{"task_id":"t_x1"}"#.to_owned()], None),
            ),
            ("/eval/er_", 200, RUN.to_owned()),
        ];
        let progress = Progress::silent();
        let mut loader = ApiLoader::new(client(routes), &progress);
        let folder = block_on(loader.load_run("er_1")).unwrap();
        let ids: Vec<&str> = folder
            .rewards
            .iter()
            .map(|r| r.trajectory_id.as_str())
            .collect();
        assert_eq!(ids, ["x1", "x2", "x3"]);
        assert_eq!(folder.tasks.as_ref().map(Vec::len), Some(1));
        assert!(folder.truncated_files.is_empty());
        // A second run of the same benchmark does not read its tasks again.
        block_on(loader.load_run("er_2")).unwrap();
        let asked = loader.client.transport().asked.borrow();
        assert_eq!(asked.iter().filter(|url| url.contains("/tasks")).count(), 1);
    }

    #[test]
    fn a_failed_page_fails_the_load_naming_the_list_and_how_far_it_got() {
        let routes = vec![
            (
                "/trajectory-rewards?cursor=c2",
                400,
                r#"{"error":{"type":"invalid_request_error","code":"invalid_cursor","message":"cursor expired","doc_url":"https://docs.test/errors"}}"#.to_owned(),
            ),
            (
                "/trajectory-rewards",
                200,
                page(&[reward("x1"), reward("x2")], Some("c2")),
            ),
            ("/eval/er_1", 200, RUN.to_owned()),
        ];
        let progress = Progress::silent();
        let mut loader = ApiLoader::new(client(routes), &progress);
        let error = block_on(loader.load_run("er_1")).unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("could not read trajectory-rewards of run er_1 (GET /api/v1/eval/er_1/trajectory-rewards): page 2 failed (1 page with 2 items read before it): "),
            "{text}"
        );
        assert!(text.contains("invalid_cursor"), "{text}");
        assert_eq!(error.exit(), crate::exit_code::Exit::Api);
    }

    #[test]
    fn a_missing_run_is_an_api_error_naming_the_run() {
        let routes = vec![(
            "/eval/er_9",
            404,
            r#"{"error":{"type":"not_found_error","code":"not_found","message":"no such run","doc_url":"https://docs.test/errors"}}"#.to_owned(),
        )];
        let progress = Progress::silent();
        let mut loader = ApiLoader::new(client(routes), &progress);
        let text = block_on(loader.load_run("er_9")).unwrap_err().to_string();
        assert!(
            text.starts_with("could not read run er_9 (GET /api/v1/eval/er_9): not found;"),
            "{text}"
        );
    }
}
