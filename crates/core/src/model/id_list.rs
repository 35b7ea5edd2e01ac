//! A listing's trajectory ids read by index ([`IdList`]): what the join hashes, sorts and
//! walks.

/// A listing's ids by index.
pub(crate) trait IdList {
    /// How many items the listing has.
    fn len(&self) -> usize;
    /// The id of item `index` (< `len`).
    fn id(&self, index: usize) -> &str;
}

impl IdList for [&str] {
    fn len(&self) -> usize {
        <[&str]>::len(self)
    }

    fn id(&self, index: usize) -> &str {
        self[index]
    }
}
