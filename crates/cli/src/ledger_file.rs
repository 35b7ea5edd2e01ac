//! `--exclusions FILE`: the reviewer's ledger file, read only when it is a regular file of at
//! most the core's `MAX_LEDGER_BYTES`, and parsed by the core (errors name the entry and
//! field).

use std::io::Read;
use std::path::Path;

use eval_compare_core::ledger::{Ledger, MAX_LEDGER_BYTES};

use crate::error::CliError;

/// Reads and parses the ledger at `path`.
pub fn read_ledger(path: &Path) -> Result<Ledger, CliError> {
    let refused = |why: String| CliError::InputFile {
        path: path.to_owned(),
        why,
    };
    let io_error = |source| CliError::ReadFile {
        path: path.to_owned(),
        source,
    };
    // Checked before opening: opening a FIFO blocks until something writes to it.
    let metadata = std::fs::metadata(path).map_err(io_error)?;
    if !metadata.is_file() {
        return Err(refused(
            "not a regular file; a ledger is a JSON file".to_owned(),
        ));
    }
    let cap = MAX_LEDGER_BYTES as u64;
    if metadata.len() > cap {
        return Err(refused(format!(
            "{} bytes; a ledger is at most {cap} bytes",
            metadata.len()
        )));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    std::fs::File::open(path)
        .and_then(|file| file.take(cap + 1).read_to_end(&mut bytes))
        .map_err(io_error)?;
    Ledger::parse(&bytes).map_err(|error| refused(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ledger_file_is_read_and_a_bad_one_names_the_entry_and_field() {
        let dir = std::env::temp_dir().join(format!("ledger-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.json");
        std::fs::write(
            &good,
            r#"{"version": 1, "entries": [{"task_id": "t1", "action": "leave_out", "reason": "duplicate"}]}"#,
        )
        .unwrap();
        assert_eq!(read_ledger(&good).unwrap().entries.len(), 1);
        let bad = dir.join("bad.json");
        std::fs::write(
            &bad,
            r#"{"version": 1, "entries": [{"task_id": "t1", "action": "leave_out"}]}"#,
        )
        .unwrap();
        let error = read_ledger(&bad).unwrap_err();
        assert_eq!(error.exit(), crate::exit_code::Exit::UnreadableInput);
        let text = error.to_string();
        assert!(
            text.contains("ledger entry 0 (`t1`), field `reason`: is missing"),
            "{text}"
        );
        let folder = read_ledger(&dir).unwrap_err();
        assert!(
            folder.to_string().contains("not a regular file"),
            "{folder}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
