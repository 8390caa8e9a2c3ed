//! `retrystorm`: the command-line face of the engine. It prints the article's four
//! reports (`run`, `herd`, `sweep`, `breaker`) for the article's scenario or any
//! scenario file, as text or JSON, and runs ensembles and grids of any model. Bad input gets one line on stderr and exit code 2.

use retrystorm::classic::{self, report};
use retrystorm::cluster;
use retrystorm::ensemble::{self, MAX_SEEDS};
use retrystorm::estimate::{self, Estimate};
use retrystorm::lang::Texts as _;
use retrystorm::scenario::{self, AnyScenario};
use retrystorm::seed;
use retrystorm::sweep::{self, Sweep};
use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

// The binary's own modules live under `src/cli/`, apart from the library's.
#[path = "cli/watch.rs"]
mod watch;

retrystorm::catalogue! {
    /// The CLI's own words (the reports' are the engine's).
    enum CliText {
        /// The heading of the bundled sweeps after the scenarios.
        SweepsHeading => (
            "\n扫描（grid --sweep-preset ID）：\n",
            "\nsweeps (grid --sweep-preset ID):\n"
        ),
        /// What a bundled sweep runs on: `{0}` the scenario's id.
        SweptOn => ("基于 {0}", "on {0}"),
    }
}

const USAGE: &str = "\
usage: retrystorm <command> [options]

commands:
  run       the strategy table (the article's section 2), then how the requests ended
            (both delivery views, the endings, the cost when a cost model is set); any model
  herd      attempts per second around the outage and the recovery-window totals (section 3)
  sweep     the multi-seed table, the budget-forced-to-100 check and the article's reproduction checks
  breaker   the breaker group table (section 5; defaults to scenarios/breaker-groups.json)
  ensemble  one scenario over many seeds: every metric's spread and the verdicts counted; any model
  grid      vary one or two fields over a grid (each point an ensemble), with trade-offs; any model
  grid-merge FILE...   merge the shard files of a `grid --shard` run into the unsharded result
  scenarios list the bundled scenarios, then the bundled sweeps (`grid --sweep-preset ID`)
  studies   list the studies: published setups of other simulators restated in this model
  study ID  run a study: the source's figures beside the model's, with the tolerance the
            seed spreads give and a verdict per figure (--seeds N, --json, --lang)
  import FILE   a library's retry configuration (Spring Boot resilience4j retry and circuit
            breaker, YAML or .properties; a gRPC service config; an AWS config file; Polly /
            Microsoft.Extensions.Http.Resilience options in appsettings.json; a tenacity
            @retry(...) line; an Envoy route/cluster or Istio VirtualService YAML; Go code
            setting up cenkalti/backoff or failsafe-go; a Finagle RetryBudget line or a Linkerd
            ServiceProfile) in words and
            as a client policy; with --scenario/--preset, that scenario with its first calling
            tier's policy replaced (--from resilience4j|grpc|aws|polly|tenacity|envoy|cenkalti|failsafe-go|finagle,
            --instance NAME)
  export    a client policy of a scenario written as a library's configuration, with what
            the library cannot express said on stderr (--policy PATH --to resilience4j|grpc|aws|polly|tenacity|envoy|cenkalti|failsafe-go|finagle,
            --instance NAME; --json for both as one object)

