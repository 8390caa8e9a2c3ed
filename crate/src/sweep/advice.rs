//! The recommendation of a sweep in words, for the page: given only when every point is
//! in, only over the settings the reader chooses ([`words::is_setting`]): "trip after 302
//! consecutive failures: 90% delivered, overload ≤ 2 s in 95% of seeds". A sweep of
//! conditions alone (the offered load, the outage) maps where the system holds and
//! recommends nothing; a sweep of a setting and a condition recommends the setting that
//! does best in its worst condition and meets the constraints in every one.

use super::choose::{self, Goal, Objective};
use super::words;
use super::{Plan, SweepResult};
use crate::lang::{Lang, Texts};
use serde::Serialize;

crate::catalogue! {
    /// The recommendation's sentences.
    pub enum Say {
        /// While points are missing: `{0}` points in all, `{1}` done.
        Pending => (
            "全部 {0} 个点完成后给出建议（已完成 {1} 个）。",
            "The recommendation comes when all {0} points are in ({1} so far)."
        ),
        /// A sweep of conditions only: `{0}` their labels.
        Conditions => (
            "{0} 是环境条件，不是你能选择的设置：图上可以看出系统在哪里撑得住，这里没有可建议的设置。",
            "{0}: conditions, not settings you choose. The chart shows where the system holds; there is no setting to recommend."
        ),
        /// No setting meets the constraints: `{0}` the constraints.
        NoneMeets => (
            "扫过的设置中没有一个满足：{0}。没有可建议的设置。",
            "No setting swept meets {0}: there is no setting to recommend."
        ),
        /// The recommendation: `{0}` the settings, `{1}` what they give.
        Recommend => ("建议：{0}：{1}。", "Recommended: {0}: {1}."),
        /// The mixed sweep's scope: `{0}` the conditions' labels.
        EveryCondition => ("（对扫过的每个{0}都成立）", " (for every {0} swept)"),
        /// The worst case of the objective: `{0}` its value in words.
        AtWorst => ("最差时{0}", "at worst {0}"),
        /// The caveat: `{0}` seeds per point.
        Caveat => (
            "每个点 {0} 个种子；结论只对这个场景成立，并非普遍规律。",
            "Over {0} seeds per point; it holds for this scenario, not in general."
        ),
        /// Joins the last two items of a list.
        And => ("和", " and "),
        /// A delivery value: `{0}` it with its unit.
        Delivered => ("交付 {0}", "{0} delivered"),
        /// Any other value: `{0}` the metric, `{1}` the value.
        Valued => ("{0} {1}", "{0} {1}"),
        /// A setting without its own phrase: `{0}` its label, `{1}` the value.
        SetTo => ("{0} = {1}", "{0} = {1}"),
        /// A setting in its group: `{0}` the group, `{1}` the phrase.
        Grouped => ("{0}：{1}", "{0}: {1}"),
        /// Breaker threshold: `{0}` failures.
        TripAfter => ("连续失败 {0} 次后熔断", "trip after {0} consecutive failures"),
        /// Breaker open time: `{0}` seconds.
        OpenFor => ("熔断打开 {0} 秒", "keep the breaker open {0} s"),
        /// Max retry: `{0}` retries.
        RetryAtMost => ("最多重试 {0} 次", "retry at most {0} times"),
        /// Base backoff: `{0}` ms.
        BackOff => ("基础退避 {0} ms", "back off from {0} ms"),
        /// Budget: `{0}` percent.
        Budget => ("重试预算 {0}%", "a retry budget of {0}%"),
        /// Deadline: `{0}` ms.
        Deadline => ("deadline {0} ms", "a deadline of {0} ms"),
        /// Capacity: `{0}` per second.
        Capacity => ("容量 {0} 次/秒", "a capacity of {0} per second"),
        /// Instances: `{0}`.
        Instances => ("{0} 个实例", "{0} instances"),
        /// Concurrency: `{0}`.
        Concurrency => ("每实例并发 {0}", "a concurrency of {0} per instance"),
        /// Queue capacity: `{0}`.
        Queue => ("队列容量 {0}", "a queue of {0}"),
        /// Client timeout: `{0}` ms.
        Timeout => ("客户端超时 {0} ms", "a client timeout of {0} ms"),
        /// Attempts: `{0}`.
        Attempts => ("最多尝试 {0} 次", "at most {0} attempts"),
    }
}

