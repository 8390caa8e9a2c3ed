//! Just enough of Go to read retry settings as people write them in code (not a Go
//! parser): comments removed, a call's arguments split at their own commas, and the two
//! kinds of value a setting takes, a number (`2`, `1.5`, `0.2`) and a `time.Duration`
//! expression (`100 * time.Millisecond`, `2*time.Second`, `time.Duration(500) *
//! time.Millisecond`, `time.Second / 2`, `time.Minute`). Everything else a setting holds
//! (a variable, a function call) is refused by the reader with what is allowed.

use crate::validate::{echo, ErrorKind, ValidationError};

/// What a duration setting allows, for messages.
pub const DURATION: &str = "a Go duration such as 100 * time.Millisecond, 2*time.Second or time.Duration(500) * time.Millisecond";

/// The text with `//` and `/* */` comments blanked out (spaces, newlines kept, so byte
/// offsets and line numbers stay those of the file); string literals are kept.
pub fn uncommented(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            out.extend(std::iter::repeat_n(' ', end));
            i += end;
        } else if let Some(body) = rest.strip_prefix("/*") {
            let end = body.find("*/").map_or(rest.len(), |e| e + 4);
            for c in rest[..end].chars() {
                // One space per byte, so offsets stay those of the file.
                match c {
                    '\n' => out.push('\n'),
                    c => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
                }
            }
            i += end;
        } else if rest.starts_with('"') || rest.starts_with('`') {
            let q = rest.as_bytes()[0] as char;
            let mut j = 1;
            while j < rest.len() {
                let c = rest.as_bytes()[j] as char;
                if c == '\\' && q == '"' {
                    j += 2;
                    continue;
                }
                j += 1;
                if c == q || (c == '\n' && q == '"') {
                    break;
                }
            }
            let j = j.min(rest.len());
            out.push_str(&rest[..j]);
            i += j;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The 1-based line of byte offset `at`.
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// The arguments of the call whose `(` is at byte `open`: each argument's text, trimmed,
/// and the offset just past the closing `)`. `None` if it is not closed.
pub fn args(text: &str, open: usize) -> Option<(Vec<String>, usize)> {
    let mut depth = 0usize;
    let mut start = open + 1;
    let mut out = Vec::new();
    for (i, c) in text[open..].char_indices() {
        let at = open + i;
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let last = text[start..at].trim();
                    if !last.is_empty() || !out.is_empty() {
                        out.push(last.to_string());
                    }
                    return Some((out, at + 1));
                }
            }
            ',' if depth == 1 => {
                out.push(text[start..at].trim().to_string());
                start = at + 1;
            }
            _ => {}
        }
    }
    None
}

/// Every place `name(` is called in `text` (not as the end of a longer name), with
/// its arguments, the offset of its name and the offset just past its `)`.
pub fn calls<'a>(
    text: &'a str,
    name: &'a str,
) -> impl Iterator<Item = (usize, Vec<String>, usize)> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || loop {
        let i = text[from..].find(name)? + from;
        from = i + name.len();
        let before = text[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        // Type arguments of a generic call (`NewBuilder[any](`) are skipped.
        let mut j = i + name.len();
        if text[j..].starts_with('[') {
            let close = text[j..].find(']')?;
            j += close + 1;
        }
        if !text[j..].starts_with('(') {
            continue;
        }
        if let Some((a, end)) = args(text, j) {
            return Some((i, a, end));
        }
    })
}

/// One method call of a builder chain: its name, its arguments and its offset.
pub struct Link {
    /// The method (`WithMaxRetries`).
    pub name: String,
    /// Its arguments, as written.
    pub args: Vec<String>,
    /// The byte offset of its name.
    pub at: usize,
}