options:
  --scenario FILE         a scenario JSON file (default: the article's scenario)
  --preset ID             a bundled scenario by id (see `retrystorm scenarios`)
  --seed N                the seed (any 64-bit signed integer; default: the scenario's)
  --seeds A,B,...         seeds for `sweep` (default: 4242,1,7,99,2026,313131)
  --seeds N               for `study`: N seeds (2..=1000; default: the study's own count)
  --seeds N               for `ensemble`: N seeds derived from the scenario's seed (1..=10000;
                          default: the preset's own count, for a preset that is an ensemble)
  --seed-list A,B,...     for `ensemble`: these seeds
  --threads N             for `ensemble`: threads to use (default: every core)
  --csv                   `ensemble`: every per-seed value as CSV; `grid`: one row per point
  --sweep FILE            for `grid`: a sweep definition (JSON; see docs/cli.md)
  --sweep-preset ID       for `grid`: a bundled sweep (see `retrystorm scenarios`); it sweeps
                          its own scenario unless --scenario or --preset names another
  --param PATH=VALUES     for `grid` (up to 2): VALUES is A,B,C or FROM..TO:STEPS[:log]
  --objective max|min:METRIC          for `grid`: e.g. max:strategies[5].delivery_pct
  --constraint 'STAT(METRIC)<=X'      for `grid` (repeatable): e.g. 'p95(strategies[5].overload_seconds)<=2'
  --pareto max:METRIC,min:METRIC      for `grid`: the two metrics of the trade-off
  --shard K/N             for `grid`: run only shard K of N and write it as JSON Lines
  --jsonl                 `grid`, `grid-merge`: one JSON line per point
  --out FILE              write the output to FILE instead of standard output
  --budget-override PCT   force every strategy's budget_pct (0..=100): `run`, `ensemble`, `grid`
  --attribution RULE      which second a retry is charged to: ceil (the article's),
                          floor or round; overrides the scenario's (classic: reports, `ensemble`, `grid`)
  --json                  print one JSON object instead of text (`run`, `ensemble`)
  --estimate              print what the job would cost (work, peak memory, output size, rough
                          time) and exit without running it: `run`, `herd`, `sweep`, `breaker`,
                          `ensemble`, `grid`
  --max-memory SIZE       refuse a job whose estimated peak memory is over SIZE (bytes, or with
                          KB, MB, GB, or KiB, MiB, GiB; default 1GiB), e.g. --max-memory 4GB
  --lang zh|en            the classic reports' headings: the article's Chinese (default) or English;
                          `scenarios`: the titles in that language, `grid`: the recommendation
                          in words in that language (default for both: English)
  -h, --help              this text
  -V, --version           the version";

/// Parsed command line.
#[derive(Default)]
struct Args {
    command: String,
    scenario: Option<String>,
    preset: Option<String>,
    seed: Option<i64>,
    seeds: Option<String>,
    seed_list: Option<Vec<i64>>,
    threads: Option<usize>,
    csv: bool,
    jsonl: bool,
    sweep: Option<String>,
    sweep_preset: Option<String>,
    params: Vec<String>,
    objective: Option<String>,
    constraints: Vec<String>,
    pareto: Option<String>,
    shard: Option<String>,
    files: Vec<String>,
    out: Option<String>,
    budget_override: Option<u32>,
    attribution: Option<classic::Attribution>,
    lang: retrystorm::lang::Lang,
    /// `--lang` as given (the `scenarios` listing and `grid`'s words are English unless it is).
    lang_flag: Option<retrystorm::lang::Lang>,
    json: bool,
    /// `--estimate`: print the job's cost instead of running it.
    estimate: bool,
    /// `--max-memory SIZE` in bytes (default [`estimate::DEFAULT_MAX_MEMORY`]).
    max_memory: Option<u64>,
    /// `import --from LIBRARY`.
    from: Option<String>,
    /// `import --instance NAME`, `export --instance NAME`.
    instance: Option<String>,
    /// `export --policy PATH`.
    policy: Option<String>,
    /// `export --to LIBRARY`.
    to: Option<String>,
}

fn value<'a>(flag: &str, it: &mut impl Iterator<Item = &'a String>) -> Result<&'a String, String> {
    it.next().ok_or_else(|| format!("{flag} needs a value"))
}

fn parse_seed(flag: &str, text: &str) -> Result<i64, String> {
    seed::parse(text).ok_or_else(|| {
        format!("{flag} {text:?} is not an integer in -9223372036854775808..=9223372036854775807")
    })
}

/// A comma-separated list of 1..=`max` seeds.
fn seed_list(flag: &str, list: &str, max: usize) -> Result<Vec<i64>, String> {
    let seeds = list
        .split(',')
        .map(|s| parse_seed(flag, s))
        .collect::<Result<Vec<_>, _>>()?;
    if seeds.is_empty() || seeds.len() > max {
        return Err(format!("{flag} takes 1..={max} comma-separated seeds"));
    }
    Ok(seeds)
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
            // A list for `sweep`, a count for `ensemble`: read once the command is known.
            "--seeds" => args.seeds = Some(take(&mut it)?),
            "--seed-list" => {
                args.seed_list = Some(seed_list("--seed-list", &take(&mut it)?, MAX_SEEDS)?)
            }
            "--threads" => {
                let v = take(&mut it)?;
                let n: usize = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=1024).contains(n))
                    .ok_or_else(|| format!("--threads {v:?} is out of range: allowed 1..=1024"))?;
                args.threads = Some(n);
            }
            "--csv" => args.csv = true,
            "--jsonl" => args.jsonl = true,
            "--sweep" => args.sweep = Some(take(&mut it)?),
            "--sweep-preset" => args.sweep_preset = Some(take(&mut it)?),
            "--param" => args.params.push(take(&mut it)?),
            "--objective" => args.objective = Some(take(&mut it)?),
            "--constraint" => args.constraints.push(take(&mut it)?),
            "--pareto" => args.pareto = Some(take(&mut it)?),
            "--shard" => args.shard = Some(take(&mut it)?),
            "--budget-override" | "--budget" => {
                let v = take(&mut it)?;
                let max = classic::scenario::MAX_BUDGET_PCT;
                let pct: u32 = v.parse().ok().filter(|p| *p <= max).ok_or_else(|| {
                    format!("--budget-override {v:?} is out of range: allowed 0..={max}")
                })?;
                args.budget_override = Some(pct);
            }
            "--attribution" => {
                let v = take(&mut it)?;
                let rule = classic::Attribution::ALL
                    .into_iter()
                    .find(|a| a.name() == v)
                    .ok_or_else(|| {
                        format!("--attribution {v:?} is not allowed: expected ceil, floor or round")
                    })?;
                args.attribution = Some(rule);
            }
            "--lang" => {
                let v = take(&mut it)?;
                args.lang = retrystorm::lang::Lang::parse(&v)
                    .ok_or_else(|| format!("--lang {v:?} is not allowed: expected zh or en"))?;
                args.lang_flag = Some(args.lang);
            }
            "--json" => args.json = true,
            "--estimate" => args.estimate = true,
            "--max-memory" => {
                let v = take(&mut it)?;
                args.max_memory = Some(estimate::parse_size(&v).ok_or_else(|| {
                    format!("--max-memory {v:?} is not a size: bytes, or a number with KB, MB, GB, KiB, MiB or GiB")
                })?);
            }
            "--from" => args.from = Some(take(&mut it)?),
            "--instance" => args.instance = Some(take(&mut it)?),
            "--policy" => args.policy = Some(take(&mut it)?),
            "--to" => args.to = Some(take(&mut it)?),
            "--out" => args.out = Some(take(&mut it)?),
            "-h" | "--help" => args.command = "help".into(),
            "-V" | "--version" => args.command = "version".into(),
            f if f.starts_with('-') => return Err(format!("unknown option {f:?} (see --help)")),
            c if args.command.is_empty() => args.command = c.to_string(),
            file if matches!(args.command.as_str(), "grid-merge" | "import" | "study") => {
                args.files.push(file.to_string())
            }
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

/// The classic scenario with the command line's overrides applied.
fn classic_overrides(args: &Args, mut sc: classic::Scenario) -> classic::Scenario {
    if let Some(a) = args.attribution {
        sc.attribution = a;
    }
    match args.budget_override {
        Some(p) => sc.with_budget(p),
        None => sc,
    }
}

/// Any scenario with the command line's overrides applied: the classic model's, or an
/// error naming the option for a cluster scenario (it has no attribution or global budget).
fn with_overrides(args: &Args, s: AnyScenario) -> Result<AnyScenario, String> {
    match s {
        AnyScenario::Classic(c) => Ok(AnyScenario::Classic(classic_overrides(args, c))),
        AnyScenario::Cluster(_) if args.budget_override.is_some() => {
            Err("--budget-override applies to classic scenarios only".into())
        }
        AnyScenario::Cluster(_) if args.attribution.is_some() => {
            Err("--attribution applies to classic scenarios only".into())
        }
        cluster => Ok(cluster),
    }
}

fn classic_only(args: &Args, s: AnyScenario, command: &str) -> Result<classic::Scenario, String> {
    match s {
        AnyScenario::Classic(c) => Ok(classic_overrides(args, c)),
        other => Err(format!(
            "`{command}` is a report of the classic model; this scenario is for the {} model (use `run`)",
            other.model()
        )),
    }
}

/// The error of the engine as the CLI prints it.
fn err(e: retrystorm::ValidationError) -> String {
    e.to_string()
}

/// The output format the arguments ask for, as the estimate counts it.
fn format(args: &Args) -> estimate::Format {
    if args.json {
        estimate::Format::Json
    } else if args.jsonl || args.shard.is_some() {
        estimate::Format::Jsonl
    } else if args.csv {
        estimate::Format::Csv
    } else {
        estimate::Format::Text
    }
}

/// Before a job starts: with `--estimate`, its cost in words (printed instead of
/// running it); otherwise `None` when its estimated peak memory is within the bound,
/// and the refusal naming the estimate, the bound and the option that raises it when
/// it is not.
fn gate(args: &Args, est: &Estimate) -> Result<Option<String>, String> {
    let bound = args.max_memory.unwrap_or(estimate::DEFAULT_MAX_MEMORY);
    if args.estimate {
        let over = if est.peak_bytes > bound {
            " (over it: refused)"
        } else {
            ""
        };
        return Ok(Some(format!(
            "{}memory bound: {}{over}; --max-memory SIZE sets it\n",
            est.text(),
            estimate::format_bytes(bound)
        )));
    }
    if est.peak_bytes > bound {
        // A round size in GB above the estimate, so the suggestion works as given.
        let gb = est.peak_bytes.div_ceil(1_000_000_000);
        return Err(format!(
            "this job needs about {} of memory (estimated), over the bound of {}: raise it with --max-memory SIZE (e.g. --max-memory {gb}GB), or see --estimate",
            estimate::format_bytes(est.peak_bytes),
            estimate::format_bytes(bound)
        ));
    }
    Ok(None)
}

/// What a command prints: its output, and for a job stopped by Ctrl-C before its end
/// the line saying how far it got (the output is then what it finished).
struct Printed {
    text: String,
    stopped: Option<String>,
    /// The output went out as it was made (`text` is then empty): nothing to write.
    written: bool,
}

impl From<String> for Printed {
    fn from(text: String) -> Self {
        Printed {
            text,
            stopped: None,
            written: false,
        }
    }
}

/// Runs the command the arguments name and returns what it prints.
fn execute(args: &Args) -> Result<Printed, String> {
    let text = match args.command.as_str() {
        "help" => format!("{USAGE}\n"),
        "version" => format!("retrystorm {}\n", env!("CARGO_PKG_VERSION")),
        "scenarios" => scenarios(args),
        "run" => run(args)?,
        "herd" => herd(args)?,
        "sweep" => multi_seed(args)?,
        "breaker" => breaker(args)?,
        "ensemble" => return ensemble_cmd(args),
        "grid" => return grid(args),
        "grid-merge" => grid_merge(args)?,
        "import" => import_cmd(args)?,
        "export" => export_cmd(args)?,
        "studies" => studies_list(args),
        "study" => study_cmd(args)?,
        other => return Err(format!("unknown command {other:?} (see --help)")),
    };
    Ok(text.into())
}

/// The language of the studies' words: English unless `--lang` says otherwise.
fn study_lang(args: &Args) -> retrystorm::lang::Lang {
    args.lang_flag.unwrap_or(retrystorm::lang::Lang::En)
}

/// `studies`: every study's id, title and source.
fn studies_list(args: &Args) -> String {
    use retrystorm::studies;
    let lang = study_lang(args);
    let list = studies::list();
    if args.json {
        return format!(
            "{}\n",
            serde_json::to_string_pretty(&list).unwrap_or_default()
        );
    }
    let w = list.iter().map(|i| i.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for i in list {
        let _ = writeln!(out, "{:w$}  {}", i.id, lang.of(i.title));
        let _ = writeln!(out, "{:w$}  {}, {}", "", i.source.work, i.source.url);
    }
    out
}

/// `study ID`: the study run, the source's figures beside the model's.
fn study_cmd(args: &Args) -> Result<String, String> {
    use retrystorm::studies;
    let [id] = args.files.as_slice() else {
        return Err("study needs one ID (see `retrystorm studies`)".into());
    };
    let seeds = match &args.seeds {
        None => None,
        Some(v) => Some(v.parse::<usize>().map_err(|_| {
            format!(
                "--seeds {v:?} is not allowed: expected a count in 2..={}",
                studies::MAX_STUDY_SEEDS
            )
        })?),
    };
    let lang = study_lang(args);
    let s = studies::run(id, seeds, args.threads, lang).map_err(|e| e.to_string())?;
    Ok(if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&s).map_err(|e| e.to_string())?
        )
    } else {
        studies::text(&s, lang)
    })
}

