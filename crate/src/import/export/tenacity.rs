//! A policy as a tenacity decorator line, the mirror of [`crate::import`]'s tenacity
//! reader: `stop_after_attempt(n)` and the wait with every argument by keyword.

use super::{nearest, nearest_wait, Cannot};
use crate::cluster::libraries::{TenacityBackoff, TenacityWait};
use crate::cluster::{Backoff, Jitter};
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use std::fmt::Write;

/// `(text, what cannot be expressed)`: tenacity has no name to give, the decorator
/// stands on the function it retries.
pub fn write(p: &Policy, lang: Lang) -> (String, Vec<String>) {
    let lib = Library::Tenacity;
    let mut cannot = Vec::new();
    let mut out = format!("@retry(stop=stop_after_attempt({})", p.max_attempts);
    let secs = |ms: f64| ms / 1000.0;
    match (&p.backoff, &p.jitter) {
        (Backoff::None, Jitter::None) => {}
        (Backoff::Constant { ms }, Jitter::None) => {
            let _ = write!(out, ", wait=wait_fixed({})", secs(*ms as f64));
        }
        (Backoff::Tenacity(t), _) => wait(&mut out, t),
        // The common exponential, plain or with full jitter, is tenacity's own
        // wait_exponential or wait_random_exponential (said only if they draw otherwise).
        (
            Backoff::Exponential {
                base_ms,
                multiplier,
                cap_ms,
            },
            j @ (Jitter::None | Jitter::Full),
        ) => {
            let t = TenacityBackoff {
                wait: if *j == Jitter::Full {
                    TenacityWait::RandomExponential
                } else {
                    TenacityWait::Exponential
                },
                multiplier: secs(*base_ms as f64),
                exp_base: *multiplier,
                min_s: 0.0,
                max_s: Some(secs(*cap_ms as f64)),
                jitter_s: 1.0,
            };
            cannot.extend(nearest_wait(lib, p, &Backoff::Tenacity(t.clone()), lang));
            wait(&mut out, &t);
        }
        (other, _) => {
            let n = nearest(other, p.max_attempts.saturating_sub(1));
            if n.multiplier <= 1.0 && n.max_ms <= n.first_ms {
                // It does not grow: the nearest is a fixed wait.
                let ms = n.first_ms.round() as u64;
                let fixed = Backoff::Constant { ms };
                cannot.extend(nearest_wait(lib, p, &fixed, lang));
                let _ = write!(out, ", wait=wait_fixed({})", secs(ms as f64));
                out.push_str(")\n");
                return finish(p, out, cannot, lang);
            }
            let t = TenacityBackoff {
                wait: TenacityWait::Exponential,
                multiplier: secs(n.first_ms),
                exp_base: n.multiplier,
                min_s: 0.0,
                max_s: Some(secs(n.max_ms)),
                jitter_s: 1.0,
            };
            cannot.extend(nearest_wait(lib, p, &Backoff::Tenacity(t.clone()), lang));
            wait(&mut out, &t);
        }
    }
    out.push_str(")\n");
    finish(p, out, cannot, lang)
}

/// The budget's and breaker's notes added, all of them as comments above the decorator.
fn finish(p: &Policy, out: String, mut cannot: Vec<String>, lang: Lang) -> (String, Vec<String>) {
    let lib = Library::Tenacity;
    if let Some(w) = words::budget(&p.budget, lang) {
        cannot.push(Cannot::NoBudget.fill(lang, &[&lib.title(), &w]));
    }
    if let Some(w) = words::breaker(&p.breaker, lang) {
        cannot.push(Cannot::NoBreaker.fill(lang, &[&lib.title(), &w]));
    }
    let mut text = String::new();
    for c in &cannot {
        let _ = writeln!(
            text,
            "# {}{c}",
            crate::import::texts::Text::Cannot.get(lang)
        );
    }
    text.push_str(&out);
    (text, cannot)
}

/// `, wait=wait_…(…)` with every argument the reader reads.
fn wait(out: &mut String, t: &TenacityBackoff) {
    let max = t.max_s.map(|m| format!(", max={m}")).unwrap_or_default();
    let _ = match t.wait {
        TenacityWait::ExponentialJitter => write!(
            out,
            ", wait=wait_exponential_jitter(initial={}{max}, exp_base={}, jitter={})",
            t.multiplier, t.exp_base, t.jitter_s
        ),
        kind => write!(
            out,
            ", wait={}(multiplier={}{max}, exp_base={}, min={})",
            if kind == TenacityWait::Exponential {
                "wait_exponential"
            } else {
                "wait_random_exponential"
            },
            t.multiplier,
            t.exp_base,
            t.min_s
        ),
    };
}
