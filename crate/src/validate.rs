//! Validation shared by every scenario format: one error type that names the field,
//! the offending value and the allowed range, the checks that build it, and the JSON
//! readers that name the field of every type error.

mod checks;
mod de;
mod error;
mod json;
mod kind;
mod messages;
mod text_path;

pub use checks::{in_range, in_range_f64, name, Problems};
pub use error::{echo, one_line, ErrorKind, ValidationError, ECHO_MAX_CHARS};
pub(crate) use json::shown;
pub use json::{
    from_json_error, from_str, from_value, json_value, member_error, parse_json, read_member,
    read_value, MAX_JSON_DEPTH,
};
pub use kind::{kind_tagged, read_kind};
pub use messages::{allowed_in, EXPECTATIONS, EXPECT_NUMBER, EXPECT_UNSIGNED};
