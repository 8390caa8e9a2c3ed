//! Writes the bundled scenarios and sweeps (`../scenarios`) without their layout
//! whitespace into `OUT_DIR`, for [`bundled_json!`](crate::bundled_json): the page's wasm
//! holds every bundled file, and its size is budgeted. The files stay readable in the
//! repository; what the engine parses is the same JSON.

use std::path::Path;

fn main() {
    // Read at run time, not with env!: cargo may reuse this script's binary for another
    // checkout of the same source (a shared CARGO_TARGET_DIR), and a path compiled in
    // would then bundle the other checkout's scenarios, or fail once it is gone.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let src = Path::new(&manifest).join("../scenarios");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("scenarios");
    println!("cargo:rerun-if-changed={}", src.display());
    for dir in ["", "sweeps"] {
        let from = src.join(dir);
        println!("cargo:rerun-if-changed={}", from.display());
        std::fs::create_dir_all(out.join(dir)).expect("OUT_DIR is writable");
        for entry in std::fs::read_dir(&from).expect("../scenarios is there") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).expect("a bundled file is UTF-8");
                let name = path.file_name().expect("a file name");
                std::fs::write(out.join(dir).join(name), minified(&text))
                    .expect("OUT_DIR is writable");
            }
        }
    }
}

/// `text` without the whitespace between JSON tokens (strings kept as written, escapes
/// included).
fn minified(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}