/// `import FILE`: the configuration in words (stderr) and the client policy, or the
/// scenario using it (stdout), so `retrystorm run --scenario <(retrystorm import …)` runs it.
fn import_cmd(args: &Args) -> Result<String, String> {
    use retrystorm::import::{self, Library};
    let [path] = args.files.as_slice() else {
        return Err("import needs one FILE (see --help)".into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let library = match &args.from {
        Some(name) => Library::from_name(name),
        None => Library::detect(&text),
    }
    .map_err(|e| format!("{path}: {e}"))?;
    let imported = import::import(&text, library, args.instance.as_deref(), args.lang)
        .map_err(|e| format!("{path}: {e}"))?;
    eprint!("{}", imported.text(args.lang));
    let policy = imported.policy_json();
    if args.scenario.is_none() && args.preset.is_none() {
        return json(&policy);
    }
    let sc = match load(args, "article")? {
        AnyScenario::Cluster(sc) => sc,
        // The classic model takes the policy as one more strategy row, named for where it
        // came from; what the row cannot say goes to stderr with the words.
        AnyScenario::Classic(mut sc) => {
            use retrystorm::import::{export::classic, texts::Text};
            use retrystorm::lang::Texts;
            let name = Text::Source.fill(args.lang, &[&library.title(), &imported.source]);
            let row = classic::row(&imported.policy, &name, args.lang);
            for c in &row.cannot {
                eprintln!("{}{c}", Text::Cannot.get(args.lang));
            }
            for d in &row.defaults {
                eprintln!("{}{d}", Text::Default.get(args.lang));
            }
            sc.strategies.push(row.strategy);
            sc.validate().map_err(err)?;
            return json(&AnyScenario::Classic(sc).to_value());
        }
    };
    let mut doc = serde_json::to_value(&sc).map_err(|e| e.to_string())?;
    let tier = doc["tiers"]
        .as_array_mut()
        .and_then(|t| {
            t.iter_mut()
                .find(|t| t.get("client").is_some_and(|c| !c.is_null()))
        })
        .ok_or("the scenario has no tier with a client policy")?;
    for (k, v) in policy.as_object().into_iter().flatten() {
        tier["client"][k] = v.clone();
    }
    let sc: cluster::Scenario = serde_json::from_value(doc).map_err(|e| e.to_string())?;
    sc.validate().map_err(err)?;
    json(&AnyScenario::Cluster(sc).to_value())
}

/// `export`: the client policy at `--policy PATH` of the scenario (default: the first
/// tier's client) as `--to LIBRARY`'s configuration on stdout, and what the library
/// cannot express on stderr (or both as one JSON object with `--json`).
fn export_cmd(args: &Args) -> Result<String, String> {
    use retrystorm::import::{export, texts::Text, Library, Policy};
    use retrystorm::lang::Texts;
    let to = args
        .to
        .as_deref()
        .ok_or("export needs --to LIBRARY (resilience4j, grpc, aws, polly, tenacity or envoy)")?;
    let library = Library::from_name(to)
        .map_err(|mut e| {
            e.field = "--to".into();
            e
        })
        .map_err(err)?;
    let AnyScenario::Cluster(sc) = load(args, "article")? else {
        return Err(
            "export needs a cluster scenario (a client policy is the cluster model's)".into(),
        );
    };
    let doc = serde_json::to_value(&sc).map_err(|e| e.to_string())?;
    let path = match &args.policy {
        Some(p) => p.clone(),
        None => sc
            .tiers
            .iter()
            .position(|t| t.client.is_some())
            .map(|i| format!("tiers[{i}].client"))
            .ok_or("the scenario has no tier with a client policy; name one with --policy")?,
    };
    let v = client_at(&doc, &path)?;
    let policy = Policy::from_client_json(v, &path).map_err(err)?;
    let name = args.instance.as_deref().unwrap_or("backend");
    let out = export::export(&policy, library, name, args.lang).map_err(err)?;
    if args.json {
        return json(&out.to_json());
    }
    for c in &out.cannot {
        eprintln!("{}{c}", Text::Cannot.get(args.lang));
    }
    Ok(out.text)
}

/// The client policy at `path` of a scenario's JSON (`tiers[0].client`,
/// `tiers[0].routes[1].client`): written as the scenario's own messages name fields.
fn client_at<'a>(doc: &'a serde_json::Value, path: &str) -> Result<&'a serde_json::Value, String> {
    use retrystorm::sweep::path::{parse, Step};
    let steps = parse(path)
        .filter(|s| !s.contains(&Step::All))
        .ok_or_else(|| format!("--policy {path:?} is not a field path such as tiers[0].client"))?;
    let mut v = doc;
    for step in &steps {
        v = match step {
            Step::Key(k) => v.get(k),
            Step::Index(i) => v.get(*i),
            Step::All => None,
        }
        .ok_or_else(|| format!("--policy {path:?} is not in this scenario"))?;
    }
    if v.get("max_attempts").is_none() {
        return Err(format!(
            "--policy {path:?} is not a client policy (such as tiers[0].client or tiers[0].routes[1].client)"
        ));
    }
    Ok(v)
}

