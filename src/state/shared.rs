//! A shared value compared by identity, so memos over large values (a run set, a report) are
//! cheap to compare and change only when the value was rebuilt.

use std::ops::Deref;
use std::sync::Arc;

/// An `Arc` whose equality is pointer identity.
#[derive(Debug)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Shared<T> {
    /// Wraps a freshly built value.
    pub fn new(value: T) -> Self {
        Self(Arc::new(value))
    }

    /// The shared value.
    pub fn arc(&self) -> Arc<T> {
        Arc::clone(&self.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}
