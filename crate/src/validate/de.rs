//! The one reader of typed documents from a JSON value: a serde `Deserializer` over
//! `&serde_json::Value` that remembers the path of the first error (`tiers[1].client`).
//!
//! Why hand-written: every document type is then compiled once for reading, instead of
//! once per way it was read (serde_json's value deserializers, owned and borrowed, and
//! `serde_path_to_error`'s wrapper around them); in the wasm that was about a quarter of
//! the module. It behaves as serde_json's `&Value` deserializer does (the same visitor
//! calls, so the same error texts) and records the path as `serde_path_to_error` did.

use core::cell::RefCell;
use serde::de::{self, value::BorrowedStrDeserializer, DeserializeSeed, Unexpected, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Value};

/// One step of a path: an index in a list or a key in an object (or an enum's variant).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// `[i]`
    Index(usize),
    /// `.key`
    Key(String),
}

/// Where a reader is, as a list linked through the stack (nothing is allocated until an
/// error needs the path).
#[derive(Clone, Copy)]
enum Chain<'c> {
    Root,
    Index(&'c Chain<'c>, usize),
    Key(&'c Chain<'c>, &'c str),
}

impl Chain<'_> {
    fn push_to(&self, out: &mut Vec<Seg>) {
        match *self {
            Chain::Root => {}
            Chain::Index(parent, i) => {
                parent.push_to(out);
                out.push(Seg::Index(i));
            }
            Chain::Key(parent, k) => {
                parent.push_to(out);
                out.push(Seg::Key(k.to_string()));
            }
        }
    }
}

/// The path of the first (innermost) error; outer readers see it already set.
#[derive(Default)]
struct Track(RefCell<Option<Vec<Seg>>>);

impl Track {
    /// Marks `at` as the error's place when `r` failed and no nested reader marked one.
    fn on<T>(&self, at: &Chain, r: Result<T, Error>) -> Result<T, Error> {
        if let Err(e) = &r {
            self.mark(at, e);
        }
        r
    }

    /// The path of the error found, if any.
    fn path(self) -> Vec<Seg> {
        self.0.into_inner().unwrap_or_default()
    }

    /// Marks `at`, and below it the path [`below`] kept for `e`, if any.
    #[cold]
    fn mark(&self, at: &Chain, e: &Error) {
        let mut path = self.0.borrow_mut();
        if path.is_none() {
            let mut out = Vec::new();
            at.push_to(&mut out);
            out.extend(take_below(e));
            *path = Some(out);
        }
    }
}

std::thread_local! {
    /// The error a value's own reader last found below that value, after reading it
    /// whole into a `Value` (an internally tagged kind's fields, a sweep metric's), and
    /// the path below the value where it arose. Why: that reader reads the buffered
    /// value with a reader of its own, whose path the enclosing reader cannot see; the
    /// error's text ties the path to the one error it belongs to.
    static BELOW: RefCell<Option<(String, Vec<Seg>)>> = const { RefCell::new(None) };
}

/// `e`, found at `path` below a value its reader has read whole, as that reader's error;
/// the reader of the enclosing document names `path` below the value's own.
#[cold]
pub fn below<E: de::Error>(path: Vec<Seg>, e: &Error) -> E {
    let text = e.to_string();
    let out = E::custom(&text);
    BELOW.with(|b| *b.borrow_mut() = Some((text, path)));
    out
}

/// The path [`below`] kept for `e` (empty for any other error); it is kept no longer.
fn take_below(e: &Error) -> Vec<Seg> {
    match BELOW.with(|b| b.borrow_mut().take()) {
        Some((text, path)) if text == e.to_string() => path,
        _ => Vec::new(),
    }
}

/// Reads a `T` from `value`; on failure, serde_json's error and the path where it arose.
pub fn read<'de, T: de::Deserialize<'de>>(value: &'de Value) -> Result<T, (Vec<Seg>, Error)> {
    let track = Track::default();
    let de = De {
        v: value,
        at: &Chain::Root,
        track: &track,
    };
    T::deserialize(de).map_err(|e| (track.path(), e))
}

/// The deserializer of one value at one place in the document.
struct De<'de, 'c> {
    v: &'de Value,
    at: &'c Chain<'c>,
    track: &'c Track,
}

/// Reads the externally tagged enum `R` as variant `name` with the fields `rest`: the
/// variant of an internally tagged enum once its tag is taken out (see
/// [`super::kind_tagged`]).
pub fn read_variant<'de, R: de::Deserialize<'de>>(
    name: &'de str,
    rest: &'de Value,
) -> Result<R, Error> {
    let track = Track::default();
    R::deserialize(Tagged {
        name,
        rest,
        track: &track,
    })
    .map_err(|e| below(track.path(), &e))
}