/// The recommendation as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advice {
    /// The sentence (and its caveat), in the page's language.
    pub text: String,
    /// Every point is in: the sentence is the recommendation, not a note that it comes.
    pub complete: bool,
    /// The point recommended (the one a chart rings), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<usize>,
}

/// `items` joined as a list in `lang`: `a, b and c`.
fn list(items: &[String], lang: Lang) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => {
            let sep = if lang == Lang::Zh { "、" } else { ", " };
            format!("{}{}{last}", rest.join(sep), Say::And.get(lang))
        }
    }
}

/// A setting's phrase at value `v`: "trip after 302 consecutive failures".
fn setting(plan: &Plan, path: &str, v: f64, grouped: bool, lang: Lang) -> String {
    let leaf = path.rsplit('.').next().unwrap_or(path);
    let n = crate::ensemble::render::num(v);
    let say = match leaf {
        "breaker_trip_failures" => Some(Say::TripAfter),
        "breaker_open_s" => Some(Say::OpenFor),
        "max_retry" => Some(Say::RetryAtMost),
        "base_ms" => Some(Say::BackOff),
        "budget_pct" => Some(Say::Budget),
        "deadline_ms" if !path.starts_with("load.") => Some(Say::Deadline),
        "capacity" => Some(Say::Capacity),
        "instances" => Some(Say::Instances),
        "concurrency" => Some(Say::Concurrency),
        "queue_capacity" => Some(Say::Queue),
        "timeout_ms" => Some(Say::Timeout),
        "max_attempts" => Some(Say::Attempts),
        _ => None,
    };
    let Some(say) = say else {
        return Say::SetTo.fill(lang, &[&words::field_label(&plan.base, path, lang), &n]);
    };
    let phrase = say.fill(lang, &[&n]);
    // A field of every strategy, or of a tier, says whose it is; one strategy's only
    // when the sweep speaks of more than one.
    let group = words::group(&plan.base, path, lang)
        .filter(|_| grouped || path.starts_with("strategies[*]") || path.starts_with("tiers["));
    match group {
        Some(g) => Say::Grouped.fill(lang, &[&g, &phrase]),
        None => phrase,
    }
}

/// A metric's label, in its group only when the sweep speaks of more than one.
fn label(plan: &Plan, metric: &str, grouped: bool, lang: Lang) -> String {
    if grouped {
        words::metric_label(&plan.base, metric, lang)
    } else {
        words::metric_bare(metric, lang)
    }
}

/// The objective's value in words: "90% delivered", "goodput 950/s".
fn objective_words(plan: &Plan, o: &Objective, v: f64, grouped: bool, lang: Lang) -> String {
    let shown = words::unit(&o.of.metric).show(v, lang);
    let leaf = o.of.metric.rsplit('.').next().unwrap_or("");
    let mut s = if leaf == "delivery_pct" && !grouped {
        Say::Delivered.fill(lang, &[&shown])
    } else {
        Say::Valued.fill(lang, &[&label(plan, &o.of.metric, grouped, lang), &shown])
    };
    if o.of.stat != choose::Stat::Median {
        s = format!("{s} ({})", o.of.stat.name());
    }
    s
}

/// True when the sweep's fields and metrics are of more than one strategy or tier.
fn many_groups(plan: &Plan) -> bool {
    let sw = &plan.sweep;
    let mut names: Vec<&str> = sw.params.iter().map(|p| p.path.as_str()).collect();
    names.extend(sw.objective.iter().map(|o| o.of.metric.as_str()));
    names.extend(sw.constraints.iter().map(|c| c.of.metric.as_str()));
    let mut groups: Vec<&str> = names
        .iter()
        .filter(|n| n.starts_with("strategies[") || n.starts_with("tiers["))
        .filter_map(|n| n.split_once(']').map(|x| x.0))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups.len() > 1
}

