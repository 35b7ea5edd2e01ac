//! Shared helpers of the real-data tests: locating `shared/real-data`, loading run folders and
//! reading the CSV tables the counts are checked against.

use std::path::PathBuf;

use eval_compare_core::run_folder::RunFolder;

/// `shared/real-data`, beside the repository (CI puts `shared/` next to the clone).
pub fn real_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-data")
}

/// Loads one run folder of a benchmark directory.
pub fn load_folder(benchmark: &str, run: &str) -> RunFolder {
    eval_compare_core::testing::real_data::run_folder(benchmark, run)
}

/// A CSV table without quoted fields (as the real-data tables are): header and rows of cells.
pub struct Table {
    header: Vec<String>,
    /// Rows of cells, in file order.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads a CSV file of `shared/real-data`.
    pub fn read(relative: &str) -> Table {
        let text = std::fs::read_to_string(real_data().join(relative)).unwrap();
        let mut lines = text.lines().filter(|line| !line.is_empty());
        let split = |line: &str| line.split(',').map(str::to_owned).collect::<Vec<_>>();
        let header = split(lines.next().unwrap());
        let rows: Vec<Vec<String>> = lines.map(split).collect();
        assert!(
            rows.iter().all(|row| row.len() == header.len()),
            "{relative}: ragged rows"
        );
        Table { header, rows }
    }

    /// Index of a column.
    pub fn column(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    }
}
