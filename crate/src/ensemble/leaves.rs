//! The numeric leaves of a result, read by a small serde `Serializer` that walks the
//! result as its JSON would be written. Why not the JSON text itself: writing it and
//! reading it back compiled serde_json's writer into every result type a second time
//! (before the page's documents went through serde_json too) and cost a parse per seed.

use serde::ser::{self, Serialize};
use serde_json::Error;

/// Every numeric leaf of `v`, depth first in field order, nested names joined by dots:
/// what the run's JSON holds. `null` (an absent option, a non-finite float) is kept as
/// "no value", booleans count as 0/1; strings, lists and the `skip`ped top-level fields
/// are left out.
pub(super) fn collect<T: Serialize + ?Sized>(v: &T, skip: &[&str]) -> Vec<(String, Option<f64>)> {
    let mut out = Vec::new();
    let _ = v.serialize(Leaves {
        prefix: String::new(),
        skip,
        out: &mut out,
    });
    out
}

/// The writer of one value under `prefix`.
struct Leaves<'a> {
    prefix: String,
    skip: &'a [&'a str],
    out: &'a mut Vec<(String, Option<f64>)>,
}

impl<'a> Leaves<'a> {
    fn push(self, v: Option<f64>) -> Result<(), Error> {
        self.out.push((self.prefix, v));
        Ok(())
    }

    fn number(self, v: f64) -> Result<(), Error> {
        // serde_json writes a non-finite float as `null`.
        self.push(Some(v).filter(|v| v.is_finite()))
    }

    /// An object's members from here on (a struct, a map, a variant with fields).
    fn object(self) -> Object<'a> {
        Object {
            top: self.prefix.is_empty(),
            prefix: self.prefix,
            skip: self.skip,
            out: self.out,
            key: String::new(),
        }
    }

    /// The fields of a variant written as `{"name": {fields}}`.
    fn variant(self, name: &str) -> Object<'a> {
        let prefix = if self.prefix.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.prefix)
        };
        Object {
            top: false,
            prefix,
            skip: self.skip,
            out: self.out,
            key: String::new(),
        }
    }
}

/// The members of an object, each written under `prefix.key`.
struct Object<'a> {
    top: bool,
    prefix: String,
    skip: &'a [&'a str],
    out: &'a mut Vec<(String, Option<f64>)>,
    /// The key of the member written next.
    key: String,
}

impl Object<'_> {
    fn member<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), Error> {
        if self.top && self.skip.contains(&key) {
            return Ok(());
        }
        let prefix = if self.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.prefix)
        };
        v.serialize(Leaves {
            prefix,
            skip: &[],
            out: &mut *self.out,
        })
    }
}

/// A list: left out, its elements unwritten.
struct Skip;

macro_rules! skip_compound {
    ($($trait:ident $method:ident),*) => {
        $(impl ser::$trait for Skip {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, _: &T) -> Result<(), Error> {
                Ok(())
            }
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        })*
    };
}
skip_compound!(SerializeSeq serialize_element, SerializeTuple serialize_element,
    SerializeTupleStruct serialize_field, SerializeTupleVariant serialize_field);

macro_rules! object_compound {
    ($($trait:ident),*) => {
        $(impl ser::$trait for Object<'_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Error> {
                self.member(key, v)
            }
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        })*
    };
}
object_compound!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = match crate::validate::json_value(key) {
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            _ => return Err(ser::Error::custom("key must be a string")),
        };
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = core::mem::take(&mut self.key);
        self.member(&key, v)
    }
    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

