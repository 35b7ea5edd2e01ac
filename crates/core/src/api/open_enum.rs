//! A macro for string enums that keep values this build does not know.
//!
//! The Trajectory API adds enum values over time. A value unknown to this build is kept by name
//! in a catch-all variant and written back unchanged, so it can be shown and never breaks decoding.

/// Declares a string enum with known variants plus a catch-all variant (named after `keeps`)
/// holding any other value.
///
/// Generates `as_str`, `is_known`, `From<&str>`, `From<String>`, `Display`, and serde impls that
/// read and write the exact wire string.
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident keeps $other:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this build does not know, kept by name and written back unchanged.
            $other(String),
        }

        impl $name {
            /// Every value this build knows, in contract order.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The exact wire string of this value.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $wire, )+
                    $name::$other(value) => value,
                }
            }

            /// Whether this value is one the contract defines (not kept by name only).
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::$other(_))
            }
        }

        impl From<&str> for $name {
            fn from(value: &str) -> Self {
                match value {
                    $( $wire => $name::$variant, )+
                    other => $name::$other(other.to_owned()),
                }
            }
        }

        impl From<String> for $name {
            fn from(value: String) -> Self {
                match $name::from(value.as_str()) {
                    $name::$other(_) => $name::$other(value),
                    known => known,
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <String as ::serde::Deserialize>::deserialize(deserializer)?;
                Ok($name::from(value))
            }
        }
    };
}

pub(crate) use open_enum;