/// `scenarios`: the bundled scenarios, then the bundled sweeps.
fn scenarios(args: &Args) -> String {
    let lang = args.lang_flag.unwrap_or(retrystorm::lang::Lang::En);
    let mut out: String = scenario::bundled()
        .iter()
        .map(|b| format!("{:<34} {:<8} {}\n", b.id, b.model, b.title_in(lang)))
        .collect();
    out.push_str(CliText::SweepsHeading.get(lang));
    for p in sweep::presets::presets() {
        let on = CliText::SweptOn.fill(lang, &[&p.scenario]);
        let _ = writeln!(out, "{:<34} {:<8} {} ({on})", p.id, p.model, p.title(lang));
    }
    out
}

/// `run`: one run of any model, as its report or as JSON.
fn run(args: &Args) -> Result<String, String> {
    let sc = with_overrides(args, load(args, "article")?)?;
    let est = estimate::run(&sc, format(args));
    if let Some(text) = gate(args, &est)? {
        return Ok(text);
    }
    match sc {
        AnyScenario::Classic(sc) => {
            let out = classic::simulate(&sc, args.seed.unwrap_or(sc.seed)).map_err(err)?;
            if args.json {
                json(&out)
            } else {
                // The article's report stays byte for byte what the article prints;
                // the endings and the verdict follow it.
                Ok(report::run_report_in(&out, args.budget_override, args.lang))
            }
        }
        AnyScenario::Cluster(sc) => {
            let seed = args.seed.unwrap_or(sc.seed);
            // A run long enough for the estimate to ask first shows its simulated time.
            let bar = if est.asks() {
                watch::bar(PER_MILLE, "‰ of the simulated time")
            } else {
                None
            };
            let mut sim = cluster::Simulation::new(&sc, seed).map_err(err)?;
            while !sim.advance(RUN_SLICE).map_err(err)? {
                if let Some(bar) = &bar {
                    bar.set_position((sim.progress() * PER_MILLE as f64) as u64);
                }
            }
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            let result = sim.finish();
            if args.json {
                let mut scenario = sc;
                scenario.seed = seed;
                let doc = AnyScenario::Cluster(scenario).to_value();
                json(&serde_json::json!({ "scenario": doc, "result": result }))
            } else {
                Ok(cluster::report::text(&sc, &result))
            }
        }
    }
}

