//! A small expression grammar for settings written as code — a tenacity decorator, a Go
//! struct literal or builder chain, a Scala constructor call — parsed, never evaluated as
//! code: names, numbers, strings, calls with positional and named arguments, member
//! access, `[T]` type arguments, `{Field: value}` literals, `a.B = x` assignments and the
//! operators `| + - * /`. Anything else in the text (the function around the settings,
//! a `func` literal or a `lambda` predicate) is skipped, so a pasted snippet reads as it
//! is; the readers then look for the calls they know.

use crate::validate::{echo, ValidationError};

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A number literal (`_` separators allowed).
    Num(f64),
    /// A string literal.
    Str(String),
    /// A name.
    Name(String),
    /// `expr.name`.
    Member(Box<Expr>, String),
    /// `callee(args)`, with the line it starts on.
    Call(Box<Expr>, Vec<Arg>, usize),
    /// `Type{Field: value, …}` (a Go composite literal).
    Struct(Box<Expr>, Vec<Arg>),
    /// A binary operation: one of `|`, `+`, `-`, `*`, `/`.
    Binary(char, Box<Expr>, Box<Expr>),
    /// `-x` or `&x`.
    Unary(char, Box<Expr>),
    /// Something skipped (a `func` literal, a `lambda`).
    Opaque,
}

/// An argument or a field of a literal: `value`, `name=value` or `Name: value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// The name, when given.
    pub name: Option<String>,
    /// The value.
    pub value: Expr,
}

/// A top-level expression of the text, with the value assigned to it (`b.X = v`).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The expression (or the assignment's target).
    pub expr: Expr,
    /// The assigned value, for `target = value` or `target := value`.
    pub assigned: Option<Expr>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Num(f64),
    Str(String),
    Punct(char),
    /// `:=`
    Define,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

