//! `index.html` preloads the report pages' chunk on their paths with a regular expression of its
//! own; it must list exactly the paths of [`Route::is_report`]. Pure logic: a native test.
#![cfg(not(target_arch = "wasm32"))]

use eval_compare_viewer::route::Route;

#[test]
fn index_html_preloads_the_chunk_on_exactly_the_split_pages() {
    let html = include_str!("../index.html");
    let start = html
        .find(r"/^\/(")
        .expect("index.html tests location.pathname with /^\\/(…)$/");
    let rest = &html[start + r"/^\/(".len()..];
    let end = rest.find(")$/").expect("the expression ends with )$/");
    let mut preloaded: Vec<String> = rest[..end]
        .split('|')
        .map(|path| format!("/{}", path.replace(r"\/", "/")))
        .collect();
    let mut split: Vec<String> = Route::ALL
        .into_iter()
        .filter(|route| route.is_report())
        .map(|route| route.path().to_owned())
        .collect();
    preloaded.sort();
    split.sort();
    assert_eq!(preloaded, split);
}
