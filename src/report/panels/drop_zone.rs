//! Opening run folders from disk: a drop zone for folders and files, and two pickers (folders,
//! or files one by one).

use leptos::ev::DragEvent;
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::state::files::{drop_entries, files_of_list, use_file_runs, walk_entries};

/// The drop zone. Dropped or picked files are grouped by folder and parsed; the result lands in
/// the [`FileRuns`](crate::state::files::FileRuns) in context.
#[component]
pub fn DropZone() -> impl IntoView {
    let file_runs = use_file_runs();
    let over = RwSignal::new(false);
    let folder_input = NodeRef::<html::Input>::new();
    let files_input = NodeRef::<html::Input>::new();
    // `webkitdirectory` is not an attribute Leptos knows; set it on the element.
    Effect::new(move |_| {
        if let Some(input) = folder_input.get() {
            input.set_webkitdirectory(true);
        }
    });
    let on_drop = move |event: DragEvent| {
        event.prevent_default();
        over.set(false);
        let Some(data) = event.data_transfer() else {
            return;
        };
        let (entries, loose) = drop_entries(&data);
        spawn_local(async move {
            let (mut files, issues) = walk_entries(entries).await;
            files.extend(loose);
            file_runs.read_and_add(files, issues).await;
        });
    };
    let on_pick = move |input: NodeRef<html::Input>| {
        let Some(element) = input.get_untracked() else {
            return;
        };
        let Some(list) = element.files() else {
            return;
        };
        let files = files_of_list(&list);
        // Picking the same folder again must fire `change` again.
        element.set_value("");
        spawn_local(async move { file_runs.read_and_add(files, Vec::new()).await });
    };
    view! {
        <div
            class="drop-zone"
            class:over=move || over.get()
            on:dragover=move |event: DragEvent| {
                event.prevent_default();
                over.set(true);
            }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <p class="drop-title">"Drop run folders here"</p>
            <p class="field-help">
                "A run folder holds run.json, trajectory-rewards.json, trajectories.json and "
                "optionally tasks.json; a Chronicle job's folder job.json, trials.json and "
                "optionally results.json (as written by "<code>"eval-compare export"</code>"). "
                "Files stay in this browser: nothing is uploaded."
            </p>
            <div class="button-row drop-buttons">
                <label class="button">
                    "Choose folders…"
                    <input
                        class="visually-hidden"
                        type="file"
                        multiple
                        node_ref=folder_input
                        on:change=move |_| on_pick(folder_input)
                    />
                </label>
                <label class="button button-secondary">
                    "Choose files…"
                    <input
                        class="visually-hidden"
                        type="file"
                        multiple
                        accept=".json,application/json"
                        node_ref=files_input
                        on:change=move |_| on_pick(files_input)
                    />
                </label>
            </div>
            {move || {
                file_runs
                    .reading()
                    .map(|progress| view! { <p class="muted" role="status">{progress.label()}</p> })
            }}
        </div>
    }
}