/// The deserializer of [`read_variant`]: an enum only.
struct Tagged<'de, 'c> {
    name: &'de str,
    rest: &'de Value,
    track: &'c Track,
}

impl<'de> de::Deserializer<'de> for Tagged<'de, '_> {
    type Error = Error;

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(Variant {
            name: self.name,
            value: Some(self.rest),
            at: &Chain::Root,
            track: self.track,
            tagged: true,
        })
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::custom("expected an enum"))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        struct identifier ignored_any
    }
}

/// serde_json's description of a value in a type error (`string "x"`, `integer `-1``).
pub fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

impl<'de> De<'de, '_> {
    fn seq<V: Visitor<'de>>(&self, list: &'de [Value], visitor: V) -> Result<V::Value, Error> {
        let mut access = Seq {
            it: list.iter(),
            i: 0,
            at: self.at,
            track: self.track,
        };
        let out = visitor.visit_seq(&mut access)?;
        access.end(list.len())?;
        Ok(out)
    }

    fn map<V: Visitor<'de>>(
        &self,
        map: &'de Map<String, Value>,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let mut access = Fields {
            it: map.iter(),
            next: None,
            at: self.at,
            track: self.track,
        };
        let out = visitor.visit_map(&mut access)?;
        access.end(map.len())?;
        Ok(out)
    }
}

impl<'de> de::Deserializer<'de> for De<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(list) => self.seq(list, visitor),
            Value::Object(map) => self.map(map, visitor),
        };
        self.track.on(self.at, r)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let (at, track) = (self.at, self.track);
        let r = match self.v {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        };
        track.on(at, r)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let (at, track) = (self.at, self.track);
        let r = visitor.visit_newtype_struct(self);
        track.on(at, r)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let r = variant_of(self.v).and_then(|(name, value)| {
            visitor.visit_enum(Variant {
                name,
                value,
                at: self.at,
                track: self.track,
                tagged: false,
            })
        });
        self.track.on(self.at, r)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    // Each typed read calls the one visitor method its type accepts (as serde_json's
    // does): through `deserialize_any` every visitor would be compiled with all six.
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match self.v {
            Value::Bool(b) => visitor.visit_bool(*b),
            other => Err(wrong_type(other, &visitor)),
        };
        self.track.on(self.at, r)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Number(_) => self.deserialize_any(visitor),
            other => self.track.on(self.at, Err(wrong_type(other, &visitor))),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match self.v {
            Value::String(s) => visitor.visit_borrowed_str(s),
            other => Err(wrong_type(other, &visitor)),
        };
        self.track.on(self.at, r)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match self.v {
            Value::Null => visitor.visit_unit(),
            other => Err(wrong_type(other, &visitor)),
        };
        self.track.on(self.at, r)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match self.v {
            Value::Array(list) => self.seq(list, visitor),
            other => Err(wrong_type(other, &visitor)),
        };
        self.track.on(self.at, r)
    }

    /// An object only: serde_json also reads a struct from a list of its fields in
    /// order, a form no document of ours uses, which would compile every struct's
    /// reader twice.
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let r = match self.v {
            Value::Object(map) => self.map(map, visitor),
            other => Err(wrong_type(other, &visitor)),
        };
        self.track.on(self.at, r)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 bytes byte_buf
    }
}

/// serde_json's type error: the value found, and what the visitor expects.
#[cold]
fn wrong_type(v: &Value, expected: &dyn de::Expected) -> Error {
    de::Error::invalid_type(unexpected(v), expected)
}

/// An externally tagged enum's variant name and value (none when written as a string),
/// or serde_json's error for any other form. Not generic: one copy for every enum.
fn variant_of(v: &Value) -> Result<(&str, Option<&Value>), Error> {
    match v {
        Value::String(name) => Ok((name, None)),
        Value::Object(map) if map.len() == 1 => {
            let (name, value) = map.iter().next().expect("one key");
            Ok((name, Some(value)))
        }
        Value::Object(_) => Err(de::Error::invalid_value(
            Unexpected::Map,
            &"map with a single key",
        )),
        other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
    }
}

/// Reads `v` at `at`. An error of the type's own code after its read (an internally
/// tagged enum reads its variant from the value it read) is an error at this place too.
fn read_at<'de, T: DeserializeSeed<'de>>(
    seed: T,
    v: &'de Value,
    at: &Chain,
    track: &Track,
) -> Result<T::Value, Error> {
    let r = seed.deserialize(De { v, at, track });
    track.on(at, r)
}