/// The steps of a long `run`'s bar (its simulated time in thousandths).
const PER_MILLE: u64 = 1000;

/// Events a long `run` processes between two updates of its bar: a few milliseconds.
const RUN_SLICE: u64 = 1 << 18;

/// `herd`: attempts per second around the outage (classic model).
fn herd(args: &Args) -> Result<String, String> {
    let sc = classic_only(args, load(args, "article")?, "herd")?;
    if let Some(text) = gate(
        args,
        &estimate::run(&AnyScenario::Classic(sc.clone()), format(args)),
    )? {
        return Ok(text);
    }
    let out = classic::simulate(&sc, args.seed.unwrap_or(sc.seed)).map_err(err)?;
    Ok(report::herd_text_in(&out, args.lang))
}

/// `sweep`: the article's multi-seed table and its checks (classic model).
fn multi_seed(args: &Args) -> Result<String, String> {
    let mut sc = classic_only(args, load(args, "article")?, "sweep")?;
    if let Some(s) = args.seed {
        sc.seed = s;
    }
    let seeds = match &args.seeds {
        Some(list) => seed_list("--seeds", list, 100)?,
        None => report::ARTICLE_SEEDS.to_vec(),
    };
    // The report runs each seed (and its budget-forced check) as an ensemble would.
    let est = estimate::ensemble(
        &AnyScenario::Classic(sc.clone()),
        seeds.len(),
        Some(1),
        format(args),
    );
    if let Some(text) = gate(args, &est)? {
        return Ok(text);
    }
    report::multi_seed_text_in(&sc, &seeds, args.lang).map_err(err)
}

