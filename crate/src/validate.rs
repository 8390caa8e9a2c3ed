//! Validation shared by every scenario format: one error type that names the field,
//! the offending value and the allowed range, and the small checks that build it.

use core::fmt;

/// A scenario field outside its allowed range, or a scenario that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// Dotted path of the field, e.g. `strategies[2].max_retry`; empty for whole-document errors.
    pub field: String,
    /// The value as given, rendered for the message.
    pub value: String,
    /// What is allowed, e.g. `1..=1000000`.
    pub allowed: String,
}

impl ValidationError {
    /// An error for `field` holding `value`, where `allowed` says what would be accepted.
    pub fn new(
        field: impl Into<String>,
        value: impl fmt::Display,
        allowed: impl Into<String>,
    ) -> Self {
        ValidationError {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }

    /// An error about the document as a whole (bad JSON, unknown field, wrong type).
    pub fn document(message: impl Into<String>) -> Self {
        ValidationError {
            field: String::new(),
            value: String::new(),
            allowed: message.into(),
        }
    }

    /// Prefixes the field path, e.g. `max_retry` inside `strategies[2]`.
    pub fn within(mut self, parent: &str) -> Self {
        self.field = if self.field.is_empty() {
            parent.to_string()
        } else {
            format!("{parent}.{}", self.field)
        };
        self
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "invalid scenario: {}", self.allowed)
        } else if self.value.is_empty() {
            write!(f, "{}: {}", self.field, self.allowed)
        } else {
            write!(
                f,
                "{} = {} is out of range: allowed {}",
                self.field, self.value, self.allowed
            )
        }
    }
}

impl std::error::Error for ValidationError {}

/// Checks `lo <= value <= hi` for any ordered, printable number.
pub fn in_range<T>(field: &str, value: T, lo: T, hi: T) -> Result<(), ValidationError>
where
    T: PartialOrd + fmt::Display + Copy,
{
    if value < lo || value > hi {
        Err(ValidationError::new(field, value, format!("{lo}..={hi}")))
    } else {
        Ok(())
    }
}

/// Checks that a float is finite and within `lo..=hi` (NaN is rejected).
pub fn in_range_f64(field: &str, value: f64, lo: f64, hi: f64) -> Result<(), ValidationError> {
    if !value.is_finite() || value < lo || value > hi {
        Err(ValidationError::new(field, value, format!("{lo}..={hi}")))
    } else {
        Ok(())
    }
}

/// Checks a free-text name: 1..=`max_chars` characters, no control characters.
///
/// Names are always rendered as text by every front end; this only keeps them printable
/// and short enough for a table.
pub fn name(field: &str, value: &str, max_chars: usize) -> Result<(), ValidationError> {
    let n = value.chars().count();
    if n == 0 || n > max_chars {
        return Err(ValidationError::new(
            field,
            format!("{:?}", truncate(value, 40)),
            format!("1..={max_chars} characters"),
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(ValidationError::new(
            field,
            format!("{:?}", truncate(value, 40)),
            "text without control characters",
        ));
    }
    Ok(())
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Turns a serde_json error into a document error with serde's own (precise) wording.
pub fn from_json_error(err: &serde_json::Error) -> ValidationError {
    ValidationError::document(err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_field_value_and_range() {
        let e = in_range("clients", 0u32, 1, 1_000_000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "clients = 0 is out of range: allowed 1..=1000000"
        );
        let e = e.within("scenario");
        assert_eq!(e.field, "scenario.clients");
    }

    #[test]
    fn floats_reject_nan() {
        assert!(in_range_f64("x", f64::NAN, 0.0, 1.0).is_err());
        assert!(in_range_f64("x", 0.5, 0.0, 1.0).is_ok());
    }

    #[test]
    fn names_are_bounded_and_printable() {
        assert!(name("n", "", 10).is_err());
        assert!(name("n", "a\u{0}b", 10).is_err());
        assert!(name("n", "<img src=x onerror=alert(1)>", 64).is_ok());
        assert!(name("n", &"x".repeat(11), 10).is_err());
    }
}