/// The value of `o` that counts for a group of points: its worst.
fn worst(values: impl Iterator<Item = f64>, goal: Goal) -> Option<f64> {
    values.reduce(|a, b| match goal {
        Goal::Max => a.min(b),
        Goal::Min => a.max(b),
    })
}

/// The recommendation of `r` (a result of `plan`) in `lang`; `None` without an objective.
pub fn advice(plan: &Plan, r: &SweepResult, lang: Lang) -> Option<Advice> {
    let o = plan.sweep.objective.as_ref()?;
    let total = plan.points.len();
    if r.points.len() < total {
        return Some(Advice {
            text: Say::Pending.fill(lang, &[&total, &r.points.len()]),
            complete: false,
            point: None,
        });
    }
    let grouped = many_groups(plan);
    let caveat = Say::Caveat.fill(lang, &[&plan.seeds.len()]);
    let paths: Vec<&str> = r.paths.iter().map(String::as_str).collect();
    let settings: Vec<usize> = (0..paths.len())
        .filter(|&i| words::is_setting(paths[i]))
        .collect();
    let conditions: Vec<String> = (0..paths.len())
        .filter(|i| !settings.contains(i))
        .map(|i| words::field_label(&plan.base, paths[i], lang))
        .collect();
    if settings.is_empty() {
        return Some(Advice {
            text: Say::Conditions.fill(lang, &[&list(&conditions, lang)]),
            complete: true,
            point: None,
        });
    }
    // The points with the same settings form one choice: with conditions swept too, it
    // counts by its worst point, and meets the constraints only if each of its points does.
    let key = |p: &super::Point| -> Vec<u64> {
        settings.iter().map(|&i| p.params[i].to_bits()).collect()
    };
    let mut choices: Vec<(Vec<u64>, Vec<usize>)> = Vec::new();
    for p in &r.points {
        let k = key(p);
        match choices.iter_mut().find(|c| c.0 == k) {
            Some(c) => c.1.push(p.index),
            None => choices.push((k, vec![p.index])),
        }
    }
    let candidates: Vec<(usize, f64)> = choices
        .iter()
        .filter(|(_, pts)| pts.iter().all(|&i| r.points[i].feasible))
        .filter_map(|(_, pts)| {
            let v = worst(
                pts.iter()
                    .map(|&i| choose::value(&r.points[i].ensemble, &o.of))
                    .collect::<Option<Vec<f64>>>()?
                    .into_iter(),
                o.goal,
            )?;
            Some((pts[0], v))
        })
        .collect();
    let constraints: Vec<String> = plan
        .sweep
        .constraints
        .iter()
        .map(|c| words::constraint_words(c, &label(plan, &c.of.metric, grouped, lang), lang))
        .collect();
    let best = if conditions.is_empty() {
        r.best
    } else {
        choose::best(&candidates, o.goal)
    };
    let Some(b) = best else {
        return Some(Advice {
            text: format!(
                "{} {caveat}",
                Say::NoneMeets.fill(lang, &[&list(&constraints, lang)])
            ),
            complete: true,
            point: None,
        });
    };
    let p = &r.points[b];
    let set: Vec<String> = settings
        .iter()
        .map(|&i| setting(plan, paths[i], p.params[i], grouped, lang))
        .collect();
    let value = if conditions.is_empty() {
        choose::value(&p.ensemble, &o.of)
    } else {
        candidates.iter().find(|c| c.0 == b).map(|c| c.1)
    };
    let mut gives = value.map_or_else(
        || Say::Valued.fill(lang, &[&label(plan, &o.of.metric, grouped, lang), &"—"]),
        |v| objective_words(plan, o, v, grouped, lang),
    );
    if !conditions.is_empty() {
        gives = Say::AtWorst.fill(lang, &[&gives]);
    }
    let mut what = vec![gives];
    what.extend(constraints);
    let sep = if lang == Lang::Zh { "，" } else { ", " };
    let mut text = Say::Recommend.fill(lang, &[&list(&set, lang), &what.join(sep)]);
    if !conditions.is_empty() {
        let scope = Say::EveryCondition.fill(lang, &[&list(&conditions, lang)]);
        // Before the sentence's full stop.
        let stop = if lang == Lang::Zh { "。" } else { "." };
        text = format!("{}{scope}{stop}", text.trim_end_matches(stop));
    }
    Some(Advice {
        text: format!("{text} {caveat}"),
        complete: true,
        point: Some(b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::problems;
    use crate::scenario::AnyScenario;
    use crate::sweep::Sweep;

    #[test]
    fn catalogue_is_sound() {
        assert_eq!(problems::<Say>(), Vec::<String>::new());
    }

    fn plan(scenario: &str, sweep: &str) -> Plan {
        let base: AnyScenario = crate::scenario::parse(scenario).unwrap();
        Sweep::from_json(sweep).unwrap().plan(&base).unwrap()
    }

    const ARTICLE: &str = include_str!("../../../scenarios/article.json");

    #[test]
    fn a_setting_is_recommended_in_words_once_complete() {
        let p = plan(
            ARTICLE,
            r#"{"params":[{"path":"strategies[5].breaker_trip_failures","values":[5,300]}],"seeds":2,
               "objective":{"metric":"strategies[5].delivery_pct","goal":"max"},
               "constraints":[{"metric":"strategies[5].overload_seconds","stat":"p95","op":"<=","value":30}]}"#,
        );
        let r = p.run(Some(1)).unwrap();
        let a = advice(&p, &r, Lang::En).unwrap();
        assert!(a.complete);
        let b = r.best.expect("a feasible point");
        assert_eq!(a.point, Some(b));
        let v = crate::ensemble::render::num(r.points[b].params[0]);
        assert!(
            a.text.starts_with(&format!(
                "Recommended: trip after {v} consecutive failures: "
            )),
            "{}",
            a.text
        );
        assert!(
            a.text
                .contains("delivered, overload ≤ 30 s in 95% of seeds."),
            "{}",
            a.text
        );
        // Before every point is in, it says the recommendation comes, and names none.
        let part = p.summarise(&[]);
        let a = advice(&p, &part, Lang::En).unwrap();
        assert!(!a.complete && a.point.is_none(), "{a:?}");
        assert!(a.text.contains("when all 2 points are in"), "{}", a.text);
        assert!(advice(&p, &r, Lang::Zh)
            .unwrap()
            .text
            .starts_with("建议：连续失败"));
    }

    #[test]
    fn conditions_alone_recommend_nothing() {
        let p = plan(
            include_str!("../../../scenarios/cluster-metastable.json"),
            r#"{"params":[{"path":"load.rate_per_s","values":[500,1000]}],"seeds":1,
               "objective":{"metric":"run.goodput_per_s","goal":"max"}}"#,
        );
        let r = p.run(Some(1)).unwrap();
        assert!(r.best.is_some(), "the CLI's best point is still there");
        let a = advice(&p, &r, Lang::En).unwrap();
        assert_eq!(a.point, None);
        assert!(
            a.text
                .starts_with("offered load (per s): conditions, not settings"),
            "{}",
            a.text
        );
        assert!(!a.text.contains("Recommended"), "{}", a.text);
    }

    #[test]
    fn a_setting_with_a_condition_is_chosen_by_its_worst_case() {
        let p = plan(
            ARTICLE,
            r#"{"params":[{"path":"strategies[3].budget_pct","values":[0,20,100]},{"path":"clients","values":[800,1000]}],
               "seeds":1,"objective":{"metric":"strategies[3].overload_seconds","goal":"min"}}"#,
        );
        let r = p.run(Some(1)).unwrap();
        let a = advice(&p, &r, Lang::En).unwrap();
        let b = a.point.unwrap();
        // The recommended budget's worst overload over the clients is the lowest worst.
        let worst_of = |budget: f64| {
            r.points
                .iter()
                .filter(|q| q.params[0] == budget)
                .map(|q| {
                    choose::value(&q.ensemble, &p.sweep.objective.as_ref().unwrap().of).unwrap()
                })
                .fold(f64::MIN, f64::max)
        };
        let chosen = worst_of(r.points[b].params[0]);
        for budget in [0.0, 20.0, 100.0] {
            assert!(chosen <= worst_of(budget));
        }
        assert!(a.text.contains("at worst overload"), "{}", a.text);
        assert!(a.text.contains("(for every clients swept)"), "{}", a.text);
    }
}
