//! Entry point of the viewer: mounts the app into the page body.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(eval_compare_viewer::app::App);
}
