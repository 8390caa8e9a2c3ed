//! A validation error in a reader's words: the field's label and what it may hold ("Max
//! retry must be between 0 and 30"), for the page to show at the field. Why a second
//! form: [`ValidationError::message`] is for the CLI and the JS `Error`, and keeps the
//! field's path, the value and the range the reader of a scenario file needs.

use super::messages::{allowed_in, EXPECTATIONS};
use super::{echo, one_line, ErrorKind, ValidationError};
use crate::lang::Lang;

/// What a refused share link says, whatever is wrong in it (cut short, damaged, or a
/// scenario in it that no longer validates): the reader's fix is the same.
const LINK_CUT: (&str, &str) = (
    "This link looks cut off: copy the whole link",
    "此链接似乎不完整：请复制完整的链接",
);

/// What a link made by a newer playground says.
const LINK_NEWER: (&str, &str) = (
    "This link was made by a newer version of the playground",
    "此链接由更新版本的演练场生成",
);

impl ValidationError {
    /// The error in plain words in `lang`, one safe line: the field's name in words (its
    /// key, `max_retry` as "Max retry") and what it may hold, e.g. "Max retry must be
    /// between 0 and 30"; any refused share link says "This link looks cut off: copy the
    /// whole link". The page gives its own label instead ([`plain_as`](Self::plain_as));
    /// [`message`](Self::message) keeps the technical form.
    pub fn plain(&self, lang: Lang) -> String {
        self.plain_as(&last_key(&self.field).replace('_', " "), lang)
    }

    /// [`plain`](Self::plain) with the field called `label`, the label the reader sees
    /// beside it ("最多重试" for `max_retry`): the page's words for its own fields, the
    /// engine's for the sentence around them, e.g. "最多重试必须在 0 到 30 之间".
    pub fn plain_as(&self, label: &str, lang: Lang) -> String {
        let pick = |(en, zh): (&str, &str)| if lang == Lang::Zh { zh } else { en }.to_string();
        if is_link(&self.field) {
            let newer = self.field == "link.version" && self.allowed.contains("newer");
            return pick(if newer { LINK_NEWER } else { LINK_CUT });
        }
        let allowed = one_line(&self.allowed);
        if self.field.is_empty() {
            let what = one_line(&allowed_in(&allowed, lang));
            return match lang {
                Lang::Zh => format!("无法读取场景：{what}"),
                Lang::En => format!("The scenario could not be read: {what}"),
            };
        }
        let label = echo(label.trim());
        let sentence = match self.kind {
            ErrorKind::Missing => match lang {
                Lang::Zh => format!("{label}必须填写"),
                Lang::En => format!("{label} is required"),
            },
            ErrorKind::Unknown => {
                let key = last_key(&self.field);
                match lang {
                    Lang::Zh => format!("`{key}` 不是已知字段"),
                    Lang::En => format!("`{key}` is not a known field"),
                }
            }
            ErrorKind::Range | ErrorKind::Type => must_hold(&label, &allowed, lang),
        };
        capitalised(sentence, lang)
    }
}

/// True for a share link's own path (`link`, `link.version`, `link.classic.capacity`).
fn is_link(field: &str) -> bool {
    field == "link" || field.starts_with("link.") || field.starts_with("link[")
}

/// The last named key of a path: `max_retry` of `strategies[1].max_retry`, `delays_ms`
/// of `delays_ms[2]`, a quoted key (`["a b"]`) as its text, echoed safely.
fn last_key(field: &str) -> String {
    let mut rest = field;
    loop {
        // A quoted key: its text never holds a raw `"`, so its last `["` opens it.
        if rest.ends_with("\"]") {
            if let Some(open) = rest.rfind("[\"") {
                let quoted = &rest[open + 1..rest.len() - 1];
                return echo(&serde_json::from_str::<String>(quoted).unwrap_or_default());
            }
        }
        // A trailing index (`[2]`) names no field: the key before it does.
        let index = rest.strip_suffix(']').and_then(|r| {
            let open = r.rfind('[')?;
            (open > 0 && r[open + 1..].bytes().all(|b| b.is_ascii_digit())).then_some(open)
        });
        match index {
            Some(open) => rest = &rest[..open],
            None => break,
        }
    }
    echo(rest.rsplit('.').next().unwrap_or(rest))
}