impl<'a> ser::Serializer for Leaves<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Skip;
    type SerializeTuple = Skip;
    type SerializeTupleStruct = Skip;
    type SerializeTupleVariant = Skip;
    type SerializeMap = Object<'a>;
    type SerializeStruct = Object<'a>;
    type SerializeStructVariant = Object<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.push(Some(f64::from(u8::from(v))))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.number(f64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.number(f64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.number(f64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.number(v as f64)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.number(f64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.number(f64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.number(f64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.number(v as f64)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.number(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.number(v)
    }
    fn serialize_char(self, _: char) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.push(None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.push(None)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.push(None)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Error> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        let mut o = self.object();
        o.member(variant, v)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Skip, Error> {
        Ok(Skip)
    }
    fn serialize_tuple(self, _: usize) -> Result<Skip, Error> {
        Ok(Skip)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Skip, Error> {
        Ok(Skip)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Skip, Error> {
        Ok(Skip)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Object<'a>, Error> {
        Ok(self.object())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Object<'a>, Error> {
        Ok(self.object())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Object<'a>, Error> {
        Ok(self.variant(variant))
    }
}

#[cfg(test)]
mod tests {
    use super::collect;
    use crate::scenario::{self, AnyScenario};
    use serde::Serialize;
    use std::collections::BTreeMap;

    /// The leaves as the JSON text holds them: serde_json writes `v`, a visitor reads
    /// the text back (how they were found before; an independent computation).
    fn through_json<T: Serialize>(v: &T, skip: &[&str]) -> Vec<(String, Option<f64>)> {
        let mut out = Vec::new();
        let text = serde_json::to_string(v).unwrap();
        let mut de = serde_json::Deserializer::from_str(&text);
        serde::de::DeserializeSeed::deserialize(
            json_oracle::Flatten {
                prefix: String::new(),
                skip,
                out: &mut out,
            },
            &mut de,
        )
        .unwrap();
        out
    }

    fn same<T: Serialize>(v: &T, skip: &[&str]) -> usize {
        let ours = collect(v, skip);
        let theirs = through_json(v, skip);
        // NaN is no value on both sides, so plain equality holds.
        assert_eq!(ours, theirs);
        ours.len()
    }

    #[test]
    fn the_leaves_are_the_json_texts() {
        for b in scenario::bundled() {
            match scenario::parse(b.json).unwrap() {
                AnyScenario::Classic(sc) => {
                    let out = crate::classic::simulate(&sc, sc.seed).unwrap();
                    for r in &out.results {
                        assert!(same(r, &["name", "per_sec", "trip_at"]) > 5, "{}", b.id);
                    }
                }
                AnyScenario::Cluster(sc) => {
                    let r = crate::cluster::run(&sc, sc.seed).unwrap();
                    assert!(same(&r.summary, &[]) > 5, "{}", b.id);
                    for t in &r.tiers {
                        assert!(same(t, &["name"]) > 5, "{}", b.id);
                    }
                }
            }
        }
    }

    #[test]
    fn every_shape_is_read_as_its_json() {
        #[derive(Serialize)]
        enum E {
            Unit,
            New(u32),
            Tuple(u32, u32),
            Fields { a: f64, b: Option<i64> },
        }
        #[derive(Serialize)]
        #[serde(tag = "kind")]
        enum Tagged {
            One { x: u8 },
        }
        #[derive(Serialize)]
        struct Unit;
        #[derive(Serialize)]
        struct All {
            name: &'static str,
            nan: f64,
            inf: f32,
            neg: i64,
            big: u64,
            flag: bool,
            unit: (),
            unit_struct: Unit,
            list: Vec<f64>,
            es: [E; 4],
            e0: E,
            e1: E,
            e2: E,
            e3: E,
            tagged: Tagged,
            map: BTreeMap<String, Option<f64>>,
            by_number: BTreeMap<u32, f64>,
            c: char,
        }
        let all = All {
            name: "x",
            nan: f64::NAN,
            inf: f32::INFINITY,
            neg: -3,
            big: u64::MAX,
            flag: false,
            unit: (),
            unit_struct: Unit,
            list: vec![1.0],
            es: [
                E::Unit,
                E::New(1),
                E::Tuple(1, 2),
                E::Fields { a: 1.0, b: None },
            ],
            e0: E::Unit,
            e1: E::New(7),
            e2: E::Tuple(1, 2),
            e3: E::Fields {
                a: 0.5,
                b: Some(-1),
            },
            tagged: Tagged::One { x: 3 },
            map: BTreeMap::from([("k".to_string(), Some(2.0)), ("n".to_string(), None)]),
            by_number: BTreeMap::from([(4, 1.5)]),
            c: 'c',
        };
        assert_eq!(same(&all, &["name", "neg"]), 13);
        assert_eq!(same(&all.e3, &[]), 2);
        assert_eq!(same(&1.5, &[]), 1);
    }

    mod json_oracle {
        use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
        use std::fmt;

        /// Flattens one JSON value under `prefix` into `out`.
        pub struct Flatten<'a> {
            pub prefix: String,
            pub skip: &'a [&'a str],
            pub out: &'a mut Vec<(String, Option<f64>)>,
        }

        impl<'de> DeserializeSeed<'de> for Flatten<'_> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_any(self)
            }
        }

        impl Flatten<'_> {
            fn push(self, v: Option<f64>) {
                self.out.push((self.prefix, v));
            }
        }

        impl<'de> Visitor<'de> for Flatten<'_> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_u64<E>(self, v: u64) -> Result<(), E> {
                self.push(Some(v as f64));
                Ok(())
            }
            fn visit_i64<E>(self, v: i64) -> Result<(), E> {
                self.push(Some(v as f64));
                Ok(())
            }
            fn visit_f64<E>(self, v: f64) -> Result<(), E> {
                self.push(Some(v));
                Ok(())
            }
            fn visit_bool<E>(self, v: bool) -> Result<(), E> {
                self.push(Some(f64::from(u8::from(v))));
                Ok(())
            }
            fn visit_unit<E>(self) -> Result<(), E> {
                self.push(None);
                Ok(())
            }
            fn visit_str<E>(self, _: &str) -> Result<(), E> {
                Ok(())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
                while let Some(key) = map.next_key::<String>()? {
                    if self.prefix.is_empty() && self.skip.contains(&key.as_str()) {
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    }
                    let prefix = if self.prefix.is_empty() {
                        key
                    } else {
                        format!("{}.{key}", self.prefix)
                    };
                    map.next_value_seed(Flatten {
                        prefix,
                        skip: &[],
                        out: &mut *self.out,
                    })?;
                }
                Ok(())
            }
        }
    }
}
