//! A Python tenacity decorator line (`@retry(stop=stop_after_attempt(5),
//! wait=wait_random_exponential(multiplier=1, max=60))`), read as tenacity 9.x builds it:
//! `stop_after_attempt(n)` counts attempts (`tenacity/stop.py`), no `stop` retries
//! forever, no `wait` retries at once (`wait_none`), and the waits of `tenacity/wait.py`:
//! `wait_fixed(s)`, `wait_exponential(multiplier=1, max=MAX_WAIT, exp_base=2, min=0)`,
//! `wait_random_exponential` (the same arguments, full jitter) and
//! `wait_exponential_jitter(initial=1, max=MAX_WAIT, exp_base=2, jitter=1)`, their
//! arguments by keyword or by position. Other arguments (`retry=`, `reraise=`,
//! `before_sleep=`) decide what is retried and what is logged, not when: not read.

use super::policy::{Origins, Policy};
use super::Read;
use crate::cluster::libraries::{TenacityBackoff, TenacityWait};
use crate::cluster::Backoff;
use crate::lang::{Lang, Texts};
use crate::validate::{echo, ErrorKind, ValidationError};

crate::catalogue! {
    /// What tenacity does that its call does not say.
    pub enum Quirk {
        /// Attempts, not retries: `{0}` attempts, `{1}` retries.
        CountsAttempts => ("stop_after_attempt({0}) 计的是尝试次数（含第一次调用）：{1} 次重试", "stop_after_attempt({0}) counts attempts, the first call included: {1} retries"),
        /// No wait.
        NoWait => ("没有 wait=：tenacity 立即重试（wait_none）", "no wait=: tenacity retries at once (wait_none)"),
    }
}

/// One parsed expression of the call.
#[derive(Debug, Clone)]
enum Expr {
    /// A number.
    Num(f64),
    /// A call: its name and arguments (keyword or `None` for positional).
    Call(String, Vec<(Option<String>, Expr)>),
    /// Anything else, as written (a name, a string, an expression such as `a + b`).
    Other(String),
}

impl Expr {
    fn shown(&self) -> String {
        match self {
            Expr::Num(n) => n.to_string(),
            Expr::Call(name, _) => format!("{name}(…)"),
            Expr::Other(t) => t.clone(),
        }
    }
}

/// A tiny reader of Python call syntax: names, numbers, strings, calls with keyword
/// arguments; anything more (operators, lambdas) is kept as text and refused where a
/// setting needs a value.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn peek(&mut self) -> Option<char> {
        self.skip();
        self.text[self.pos..].chars().next()
    }

    fn skip(&mut self) {
        while let Some(c) = self.text[self.pos..].chars().next() {
            if c.is_whitespace() || c == '\\' {
                self.pos += c.len_utf8();
            } else if c == '#' {
                let end = self.text[self.pos..]
                    .find('\n')
                    .unwrap_or(self.text.len() - self.pos);
                self.pos += end;
            } else {
                break;
            }
        }
    }

    fn name(&mut self) -> Option<String> {
        self.skip();
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len());
        (len > 0 && !rest.starts_with(|c: char| c.is_ascii_digit() || c == '.')).then(|| {
            self.pos += len;
            rest[..len].to_string()
        })
    }

    /// An expression up to the next `,` or `)` at its own depth.
    fn expr(&mut self, depth: usize) -> Result<Expr, ValidationError> {
        if depth > 16 {
            return Err(ValidationError::new(
                "retry(…)",
                "nested too deep",
                "calls nested at most 16 deep",
            ));
        }
        self.skip();
        let start = self.pos;
        let first = if let Some(n) = self.name() {
            if self.peek() == Some('(') {
                self.pos += 1;
                Some(Expr::Call(n, self.args(depth + 1)?))
            } else {
                Some(Expr::Other(n))
            }
        } else {
            let rest = &self.text[self.pos..];
            let len = rest
                .find(|c: char| !(c.is_ascii_digit() || "._eE+-".contains(c)))
                .unwrap_or(rest.len());
            let num = rest[..len].replace('_', "");
            match num.parse::<f64>() {
                Ok(v) if len > 0 && v.is_finite() => {
                    self.pos += len;
                    Some(Expr::Num(v))
                }
                _ => None,
            }
        };
        if let (Some(e), Some(',' | ')')) = (&first, self.peek()) {
            return Ok(e.clone());
        }
        // Something else: keep its text up to the end of this argument.
        self.pos = start;
        let mut level = 0usize;
        let mut quote: Option<char> = None;
        for (i, c) in self.text[start..].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '(' | '[' | '{') => level += 1,
                (None, ')' | ']' | '}') if level == 0 => {
                    self.pos = start + i;
                    return Ok(Expr::Other(self.text[start..start + i].trim().to_string()));
                }
                (None, ')' | ']' | '}') => level -= 1,
                (None, ',') if level == 0 => {
                    self.pos = start + i;
                    return Ok(Expr::Other(self.text[start..start + i].trim().to_string()));
                }
                _ => {}
            }
        }
        Err(unclosed())
    }

    /// Arguments after an opening `(`, through the closing `)`.
    fn args(&mut self, depth: usize) -> Result<Vec<(Option<String>, Expr)>, ValidationError> {
        let mut out = Vec::new();
        loop {
            if self.peek() == Some(')') {
                self.pos += 1;
                return Ok(out);
            }
            let save = self.pos;
            let key = match self.name() {
                Some(k) if self.peek() == Some('=') && !self.text[self.pos..].starts_with("==") => {
                    self.pos += 1;
                    Some(k)
                }
                _ => {
                    self.pos = save;
                    None
                }
            };
            out.push((key, self.expr(depth)?));
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(')') => {}
                _ => return Err(unclosed()),
            }
        }
    }
}

