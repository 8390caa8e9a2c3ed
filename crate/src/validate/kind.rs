//! Internally tagged enums (`{"kind": "constant", "ms": 5}`) read without serde's
//! buffering reader: the reader and the macro that defines such an enum.

use super::de;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Reads an internally tagged enum (`{"kind": "constant", "ms": 5}`) of any deserializer
/// as `R`, the same enum externally tagged: the tag `tag` becomes the variant's name and
/// the other fields its fields. Errors read as serde's derived reader of the tagged form
/// words them. Why: serde's derived reader buffers the fields and reads every variant
/// once more from that buffer, which made a twentieth of the wasm (see [`kind_enum`]).
pub(crate) fn kind_tagged<'de, D, R>(
    d: D,
    tag: &'static str,
    name: &'static str,
) -> Result<R, D::Error>
where
    D: serde::Deserializer<'de>,
    R: DeserializeOwned,
{
    let v = <Value as serde::Deserialize>::deserialize(d)?;
    // The rest is compiled once per enum, not once per enum and deserializer.
    read_kind(v, tag, name).map_err(serde::de::Error::custom)
}

/// Reads `v`, an internally tagged enum with its tag in `tag` (`{"model": "classic", …}`),
/// as `R`, the same enum externally tagged, with the messages serde's derived reader of
/// the tagged form gives (as the crate's `kind_tagged` does); `name` is the enum's, for the message
/// when `v` is not an object. For an enum that allows unknown fields beside the tag
/// (no `deny_unknown_fields` on `R`), which the crate's `kind_enum!` does not define.
pub fn read_kind<R: DeserializeOwned>(
    v: Value,
    tag: &'static str,
    name: &'static str,
) -> Result<R, serde_json::Error> {
    let (kind, rest) = split_kind(v, tag, name)?;
    de::read_variant(&kind, &rest)
}

/// The tag's value and the other fields, or the error serde's derived reader gives.
fn split_kind(
    v: Value,
    tag: &'static str,
    name: &'static str,
) -> Result<(String, Value), serde_json::Error> {
    use serde::de::Error;
    let Value::Object(mut fields) = v else {
        let expected = format!("internally tagged enum {name}");
        return Err(Error::invalid_type(de::unexpected(&v), &expected.as_str()));
    };
    match fields.remove(tag) {
        Some(Value::String(kind)) => Ok((kind, Value::Object(fields))),
        Some(other) => Err(Error::invalid_type(
            de::unexpected(&other),
            &"variant identifier",
        )),
        None => Err(Error::missing_field(tag)),
    }
}

/// Defines an enum written with its variant's name in the field `tag` and the variant's
/// fields beside it (`{"kind": "constant", "ms": 5}`), variants in snake_case, unknown
/// fields rejected: serde's internally tagged form, read through [`kind_tagged`] with a
/// private externally tagged twin of the enum that the macro derives from the same
/// definition (so the two cannot drift apart). List the derives other than serde's.
macro_rules! kind_enum {
    (
        tag = $tag:literal;
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $(( $inner:ty ))? $({
                    $(
                        $(#[$fmeta:meta])*
                        $field:ident : $ty:ty
                    ),* $(,)?
                })?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Serialize)]
        #[serde(tag = $tag, rename_all = "snake_case")]
        pub enum $name {
            $( $(#[$vmeta])* $variant $(($inner))? $({ $( $(#[$fmeta])* $field: $ty ),* })? ),*
        }

        const _: () = {
            #[derive(serde::Deserialize)]
            #[serde(rename_all = "snake_case", deny_unknown_fields)]
            enum Twin {
                $( $variant $(($inner))? $({ $( $(#[$fmeta])* $field: $ty ),* })? ),*
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    let twin: Twin = $crate::validate::kind_tagged(d, $tag, stringify!($name))?;
                    // One `if let` per variant (a macro can write statements, not match
                    // arms): the twin's variant becomes the enum's, fields and all.
                    $( $crate::validate::kind_variant!(twin, Twin, $name, $variant $(($inner))? $({ $($field),* })?); )*
                    unreachable!("every variant of the twin is converted above")
                }
            }
        };
    };
}

/// One variant of a `kind_enum!` twin converted to the enum's (unit, struct or newtype
/// variant). Only for that macro.
macro_rules! kind_variant {
    ($twin:ident, $Twin:ident, $name:ident, $variant:ident) => {
        if let $Twin::$variant = $twin {
            return Ok($name::$variant);
        }
    };
    ($twin:ident, $Twin:ident, $name:ident, $variant:ident ($inner:ty)) => {
        if let $Twin::$variant(inner) = $twin {
            return Ok($name::$variant(inner));
        }
    };
    ($twin:ident, $Twin:ident, $name:ident, $variant:ident { $($field:ident),* }) => {
        if let $Twin::$variant { $($field),* } = $twin {
            return Ok($name::$variant { $($field),* });
        }
    };
}

// Crate-local macros, named by path (`crate::validate::kind_enum!`): not exported.
pub(crate) use kind_enum;
pub(crate) use kind_variant;