/// The method calls chained after the call that ends at byte `end`
/// (`.WithMaxRetries(3).\n WithDelay(time.Second).Build()`), through `Build()` or the
/// first thing that is not a `.Method(…)`.
pub fn chain(code: &str, mut end: usize) -> Vec<Link> {
    let mut out = Vec::new();
    loop {
        let rest = &code[end..];
        let t = rest.trim_start();
        let Some(after_dot) = t.strip_prefix('.') else {
            return out;
        };
        let lead = after_dot.len() - after_dot.trim_start().len();
        let name_at = code.len() - after_dot.len() + lead;
        let name_len = code[name_at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(code.len() - name_at);
        let open = name_at + name_len;
        if name_len == 0 || !code[open..].starts_with('(') {
            return out;
        }
        let Some((a, close)) = args(code, open) else {
            return out;
        };
        let name = code[name_at..open].to_string();
        let build = name == "Build";
        out.push(Link {
            name,
            args: a,
            at: name_at,
        });
        end = close;
        if build {
            return out;
        }
    }
}

/// A number (`2`, `1.5`, `.2`, `1e-3`, `1_000`) at `at`.
pub fn number(v: &str, at: &str) -> Result<f64, ValidationError> {
    let t = v.trim();
    let t = t
        .strip_prefix("float64(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(t);
    t.replace('_', "")
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| ValidationError::new(at, echo(v), "a number").of_kind(ErrorKind::Type))
}

/// A whole number ≥ `min` at `at`.
pub fn whole(v: &str, at: &str, min: i64) -> Result<i64, ValidationError> {
    let t = v.trim().replace('_', "");
    t.parse::<i64>().ok().filter(|n| *n >= min).ok_or_else(|| {
        ValidationError::new(at, echo(v), format!("a whole number ≥ {min}"))
            .of_kind(ErrorKind::Type)
    })
}

/// A `time.Duration` expression at `at`, in nanoseconds: a product or quotient of
/// numbers, `time.Duration(N)` and the `time` unit constants, with at least one unit.
pub fn duration_ns(v: &str, at: &str) -> Result<f64, ValidationError> {
    let bad = || ValidationError::new(at, echo(v), DURATION).of_kind(ErrorKind::Type);
    let mut value: Option<f64> = None;
    let mut unit = false;
    let mut op = '*';
    let mut rest = v.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    loop {
        let rest_t = rest.trim_start();
        // One factor: a parenthesised duration, time.Duration(N), a unit or a number.
        let (x, len, is_unit) = if let Some(inner) = rest_t.strip_prefix("time.Duration(") {
            let close = inner.find(')').ok_or_else(bad)?;
            let n = number(&inner[..close], at).map_err(|_| bad())?;
            (n, "time.Duration(".len() + close + 1, false)
        } else if rest_t.starts_with('(') {
            let (a, end) = args(rest_t, 0).ok_or_else(bad)?;
            let [inner] = a.as_slice() else {
                return Err(bad());
            };
            (duration_ns(inner, at).map_err(|_| bad())?, end, true)
        } else if let Some(u) = rest_t.strip_prefix("time.") {
            let len = u
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(u.len());
            let ns = match &u[..len] {
                "Nanosecond" => 1.0,
                "Microsecond" => 1e3,
                "Millisecond" => 1e6,
                "Second" => 1e9,
                "Minute" => 60e9,
                "Hour" => 3600e9,
                _ => return Err(bad()),
            };
            (ns, 5 + len, true)
        } else {
            let len = rest_t
                .find(|c: char| !(c.is_ascii_digit() || "._eE".contains(c)))
                .unwrap_or(rest_t.len());
            if len == 0 {
                return Err(bad());
            }
            (number(&rest_t[..len], at).map_err(|_| bad())?, len, false)
        };
        unit |= is_unit;
        value = Some(match (value, op) {
            (None, _) => x,
            (Some(a), '*') => a * x,
            (Some(a), _) if x != 0.0 => a / x,
            _ => return Err(bad()),
        });
        rest = rest_t[len..].trim_start();
        match rest.chars().next() {
            None => break,
            Some(c @ ('*' | '/')) => {
                op = c;
                rest = &rest[1..];
            }
            Some(_) => return Err(bad()),
        }
    }
    match value {
        // Go's integer durations: what a product or quotient yields is whole ns. A bare
        // number is nanoseconds to Go, surely not what was meant, except 0.
        Some(ns) if (unit || ns == 0.0) && ns >= 0.0 && ns.is_finite() => Ok(ns.trunc()),
        _ => Err(bad()),
    }
}

/// `ms` written as a Go duration that reads back to the same whole nanoseconds:
/// `time.Minute`, `2 * time.Second`, `150 * time.Millisecond`, `1500 * time.Microsecond`.
pub fn write_duration(ms: f64) -> String {
    // Rounded: 8317.121 ms is 8317120999.999999 ns in floats, meant as 8317121000.
    let ns = (ms * 1e6).round().max(0.0) as u64;
    let units: [(u64, &str); 6] = [
        (3_600_000_000_000, "time.Hour"),
        (60_000_000_000, "time.Minute"),
        (1_000_000_000, "time.Second"),
        (1_000_000, "time.Millisecond"),
        (1_000, "time.Microsecond"),
        (1, "time.Nanosecond"),
    ];
    for (size, name) in units {
        if ns > 0 && ns % size == 0 {
            let n = ns / size;
            return if n == 1 {
                name.to_string()
            } else {
                format!("{n} * {name}")
            };
        }
    }
    "0 * time.Millisecond".to_string()
}

/// The lines of `text` that hold code (not blank, not only comment) and are not among
/// `read`, as compact ranges (`3, 7–9`), for the note that they were not read.
pub fn unread_lines(code: &str, read: &[usize]) -> Option<String> {
    let mut lines: Vec<usize> = code
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !matches!(t, "{" | "}" | ")" | "})" | "}," | "),")
        })
        .map(|(i, _)| i + 1)
        .filter(|n| !read.contains(n))
        .collect();
    lines.dedup();
    if lines.is_empty() {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            lines[i].to_string()
        } else {
            format!("{}–{}", lines[i], lines[j])
        });
        i = j + 1;
    }
    Some(out.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_as_go_code_writes_them() {
        let d = |s: &str| duration_ns(s, "x").unwrap();
        assert_eq!(d("100 * time.Millisecond"), 100e6);
        assert_eq!(d("2*time.Second"), 2e9);
        assert_eq!(d("time.Duration(500) * time.Millisecond"), 500e6);
        assert_eq!(d("time.Second / 2"), 500e6);
        assert_eq!(d("time.Minute"), 60e9);
        assert_eq!(d("(3 * time.Second)"), 3e9);
        assert_eq!(d("0"), 0.0);
        for bad in [
            "100",
            "timeout",
            "100 * time.Fortnight",
            "time.Second + 1",
            "",
        ] {
            let e = duration_ns(bad, "b.MaxInterval").unwrap_err();
            assert_eq!(e.field, "b.MaxInterval");
            assert!(e.allowed.contains("time.Millisecond"), "{bad}: {e}");
        }
        for ms in [
            0.0,
            1.0,
            150.0,
            1.5,
            2000.0,
            60_000.0,
            0.000_001,
            7_200_000.0,
        ] {
            assert_eq!(d(&write_duration(ms)), (ms * 1e6).round(), "{ms}");
        }
    }

    #[test]
    fn comments_are_blanked_and_calls_split_at_their_own_commas() {
        let t = "a := f(1, g(2, 3)) // f(9)\n/* f(8) */ b := f[any](x)";
        let code = uncommented(t);
        assert_eq!(code.len(), t.len());
        let got: Vec<_> = calls(&code, "f").map(|(_, a, _)| a).collect();
        assert_eq!(
            got,
            vec![
                vec!["1".to_string(), "g(2, 3)".to_string()],
                vec!["x".to_string()]
            ]
        );
        assert_eq!(line_of(&code, code.find("b :=").unwrap()), 2);
        assert_eq!(unread_lines(&code, &[1]), Some("2".to_string()));
    }
}