/// The elements of a list, each read at `[i]`.
struct Seq<'de, 'c> {
    it: core::slice::Iter<'de, Value>,
    i: usize,
    at: &'c Chain<'c>,
    track: &'c Track,
}

impl Seq<'_, '_> {
    /// After the visitor: every element must have been read.
    fn end(&self, len: usize) -> Result<(), Error> {
        if self.it.len() == 0 {
            Ok(())
        } else {
            Err(de::Error::invalid_length(len, &"fewer elements in array"))
        }
    }
}

impl<'de> de::SeqAccess<'de> for Seq<'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(v) = self.it.next() else {
            return Ok(None);
        };
        let at = Chain::Index(self.at, self.i);
        self.i += 1;
        read_at(seed, v, &at, self.track).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.it.len())
    }
}

/// The members of an object, each read at its key.
struct Fields<'de, 'c> {
    it: serde_json::map::Iter<'de>,
    next: Option<(&'de str, &'de Value)>,
    at: &'c Chain<'c>,
    track: &'c Track,
}

// The generic methods (one copy per struct for the keys, per field type for the
// values) only call the reader; the rest is here once.
impl<'de> Fields<'de, '_> {
    /// The next member, kept for its value; its key.
    fn advance(&mut self) -> Option<&'de str> {
        let (k, v) = self.it.next()?;
        self.next = Some((k, v));
        Some(k)
    }

    /// The member whose key was read last.
    fn take(&mut self) -> Result<(&'de str, &'de Value), Error> {
        self.next
            .take()
            .ok_or_else(|| de::Error::custom("value is missing"))
    }

    /// After the visitor: every member must have been read.
    fn end(&self, len: usize) -> Result<(), Error> {
        if self.it.len() == 0 {
            Ok(())
        } else {
            Err(de::Error::invalid_length(len, &"fewer elements in map"))
        }
    }
}

impl<'de> de::MapAccess<'de> for Fields<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(k) = self.advance() else {
            return Ok(None);
        };
        let r = seed.deserialize(BorrowedStrDeserializer::new(k)).map(Some);
        // An unknown field is an error of the key: its path names the key.
        self.track.on(&Chain::Key(self.at, k), r)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (k, v) = self.take()?;
        read_at(seed, v, &Chain::Key(self.at, k), self.track)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.it.len())
    }
}

/// An externally tagged enum: its variant's name and, unless a unit variant written as a
/// string, its value (read at the variant's name).
struct Variant<'de, 'c> {
    name: &'de str,
    value: Option<&'de Value>,
    at: &'c Chain<'c>,
    track: &'c Track,
    /// An internally tagged enum's variant ([`read_variant`]): its fields are the
    /// object's own (their paths have no variant name), and a unit variant ignores them
    /// (as serde's derived reader of that form does).
    tagged: bool,
}

impl<'de, 'c> de::EnumAccess<'de> for Variant<'de, 'c> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let v = seed.deserialize(BorrowedStrDeserializer::new(self.name))?;
        Ok((v, self))
    }
}

