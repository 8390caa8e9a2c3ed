//! The checks both models run on their fields: ranges, lengths and names, and the
//! collector that names each problem by its full path.

use super::error::join;
use super::ValidationError;
use core::fmt;

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

/// Collects every problem of a scenario, each named by its full path: the one way both
/// models check their fields. A check nested with [`Problems::at`] has its fields
/// prefixed with the path it was called at (`tiers[1]` + `client` + `budget.percent`).
#[derive(Debug, Default)]
pub struct Problems {
    path: String,
    list: Vec<ValidationError>,
}

impl Problems {
    /// An empty collector at the document's root.
    pub fn new() -> Self {
        Problems::default()
    }

    /// Records a problem found at `e.field` below the current path.
    pub fn push(&mut self, mut e: ValidationError) {
        e.field = join(&self.path, &e.field);
        self.list.push(e);
    }

    /// Records the error of a check, if it failed.
    pub fn check(&mut self, r: Result<(), ValidationError>) {
        if let Err(e) = r {
            self.push(e);
        }
    }

    /// Checks `lo <= value <= hi` (see [`in_range`]).
    pub fn range<T>(&mut self, field: &str, value: T, lo: T, hi: T)
    where
        T: PartialOrd + fmt::Display + Copy,
    {
        self.check(in_range(field, value, lo, hi));
    }

    /// Checks a finite float in `lo..=hi` (see [`in_range_f64`]).
    pub fn range_f64(&mut self, field: &str, value: f64, lo: f64, hi: f64) {
        self.check(in_range_f64(field, value, lo, hi));
    }

    /// Checks a list's length: `lo..=hi` entries.
    pub fn len(&mut self, field: &str, len: usize, lo: usize, hi: usize) {
        if len < lo || len > hi {
            self.push(ValidationError::new(
                field,
                format!("{len} entries"),
                format!("{lo}..={hi} entries"),
            ));
        }
    }

    /// Checks a free-text name (see [`name`]).
    pub fn name(&mut self, field: &str, value: &str, max_chars: usize) {
        self.check(name(field, value, max_chars));
    }

    /// Runs `f` with every field it names placed under `segment` (`client`, `[2]`, `tiers[2]`).
    pub fn at(&mut self, segment: &str, f: impl FnOnce(&mut Problems)) {
        let outer = core::mem::take(&mut self.path);
        self.path = join(&outer, segment);
        f(self);
        self.path = outer;
    }

    /// Every problem found, in the order the checks ran.
    pub fn into_vec(self) -> Vec<ValidationError> {
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