/// The text's tokens; comments (`//`, `/* */`, `#`) dropped.
fn tokens(text: &str) -> Result<Vec<Token>, ValidationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '#' || (c == '/' && next == Some('/')) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                line += usize::from(chars[i] == '\n');
                i += 1;
            }
            i += 2;
        } else if c.is_ascii_digit() || (c == '.' && next.is_some_and(|d| d.is_ascii_digit())) {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '_'
                    || (chars[i] == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
                    || (matches!(chars[i], '+' | '-') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            let raw: String = chars[start..i].iter().filter(|c| **c != '_').collect();
            let v = raw
                .trim_end_matches(['L', 'l', 'f', 'F', 'd', 'D'])
                .parse::<f64>()
                .map_err(|_| {
                    ValidationError::new(format!("line {line}"), echo(&raw), "a number")
                })?;
            out.push(Token {
                tok: Tok::Num(v),
                line,
            });
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(chars[start..i].iter().collect()),
                line,
            });
        } else if matches!(c, '"' | '\'' | '`') {
            let mut s = String::new();
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' && c != '`' && i + 1 < chars.len() {
                    i += 1;
                }
                line += usize::from(chars[i] == '\n');
                s.push(chars[i]);
                i += 1;
            }
            i += 1;
            out.push(Token {
                tok: Tok::Str(s),
                line,
            });
        } else if c == ':' && next == Some('=') {
            out.push(Token {
                tok: Tok::Define,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    Ok(out)
}

/// Deepest nesting a text may use: bounds the parser's recursion.
const MAX_DEPTH: usize = 64;

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.pos.min(self.toks.len().saturating_sub(1)))
            .map_or(1, |t| t.line)
    }

    fn fail(&self, what: &str) -> ValidationError {
        let found = match self.peek() {
            Some(Tok::Ident(s) | Tok::Str(s)) => s.clone(),
            Some(Tok::Num(n)) => n.to_string(),
            Some(Tok::Punct(c)) => c.to_string(),
            Some(Tok::Define) => ":=".into(),
            None => "the end".into(),
        };
        ValidationError::new(format!("line {}", self.line()), echo(&found), what)
    }

    fn expect(&mut self, c: char) -> Result<(), ValidationError> {
        if self.punct(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.fail(&format!("`{c}`")))
        }
    }

    /// `a | b`, `a + b`, `a * b` by precedence.
    fn expr(&mut self) -> Result<Expr, ValidationError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.fail(&format!("at most {MAX_DEPTH} levels of nesting")));
        }
        let e = self.binary(0);
        self.depth -= 1;
        e
    }

    fn binary(&mut self, level: usize) -> Result<Expr, ValidationError> {
        const LEVELS: [&[char]; 3] = [&['|'], &['+', '-'], &['*', '/']];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        while let Some(Tok::Punct(c)) = self.peek().cloned() {
            // `||` is Go's or, never a tenacity combination: stop there.
            if !LEVELS[level].contains(&c) || (c == '|' && self.next_is('|')) {
                break;
            }
            self.pos += 1;
            let right = self.binary(level + 1)?;
            left = Expr::Binary(c, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn next_is(&self, c: char) -> bool {
        self.toks.get(self.pos + 1).map(|t| &t.tok) == Some(&Tok::Punct(c))
    }

    fn unary(&mut self) -> Result<Expr, ValidationError> {
        if let Some(Tok::Punct(c @ ('-' | '&' | '*'))) = self.peek().cloned() {
            self.pos += 1;
            let inner = self.unary()?;
            return Ok(Expr::Unary(c, Box::new(inner)));
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, ValidationError> {
        let mut e = self.primary()?;
        loop {
            if self.punct('.') {
                self.pos += 1;
                match self.peek().cloned() {
                    Some(Tok::Ident(name)) => {
                        self.pos += 1;
                        e = Expr::Member(Box::new(e), name);
                    }
                    _ => return Err(self.fail("a name after `.`")),
                }
            } else if self.punct('(') {
                let line = self.line();
                self.pos += 1;
                let args = self.args(')')?;
                e = Expr::Call(Box::new(e), args, line);
            } else if self.punct('[') {
                // Go's type arguments (`NewBuilder[any]`) or an index: skipped.
                self.skip_balanced('[', ']')?;
            } else if self.punct('{') && matches!(e, Expr::Name(_) | Expr::Member(..)) {
                self.pos += 1;
                let fields = self.args('}')?;
                e = Expr::Struct(Box::new(e), fields);
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, ValidationError> {
        let Some(tok) = self.peek().cloned() else {
            return Err(self.fail("a value"));
        };
        self.pos += 1;
        Ok(match tok {
            Tok::Num(n) => Expr::Num(n),
            Tok::Str(s) => Expr::Str(s),
            Tok::Ident(f) if f == "func" => {
                // A Go function literal: its signature, then its body.
                while !self.punct('{') && self.peek().is_some() {
                    self.pos += 1;
                }
                self.skip_balanced('{', '}')?;
                Expr::Opaque
            }
            Tok::Ident(l) if l == "lambda" => {
                // A Python lambda runs to the next `,` or `)` outside brackets.
                let mut depth = 0usize;
                while let Some(t) = self.peek() {
                    match t {
                        Tok::Punct('(' | '[' | '{') => depth += 1,
                        Tok::Punct(')' | ']' | '}') if depth == 0 => break,
                        Tok::Punct(')' | ']' | '}') => depth -= 1,
                        Tok::Punct(',') if depth == 0 => break,
                        _ => {}
                    }
                    self.pos += 1;
                }
                Expr::Opaque
            }
            Tok::Ident(name) => Expr::Name(name),
            Tok::Punct('(') => {
                let e = self.expr()?;
                self.expect(')')?;
                e
            }
            _ => {
                self.pos -= 1;
                return Err(self.fail("a value"));
            }
        })
    }

    /// Arguments up to `close`: `v`, `name=v` or `Name: v`, comma-separated (a trailing
    /// comma allowed).
    fn args(&mut self, close: char) -> Result<Vec<Arg>, ValidationError> {
        let mut out = Vec::new();
        loop {
            if self.punct(close) {
                self.pos += 1;
                return Ok(out);
            }
            let name = match (self.peek().cloned(), self.toks.get(self.pos + 1).map(|t| &t.tok)) {
                (Some(Tok::Ident(n)), Some(Tok::Punct('=' | ':')))
                    if !(self.toks.get(self.pos + 2).map(|t| &t.tok) == Some(&Tok::Punct('='))) =>
                {
                    self.pos += 2;
                    Some(n)
                }
                _ => None,
            };
            let value = self.expr()?;
            out.push(Arg { name, value });
            if self.punct(',') {
                self.pos += 1;
            } else if !self.punct(close) {
                return Err(self.fail(&format!("`,` or `{close}`")));
            }
        }
    }

    fn skip_balanced(&mut self, open: char, close: char) -> Result<(), ValidationError> {
        let mut depth = 0usize;
        while let Some(t) = self.peek().cloned() {
            self.pos += 1;
            if t == Tok::Punct(open) {
                depth += 1;
            } else if t == Tok::Punct(close) {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
        }
        Err(self.fail(&format!("`{close}`")))
    }
}

/// The top-level expressions of a text: at each name that does not continue an
/// expression, the longest expression that parses there (with `= value` or `:= value`
/// after it); tokens that start no expression are skipped.
pub fn items(text: &str) -> Result<Vec<Item>, ValidationError> {
    let toks = tokens(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let mut out = Vec::new();
    while p.pos < p.toks.len() {
        let starts = matches!(p.peek(), Some(Tok::Ident(_)))
            && !(p.pos > 0 && p.toks[p.pos - 1].tok == Tok::Punct('.'));
        if !starts {
            p.pos += 1;
            continue;
        }
        let at = p.pos;
        match p.expr() {
            Ok(expr) => {
                let assigned = if p.peek() == Some(&Tok::Define)
                    || (p.punct('=') && !p.next_is('='))
                {
                    p.pos += 1;
                    Some(p.expr()?)
                } else {
                    None
                };
                out.push(Item { expr, assigned });
                if p.pos == at {
                    p.pos += 1;
                }
            }
            // A keyword or an operator the grammar lacks (`if err != nil`): skip the name
            // and read on; an error inside a call the readers know is raised by them.
            Err(e) if !known_head(&p.toks, at) => {
                let _ = e;
                p.depth = 0;
                p.pos = at + 1;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// Whether the expression at `at` starts a call the readers look for (its parse errors
/// are the user's to see, not skipped).
fn known_head(toks: &[Token], at: usize) -> bool {
    matches!(&toks[at].tok, Tok::Ident(n) if matches!(n.as_str(),
        "retry" | "tenacity" | "Retrying" | "AsyncRetrying" | "retrypolicy" | "backoff" | "RetryBudget" | "RetryPolicy"))
}

impl Expr {
    /// The dotted name of a name or member chain (`time.Second`), `None` otherwise.
    pub fn dotted(&self) -> Option<String> {
        match self {
            Expr::Name(n) => Some(n.clone()),
            Expr::Member(e, n) => e.dotted().map(|d| format!("{d}.{n}")),
            _ => None,
        }
    }

    /// The last segment of a call's callee (`retrypolicy.NewBuilder[T]().WithMaxRetries`
    /// → `WithMaxRetries`) and its arguments, for a call.
    pub fn call(&self) -> Option<(&str, &[Arg], Option<&Expr>, usize)> {
        let Expr::Call(callee, args, line) = self else {
            return None;
        };
        match &**callee {
            Expr::Name(n) => Some((n.as_str(), args, None, *line)),
            Expr::Member(recv, n) => Some((n.as_str(), args, Some(recv), *line)),
            _ => None,
        }
    }

    /// The calls of a method chain, innermost first (`a().b().c()` → a, b, c).
    pub fn chain(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        let mut e = self;
        loop {
            match e {
                Expr::Call(callee, ..) => {
                    out.push(e);
                    match &**callee {
                        Expr::Member(recv, _) => e = recv,
                        _ => break,
                    }
                }
                Expr::Member(recv, _) => e = recv,
                _ => break,
            }
        }
        out.reverse();
        out
    }

    /// Every call inside this expression, itself included, outermost first.
    pub fn calls(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        self.walk(&mut out);
        out
    }

    fn walk<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        match self {
            Expr::Call(callee, args, _) => {
                out.push(self);
                callee.walk(out);
                args.iter().for_each(|a| a.value.walk(out));
            }
            Expr::Struct(t, fields) => {
                t.walk(out);
                fields.iter().for_each(|a| a.value.walk(out));
            }
            Expr::Member(e, _) | Expr::Unary(_, e) => e.walk(out),
            Expr::Binary(_, a, b) => {
                a.walk(out);
                b.walk(out);
            }
            _ => {}
        }
    }

    /// The expression as a message shows it, shortened (`wait_fixed(3)`).
    pub fn shown(&self) -> String {
        echo(&self.source())
    }

    fn source(&self) -> String {
        let args = |a: &[Arg]| {
            a.iter()
                .map(|a| match &a.name {
                    Some(n) => format!("{n}={}", a.value.source()),
                    None => a.value.source(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Expr::Num(n) => n.to_string(),
            Expr::Str(s) => format!("{s:?}"),
            Expr::Name(n) => n.clone(),
            Expr::Member(e, n) => format!("{}.{n}", e.source()),
            Expr::Call(c, a, _) => format!("{}({})", c.source(), args(a)),
            Expr::Struct(t, a) => format!("{}{{{}}}", t.source(), args(a)),
            Expr::Binary(op, a, b) => format!("{} {op} {}", a.source(), b.source()),
            Expr::Unary(op, e) => format!("{op}{}", e.source()),
            Expr::Opaque => "…".into(),
        }
    }

    /// The value of a numeric expression: numbers and `+ - * /` over them, each name
    /// or call given a value by `unit` (Go's `time.Second` as 1000 ms, say).
    pub fn number(&self, unit: &dyn Fn(&Expr) -> Option<f64>) -> Option<f64> {
        let v = match self {
            Expr::Num(n) => Some(*n),
            Expr::Unary('-', e) => e.number(unit).map(|v| -v),
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.number(unit)?, b.number(unit)?);
                match op {
                    '+' => Some(a + b),
                    '-' => Some(a - b),
                    '*' => Some(a * b),
                    '/' if b != 0.0 => Some(a / b),
                    _ => None,
                }
            }
            other => unit(other),
        }?;
        v.is_finite().then_some(v)
    }
}

impl Arg {
    /// The argument named `name`, else the `index`-th positional one.
    pub fn find<'a>(args: &'a [Arg], name: &str, index: usize) -> Option<&'a Expr> {
        args.iter()
            .find(|a| a.name.as_deref() == Some(name))
            .or_else(|| args.iter().filter(|a| a.name.is_none()).nth(index))
            .map(|a| &a.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_decorator_a_builder_chain_and_a_struct_literal() {
        let py = "@retry(\n  stop=stop_after_attempt(5) | stop_after_delay(30),  # comment\n  wait=wait_random_exponential(multiplier=1, max=60),\n  retry=retry_if_exception(lambda e: isinstance(e, (IOError, OSError))),\n)\ndef fetch(): pass\n";
        let items = items(py).unwrap();
        let (name, args, ..) = items[0].expr.call().unwrap();
        assert_eq!(name, "retry");
        let stop = Arg::find(args, "stop", 99).unwrap();
        assert!(matches!(stop, Expr::Binary('|', ..)), "{stop:?}");
        let wait = Arg::find(args, "wait", 99).unwrap();
        assert_eq!(wait.shown(), "wait_random_exponential(multiplier=1, max=60)");

        let go = "p := retrypolicy.NewBuilder[*http.Response]().\n\tHandleIf(func(r *http.Response, err error) bool { return r != nil && r.StatusCode == 503 }).\n\tWithMaxRetries(3).\n\tWithBackoff(100*time.Millisecond, 10*time.Second).\n\tBuild()\nif err != nil { return }\n";
        let items = items(go).unwrap();
        let chain = items[0].assigned.as_ref().unwrap().chain();
        let names: Vec<_> = chain.iter().map(|c| c.call().unwrap().0).collect();
        assert_eq!(
            names,
            ["NewBuilder", "HandleIf", "WithMaxRetries", "WithBackoff", "Build"]
        );
        let (_, args, _, line) = chain[3].call().unwrap();
        assert_eq!(line, 4);
        let unit = |e: &Expr| match e.dotted().as_deref() {
            Some("time.Millisecond") => Some(1.0),
            Some("time.Second") => Some(1000.0),
            _ => None,
        };
        assert_eq!(args[1].value.number(&unit), Some(10_000.0));

        let lit = "b := &backoff.ExponentialBackOff{\n  InitialInterval: 500 * time.Millisecond, // first\n  Multiplier: 1.5,\n}\nb.MaxInterval = 2 * time.Second\n";
        let items = items(lit).unwrap();
        let Some(Expr::Unary('&', s)) = &items[0].assigned else {
            panic!("{items:?}")
        };
        let Expr::Struct(t, fields) = &**s else {
            panic!()
        };
        assert_eq!(t.dotted().unwrap(), "backoff.ExponentialBackOff");
        assert_eq!(fields[0].name.as_deref(), Some("InitialInterval"));
        assert_eq!(items[1].expr.dotted().unwrap(), "b.MaxInterval");
        assert_eq!(items[1].assigned.as_ref().unwrap().number(&unit), Some(2000.0));
    }

    #[test]
    fn a_broken_known_call_is_an_error_naming_its_line() {
        let e = items("x = 1\n@retry(stop=stop_after_attempt(3)\n").unwrap_err();
        assert_eq!(e.field, "line 2");
        let deep = format!("retry({}1{})", "(".repeat(100), ")".repeat(100));
        assert!(items(&deep).is_err());
    }
}
