//! Validation shared by every scenario format: one error type that names the field,
//! the offending value and the allowed range, the checks that build it, and the JSON
//! readers that name the field of every type error.

mod checks;
mod de;
mod error;
mod json;
mod kind;
mod messages;
mod plain;
mod text_path;

pub(crate) use checks::{in_range, in_range_f64, Problems};
pub use error::{echo, one_line, ErrorKind, ValidationError, ECHO_MAX_CHARS};
pub use json::{from_json_error, from_str, from_value, parse_json, read_value, MAX_JSON_DEPTH};
pub(crate) use json::{json_value, member_error, read_member, shown};
pub use kind::read_kind;
pub(crate) use kind::{kind_enum, kind_tagged, kind_variant};
pub(crate) use messages::{EXPECT_NO_JITTER, EXPECT_NUMBER, EXPECT_UNSIGNED};
