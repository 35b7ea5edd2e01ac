//! The viewer's icon: `/favicon.ico` and `/favicon.svg` answer an SVG image, with or without a
//! built viewer, and the page's template links to it.
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, start, temp_dir};

#[tokio::test]
async fn the_icon_is_served_with_or_without_a_build() {
    let dist = temp_dir("favicon-dist");
    std::fs::write(dist.join("index.html"), "<!doctype html><title>x</title>").unwrap();
    let mut built = demo(1);
    built.dist = dist.clone();
    // `demo` names a dist folder that does not exist: the viewer is not built.
    for config in [built, demo(1)] {
        let server = start(config).await;
        for path in ["/favicon.ico", "/favicon.svg"] {
            let response = client()
                .get(format!("{}{path}", server.base))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 200, "{path}");
            assert_eq!(
                response.headers()["content-type"],
                "image/svg+xml",
                "{path}"
            );
            let body = response.text().await.unwrap();
            assert!(body.starts_with("<svg"), "{path}: {body}");
        }
    }
    std::fs::remove_dir_all(dist).unwrap();
}

#[test]
fn the_page_template_links_to_the_served_icon() {
    let template = include_str!("../../../index.html");
    assert!(
        template.contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#),
        "index.html names no icon"
    );
}