/// "`label` must be …" for what `allowed` says: a range (`0..=30`, `1..=8 entries`,
/// `1..=64 characters`), one of the engine's expectations, perhaps with a range (`a whole
/// number ≥ 0 in 1..=10000`), or serde's list of names; anything else after a colon.
fn must_hold(label: &str, allowed: &str, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    if let Some((lo, hi, unit)) = range(allowed) {
        return match (unit, zh) {
            ("", false) => format!("{label} must be between {lo} and {hi}"),
            ("", true) => format!("{label}必须在 {lo} 到 {hi} 之间"),
            ("characters", false) => format!("{label} must be {lo} to {hi} characters long"),
            ("characters", true) => format!("{label}必须是 {lo} 到 {hi} 个字符"),
            (_, false) => format!("{label} must have {lo} to {hi} entries"),
            (_, true) => format!("{label}必须有 {lo} 到 {hi} 项"),
        };
    }
    for (en, zh_word) in EXPECTATIONS {
        if allowed == en {
            return if zh {
                format!("{label}必须是{zh_word}")
            } else {
                format!("{label} must be {en}")
            };
        }
        if let Some((lo, hi, _)) = allowed
            .strip_prefix(en)
            .and_then(|r| r.strip_prefix(" in "))
            .and_then(range)
        {
            // The range says the sign: "a whole number ≥ 0" is "a whole number" here.
            let (en, zh_word) = (
                en.trim_end_matches(" ≥ 0"),
                zh_word.trim_start_matches("≥ 0 的"),
            );
            return if zh {
                format!("{label}必须是 {lo} 到 {hi} 之间的{zh_word}")
            } else {
                format!("{label} must be {en} between {lo} and {hi}")
            };
        }
    }
    if let Some(names) = names(allowed) {
        return if zh {
            format!("{label}必须是 {} 之一", names.join("、"))
        } else {
            format!("{label} must be one of {}", names.join(", "))
        };
    }
    if zh {
        format!("{label}：{}", allowed_in(allowed, lang))
    } else {
        format!("{label}: {allowed}")
    }
}

/// `lo..=hi` with an optional unit word after it (`1..=8 entries`): `(lo, hi, unit)`.
fn range(allowed: &str) -> Option<(&str, &str, &str)> {
    let (lo, rest) = allowed.split_once("..=")?;
    let (hi, unit) = rest.split_once(' ').unwrap_or((rest, ""));
    // A reason in brackets after the range ("0..=5 (half the gap …)") is the technical
    // message's: the plain words say the range.
    let unit = if unit.starts_with('(') && unit.ends_with(')') {
        ""
    } else {
        unit
    };
    let number = |s: &str| !s.is_empty() && s.parse::<f64>().is_ok();
    let plain_unit = unit.chars().all(|c| c.is_ascii_lowercase());
    (number(lo) && number(hi) && plain_unit).then_some((lo, hi, unit))
}

/// serde's list of accepted names (`` `a` or `b` ``, `` one of `a`, `b`, `c` ``).
fn names(allowed: &str) -> Option<Vec<&str>> {
    let list = allowed.strip_prefix("one of ").unwrap_or(allowed);
    if !list.starts_with('`') || !list.ends_with('`') {
        return None;
    }
    let inner = &list[1..list.len() - 1];
    Some(
        inner
            .split("`, `")
            .flat_map(|n| n.split("` or `"))
            .collect(),
    )
}