/// `breaker`: the breaker group table (classic model).
fn breaker(args: &Args) -> Result<String, String> {
    let sc = classic_only(args, load(args, "breaker-groups")?, "breaker")?;
    if let Some(text) = gate(
        args,
        &estimate::run(&AnyScenario::Classic(sc.clone()), format(args)),
    )? {
        return Ok(text);
    }
    let out = classic::simulate(&sc, args.seed.unwrap_or(sc.seed)).map_err(err)?;
    Ok(report::breaker_text_in(&out, args.lang))
}

/// The seeds of `ensemble`: `--seed-list`, or `--seeds N` (or a preset's own count)
/// derived from the scenario's seed.
fn ensemble_seeds(args: &Args, sc: &AnyScenario) -> Result<Vec<i64>, String> {
    // A preset that is an ensemble ("article-1000-seeds") brings its seed count.
    let preset_seeds = args
        .preset
        .as_deref()
        .and_then(|id| scenario::bundled().into_iter().find(|b| b.id == id))
        .and_then(|b| b.seeds)
        .map(|n| n.to_string());
    match (
        args.seeds.as_ref().or(preset_seeds.as_ref()),
        &args.seed_list,
    ) {
        (Some(_), Some(_)) if args.seeds.is_some() => {
            Err("give either --seeds N or --seed-list, not both".into())
        }
        (_, Some(list)) => Ok(list.clone()),
        (Some(n), None) => {
            let count: usize = n.parse().map_err(|_| {
                format!("--seeds {n:?} is out of range: allowed 1..={MAX_SEEDS} (a count of seeds)")
            })?;
            ensemble::check_count("--seeds", count).map_err(err)?;
            Ok(ensemble::derive_seeds(
                args.seed.unwrap_or(sc.seed()),
                count,
            ))
        }
        (None, None) => Err("`ensemble` needs --seeds N or --seed-list A,B,...".into()),
    }
}

/// `ensemble`: one scenario over many seeds, as text, CSV or JSON; stopped by Ctrl-C,
/// the seeds finished (the first ones), marked as partial.
fn ensemble_cmd(args: &Args) -> Result<Printed, String> {
    let sc = with_overrides(args, load(args, "article")?)?;
    let seeds = ensemble_seeds(args, &sc)?;
    let est = estimate::ensemble(&sc, seeds.len(), args.threads, format(args));
    if let Some(text) = gate(args, &est)? {
        return Ok(text.into());
    }
    let progress = watch::stop_on_ctrl_c();
    if args.csv {
        return ensemble_csv(args, &sc, &seeds, &progress);
    }
    let result = watch::with_bar(seeds.len(), "seeds", &progress, || {
        ensemble::run_watched(&sc, &seeds, args.threads, &progress)
    })
    .map_err(err)?;
    let (done, of) = (result.seeds.len(), seeds.len());
    let partial = (done < of).then(|| Partial::new(done, of, "seeds"));
    let text = if done == 0 {
        String::new()
    } else if args.json {
        match &partial {
            Some(p) => json(&PartialJson {
                partial: p,
                result: &result,
            })?,
            None => json(&result)?,
        }
    } else {
        let text = ensemble::render::text(&title(&sc), &result);
        match &partial {
            Some(p) => format!("partial: {}\n{text}", p.words()),
            None => text,
        }
    };
    Ok(Printed {
        text,
        stopped: partial.map(|p| p.words()),
        written: false,
    })
}

