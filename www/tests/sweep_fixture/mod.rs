//! Sweeps run natively for the chart tests, and readers of the SVG text they draw.
#![allow(dead_code)] // each test file uses its own subset

use retrystorm::classic::Scenario;
use retrystorm::scenario::{self, AnyScenario, Model};
use retrystorm::sweep::{Plan, Sweep, SweepResult};

/// A sweep's plan and result, as the glue's sweep outcome holds them.
pub struct Run {
    /// The plan (its values per parameter).
    pub plan: Plan,
    /// The result of every point.
    pub result: SweepResult,
}

impl Run {
    /// The parameter paths and whether each is log-spaced (as the glue passes them).
    pub fn axes(&self) -> (Vec<String>, Vec<bool>) {
        let log = self
            .plan
            .sweep
            .params
            .iter()
            .map(|p| {
                p.range
                    .as_ref()
                    .is_some_and(|r| r.scale == retrystorm::sweep::Scale::Log)
            })
            .collect();
        (self.result.paths.clone(), log)
    }
}

/// The sweep `json` over `base`, every point run.
pub fn run(json: &str, base: &AnyScenario) -> Run {
    let plan = Sweep::from_json(json).unwrap().plan(base).unwrap();
    let result = plan.run(Some(1)).unwrap();
    Run { plan, result }
}

/// The classic article scenario.
pub fn article() -> AnyScenario {
    AnyScenario::Classic(Scenario::article())
}

/// A bundled scenario by file name.
pub fn bundled(model: Model, file: &str) -> AnyScenario {
    let path = format!("{}/../scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    scenario::read(Some(model), &value).unwrap()
}

/// A bundled sweep definition by name, with `seeds` seeds.
pub fn bundled_sweep(name: &str, seeds: u32) -> String {
    let path = format!(
        "{}/../scenarios/sweeps/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["seeds"] = seeds.into();
    v.to_string()
}

/// The elements named `tag` whose attributes include `attr`.
pub fn elements<'a>(svg: &'a str, tag: &str, attr: &str) -> Vec<&'a str> {
    svg.split('<')
        .filter(|e| e.starts_with(&format!("{tag} ")) && e.contains(attr))
        .collect()
}

/// Every text drawn, in order.
pub fn texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|e| {
            Some(
                e.split_once('>')?
                    .1
                    .split_once("</text")?
                    .0
                    .trim()
                    .to_string(),
            )
        })
        .collect()
}