/// A call without its closing `)`.
fn unclosed() -> ValidationError {
    ValidationError::new("retry(…)", "unclosed", "a call closed by its )").of_kind(ErrorKind::Type)
}

/// The `retry(...)` call of the text (`@retry(…)`, `@tenacity.retry(…)`, `Retrying(…)`).
fn call(text: &str) -> Result<Vec<(Option<String>, Expr)>, ValidationError> {
    for name in ["retry(", "Retrying(", "AsyncRetrying("] {
        let mut from = 0;
        while let Some(i) = text[from..].find(name) {
            let at = from + i;
            let before = text[..at].chars().last();
            if before.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_')) {
                let mut p = Parser {
                    text,
                    pos: at + name.len(),
                };
                return p.args(0);
            }
            from = at + name.len();
        }
    }
    Err(ValidationError::new(
        "retry",
        "missing",
        "a tenacity call such as @retry(stop=stop_after_attempt(5), wait=wait_exponential(max=60))",
    ))
}

/// The arguments of a call by name, positional ones named by `order`.
fn named<'e>(
    args: &'e [(Option<String>, Expr)],
    order: &[&str],
    at: &str,
) -> Result<Vec<(String, &'e Expr)>, ValidationError> {
    let mut out = Vec::new();
    for (i, (k, v)) in args.iter().enumerate() {
        let key = match k {
            Some(k) => k.clone(),
            None => order.get(i).map(|s| s.to_string()).ok_or_else(|| {
                ValidationError::new(
                    at,
                    echo(&v.shown()),
                    format!("at most {} arguments", order.len()),
                )
            })?,
        };
        if !order.contains(&key.as_str()) {
            return Err(ValidationError::new(
                format!("{at}.{key}"),
                echo(&v.shown()),
                format!("one of the arguments {}", order.join(", ")),
            )
            .of_kind(ErrorKind::Type));
        }
        out.push((key, v));
    }
    Ok(out)
}

/// A number of seconds at `at`.
fn seconds(e: &Expr, at: &str) -> Result<f64, ValidationError> {
    match e {
        Expr::Num(v) if *v >= 0.0 => Ok(*v),
        other => Err(
            ValidationError::new(at, echo(&other.shown()), "a number of seconds ≥ 0")
                .of_kind(ErrorKind::Type),
        ),
    }
}

/// The waits tenacity can be given here, for messages.
const WAITS: &str =
    "wait_fixed(s), wait_exponential(…), wait_random_exponential(…) or wait_exponential_jitter(…)";

/// Whether a text looks like a tenacity call.
pub fn looks_like(text: &str) -> bool {
    text.contains("stop_after_attempt") || (text.contains("retry(") && text.contains("wait_"))
}

