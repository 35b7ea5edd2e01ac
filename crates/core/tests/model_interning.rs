//! Tasks and endings interned by the builder keep one index per name, whichever shortcut
//! found them: the last one, the task after it, the first few endings compared, or the maps
//! (a run with more endings than the few compared, tasks met out of order).

#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunInfo, RunSetBuilder, SourceKind, TaskInput, TrajectoryFlags, TrajectoryInput,
};
use proptest::prelude::*;

proptest! {
    #[test]
    fn every_trajectory_keeps_its_task_and_ending(
        rows in prop::collection::vec((0usize..12, prop::option::weighted(0.9, 0usize..14)), 0..120),
        listed in 0usize..12,
    ) {
        let mut builder = RunSetBuilder::new();
        // Some tasks listed first (in order), the rest met in the rows.
        for task in 0..listed {
            builder
                .add_task(TaskInput {
                    id: format!("task-{task}"),
                    label: None,
                    split: None,
                    categories: Vec::new(),
                })
                .unwrap();
        }
        let run = builder
            .add_run(RunInfo {
                id: "run".to_owned(),
                source: SourceKind::Files,
                ..RunInfo::default()
            })
            .unwrap();
        let ids: Vec<String> = (0..rows.len()).map(|row| format!("t{row}")).collect();
        let tasks: Vec<String> = rows.iter().map(|(task, _)| format!("task-{task}")).collect();
        let endings: Vec<Option<String>> = rows
            .iter()
            .map(|(_, ending)| ending.map(|ending| format!("ENDING_{ending}")))
            .collect();
        for row in 0..rows.len() {
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &ids[row],
                        task: Some(&tasks[row]),
                        class: OutcomeClass::Graded,
                        reward: Some(1.0),
                        ending: endings[row].as_deref(),
                        flags: TrajectoryFlags::NONE,
                        created: None,
                        components: None,
                    },
                )
                .unwrap();
        }
        let set = builder.build();
        let mut seen = 0;
        for trajectory in set.runs()[0].trajectories() {
            let row: usize = trajectory.id[1..].parse().unwrap();
            let task = trajectory.task.and_then(|task| set.task(task)).unwrap();
            prop_assert_eq!(&task.id, &tasks[row]);
            prop_assert_eq!(trajectory.ending, endings[row].as_deref());
            seen += 1;
        }
        prop_assert_eq!(seen, rows.len());
        // One task per name.
        let mut names: Vec<&str> = set.tasks().iter().map(|task| task.id.as_str()).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        prop_assert_eq!(names.len(), count);
    }
}
