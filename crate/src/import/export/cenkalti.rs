//! A policy as cenkalti/backoff Go code (v4), the mirror of [`crate::import`]'s
//! cenkalti reader: `backoff.NewExponentialBackOff()` with every field set,
//! `MaxElapsedTime = 0` so that the attempt limit alone stops it (as the engine runs it),
//! and `backoff.WithMaxRetries(b, retries)`.

use super::{nearest, nearest_wait, Cannot, Header};
use crate::cluster::libraries::CenkaltiBackoff;
use crate::cluster::{Backoff, Jitter};
use crate::import::golang::write_duration;
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use std::fmt::Write;

/// `(text, what cannot be expressed)`: the Go code names its backoff `b`.
pub fn write(p: &Policy, lang: Lang) -> (String, Vec<String>) {
    let lib = Library::Cenkalti;
    let mut cannot = Vec::new();
    let retries = p.max_attempts.saturating_sub(1);
    let setup = match (&p.backoff, &p.jitter) {
        (Backoff::None, Jitter::None) => "b := &backoff.ZeroBackOff{}\n".to_string(),
        (Backoff::Constant { ms }, Jitter::None) => format!(
            "b := backoff.NewConstantBackOff({})\n",
            write_duration(*ms as f64)
        ),
        (Backoff::CenkaltiBackoff(c), Jitter::None) => exponential(c),
        (other, _) => {
            let n = nearest(other, retries);
            if n.multiplier <= 1.0 && n.max_ms <= n.first_ms {
                // It does not grow: the nearest is a constant backoff.
                let ms = n.first_ms.round() as u64;
                cannot.extend(nearest_wait(lib, p, &Backoff::Constant { ms }, lang));
                format!(
                    "b := backoff.NewConstantBackOff({})\n",
                    write_duration(ms as f64)
                )
            } else {
                let c = CenkaltiBackoff {
                    initial_interval_ms: n.first_ms,
                    randomization_factor: 0.0,
                    multiplier: n.multiplier,
                    max_interval_ms: n.max_ms.max(n.first_ms),
                };
                cannot.extend(nearest_wait(
                    lib,
                    p,
                    &Backoff::CenkaltiBackoff(c.clone()),
                    lang,
                ));
                exponential(&c)
            }
        }
    };
    if let Some(w) = words::budget(&p.budget, lang) {
        cannot.push(Cannot::NoBudget.fill(lang, &[&lib.title(), &w]));
    }
    if let Some(w) = words::breaker(&p.breaker, lang) {
        cannot.push(Cannot::NoBreaker.fill(lang, &[&lib.title(), &w]));
    }
    let mut out = format!(
        "// {}\n",
        Header::Written.fill(lang, &[&lib.title(), &"Go, v4"])
    );
    for c in &cannot {
        let _ = writeln!(
            out,
            "// {}{c}",
            crate::import::texts::Text::Cannot.get(lang)
        );
    }
    out.push_str(&setup);
    let _ = writeln!(
        out,
        "err := backoff.Retry(operation, backoff.WithMaxRetries(b, {retries}))"
    );
    (out, cannot)
}

/// `b := backoff.NewExponentialBackOff()` and its fields.
fn exponential(c: &CenkaltiBackoff) -> String {
    format!(
        "b := backoff.NewExponentialBackOff()\n\
         b.InitialInterval = {}\n\
         b.RandomizationFactor = {}\n\
         b.Multiplier = {}\n\
         b.MaxInterval = {}\n\
         b.MaxElapsedTime = 0\n",
        write_duration(c.initial_interval_ms),
        c.randomization_factor,
        c.multiplier,
        write_duration(c.max_interval_ms),
    )
}