/// Reads the decorator's stop and wait.
pub fn read(text: &str, _name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let args = call(text)?;
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let arg = |k: &str| {
        args.iter()
            .find(|(n, _)| n.as_deref() == Some(k))
            .map(|(_, v)| v)
    };
    let attempts = match arg("stop") {
        Some(Expr::Call(name, a)) if name.ends_with("stop_after_attempt") => {
            let n = match a.as_slice() {
                [(None | Some(_), Expr::Num(n))] if n.fract() == 0.0 && *n >= 1.0 => *n as u64,
                _ => {
                    return Err(ValidationError::new(
                        "stop.max_attempt_number",
                        echo(&a.first().map(|(_, e)| e.shown()).unwrap_or_default()),
                        "a whole number ≥ 1",
                    )
                    .of_kind(ErrorKind::Type))
                }
            };
            origins.note("max_attempts", "stop", format!("stop_after_attempt({n})"));
            u32::try_from(n).unwrap_or(u32::MAX)
        }
        Some(other) => {
            return Err(ValidationError::new(
                "stop",
                echo(&other.shown()),
                "stop_after_attempt(N) (the engine runs a number of attempts)",
            )
            .of_kind(ErrorKind::Type))
        }
        None => {
            return Err(ValidationError::new(
                "stop",
                "missing",
                "stop=stop_after_attempt(N): without a stop tenacity retries forever",
            ))
        }
    };
    quirks.push(Quirk::CountsAttempts.fill(lang, &[&attempts, &attempts.saturating_sub(1)]));
    let backoff = match arg("wait") {
        None => {
            quirks.push(Quirk::NoWait.get(lang).to_string());
            Backoff::None
        }
        Some(Expr::Call(name, a)) => {
            let short = name.rsplit('.').next().unwrap_or(name);
            let at = "wait";
            match short {
                "wait_fixed" => {
                    let a = named(a, &["wait"], at)?;
                    let s = match a.first() {
                        Some((k, v)) => seconds(v, &format!("{at}.{k}"))?,
                        None => {
                            return Err(ValidationError::new(
                                "wait.wait",
                                "missing",
                                "a number of seconds",
                            ))
                        }
                    };
                    origins.note("backoff.ms", "wait.wait", s.to_string());
                    Backoff::Constant {
                        ms: (s * 1000.0).round() as u64,
                    }
                }
                "wait_exponential" | "wait_random_exponential" | "wait_exponential_jitter" => {
                    let jitter = short == "wait_exponential_jitter";
                    let order: &[&str] = if jitter {
                        &["initial", "max", "exp_base", "jitter"]
                    } else {
                        &["multiplier", "max", "exp_base", "min"]
                    };
                    let mut t = TenacityBackoff {
                        wait: match short {
                            "wait_exponential" => TenacityWait::Exponential,
                            "wait_random_exponential" => TenacityWait::RandomExponential,
                            _ => TenacityWait::ExponentialJitter,
                        },
                        multiplier: 1.0,
                        exp_base: 2.0,
                        min_s: 0.0,
                        max_s: None,
                        jitter_s: 1.0,
                    };
                    for (k, v) in named(a, order, at)? {
                        let path = format!("{at}.{k}");
                        let x = seconds(v, &path)?;
                        let field = match k.as_str() {
                            "multiplier" | "initial" => {
                                t.multiplier = x;
                                "backoff.multiplier"
                            }
                            "max" => {
                                t.max_s = Some(x);
                                "backoff.max_s"
                            }
                            "exp_base" => {
                                t.exp_base = x;
                                "backoff.exp_base"
                            }
                            "min" => {
                                t.min_s = x;
                                "backoff.min_s"
                            }
                            _ => {
                                t.jitter_s = x;
                                "backoff.jitter_s"
                            }
                        };
                        origins.note(field, &path, v.shown());
                    }
                    if t.max_s.is_none() {
                        defaults.push("max = MAX_WAIT (no cap)".to_string());
                    }
                    Backoff::Tenacity(t)
                }
                _ => {
                    return Err(
                        ValidationError::new("wait", echo(&format!("{name}(…)")), WAITS)
                            .of_kind(ErrorKind::Type),
                    )
                }
            }
        }
        Some(other) => {
            return Err(
                ValidationError::new("wait", echo(&other.shown()), WAITS).of_kind(ErrorKind::Type)
            )
        }
    };
    Ok(Read {
        source: "@retry".to_string(),
        policy: origins.checked(Policy::new(attempts, backoff))?,
        quirks,
        defaults,
    })
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
