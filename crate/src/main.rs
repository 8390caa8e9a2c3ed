//! `retrystorm`: the command-line face of the engine. It prints the article's four
//! reports (`run`, `herd`, `sweep`, `breaker`) for the article's scenario or any
//! scenario file, as text or JSON. Bad input gets one line on stderr and exit code 2.

use retrystorm::classic::{self, report};
use retrystorm::cluster;
use retrystorm::scenario::{self, AnyScenario};
use retrystorm::seed;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
usage: retrystorm <command> [options]

commands:
  run       the strategy table (the article's section 2); any model
  herd      attempts per second around the outage and the recovery-window totals (section 3)
  sweep     the multi-seed table, the budget-forced-to-100 check and the four acceptance checks
  breaker   the breaker group table (section 5; defaults to scenarios/breaker-groups.json)
  scenarios list the bundled scenarios

options:
  --scenario FILE         a scenario JSON file (default: the article's scenario)
  --preset ID             a bundled scenario by id (see `retrystorm scenarios`)
  --seed N                the seed (any 64-bit signed integer; default: the scenario's)
  --seeds A,B,...         seeds for `sweep` (default: 4242,1,7,99,2026,313131)
  --budget-override PCT   force every strategy's budget_pct (0..=100) for `run`
  --json                  print one JSON object instead of text (`run`)
  -h, --help              this text
  -V, --version           the version";

/// Parsed command line.
#[derive(Default)]
struct Args {
    command: String,
    scenario: Option<String>,
    preset: Option<String>,
    seed: Option<i64>,
    seeds: Option<Vec<i64>>,
    budget_override: Option<u32>,
    json: bool,
}

fn value<'a>(flag: &str, it: &mut impl Iterator<Item = &'a String>) -> Result<&'a String, String> {
    it.next().ok_or_else(|| format!("{flag} needs a value"))
}

fn parse_seed(flag: &str, text: &str) -> Result<i64, String> {
    seed::parse(text).ok_or_else(|| {
        format!("{flag} {text:?} is not an integer in -9223372036854775808..=9223372036854775807")
    })
}

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut args = Args::default();
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        // Accept both `--flag value` and `--flag=value`.
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let take = |it: &mut std::slice::Iter<'_, String>| -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => value(flag, it).cloned(),
            }
        };
        match flag {
            "--scenario" => args.scenario = Some(take(&mut it)?),
            "--preset" => args.preset = Some(take(&mut it)?),
            "--seed" => args.seed = Some(parse_seed("--seed", &take(&mut it)?)?),
            "--seeds" => {
                let list = take(&mut it)?;
                let seeds = list
                    .split(',')
                    .map(|s| parse_seed("--seeds", s))
                    .collect::<Result<Vec<_>, _>>()?;
                if seeds.is_empty() || seeds.len() > 100 {
                    return Err("--seeds takes 1..=100 comma-separated seeds".into());
                }
                args.seeds = Some(seeds);
            }
            "--budget-override" | "--budget" => {
                let v = take(&mut it)?;
                let max = classic::scenario::MAX_BUDGET_PCT;
                let pct: u32 = v.parse().ok().filter(|p| *p <= max).ok_or_else(|| {
                    format!("--budget-override {v:?} is out of range: allowed 0..={max}")
                })?;
                args.budget_override = Some(pct);
            }
            "--json" => args.json = true,
            "-h" | "--help" => args.command = "help".into(),
            "-V" | "--version" => args.command = "version".into(),
            f if f.starts_with('-') => return Err(format!("unknown option {f:?} (see --help)")),
            c if args.command.is_empty() => args.command = c.to_string(),
            extra => return Err(format!("unexpected argument {extra:?} (see --help)")),
        }
    }
    if args.command.is_empty() {
        args.command = "help".into();
    }
    if args.scenario.is_some() && args.preset.is_some() {
        return Err("give either --scenario or --preset, not both".into());
    }
    Ok(args)
}

