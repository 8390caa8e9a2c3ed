//! Parameter paths: which numeric field of a scenario a sweep varies, written as in
//! every validation message (`capacity`, `outage.to_s`, `strategies[5].breaker_trip_failures`,
//! `tiers[0].client.max_attempts`, `faults[1].duration_ms`), with `[*]` for every element
//! of a list (`strategies[*].budget_pct`).
//!
//! A value is written into the scenario's JSON document and the document is parsed and
//! validated again, so a swept value gets exactly the checks and messages a hand-edited
//! scenario gets.

use serde_json::{Number, Value};

/// One step of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An object's field.
    Key(String),
    /// A list's element.
    Index(usize),
    /// Every element of a list.
    All,
}

/// Splits `a.b[3].c[*]` into steps; `None` when it is not a path.
pub fn parse(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = path;
    let mut first = true;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']')?;
            let inner = &r[..close];
            steps.push(if inner == "*" {
                Step::All
            } else {
                Step::Index(inner.parse().ok()?)
            });
            rest = &r[close + 1..];
        } else {
            let r = if first { rest } else { rest.strip_prefix('.')? };
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let key = &r[..end];
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return None;
            }
            steps.push(Step::Key(key.to_string()));
            rest = &r[end..];
        }
        first = false;
    }
    (!steps.is_empty()).then_some(steps)
}

/// True when the field at `steps` (every match of a `[*]`) holds an integer, so swept
/// values are rounded for it; false when it holds a fraction or is absent.
pub fn holds_integer(doc: &Value, steps: &[Step]) -> bool {
    let mut found = Vec::new();
    collect(doc, steps, &mut found);
    !found.is_empty() && found.iter().all(|v| v.is_i64() || v.is_u64())
}

fn collect<'a>(v: &'a Value, steps: &[Step], out: &mut Vec<&'a Value>) {
    match steps.split_first() {
        None => out.push(v),
        Some((Step::Key(k), rest)) => {
            if let Some(x) = v.get(k) {
                collect(x, rest, out);
            }
        }
        Some((Step::Index(i), rest)) => {
            if let Some(x) = v.get(*i) {
                collect(x, rest, out);
            }
        }
        Some((Step::All, rest)) => {
            if let Value::Array(a) = v {
                for x in a {
                    collect(x, rest, out);
                }
            }
        }
    }
}

/// Writes `value` at `steps` in `doc` (at every element for `[*]`). The last field may
/// be absent (an optional field such as a per-strategy override is then set); every
/// step before it must exist. Errors say what is missing or not a number.
pub fn set(doc: &mut Value, steps: &[Step], value: f64) -> Result<(), String> {
    let number = if value.fract() == 0.0 && value.abs() < 9.0e15 {
        Value::Number(Number::from(value as i64))
    } else {
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| format!("{value} is not a finite number"))?
    };
    set_value(doc, steps, &number, "")
}

fn set_value(doc: &mut Value, steps: &[Step], number: &Value, at: &str) -> Result<(), String> {
    let Some((step, rest)) = steps.split_first() else {
        return match doc {
            Value::Number(_) | Value::Null => {
                *doc = number.clone();
                Ok(())
            }
            _ => Err(format!("`{at}` is not a number in this scenario")),
        };
    };
    match step {
        Step::Key(k) => {
            let here = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            let Value::Object(map) = doc else {
                return Err(format!("`{at}` has no fields"));
            };
            if rest.is_empty() && !map.contains_key(k) {
                map.insert(k.clone(), Value::Null);
            }
            let next = map
                .get_mut(k)
                .ok_or_else(|| format!("`{here}` is not in this scenario"))?;
            set_value(next, rest, number, &here)
        }
        Step::Index(i) => {
            let here = format!("{at}[{i}]");
            let Value::Array(list) = doc else {
                return Err(format!("`{at}` is not a list"));
            };
            let len = list.len();
            let next = list
                .get_mut(*i)
                .ok_or_else(|| format!("`{here}` is not in this scenario ({len} elements)"))?;
            set_value(next, rest, number, &here)
        }
        Step::All => {
            let Value::Array(list) = doc else {
                return Err(format!("`{at}` is not a list"));
            };
            if list.is_empty() {
                return Err(format!("`{at}` is empty"));
            }
            for (i, x) in list.iter_mut().enumerate() {
                set_value(x, rest, number, &format!("{at}[{i}]"))?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_paths() {
        assert_eq!(
            parse("strategies[5].breaker_trip_failures").unwrap(),
            vec![
                Step::Key("strategies".into()),
                Step::Index(5),
                Step::Key("breaker_trip_failures".into())
            ]
        );
        assert_eq!(parse("strategies[*].budget_pct").unwrap()[1], Step::All);
        for bad in ["", ".a", "a..b", "a[", "a[x]", "a b", "a[1]b"] {
            assert!(parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn sets_existing_absent_and_every_element() {
        let mut doc = json!({"capacity": 240, "outage": {"to_s": 26}, "strategies": [{"budget_pct": 100}, {"budget_pct": 20}]});
        set(&mut doc, &parse("capacity").unwrap(), 300.0).unwrap();
        set(&mut doc, &parse("outage.to_s").unwrap(), 30.0).unwrap();
        set(&mut doc, &parse("strategies[*].budget_pct").unwrap(), 50.0).unwrap();
        set(
            &mut doc,
            &parse("strategies[1].breaker_open_s").unwrap(),
            2.5,
        )
        .unwrap();
        assert_eq!(
            doc,
            json!({"capacity": 300, "outage": {"to_s": 30}, "strategies": [{"budget_pct": 50}, {"budget_pct": 50, "breaker_open_s": 2.5}]})
        );
        assert!(holds_integer(
            &doc,
            &parse("strategies[*].budget_pct").unwrap()
        ));
        assert!(!holds_integer(
            &doc,
            &parse("strategies[1].breaker_open_s").unwrap()
        ));
        let err = set(&mut doc, &parse("strategies[7].budget_pct").unwrap(), 1.0).unwrap_err();
        assert!(err.contains("strategies[7]"), "{err}");
        let err = set(&mut doc, &parse("outage").unwrap(), 1.0).unwrap_err();
        assert!(err.contains("not a number"), "{err}");
        let err = set(&mut doc, &parse("nope.x").unwrap(), 1.0).unwrap_err();
        assert!(err.contains("`nope`"), "{err}");
    }
}
