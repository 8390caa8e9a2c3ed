//! The cluster run's verdict in one headline: "Recovered after 4.0 s by arrivals,
//! 6.5 s by goodput" (both recovery figures, named: see [`super::metrics`]), "Never
//! recovered: 66 s overloaded" or "Unhealthy before the trigger: 0.49% of requests
//! succeeded in the steady state", the answer a reader looks for first. The CLI's text
//! report, the page above its charts, its embeds and its Markdown export print this line.

use super::metrics::Summary;
use crate::lang::{Lang, Texts};
use crate::report::{fmt, Unit};

crate::catalogue! {
    /// The words of the cluster verdict.
    pub(crate) enum Words {
        /// It recovered: `{0}` the time from the end of the last trigger to the arrival
        /// cohorts' recovery ("4.0 s"), `{1}` to the goodput's.
        Recovered => ("{0} 后恢复（按到达批次；有效吞吐 {1} 后恢复）", "Recovered after {0} by arrivals, {1} by goodput"),
        /// The cohorts recovered, the goodput not: `{0}` the cohorts' recovery time.
        RecoveredGoodputLow => ("{0} 后恢复（按到达批次；有效吞吐未回到基线）", "Recovered after {0} by arrivals; goodput not back to baseline"),
        /// It never recovered: `{0}` the whole seconds it was overloaded.
        NeverRecovered => ("始终未恢复：过载 {0} 秒", "Never recovered: {0} s overloaded"),
        /// The steady state before the trigger already failed: `{0}` its success ratio
        /// ("12.00%").
        UnhealthyBeforeTrigger => ("触发前已不健康：稳态成功率仅 {0}", "Unhealthy before the trigger: {0} of requests succeeded in the steady state"),
        /// No trigger, and the steady state fails: `{0}` its success ratio.
        UnhealthySteadyState => ("稳态不健康：成功率仅 {0}", "Unhealthy steady state: {0} of requests succeeded"),
        /// No fault or spike to recover from: `{0}` the whole seconds it was overloaded.
        NoTrigger => ("没有故障或突增：过载 {0} 秒", "No fault or spike to recover from: {0} s overloaded"),
    }
}

/// The verdict of a run's summary in `lang`.
pub fn line(s: &Summary, lang: Lang) -> String {
    // Whole seconds: the overload is a sum of whole buckets, so a decimal adds nothing.
    let overloaded = (s.overload_duration_ms as f64 / 1000.0).round();
    if s.unhealthy_baseline {
        // Recovery is judged against the baseline: a failing one leaves nothing to judge.
        let ratio = fmt(Unit::Percent, s.baseline_success_ratio);
        return match s.trigger_end_ms {
            Some(_) => Words::UnhealthyBeforeTrigger.fill(lang, &[&ratio]),
            None => Words::UnhealthySteadyState.fill(lang, &[&ratio]),
        };
    }
    match (s.recovery_time_ms, s.metastable) {
        (Some(ms), _) => {
            let cohorts = fmt(Unit::Seconds, ms as f64);
            match s.goodput_recovery_ms {
                Some(g) => Words::Recovered.fill(lang, &[&cohorts, &fmt(Unit::Seconds, g as f64)]),
                None => Words::RecoveredGoodputLow.fill(lang, &[&cohorts]),
            }
        }
        (None, true) => Words::NeverRecovered.fill(lang, &[&overloaded]),
        (None, false) => Words::NoTrigger.fill(lang, &[&overloaded]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{run, Scenario};
    use crate::scenario::{parse, AnyScenario};

    fn bundled(text: &str) -> Scenario {
        match parse(text) {
            Ok(AnyScenario::Cluster(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_catalogue_is_sound() {
        assert!(crate::lang::problems::<Words>().is_empty());
    }

    #[test]
    fn each_outcome_has_its_headline() {
        let sc = bundled(include_str!("../../../scenarios/cluster-metastable.json"));
        let mut s = run(&sc, sc.seed).unwrap().summary;
        assert!(s.metastable, "{s:?}");
        let never = line(&s, Lang::En);
        assert!(never.starts_with("Never recovered: "), "{never}");
        assert!(never.ends_with(" s overloaded"), "{never}");
        s.recovery_time_ms = Some(4_000);
        s.metastable = false;
        s.goodput_recovery_ms = Some(6_500);
        assert_eq!(
            line(&s, Lang::En),
            "Recovered after 4.0 s by arrivals, 6.5 s by goodput"
        );
        assert_eq!(
            line(&s, Lang::Zh),
            "4.0 s 后恢复（按到达批次；有效吞吐 6.5 s 后恢复）"
        );
        s.goodput_recovery_ms = None;
        assert_eq!(
            line(&s, Lang::En),
            "Recovered after 4.0 s by arrivals; goodput not back to baseline"
        );
        s.recovery_time_ms = None;
        s.overload_duration_ms = 2_000;
        assert_eq!(line(&s, Lang::Zh), "没有故障或突增：过载 2 秒");
        s.unhealthy_baseline = true;
        s.baseline_success_ratio = 0.12;
        s.trigger_end_ms = None;
        assert_eq!(
            line(&s, Lang::En),
            "Unhealthy steady state: 12.00% of requests succeeded"
        );
        s.trigger_end_ms = Some(30_000);
        assert_eq!(
            line(&s, Lang::En),
            "Unhealthy before the trigger: 12.00% of requests succeeded in the steady state"
        );
        assert_eq!(line(&s, Lang::Zh), "触发前已不健康：稳态成功率仅 12.00%");
    }
}