/// Loads the scenario named by the arguments, or `default_preset` when none is named.
fn load(args: &Args, default_preset: &str) -> Result<AnyScenario, String> {
    if let Some(path) = &args.scenario {
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        if meta.len() > scenario::MAX_JSON_BYTES as u64 {
            return Err(format!(
                "{path}: {} bytes is too large: at most {} bytes",
                meta.len(),
                scenario::MAX_JSON_BYTES
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        return scenario::parse(&text).map_err(|e| format!("{path}: {e}"));
    }
    let id = args.preset.as_deref().unwrap_or(default_preset);
    let preset = scenario::bundled()
        .into_iter()
        .find(|b| b.id == id)
        .ok_or_else(|| format!("no bundled scenario {id:?} (see `retrystorm scenarios`)"))?;
    scenario::parse(preset.json).map_err(|e| format!("{id}: {e}"))
}

fn classic_only(s: AnyScenario, command: &str) -> Result<classic::Scenario, String> {
    match s {
        AnyScenario::Classic(c) => Ok(c),
        other => Err(format!(
            "`{command}` is a report of the classic model; this scenario is for the {} model (use `run`)",
            other.model()
        )),
    }
}

fn execute(args: &Args) -> Result<String, String> {
    let err = |e: retrystorm::ValidationError| e.to_string();
    match args.command.as_str() {
        "help" => Ok(format!("{USAGE}\n")),
        "version" => Ok(format!("retrystorm {}\n", env!("CARGO_PKG_VERSION"))),
        "scenarios" => Ok(scenario::bundled()
            .iter()
            .map(|b| format!("{:<34} {:<8} {}\n", b.id, b.model, b.title))
            .collect()),
        "run" => match load(args, "article")? {
            AnyScenario::Classic(sc) => {
                let sc = match args.budget_override {
                    Some(p) => sc.with_budget(p),
                    None => sc,
                };
                let out = classic::simulate(&sc, args.seed.unwrap_or(sc.seed)).map_err(err)?;
                if args.json {
                    json(&out)
                } else {
                    Ok(report::run_text(&out, args.budget_override))
                }
            }
            AnyScenario::Cluster(sc) => {
                if args.budget_override.is_some() {
                    return Err("--budget-override applies to classic scenarios only".into());
                }
                let seed = args.seed.unwrap_or(sc.seed);
                let result = cluster::run(&sc, seed).map_err(err)?;
                if args.json {
                    let mut scenario = sc;
                    scenario.seed = seed;
                    let doc = AnyScenario::Cluster(scenario).to_value();
                    json(&serde_json::json!({ "scenario": doc, "result": result }))
                } else {
                    Ok(cluster::report::text(&sc, &result))
                }
            }
        },
        "herd" => {
            let sc = classic_only(load(args, "article")?, "herd")?;
            let out = classic::simulate(&sc, args.seed.unwrap_or(sc.seed)).map_err(err)?;
            Ok(report::herd_text(&out))
        }
        "sweep" => {
            let mut sc = classic_only(load(args, "article")?, "sweep")?;
            if let Some(s) = args.seed {
                sc.seed = s;
            }
            let seeds = args
                .seeds
                .clone()
                .unwrap_or_else(|| report::ARTICLE_SEEDS.to_vec());
            report::sweep_text(&sc, &seeds).map_err(err)
        }
        "breaker" => {
            let sc = classic_only(load(args, "breaker-groups")?, "breaker")?;
            let out = classic::simulate(&sc, args.seed.unwrap_or(sc.seed)).map_err(err)?;
            Ok(report::breaker_text(&out))
        }
        other => Err(format!("unknown command {other:?} (see --help)")),
    }
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value)
        .map(|s| s + "\n")
        .map_err(|e| format!("cannot write JSON: {e}"))
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match parse_args(&argv).and_then(|a| execute(&a)) {
        Ok(text) => {
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "retrystorm: error: {message}");
            ExitCode::from(2)
        }
    }
}