impl<'de> Variant<'de, '_> {
    /// Reads the variant's value with `f`, at the variant's name; `what` names the
    /// variant's kind for the error when there is no value.
    fn with<R>(
        self,
        what: &'static str,
        f: impl FnOnce(De<'de, '_>) -> Result<R, Error>,
    ) -> Result<R, Error> {
        let key = Chain::Key(self.at, self.name);
        let at = if self.tagged { self.at } else { &key };
        let r = match self.value {
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &what)),
            Some(v) => f(De {
                v,
                at,
                track: self.track,
            }),
        };
        self.track.on(at, r)
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            None => Ok(()),
            Some(_) if self.tagged => Ok(()),
            Some(_) => self.with("unit variant", |d| de::Deserialize::deserialize(d)),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        self.with("newtype variant", |d| seed.deserialize(d))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.with("tuple variant", |d| match d.v {
            Value::Array(list) if list.is_empty() => visitor.visit_unit(),
            Value::Array(list) => d.seq(list, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &"tuple variant")),
        })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.with("struct variant", |d| match d.v {
            Value::Object(map) => d.map(map, visitor),
            other => Err(de::Error::invalid_type(
                unexpected(other),
                &"struct variant",
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::scenario::{Balancer, Client, Tier};
    use serde::de::DeserializeOwned;
    use serde_json::json;

    /// Reads `v` both ways: this reader and serde_json's own must agree on the value or
    /// on the error's text.
    fn same<T: DeserializeOwned + PartialEq + core::fmt::Debug>(v: Value) -> Vec<Seg> {
        let ours = read::<T>(&v);
        let theirs = serde_json::from_value::<T>(v);
        match (ours, theirs) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b);
                Vec::new()
            }
            (Err((path, a)), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string());
                path
            }
            (a, b) => panic!("{a:?} / {b:?}"),
        }
    }

    #[test]
    fn reads_and_fails_as_serde_json_does() {
        let k = |s: &str| Seg::Key(s.to_string());
        let tier = json!({"name": "api", "instances": 2, "concurrency": 4, "queue_capacity": 10,
            "service": {"kind": "constant", "ms": 5}, "balancer": "random"});
        assert!(same::<Tier>(tier.clone()).is_empty());
        let mut bad = tier.clone();
        bad["instances"] = json!(-1);
        assert_eq!(same::<Tier>(bad), [k("instances")]);
        let mut bad = tier.clone();
        bad["balancer"] = json!("nearest");
        assert_eq!(same::<Tier>(bad), [k("balancer")]);
        let mut bad = tier.clone();
        bad["typo"] = json!(1);
        assert_eq!(same::<Tier>(bad), [k("typo")]);
        let mut bad = tier.clone();
        bad.as_object_mut().unwrap().remove("concurrency");
        assert_eq!(same::<Tier>(bad), []);
        // Inside an internally tagged kind the path reaches the kind's own field.
        let mut bad = tier.clone();
        bad["service"]["ms"] = json!("5");
        assert_eq!(same::<Tier>(bad), [k("service"), k("ms")]);
        let client = json!({"timeout_ms": 100, "retry_on": ["timeout", "overload"]});
        assert!(same::<Client>(client.clone()).is_empty());
        let mut bad = client;
        bad["retry_on"][1] = json!(3);
        assert_eq!(same::<Client>(bad), [k("retry_on"), Seg::Index(1)]);
        for v in [
            json!(null),
            json!(true),
            json!(1.5),
            json!("x"),
            json!([1]),
            json!({}),
        ] {
            same::<Balancer>(v.clone());
            same::<Option<u32>>(v.clone());
            same::<f64>(v.clone());
            same::<String>(v.clone());
            same::<Vec<u64>>(v);
        }
    }

    #[test]
    fn a_struct_is_an_object_only() {
        // serde_json would read `[5]` as `{"ms": 5}`; documents never use that form.
        let e = read::<Client>(&json!([100])).unwrap_err();
        assert_eq!(
            e.1.to_string(),
            "invalid type: sequence, expected struct Client"
        );
    }
}

#[cfg(test)]
mod tagged_tests {
    use crate::cluster::scenario::{Budget, Client};
    use crate::validate::from_value;
    use serde_json::json;

    #[test]
    fn internally_tagged_kinds_read_and_name_their_fields() {
        let b = json!({"kind": "token_bucket", "percent": 10, "max_tokens": 3});
        let budget: Budget = from_value(&b).unwrap();
        assert_eq!(
            serde_json::to_value(&budget).unwrap()["kind"],
            "token_bucket"
        );
        // Any deserializer reads the tagged form (serde_json's text reader here).
        let text: Budget = serde_json::from_str(&b.to_string()).unwrap();
        assert_eq!(text, budget);
        let err = |budget| {
            let e = from_value::<Client>(&json!({"timeout_ms": 5, "budget": budget})).unwrap_err();
            (e.field.clone(), e.to_string())
        };
        let (field, msg) = err(json!({"kind": "tokens"}));
        assert_eq!(field, "budget.kind");
        assert!(msg.ends_with("expected one of `none`, `capacity_percent`, `token_bucket`, `grpc_throttle`, `windowed`, `ratio`, `success_bucket`, `aws_quota`, `envoy_retry_budget`, `envoy_max_retries`"), "{msg}");
        let (field, _) = err(json!({"kind": 3}));
        assert_eq!(field, "budget.kind");
        let (field, _) = err(json!({"percent": 3}));
        assert_eq!(field, "budget.kind");
        let (field, msg) =
            err(json!({"kind": "token_bucket", "percent": 1, "max_tokens": 2, "scope": "all"}));
        assert_eq!(field, "budget.scope");
        assert!(
            msg.ends_with("expected `per_instance` or `shared`"),
            "{msg}"
        );
        let (field, _) =
            err(json!({"kind": "token_bucket", "percent": 1, "max_tokens": 2, "x": 1}));
        assert_eq!(field, "budget.x");
        // A unit kind ignores the fields beside its tag, as serde's derived reader does.
        assert_eq!(
            from_value::<Budget>(&json!({"kind": "none", "percent": 1})).unwrap(),
            Budget::None
        );
    }
}
