//! The field path at a place in JSON text: where serde_json's reader of the text stopped
//! (nested too deep, a number beyond the float range, a bad escape, text cut short), so
//! that error names its field as the typed reader's errors do.

use super::de::Seg;

/// A container open at the place, as the scan found it.
enum Frame {
    /// An object, with the key of the member being read (`None`: between members).
    Object(Option<String>),
    /// A list, with the index of the element being read.
    Array(usize),
}

/// The path of the value being read at byte `offset` of `text`: each open object's
/// current key and each open list's current index. A lenient scan (the text is not
/// valid JSON where it stops): strings are skipped escape by escape, and a key is only
/// taken once its string is closed.
pub fn path_at(text: &str, offset: usize) -> Vec<Seg> {
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    // Whether the innermost object is between a key and its value's end.
    let mut in_value = false;
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < end && bytes[i] != b'"' {
                    // serde_json reads four hex digits after `\u`, a quote among them too.
                    i += match (bytes[i], bytes.get(i + 1)) {
                        (b'\\', Some(b'u')) => 6,
                        (b'\\', _) => 2,
                        _ => 1,
                    };
                }
                let closed = i < end;
                if let (true, false, Some(Frame::Object(key))) =
                    (closed, in_value, stack.last_mut())
                {
                    // Both ends are quotes, so char boundaries; the reader of values
                    // (compiled anyway) unescapes it.
                    let raw = text.get(start..=i).unwrap_or_default();
                    *key = Some(match serde_json::from_str(raw) {
                        Ok(serde_json::Value::String(k)) => k,
                        _ => raw.trim_matches('"').to_string(),
                    });
                }
            }
            b'{' => {
                stack.push(Frame::Object(None));
                in_value = false;
            }
            b'[' => {
                stack.push(Frame::Array(0));
            }
            b'}' | b']' => {
                stack.pop();
                // The container closed was the value of its parent's member.
                in_value = matches!(stack.last(), Some(Frame::Object(_)));
            }
            b':' => in_value = true,
            b',' => match stack.last_mut() {
                Some(Frame::Array(index)) => *index += 1,
                Some(Frame::Object(key)) => {
                    *key = None;
                    in_value = false;
                }
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    stack
        .into_iter()
        .filter_map(|f| match f {
            Frame::Object(key) => key.map(Seg::Key),
            Frame::Array(index) => Some(Seg::Index(index)),
        })
        .collect()
}

/// The byte offset of serde_json's (1-based) line and column in `text`.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> Vec<Seg> {
        path_at(text, text.len())
    }

    #[test]
    fn names_keys_and_indices_open_at_the_place() {
        let k = |s: &str| Seg::Key(s.to_string());
        assert_eq!(
            path(r#"{"a": [1, {"b": 1e4"#),
            [k("a"), Seg::Index(1), k("b")]
        );
        assert_eq!(path(r#"{"a": {"x": 1}, "b": "\u"#), [k("b")]);
        // A bad `\u` escape swallows the quote after it.
        assert_eq!(path(r#"{"a": {"b": "\uZZ"}"#), [k("a"), k("b")]);
        // Inside an unclosed key, the place is the object.
        assert_eq!(path(r#"{"a": {"b\u"#), [k("a")]);
        // Escaped quotes and brackets inside strings are text.
        assert_eq!(path(r#"{"a\"[": ["]", "#), [k("a\"["), Seg::Index(1)]);
        assert_eq!(path("[[[["), vec![Seg::Index(0); 4]);
        assert_eq!(path(""), []);
    }

    #[test]
    fn offsets_count_lines_and_columns() {
        assert_eq!(offset_of("ab\ncd", 2, 1), 4);
        assert_eq!(offset_of("ab", 1, 9), 2);
    }
}
