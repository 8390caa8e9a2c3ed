//! The Kubernetes Indexed Job of `deploy/k8s/sweep-job.yaml`, run on this machine: its
//! `args` line as written, once per completion index, then `grid-merge`, must equal
//! the unsharded `grid` run.

use std::process::Command;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_retrystorm"))
        .args(args)
        .output()
        .expect("binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_manifest_command_for_every_index_merges_to_the_unsharded_run() {
    let yaml = std::fs::read_to_string(root().join("deploy/k8s/sweep-job.yaml")).unwrap();
    let field = |name: &str| -> String {
        yaml.lines()
            .map(str::trim)
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in the manifest"))
            .trim()
            .to_string()
    };
    let completions: usize = field("completions:").parse().unwrap();
    assert_eq!(field("completionMode:"), "Indexed");
    let args: Vec<String> = serde_json::from_str(&field("args:")).unwrap();
    let tmp = std::env::temp_dir().join(format!("retrystorm-k8s-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // Only the image's paths are mapped to this machine's; everything else is as written.
    let root = root().canonicalize().unwrap();
    let local = |a: &str, k: usize| {
        a.replace("$(JOB_COMPLETION_INDEX)", &k.to_string())
            .replace("/opt/retrystorm/", &format!("{}/", root.display()))
            .replace("/data/", &format!("{}/", tmp.display()))
    };
    assert!(
        args.iter()
            .any(|a| a == &format!("$(JOB_COMPLETION_INDEX)/{completions}")),
        "--shard must say the same shard count as completions: {args:?}"
    );
    let mut files = Vec::new();
    for k in 0..completions {
        let a: Vec<String> = args.iter().map(|x| local(x, k)).collect();
        run(&a);
        files.push(tmp.join(format!("shard-{k}.jsonl")).display().to_string());
    }
    let mut merge = vec!["grid-merge".to_string(), "--jsonl".to_string()];
    merge.extend(files.iter().rev().cloned());
    let merged = run(&merge);
    // The unsharded run: the same args without --shard, --threads and --out.
    let mut whole: Vec<String> = Vec::new();
    let mut it = args.iter().map(|x| local(x, 0));
    while let Some(a) = it.next() {
        if ["--shard", "--out", "--threads"].contains(&a.as_str()) {
            it.next();
        } else {
            whole.push(a);
        }
    }
    whole.push("--jsonl".into());
    assert_eq!(merged, run(&whole));
    assert_eq!(
        merged.lines().count(),
        40,
        "the breaker-threshold sweep has 40 points"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
