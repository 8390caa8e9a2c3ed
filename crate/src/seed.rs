//! Seeds in JSON: any `i64`, written as a number when JavaScript can hold it exactly
//! (|seed| ≤ 2^53) and as a decimal string otherwise, so a seed above 2^53 survives a
//! trip through a browser, a URL or `JSON.parse` unchanged. Both forms are accepted
//! on input.

use core::fmt;
use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

/// Largest magnitude a JavaScript number holds exactly.
pub const JS_SAFE: i64 = (1 << 53) - 1;

/// Parses a seed from text: an optional minus sign and decimal digits, within `i64`.
pub fn parse(text: &str) -> Option<i64> {
    let t = text.trim();
    if t.is_empty() || t.len() > 21 {
        return None;
    }
    t.parse::<i64>().ok()
}

/// Serializes a seed as a number when exact in JavaScript, else as a string.
pub fn serialize<S: Serializer>(seed: &i64, s: S) -> Result<S::Ok, S::Error> {
    if (-JS_SAFE..=JS_SAFE).contains(seed) {
        s.serialize_i64(*seed)
    } else {
        s.serialize_str(&seed.to_string())
    }
}

/// Deserializes a seed from an integer (within `i64`) or a decimal string. An error says
/// what is allowed; the reader names the field and the value (see [`crate::validate`]).
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    d.deserialize_any(SeedVisitor)
}

struct SeedVisitor;

impl Visitor<'_> for SeedVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer seed in -9223372036854775808..=9223372036854775807 (a number or a decimal string)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::custom("an integer at most 9223372036854775807"))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        // A JS number arrives as f64; accept it only when it is an exact integer that JS can hold.
        if v.fract() == 0.0 && v.abs() <= JS_SAFE as f64 {
            Ok(v as i64)
        } else {
            Err(E::custom(
                "an exact integer (give seeds above 2^53 as a decimal string)",
            ))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
        parse(v).ok_or_else(|| {
            E::custom("a decimal integer in -9223372036854775808..=9223372036854775807")
        })
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct S {
        #[serde(with = "super")]
        seed: i64,
    }

    #[test]
    fn small_seeds_are_numbers_big_ones_strings() {
        assert_eq!(
            serde_json::to_string(&S { seed: -4242 }).unwrap(),
            r#"{"seed":-4242}"#
        );
        let big = S { seed: i64::MAX };
        let text = serde_json::to_string(&big).unwrap();
        assert_eq!(text, r#"{"seed":"9223372036854775807"}"#);
        assert_eq!(serde_json::from_str::<S>(&text).unwrap(), big);
    }

    #[test]
    fn accepts_numbers_and_strings_rejects_the_rest() {
        assert_eq!(
            serde_json::from_str::<S>(r#"{"seed":9007199254740993}"#)
                .unwrap()
                .seed,
            9007199254740993
        );
        assert_eq!(
            serde_json::from_str::<S>(r#"{"seed":"-9223372036854775808"}"#)
                .unwrap()
                .seed,
            i64::MIN
        );
        assert!(serde_json::from_str::<S>(r#"{"seed":"12x"}"#).is_err());
        assert!(serde_json::from_str::<S>(r#"{"seed":1.5}"#).is_err());
        assert!(serde_json::from_str::<S>(r#"{"seed":18446744073709551615}"#).is_err());
        assert!(serde_json::from_str::<S>(r#"{"seed":true}"#).is_err());
    }
}
