//! The ledger as a file: "Download ledger" writes core's file form (`Ledger::to_json`), "Open
//! ledger file" reads one with core's parser (its errors naming the entry and the field).

use eval_compare_core::ledger::{Ledger, MAX_LEDGER_BYTES};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen_futures::JsFuture;

use super::words::{open_error, opened_note, LEDGER_FILE_NAME};
use crate::report::export::{download, ExportFile};
use crate::state::ledger::LedgerEdits;

/// Downloads `ledger` as the README's file; the error in words when the browser refused.
pub fn download_ledger(ledger: &Ledger) -> Result<(), String> {
    let mut contents = ledger.to_json();
    contents.push('\n');
    download(&ExportFile {
        name: LEDGER_FILE_NAME.to_owned(),
        mime: "application/json",
        contents,
    })
}

/// Reads the first file chosen in `input` as a ledger and makes it the view's; what happened
/// goes to `message` (an error names the file, the entry and the field).
pub fn open_ledger_file(
    input: web_sys::HtmlInputElement,
    edits: LedgerEdits,
    message: RwSignal<Option<String>>,
) {
    let Some(file) = input.files().and_then(|files| files.get(0)) else {
        return;
    };
    // The same file chosen again must fire `change` again.
    input.set_value("");
    let name = file.name();
    if file.size() > MAX_LEDGER_BYTES as f64 {
        message.set(Some(format!(
            "{name} could not be opened: it is over {MAX_LEDGER_BYTES} bytes"
        )));
        return;
    }
    spawn_local(async move {
        let text = JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|value| value.as_string());
        let Some(text) = text else {
            message.try_set(Some(format!("{name} could not be read")));
            return;
        };
        let said = match Ledger::parse(text.as_bytes()) {
            Ok(ledger) => {
                let said = opened_note(&name, &ledger);
                // Refused (too long for a link), the panel says why instead.
                edits.set(ledger).then_some(said)
            }
            Err(error) => Some(open_error(&name, &error)),
        };
        message.try_set(said);
    });
}
