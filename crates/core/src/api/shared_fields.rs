//! Two response types of which one repeats all of the other's fields (the contract's
//! `TrajectoryMetadata` and `Trajectory`, `AgentResponse` and `AgentListItem`), declared from
//! one list of those fields.

/// Declares a struct and a wider one that has the same fields first, then its own.
///
/// Each struct is written out field by field with the attributes given, so its derives
/// (and therefore its JSON shape, decoder and error paths) are exactly those of a
/// hand-written struct; nothing is flattened. Also generated: `From<&Wide> for Base`
/// (the shared fields, cloned) and `Wide::from_shared(base)` (the own fields at their
/// defaults, to be set with struct update syntax).
macro_rules! structs_sharing_fields {
    (
        $(#[$base_meta:meta])*
        pub struct $base:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $field_ty:ty, )*
        }

        $(#[$wide_meta:meta])*
        pub struct $wide:ident {
            $( $(#[$own_meta:meta])* pub $own:ident : $own_ty:ty, )*
        }
    ) => {
        $(#[$base_meta])*
        pub struct $base {
            $( $(#[$field_meta])* pub $field: $field_ty, )*
        }

        $(#[$wide_meta])*
        pub struct $wide {
            $( $(#[$field_meta])* pub $field: $field_ty, )*
            $( $(#[$own_meta])* pub $own: $own_ty, )*
        }

        impl From<&$wide> for $base {
            fn from(wide: &$wide) -> Self {
                Self {
                    $( $field: Clone::clone(&wide.$field), )*
                }
            }
        }

        impl $wide {
            #[doc = concat!(
                "This value with the fields it shares with [`", stringify!($base),
                "`] taken from `shared` and its own at their defaults."
            )]
            pub fn from_shared(shared: $base) -> Self {
                Self {
                    $( $field: shared.$field, )*
                    $( $own: Default::default(), )*
                }
            }
        }
    };
}
pub(crate) use structs_sharing_fields;