/// An English sentence starts with a capital letter; Chinese has none.
fn capitalised(sentence: String, lang: Lang) -> String {
    let mut chars = sentence.chars();
    match chars.next() {
        Some(first) if lang == Lang::En && first.is_ascii_lowercase() => {
            first.to_ascii_uppercase().to_string() + chars.as_str()
        }
        _ => sentence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::in_range;

    #[test]
    fn a_range_names_the_label_and_the_bounds() {
        let e = in_range("strategies[1].max_retry", 999u32, 0, 30).unwrap_err();
        assert_eq!(e.plain(Lang::En), "Max retry must be between 0 and 30");
        assert_eq!(
            e.plain_as("最多重试", Lang::Zh),
            "最多重试必须在 0 到 30 之间"
        );
        // Without the page's label, the key in words.
        assert_eq!(e.plain(Lang::Zh), "max retry必须在 0 到 30 之间");
        // The technical form is unchanged.
        assert_eq!(
            e.message(Lang::En),
            "strategies[1].max_retry = 999 is out of range: allowed 0..=30"
        );
        let e = in_range("tiers[1].instances", 0u32, 1, 10_000).unwrap_err();
        assert_eq!(e.plain(Lang::En), "Instances must be between 1 and 10000");
        let e = in_range("load.rate_per_s", 0u32, 1, 10).unwrap_err();
        assert_eq!(
            e.plain_as("rate per second", Lang::En),
            "Rate per second must be between 1 and 10"
        );
        // A range with its reason: the reason stays in the technical form.
        let e = ValidationError::new("load.jitter_ms", 6, "0..=5 (half the gap, 100/s)");
        assert_eq!(e.plain(Lang::En), "Jitter ms must be between 0 and 5");
        assert_eq!(e.plain_as("抖动", Lang::Zh), "抖动必须在 0 到 5 之间");
        assert!(e
            .message(Lang::En)
            .ends_with("allowed 0..=5 (half the gap, 100/s)"));
    }

    #[test]
    fn a_type_error_says_what_kind_of_value() {
        let e = ValidationError::new(
            "tiers[1].instances",
            "1.5",
            "a whole number ≥ 0 in 1..=10000",
        )
        .of_kind(ErrorKind::Type);
        assert_eq!(
            e.plain(Lang::En),
            "Instances must be a whole number between 1 and 10000"
        );
        assert_eq!(
            e.plain_as("实例数", Lang::Zh),
            "实例数必须是 1 到 10000 之间的整数"
        );
        let e = ValidationError::new("clients", "\"x\"", super::super::EXPECT_UNSIGNED)
            .of_kind(ErrorKind::Type);
        assert_eq!(e.plain(Lang::En), "Clients must be a whole number ≥ 0");
        assert_eq!(e.plain_as("客户端数", Lang::Zh), "客户端数必须是≥ 0 的整数");
        let e = ValidationError::new("strategies[0].jitter", "\"x\"", "`none` or `full`")
            .of_kind(ErrorKind::Type);
        assert_eq!(e.plain(Lang::En), "Jitter must be one of none, full");
        assert_eq!(e.plain_as("抖动", Lang::Zh), "抖动必须是 none、full 之一");
    }

    #[test]
    fn lists_names_and_missing_fields() {
        let e = ValidationError::new("strategies", "0 entries", "1..=8 entries");
        assert_eq!(e.plain(Lang::En), "Strategies must have 1 to 8 entries");
        let e = ValidationError::new("strategies[0].name", "\"\"", "1..=64 characters");
        assert_eq!(e.plain(Lang::En), "Name must be 1 to 64 characters long");
        let e = ValidationError::new("tiers[0].name", "", "a value").of_kind(ErrorKind::Missing);
        assert_eq!(e.plain(Lang::En), "Name is required");
        let e = ValidationError::new("tiers[0].bogus", "", "`name`").of_kind(ErrorKind::Unknown);
        assert_eq!(e.plain(Lang::Zh), "`bogus` 不是已知字段");
    }

    #[test]
    fn any_refused_link_says_it_looks_cut_off() {
        for field in [
            "link",
            "link.payload",
            "link.classic.capacity",
            "link.version",
        ] {
            let e = ValidationError::new(field, "x", "a state of the form v1.<base64url>");
            assert_eq!(
                e.plain(Lang::En),
                "This link looks cut off: copy the whole link"
            );
            assert_eq!(e.plain(Lang::Zh), "此链接似乎不完整：请复制完整的链接");
        }
        let newer = ValidationError::new(
            "link.version",
            "v99",
            "v1..=v5 (this link was made by a newer playground)",
        );
        assert!(newer.plain(Lang::En).contains("newer version"));
    }

    #[test]
    fn echoed_keys_stay_on_one_line() {
        let e =
            ValidationError::new("tiers[0][\"a\\nb\"]", "", "`name`").of_kind(ErrorKind::Unknown);
        assert_eq!(e.plain(Lang::En), "`a\\nb` is not a known field");
        // A `[` inside a quoted key is not an index.
        let e =
            ValidationError::new("tiers[0][\"a[1]\"]", "", "`name`").of_kind(ErrorKind::Unknown);
        assert_eq!(e.plain(Lang::En), "`a[1]` is not a known field");
        let e = ValidationError::new("tiers[0].delays_ms[2]", "-1", "0..=60000");
        assert_eq!(e.plain(Lang::En), "Delays ms must be between 0 and 60000");
        // A label the page gives is echoed safely too.
        assert_eq!(
            e.plain_as("a\nb ", Lang::En),
            "A\\nb must be between 0 and 60000"
        );
    }
}
