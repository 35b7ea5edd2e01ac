//! The one way the viewer's sliced work (decoding a stream, building a run set or a report,
//! drawing bootstraps) lets the page paint and handle input before it goes on: a task later.
//!
//! A zero-delay timer would do, but browsers hold nested zero-delay timers to at least 4 ms
//! (HTML's timer clamping): a comparison built in slices of 40 ms spent a tenth of its time
//! idle between them. A message posted to a `MessageChannel` runs as a task of its own with no
//! such delay; rendering and input still come between tasks. One channel serves every wait, in
//! order: each message wakes the oldest waiter. Where a channel cannot be made, a timer does.

use std::cell::RefCell;
use std::collections::VecDeque;

use futures::channel::oneshot;
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::prelude::*;
use web_sys::MessageChannel;

/// The channel, the handler that keeps its messages' receiving end alive, and the waiters.
struct Yielder {
    channel: MessageChannel,
    _on_message: Closure<dyn FnMut()>,
    waiting: std::rc::Rc<RefCell<VecDeque<oneshot::Sender<()>>>>,
}

thread_local! {
    static YIELDER: Option<Yielder> = make_yielder();
}

fn make_yielder() -> Option<Yielder> {
    let channel = MessageChannel::new().ok()?;
    let waiting = std::rc::Rc::new(RefCell::new(VecDeque::<oneshot::Sender<()>>::new()));
    let woken = std::rc::Rc::clone(&waiting);
    let on_message = Closure::<dyn FnMut()>::new(move || {
        if let Some(waiter) = woken.borrow_mut().pop_front() {
            let _ = waiter.send(());
        }
    });
    channel
        .port1()
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Some(Yielder {
        channel,
        _on_message: on_message,
        waiting,
    })
}

/// Goes on a task later, the page having had its turn (see the module).
pub async fn yield_to_page() {
    let posted = YIELDER.with(|yielder| {
        let yielder = yielder.as_ref()?;
        let (sender, receiver) = oneshot::channel();
        yielder.waiting.borrow_mut().push_back(sender);
        match yielder.channel.port2().post_message(&JsValue::UNDEFINED) {
            Ok(()) => Some(receiver),
            Err(_) => {
                yielder.waiting.borrow_mut().pop_back();
                None
            }
        }
    });
    match posted {
        Some(receiver) => {
            let _ = receiver.await;
        }
        None => TimeoutFuture::new(0).await,
    }
}
