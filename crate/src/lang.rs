//! The two languages of every text the engine writes, and the one shape its words take.
//!
//! [`Lang`] is the article's Chinese or English. Every word the engine puts in a report,
//! a table or a message lives in a *catalogue*: an enum whose every variant is one text
//! in both languages, declared with [`catalogue!`](crate::catalogue):
//!
//! ```
//! retrystorm::catalogue! {
//!     /// The words of a report.
//!     pub enum Text {
//!         /// The time column.
//!         Second => ("秒", "second"),
//!         /// The outage's caption: `{0}` from, `{1}` to (seconds).
//!         Outage => ("故障 [{0}, {1})", "outage [{0}, {1})"),
//!     }
//! }
//! use retrystorm::lang::{Lang, Texts};
//! assert_eq!(Text::Second.get(Lang::Zh), "秒");
//! assert_eq!(Text::Outage.fill(Lang::En, &[&20, &26]), "outage [20, 26)");
//! assert!(retrystorm::lang::problems::<Text>().is_empty());
//! ```
//!
//! - A text is a template: `{0}`, `{1}` … are filled by [`Texts::fill`] (or [`fill`]), in
//!   one pass, so a filled-in value is never read as a placeholder. Widths and number
//!   formats stay with the caller: it pads or formats a value, then fills it in.
//! - The variant's doc says what each placeholder holds.
//! - [`problems`] checks a whole catalogue (both languages present, the same placeholders
//!   in both, numbered from `{0}` without gaps); every catalogue has a test calling it.
//! - A catalogue lives beside the code that writes its words (the classic reports',
//!   the cluster tables', the CLI's); the chart words of the page and the verdict and
//!   glossary texts take the same shape.
//! - Words that are data rather than code (a bundled scenario's title) are kept as a
//!   `(Chinese, English)` pair and read with [`Lang::of`].

use core::fmt::{Display, Write as _};
use serde::{Deserialize, Serialize};

/// The language of the engine's words: the article's Chinese (the CLI's default, so its
/// output stays the article's byte for byte) or English (`--lang en`, the page in English).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// The article's Chinese.
    #[default]
    Zh,
    /// English.
    En,
}

impl Lang {
    /// `zh` or `en`; anything else is `None`.
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The text of this language in a `(Chinese, English)` pair.
    pub fn of<'a>(self, (zh, en): (&'a str, &'a str)) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

/// A catalogue of texts: every value is one text in both languages (declare one with
/// [`catalogue!`](crate::catalogue)).
pub trait Texts: Copy + core::fmt::Debug + 'static {
    /// Every text of the catalogue, in declaration order.
    const ALL: &'static [Self];

    /// The text as `(Chinese, English)`, its placeholders unfilled.
    fn both(self) -> (&'static str, &'static str);

    /// The text in `lang`, its placeholders unfilled.
    fn get(self, lang: Lang) -> &'static str {
        lang.of(self.both())
    }

    /// The text in `lang` with `{i}` replaced by `args[i]`.
    fn fill(self, lang: Lang, args: &[&dyn Display]) -> String {
        fill(self.get(lang), args)
    }
}

/// Declares a catalogue: an enum of texts, each `Variant => ("中文", "English")` with a
/// doc line, and its [`Texts`] implementation (see the [module](crate::lang) doc).
#[macro_export]
macro_rules! catalogue {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => ($zh:expr, $en:expr) ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),*
        }

        impl $crate::lang::Texts for $name {
            const ALL: &'static [Self] = &[$($name::$variant),*];

            fn both(self) -> (&'static str, &'static str) {
                match self {
                    $($name::$variant => ($zh, $en)),*
                }
            }
        }
    };
}

/// `template` with every `{i}` replaced by `args[i]`, in one pass (a placeholder past
/// the arguments stays as it is; a value is never read as a placeholder).
pub fn fill(template: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        let arg = close
            .and_then(|c| after[..c].parse::<usize>().ok())
            .and_then(|i| args.get(i));
        match (arg, close) {
            (Some(a), Some(c)) => {
                let _ = write!(out, "{a}");
                rest = &after[c + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The placeholders a template uses (`{0}` … `{9}`), in order of their numbers.
pub fn placeholders(template: &str) -> Vec<usize> {
    (0..10)
        .filter(|i| template.contains(&format!("{{{i}}}")))
        .collect()
}

/// What is wrong with a catalogue, one line per text: a language left empty, different
/// placeholders in the two languages, or placeholders not numbered `{0}`, `{1}` … in turn.
/// Empty when the catalogue is sound.
pub fn problems<T: Texts>() -> Vec<String> {
    let mut out = Vec::new();
    for &t in T::ALL {
        let (zh, en) = t.both();
        if zh.is_empty() || en.is_empty() {
            out.push(format!("{t:?}: a language is empty"));
        }
        let (pz, pe) = (placeholders(zh), placeholders(en));
        if pz != pe {
            out.push(format!(
                "{t:?}: placeholders {pz:?} in Chinese, {pe:?} in English"
            ));
        } else if pz.iter().enumerate().any(|(i, &p)| i != p) {
            out.push(format!(
                "{t:?}: placeholders {pz:?} are not numbered from 0 in turn"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::catalogue! {
        /// A catalogue with one fault of each kind, to see [`problems`] find them.
        enum Faulty {
            /// Sound.
            Fine => ("{0} 与 {1}", "{0} and {1}"),
            /// English lacks a placeholder.
            Missing => ("{0} 与 {1}", "{0}"),
            /// Numbered with a gap.
            Gap => ("{1}", "{1}"),
            /// Chinese left empty.
            Empty => ("", "text"),
        }
    }

    #[test]
    fn problems_name_each_faulty_text() {
        let p = problems::<Faulty>();
        assert_eq!(p.len(), 3, "{p:?}");
        for (line, name) in p.iter().zip(["Missing", "Gap", "Empty"]) {
            assert!(line.starts_with(name), "{line}");
        }
    }

    #[test]
    fn fill_is_one_pass() {
        assert_eq!(fill("{0}-{1}", &[&"{1}", &"x"]), "{1}-x");
        assert_eq!(fill("{0} {2} {x} {", &[&1]), "1 {2} {x} {");
        assert_eq!(fill("第 {0} 秒", &[&3]), "第 3 秒");
        assert_eq!(Faulty::Fine.fill(Lang::Zh, &[&1, &2]), "1 与 2");
        assert_eq!(Faulty::ALL.len(), 4);
    }

    #[test]
    fn lang_parses_its_two_codes() {
        assert_eq!(Lang::parse("zh"), Some(Lang::Zh));
        assert_eq!(Lang::parse("en"), Some(Lang::En));
        assert_eq!(Lang::parse("EN"), None);
        assert_eq!(Lang::En.of(("中", "en")), "en");
    }
}
