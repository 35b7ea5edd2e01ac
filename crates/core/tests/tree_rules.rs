//! The project's size rules, held over the whole workspace: no Rust product file over
//! [`MAX_FILE_LINES`] lines (an inline test module counts; tests/, benches/ and e2e/ do not),
//! no Leptos `#[component]` function over [`MAX_COMPONENT_LINES`] lines, measured from its
//! `fn` line to its closing brace. A failure names every offender with its size.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a product file may have.
const MAX_FILE_LINES: usize = 800;

/// The most lines a component may have, its `fn` line and closing brace included.
const MAX_COMPONENT_LINES: usize = 150;

/// Folders that hold no product code, at any depth.
const NOT_PRODUCT: [&str; 5] = ["tests", "benches", "target", "node_modules", "dist"];

/// Top-level folders that hold no product code.
const NOT_PRODUCT_AT_TOP: [&str; 1] = ["e2e"];

#[test]
fn no_product_file_is_over_the_line_limit() {
    let files = product_files();
    let over: Vec<String> = files
        .iter()
        .filter(|file| file.lines > MAX_FILE_LINES)
        .map(|file| format!("  {}: {} lines", file.path, file.lines))
        .collect();
    assert!(
        over.is_empty(),
        "product files over {MAX_FILE_LINES} lines (split them; an inline test module can move \
         to the crate's tests/):\n{}",
        over.join("\n")
    );
}

#[test]
fn no_component_is_over_the_line_limit() {
    let mut components = 0;
    let mut over = Vec::new();
    for file in product_files() {
        for component in components_in(&file.text) {
            components += 1;
            if component.lines > MAX_COMPONENT_LINES {
                over.push(format!(
                    "  {}:{}: {}, {} lines",
                    file.path, component.line, component.name, component.lines
                ));
            }
        }
    }
    assert!(
        components > 0,
        "no #[component] found: the workspace was not read"
    );
    assert!(
        over.is_empty(),
        "components over {MAX_COMPONENT_LINES} lines (from the `fn` line to the closing brace; \
         move words into plain functions and sections into components of their own):\n{}",
        over.join("\n")
    );
}

#[test]
fn the_walk_reads_every_crate_and_leaves_tests_out() {
    let paths: Vec<String> = product_files().into_iter().map(|file| file.path).collect();
    for expected in [
        "crates/core/src/lib.rs",
        "crates/cli/src/main.rs",
        "crates/server/src/main.rs",
        "src/lib.rs",
    ] {
        assert!(
            paths.iter().any(|path| path == expected),
            "{expected} not read"
        );
    }
    assert!(
        !paths.iter().any(|path| path.starts_with("e2e/")
            || path
                .split('/')
                .any(|part| part == "tests" || part == "benches")),
        "a test file was counted as product code"
    );
}

#[test]
fn a_component_is_measured_past_braces_in_strings_chars_and_comments() {
    let text = r####"
/// A doc comment with #[component] and a stray { brace.
#[component]
pub fn Panel<'a>(label: &'a str) -> impl IntoView {
    // a comment with } and {
    let open = '{';
    let close = '}';
    let quote = '\'';
    let escaped = "a \" quote and } brace";
    let raw = r#"a "raw" { string"#;
    let bytes = b"}";
    /* a block /* nested } */ comment { */
    let r#type = 1;
    view! { <p>{label}</p> }
}

#[component]
fn Small() -> impl IntoView {
    "#[component] in a string"
}

#[leptos::component]
fn Pathed() -> impl IntoView {}

fn not_a_component() {}
"####;
    let found: Vec<(String, usize, usize)> = components_in(text)
        .into_iter()
        .map(|c| (c.name, c.line, c.lines))
        .collect();
    assert_eq!(
        found,
        vec![
            ("Panel".to_owned(), 4, 12),
            ("Small".to_owned(), 18, 3),
            ("Pathed".to_owned(), 23, 1),
        ]
    );
}

/// One product file as read.
struct ProductFile {
    /// Its path from the workspace root, with `/` between folders.
    path: String,
    text: String,
    lines: usize,
}

/// One `#[component]` function.
#[derive(Debug)]
struct Component {
    name: String,
    /// The line of its `fn` (1-based).
    line: usize,
    /// Its lines, from the `fn` line to the closing brace.
    lines: usize,
}

/// Every Rust product file of the workspace, in path order.
fn product_files() -> Vec<ProductFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap();
    let mut paths = Vec::new();
    collect_rust_files(&root, &root, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).unwrap();
            let relative = path.strip_prefix(&root).unwrap();
            let relative: Vec<String> = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            ProductFile {
                path: relative.join("/"),
                lines: text.lines().count(),
                text,
            }
        })
        .collect()
}

fn collect_rust_files(root: &Path, dir: &Path, paths: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let file_type = entry.file_type().unwrap();
        if file_type.is_dir() {
            let skipped = name.starts_with('.')
                || NOT_PRODUCT.contains(&name.as_str())
                || (dir == root && NOT_PRODUCT_AT_TOP.contains(&name.as_str()));
            if !skipped {
                collect_rust_files(root, &path, paths);
            }
        } else if file_type.is_file() && name.ends_with(".rs") {
            paths.push(path);
        }
    }
}