/// `ensemble --csv`: each seed's rows written (to `--out` or stdout) as soon as it and
/// every earlier seed are done, so the CSV is never held whole, nor the ensemble. A
/// partial CSV is the whole run's first rows, unmarked: a marker line would break the
/// CSV readers it is for (stderr and the exit status say it).
///
/// The rows go through a writer thread, so the runs never wait on a reader: a pipe
/// whose reader is slow (or reads only at the end) holds the rows not yet taken, as
/// the whole CSV was held before, and a Ctrl-C still stops the runs at once.
fn ensemble_csv(
    args: &Args,
    sc: &AnyScenario,
    seeds: &[i64],
    progress: &retrystorm::progress::Progress,
) -> Result<Printed, String> {
    let sink: Box<dyn Write + Send> = match &args.out {
        Some(path) => {
            Box::new(std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?)
        }
        None => Box::new(std::io::stdout()),
    };
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        let mut sink = std::io::BufWriter::new(sink);
        let mut failed = None;
        for rows in rx {
            // Keep taking rows after a failure, so the runs never block on the channel.
            if failed.is_none() {
                failed = sink.write_all(rows.as_bytes()).err();
            }
        }
        failed.map_or_else(|| sink.flush(), Err)
    });
    let names = ensemble::group_names(sc);
    let verdicts = ensemble::verdict_names(sc);
    // The header comes with the first seed: a job stopped before any prints nothing.
    let mut rows = String::from(ensemble::render::CSV_HEADER);
    let done = watch::with_bar(seeds.len(), "seeds", progress, || {
        ensemble::stream_watched(sc, seeds, args.threads, progress, |s| {
            ensemble::render::csv_seed(&mut rows, &names, &verdicts, &s);
            let _ = tx.send(std::mem::take(&mut rows));
        })
    });
    drop(tx);
    let written = writer
        .join()
        .unwrap_or_else(|_| Err(std::io::Error::other("the writer thread panicked")));
    let done = done.map_err(err)?;
    // A closed stdout (`| head`) is not an error, as for every other output.
    if let (Some(path), Err(e)) = (&args.out, written) {
        return Err(format!("cannot write {path}: {e}"));
    }
    let stopped = (done < seeds.len()).then(|| Partial::new(done, seeds.len(), "seeds").words());
    Ok(Printed {
        text: String::new(),
        stopped,
        written: true,
    })
}

/// How far a job stopped by Ctrl-C got: `done` of `of` `unit`s.
#[derive(serde::Serialize)]
struct Partial {
    done: usize,
    of: usize,
    unit: &'static str,
    /// What the figures cover, when it needs saying (a grid's seeds of every point).
    #[serde(skip)]
    each: String,
}

impl Partial {
    fn new(done: usize, of: usize, unit: &'static str) -> Self {
        Partial {
            done,
            of,
            unit,
            each: String::new(),
        }
    }

    /// "stopped after 37 of 1000 seeds".
    fn words(&self) -> String {
        format!(
            "stopped after {} of {} {}{}",
            self.done, self.of, self.unit, self.each
        )
    }
}

/// A partial result in JSON: the `partial` object first, then the result's own fields.
#[derive(serde::Serialize)]
struct PartialJson<'a, T: serde::Serialize> {
    partial: &'a Partial,
    #[serde(flatten)]
    result: &'a T,
}

/// `grid`: a sweep, whole or one shard of it; stopped by Ctrl-C, every point over the
/// seeds finished for all of them (with one seed per point, the points finished),
/// marked as partial.
fn grid(args: &Args) -> Result<Printed, String> {
    let preset = sweep_preset(args)?;
    let sc = with_overrides(args, load(args, preset.map_or("article", |p| p.scenario))?)?;
    let plan = sweep_definition(args)?.plan(&sc).map_err(err)?;
    if let Some(text) = &args.shard {
        let (k, n) = sweep::parse_shard(text)
            .ok_or_else(|| format!("--shard {text:?} is not K/N with 0 <= K < N <= 100000"))?;
        if let Some(text) = gate(args, &estimate::shard(&plan, k, n, args.threads))? {
            return Ok(text.into());
        }
        // A shard is merged whole or not at all: Ctrl-C ends it as it always did.
        return Ok(sweep::shard_jsonl(&plan, k, n, args.threads)
            .map_err(err)?
            .into());
    }
    if let Some(text) = gate(args, &estimate::sweep(&plan, args.threads, format(args)))? {
        return Ok(text.into());
    }
    let progress = watch::stop_on_ctrl_c();
    let (finished, result) =
        watch::with_bar(plan.items(), "runs (points × seeds)", &progress, || {
            plan.run_watched(args.threads, &progress)
        })
        .map_err(err)?;
    let (points, seeds) = (plan.points.len(), plan.seeds.len());
    let partial = if finished.seeds.len() < seeds {
        let mut p = Partial::new(finished.seeds.len(), seeds, "seeds");
        p.each = format!(" of each of the {points} points");
        Some(p)
    } else if result.points.len() < points {
        Some(Partial::new(result.points.len(), points, "points"))
    } else {
        None
    };
    let text = if result.points.is_empty() {
        String::new()
    } else {
        let text = grid_output(args, &finished, &result);
        match &partial {
            // One JSON line more, after the points, so the points' lines are the ones
            // the whole run would print for them.
            Some(p) if args.jsonl => {
                format!("{text}{}\n", serde_json::json!({ "partial": p }))
            }
            Some(_) if args.csv => text,
            Some(p) => format!("partial: {}\n{text}", p.words()),
            None => text,
        }
    };
    Ok(Printed {
        text,
        stopped: partial.map(|p| p.words()),
        written: false,
    })
}

/// `grid-merge`: shard files merged into the unsharded result.
fn grid_merge(args: &Args) -> Result<String, String> {
    if args.files.is_empty() {
        return Err("`grid-merge` needs the shard files".into());
    }
    let texts = args
        .files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            Ok((f.as_str(), text))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (plan, samples) = sweep::merge_named(&texts)?;
    Ok(grid_output(args, &plan, &plan.summarise(&samples)))
}

