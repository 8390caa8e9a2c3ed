//! A validation error's message in either language, and the plain-words expectations
//! the engine writes (translated once, here, for every reader).

use super::{echo, one_line, ErrorKind, ValidationError};
use crate::lang::Lang;

impl ValidationError {
    /// The message in `lang`: the sentence around the field's path, the value found and
    /// what is allowed, which stay as they are (a path is what the reader types; the
    /// allowed part is a range or the engine's own description), each on one safe line
    /// ([`one_line`]), the path and the value at most [`ECHO_MAX_CHARS`](super::ECHO_MAX_CHARS) characters
    /// ([`echo`]). English is the CLI's (and `Display`'s) wording.
    pub fn message(&self, lang: Lang) -> String {
        let (field, value) = (&echo(&self.field), &echo(&self.value));
        let allowed = &one_line(&allowed_in(&self.allowed, lang));
        let zh = lang == Lang::Zh;
        if field.is_empty() {
            return if zh {
                format!("场景无效：{allowed}")
            } else {
                format!("invalid scenario: {allowed}")
            };
        }
        match (self.kind, zh) {
            (ErrorKind::Missing, false) => format!("{field} is missing: expected {allowed}"),
            (ErrorKind::Missing, true) => format!("缺少 {field}：应为 {allowed}"),
            (ErrorKind::Unknown, false) => format!("unknown field `{field}`, expected {allowed}"),
            (ErrorKind::Unknown, true) => format!("未知字段 `{field}`，应为 {allowed}"),
            (_, false) if value.is_empty() => format!("{field}: {allowed}"),
            (_, true) if value.is_empty() => format!("{field}：{allowed}"),
            (ErrorKind::Type, false) => {
                format!("{field} = {value} is not allowed: expected {allowed}")
            }
            (ErrorKind::Type, true) => format!("{field} = {value} 不被接受：应为 {allowed}"),
            (ErrorKind::Range, false) => {
                format!("{field} = {value} is out of range: allowed {allowed}")
            }
            (ErrorKind::Range, true) => format!("{field} = {value} 超出范围：允许 {allowed}"),
        }
    }
}

/// What a type error on an unsigned integer field says is expected.
pub const EXPECT_UNSIGNED: &str = "a whole number ≥ 0";
/// What a type error on a number field says is expected.
pub const EXPECT_NUMBER: &str = "a number";
/// What a missing field says is expected.
pub(super) const EXPECT_VALUE: &str = "a value (the field is required)";
/// What a cluster load's `jitter_ms` must be with Poisson arrivals.
pub const EXPECT_NO_JITTER: &str = "0 with poisson arrivals (random already)";

/// Every plain-words expectation the engine writes itself, in English and Chinese: the
/// one list [`allowed_in`] translates from, so a new expectation is added here once.
pub const EXPECTATIONS: [(&str, &str); 9] = [
    (EXPECT_UNSIGNED, "≥ 0 的整数"),
    ("a whole number", "整数"),
    (EXPECT_NUMBER, "数字"),
    ("true or false", "true 或 false"),
    ("a string", "字符串"),
    ("a list", "列表"),
    ("an object", "对象"),
    (EXPECT_VALUE, "一个值（此字段必填）"),
    (EXPECT_NO_JITTER, "0（泊松到达本身已随机）"),
];

/// The allowed part of a message in `lang`: the engine's own expectations
/// ([`EXPECTATIONS`]) and serde's lists of names (`` `a` or `b` ``, `` one of `a`, `b` ``)
/// translated; ranges, names and anything else stay as they are.
pub fn allowed_in(allowed: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return allowed.to_string();
    }
    if let Some(&(_, zh)) = EXPECTATIONS.iter().find(|(en, _)| *en == allowed) {
        return zh.to_string();
    }
    // A type error on a number field names its range too (`a whole number ≥ 0 in 1..=10`).
    for (en, zh) in EXPECTATIONS {
        if let Some(range) = allowed
            .strip_prefix(en)
            .and_then(|r| r.strip_prefix(" in "))
        {
            return format!("{zh}（范围 {range}）");
        }
    }
    // serde's lists name the accepted values in backquotes: only the joining words change.
    if allowed.starts_with('`') || allowed.starts_with("one of `") {
        let list = allowed.strip_prefix("one of ").map(|l| (l, true));
        let (list, one_of) = list.unwrap_or((allowed, false));
        let list = list.replace("` or `", "` 或 `").replace("`, `", "`、`");
        return if one_of {
            format!("{list} 之一")
        } else {
            list
        };
    }
    allowed.to_string()
}

/// serde's expectation (`u32`, `f64`, `a boolean`, `struct Tier`) in plain words.
pub(super) fn plain_expectation(expected: &str) -> String {
    let e = expected.trim();
    let word = |i: usize| EXPECTATIONS[i].0.to_string();
    match e {
        "u8" | "u16" | "u32" | "u64" | "usize" => word(0),
        "i8" | "i16" | "i32" | "i64" | "isize" => word(1),
        "f32" | "f64" => word(2),
        "a boolean" => word(3),
        "a string" => word(4),
        "a sequence" => word(5),
        _ if e.starts_with("struct ") || e.starts_with("internally tagged enum") => word(6),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{in_range, ErrorKind};

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
    fn chinese_messages_keep_path_value_and_allowed() {
        let e = in_range("strategies[1].max_retry", 99u32, 0, 30).unwrap_err();
        assert_eq!(
            e.message(Lang::Zh),
            "strategies[1].max_retry = 99 超出范围：允许 0..=30"
        );
        assert_eq!(e.message(Lang::En), e.to_string());
        let missing =
            ValidationError::new("tiers[0].name", "", "a name").of_kind(ErrorKind::Missing);
        assert_eq!(missing.message(Lang::Zh), "缺少 tiers[0].name：应为 a name");
        let doc = ValidationError::document("expected value at line 1 column 1");
        assert_eq!(
            doc.message(Lang::Zh),
            "场景无效：expected value at line 1 column 1"
        );
    }

    #[test]
    fn type_errors_say_what_is_allowed_in_chinese() {
        // Every expectation the engine writes has a Chinese text with no English word left.
        for (en, zh) in EXPECTATIONS {
            assert_eq!(allowed_in(en, Lang::Zh), zh);
            assert_eq!(allowed_in(en, Lang::En), en);
            assert!(!zh
                .chars()
                .any(|c| c.is_ascii_lowercase() && !"truefals".contains(c)));
        }
        let e = ValidationError::new("clients", "\"x\"", EXPECT_UNSIGNED).of_kind(ErrorKind::Type);
        assert_eq!(
            e.message(Lang::Zh),
            "clients = \"x\" 不被接受：应为 ≥ 0 的整数"
        );
        assert_eq!(
            e.message(Lang::En),
            "clients = \"x\" is not allowed: expected a whole number ≥ 0"
        );
        // serde's lists keep their names; only the joining words are Chinese.
        assert_eq!(
            allowed_in("one of `none`, `full`, `equal`", Lang::Zh),
            "`none`、`full`、`equal` 之一"
        );
        assert_eq!(allowed_in("`ms` or `kind`", Lang::Zh), "`ms` 或 `kind`");
        // Ranges stay as they are, also after an expectation.
        assert_eq!(allowed_in("0..=30", Lang::Zh), "0..=30");
        assert_eq!(
            allowed_in("a whole number ≥ 0 in 1..=10000", Lang::Zh),
            "≥ 0 的整数（范围 1..=10000）"
        );
    }
}
