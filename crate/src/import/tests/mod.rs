//! Importing real configuration files, one module per format: what each becomes, what
//! the words say, and every bad setting named by its key path in the file.

use super::*;

mod aws;
mod cenkalti;
mod envoy;
mod failsafe;
mod grpc;
mod linkerd;
mod polly;
mod spring;
mod tenacity;

/// Reads an example file of `examples/configs/`.
macro_rules! example {
    ($name:literal) => {
        include_str!(concat!("../../../../examples/configs/", $name))
    };
}
pub(crate) use example;

/// The policy is a valid client policy of a scenario, and runs.
fn runs(p: &Policy) {
    let mut s = crate::cluster::defaults::defaults().scenario;
    s.duration_ms = 3000;
    let c = s.tiers[0].client.as_mut().unwrap();
    *c = p.on(c);
    s.validate().unwrap();
    crate::cluster::run(&s, 7).unwrap();
}

/// `import` in English, panicking with the error's message.
fn en(text: &str, lib: Library, instance: Option<&str>) -> Imported {
    import(text, lib, instance, Lang::En).unwrap_or_else(|e| panic!("{e}"))
}

/// The error of a bad file, as the CLI prints it.
fn refused(text: &str, lib: Library, instance: Option<&str>) -> ValidationError {
    let e = import(text, lib, instance, Lang::En).unwrap_err();
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "one line: {msg}");
    e
}
