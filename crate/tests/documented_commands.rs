//! The command lines the README and `docs/cli.md` show (`target/release/retrystorm …` in
//! their `sh` blocks) keep working: each one runs through the binary and succeeds. The
//! exceptions are ensembles and grids of cluster scenarios, which take about a minute
//! each in a debug build. For those, the options, presets and files they name are
//! checked instead.

use retrystorm::scenario;
use retrystorm::sweep::presets;
use std::path::Path;
use std::process::Command;

const DOCS: [(&str, &str); 2] = [
    ("README.md", include_str!("../../README.md")),
    ("docs/cli.md", include_str!("../../docs/cli.md")),
];

/// The repository's root, where the documented commands run.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Every `target/release/retrystorm` command of a text's `sh` blocks, with its arguments
/// (continued lines joined, the trailing `# comment` dropped, single quotes removed).
fn commands(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        pending.push_str(line.trim_end_matches('\\'));
        if line.ends_with('\\') {
            pending.push(' ');
            continue;
        }
        let full = std::mem::take(&mut pending);
        let Some(rest) = full.trim().strip_prefix("target/release/retrystorm ") else {
            continue;
        };
        let rest = rest.split("  #").next().unwrap_or(rest);
        out.push(split(rest));
    }
    out
}

/// Splits a command line at spaces outside single quotes, as the shell does for the
/// documented commands (which use no other quoting).
fn split(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut arg = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !arg.is_empty() {
                    args.push(std::mem::take(&mut arg));
                }
            }
            c => arg.push(c),
        }
    }
    if !arg.is_empty() {
        args.push(arg);
    }
    args
}

/// The value of option `name` in `args`, if given.
fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).map(String::as_str)
}

/// Whether the command runs many cluster simulations (an ensemble or a grid).
fn slow(args: &[String]) -> bool {
    let many = matches!(args[0].as_str(), "ensemble" | "grid");
    let cluster = option(args, "--preset").is_some_and(|p| p.starts_with("cluster-"))
        || option(args, "--scenario").is_some_and(|f| f.contains("cluster-"))
        || option(args, "--sweep-preset")
            .and_then(presets::preset)
            .is_some_and(|p| p.scenario.starts_with("cluster-"));
    many && cluster
}

/// Checks what a slow command names without running it: its options are in `--help`,
/// its presets are bundled and its files exist.
fn check_names(doc: &str, args: &[String], help: &str) {
    for a in args.iter().filter(|a| a.starts_with("--")) {
        assert!(
            help.contains(a.as_str()),
            "{doc}: {args:?}: {a} is not in --help"
        );
    }
    if let Some(p) = option(args, "--preset") {
        assert!(
            scenario::bundled().iter().any(|b| b.id == p),
            "{doc}: {args:?}: no preset {p}"
        );
    }
    if let Some(p) = option(args, "--sweep-preset") {
        assert!(
            presets::preset(p).is_some(),
            "{doc}: {args:?}: no sweep preset {p}"
        );
    }
    for file in [option(args, "--scenario"), option(args, "--sweep")]
        .into_iter()
        .flatten()
    {
        assert!(
            root().join(file).is_file(),
            "{doc}: {args:?}: no file {file}"
        );
    }
}

#[test]
fn every_documented_command_works() {
    let bin = env!("CARGO_BIN_EXE_retrystorm");
    let help = Command::new(bin)
        .arg("--help")
        .output()
        .expect("binary runs");
    let help = String::from_utf8(help.stdout).unwrap();
    for (doc, text) in DOCS {
        let cmds = commands(text);
        assert!(
            cmds.len() >= 10,
            "{doc}: only {} commands found",
            cmds.len()
        );
        for args in cmds {
            if slow(&args) {
                check_names(doc, &args, &help);
                continue;
            }
            let out = Command::new(bin)
                .args(&args)
                .current_dir(root())
                .output()
                .expect("binary runs");
            assert!(
                out.status.success(),
                "{doc}: retrystorm {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.stdout.is_empty(), "{doc}: {args:?}: no output");
        }
    }
}