/// The sweep of `grid`: the `--sweep` file, with `--param`, `--seeds`, `--seed-list`,
/// `--objective`, `--constraint` and `--pareto` added to it or replacing its own.
fn sweep_definition(args: &Args) -> Result<Sweep, String> {
    if let (Some(p), Some(_)) = (sweep_preset(args)?, &args.sweep) {
        return Err(format!(
            "--sweep and --sweep-preset {:?} both name a sweep: give one",
            p.id
        ));
    }
    let mut sw = match &args.sweep {
        None if args.sweep_preset.is_some() => {
            let p = sweep_preset(args)?.ok_or("no sweep preset")?;
            Sweep::from_json(p.json).map_err(|e| format!("{}: {e}", p.id))?
        }
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            Sweep::from_json(&text).map_err(|e| format!("{path}: {e}"))?
        }
        None => Sweep {
            params: vec![],
            seeds: None,
            seed_list: None,
            objective: None,
            constraints: vec![],
            pareto: None,
            plot: None,
        },
    };
    if !args.params.is_empty() {
        sw.params = args
            .params
            .iter()
            .map(|p| {
                sweep::param_from_cli(p).ok_or_else(|| {
                    format!("--param {p:?} is not PATH=A,B,C or PATH=FROM..TO:STEPS[:log]")
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(n) = &args.seeds {
        sw.seeds = Some(n.parse().map_err(|_| {
            format!("--seeds {n:?} is out of range: allowed 1..={MAX_SEEDS} (a count of seeds)")
        })?);
        sw.seed_list = None;
    }
    if let Some(list) = &args.seed_list {
        sw.seed_list = Some(list.clone());
        sw.seeds = None;
    }
    if let Some(o) = &args.objective {
        sw.objective = Some(
            sweep::objective_from_cli(o)
                .ok_or_else(|| format!("--objective {o:?} is not max:METRIC or min:METRIC"))?,
        );
    }
    for c in &args.constraints {
        sw.constraints
            .push(sweep::constraint_from_cli(c).ok_or_else(|| {
                format!("--constraint {c:?} is not [STAT(]METRIC[)]<=VALUE or >=VALUE")
            })?);
    }
    if let Some(p) = &args.pareto {
        let axes: Vec<_> = p.split(',').map(sweep::objective_from_cli).collect();
        match axes.as_slice() {
            [Some(a), Some(b)] => sw.pareto = Some([a.clone(), b.clone()]),
            _ => {
                return Err(format!(
                    "--pareto {p:?} is not max|min:METRIC,max|min:METRIC"
                ))
            }
        }
    }
    Ok(sw)
}

/// The bundled sweep `--sweep-preset` names, if any.
fn sweep_preset(args: &Args) -> Result<Option<sweep::presets::SweepPreset>, String> {
    args.sweep_preset
        .as_deref()
        .map(|id| {
            sweep::presets::preset(id)
                .ok_or_else(|| format!("no bundled sweep {id:?} (see `retrystorm scenarios`)"))
        })
        .transpose()
}

fn grid_output(args: &Args, plan: &sweep::Plan, r: &sweep::SweepResult) -> String {
    if args.jsonl {
        sweep::render::jsonl(r)
    } else if args.csv {
        sweep::render::csv(r)
    } else {
        // The recommendation's words in English unless --lang names a language.
        let lang = args.lang_flag.unwrap_or(retrystorm::lang::Lang::En);
        sweep::render::text_in(plan, r, lang)
    }
}

/// A scenario's name for a report heading.
fn title(sc: &AnyScenario) -> String {
    match sc {
        AnyScenario::Classic(c) => format!(
            "{} clients × {} s, capacity {}/s, outage [{}, {}) s",
            c.clients, c.duration_s, c.capacity, c.outage.from_s, c.outage.to_s
        ),
        AnyScenario::Cluster(c) => c.name.clone(),
    }
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value)
        .map(|s| s + "\n")
        .map_err(|e| format!("cannot write JSON: {e}"))
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = parse_args(&argv).and_then(|a| {
        let printed = execute(&a)?;
        match &a.out {
            Some(_) if printed.written => Ok(printed),
            Some(path) => std::fs::write(path, &printed.text)
                .map(|()| Printed {
                    text: String::new(),
                    ..printed
                })
                .map_err(|e| format!("cannot write {path}: {e}")),
            None => Ok(printed),
        }
    });
    match result {
        Ok(printed) => {
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = std::io::stdout().lock().write_all(printed.text.as_bytes());
            match printed.stopped {
                None => ExitCode::SUCCESS,
                Some(line) => {
                    let _ = writeln!(std::io::stderr(), "retrystorm: {line}");
                    // 128 + SIGINT, as a shell reports a job Ctrl-C ended.
                    ExitCode::from(130)
                }
            }
        }
        Err(message) => {
            // One line whatever it echoes (file names, arguments, what a file holds).
            let message = retrystorm::validate::one_line(&message);
            let _ = writeln!(std::io::stderr(), "retrystorm: error: {message}");
            ExitCode::from(2)
        }
    }
}