/// The `#[component]` (or `#[leptos::component]`) functions of a source text.
fn components_in(text: &str) -> Vec<Component> {
    let code = code_only(text);
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[").map(|at| from + at) {
        from = at + 2;
        let Some(attribute) = attribute_path(&code[from..]) else {
            continue;
        };
        if attribute != "component" && attribute != "leptos::component" {
            continue;
        }
        let Some(fn_at) = find_word(&code, from, "fn") else {
            break;
        };
        let name: String = code[fn_at + 2..]
            .trim_start()
            .chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_')
            .collect();
        let Some(open) = code[fn_at..].find('{').map(|at| fn_at + at) else {
            break;
        };
        let Some(close) = matching_brace(&code, open) else {
            break;
        };
        let line = line_of(&code, fn_at);
        found.push(Component {
            name,
            line,
            lines: line_of(&code, close) - line + 1,
        });
        from = close;
    }
    found
}

/// The path of the attribute whose `#[` was just passed: the text up to `]` or `(`.
fn attribute_path(rest: &str) -> Option<String> {
    let end = rest.find([']', '('])?;
    Some(rest[..end].chars().filter(|c| !c.is_whitespace()).collect())
}

/// The byte offset of the first `word` at or after `from` standing as a word of its own.
fn find_word(code: &str, from: usize, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut at = from;
    while let Some(found) = code[at..].find(word).map(|found| at + found) {
        let before = code[..found].chars().next_back();
        let after = code[found + word.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return Some(found);
        }
        at = found + word.len();
    }
    None
}

/// The byte offset of the `}` closing the `{` at `open`.
fn matching_brace(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + at);
                }
            }
            _ => {}
        }
    }
    None
}

fn line_of(code: &str, at: usize) -> usize {
    code[..at].matches('\n').count() + 1
}

/// `text` with the contents of comments, strings and character literals blanked (every
/// character but a line break becomes a space), so that only code's own braces and attributes
/// remain; byte offsets and lines stay where they were.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, chars: &[char]| {
        for &c in chars {
            if c == '\n' {
                out.push('\n');
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let ident_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let end = if c == '/' && next == Some('/') {
            chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |n| i + n)
        } else if c == '/' && next == Some('*') {
            block_comment_end(&chars, i)
        } else if c == '"' {
            string_end(&chars, i + 1)
        } else if !ident_before && matches!(c, 'r' | 'b' | 'c') {
            match raw_string_end(&chars, i) {
                Some(end) => end,
                None => {
                    out.push(c);
                    i += 1;
                    continue;
                }
            }
        } else if c == '\'' {
            match char_literal_end(&chars, i) {
                Some(end) => end,
                None => {
                    out.push(c);
                    i += 1;
                    continue;
                }
            }
        } else {
            out.push(c);
            i += 1;
            continue;
        };
        blank(&mut out, &chars[i..end]);
        i = end;
    }
    out
}

/// The index after the (nested) block comment opening at `start`.
fn block_comment_end(chars: &[char], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i + 1 < chars.len() {
        match (chars[i], chars[i + 1]) {
            ('/', '*') => {
                depth += 1;
                i += 2;
            }
            ('*', '/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    chars.len()
}

/// The index after the closing quote of a string whose contents start at `from`.
fn string_end(chars: &[char], from: usize) -> usize {
    let mut i = from;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// The index after a raw, byte or C string starting at `start` (`r"…"`, `r#"…"#`, `b"…"`,
/// `br#"…"#`, `c"…"`); `None` when no such string starts there (`r#ident`, a name).
fn raw_string_end(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start;
    if matches!(chars[i], 'b' | 'c') {
        i += 1;
    }
    let raw = chars.get(i) == Some(&'r');
    if raw {
        i += 1;
    }
    if i == start {
        return None;
    }
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    i += hashes;
    if chars.get(i) != Some(&'"') {
        return None;
    }
    if !raw {
        return Some(string_end(chars, i + 1));
    }
    let closing: Vec<char> = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    let body = i + 1;
    Some(
        (body..chars.len())
            .find(|&at| chars[at..].starts_with(&closing))
            .map_or(chars.len(), |at| at + closing.len()),
    )
}

/// The index after a character literal starting at `start`; `None` for a lifetime or label.
fn char_literal_end(chars: &[char], start: usize) -> Option<usize> {
    match (chars.get(start + 1), chars.get(start + 2)) {
        (Some('\\'), _) => {
            let close = chars[start + 2..].iter().position(|&c| c == '\'')?;
            // `'\''`: the escaped quote is not the closing one.
            let close = if chars[start + 2] == '\'' {
                start + 3 + chars[start + 3..].iter().position(|&c| c == '\'')?
            } else {
                start + 2 + close
            };
            Some(close + 1)
        }
        (Some(_), Some('\'')) => Some(start + 3),
        _ => None,
    }
}
