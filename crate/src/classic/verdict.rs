//! The classic run's verdict in one line of words: which strategy keeps the upstream's
//! overload lowest, at what amplification and delivery, and the trap of the run (the
//! strategy that delivers the most while keeping the upstream overloaded longer). The CLI's
//! `run` report, the page, its embeds and its Markdown export all print this line.

use super::cells::{amplification, delivery};
use super::engine::{Output, StrategyResult};
use crate::lang::{Lang, Texts};

crate::catalogue! {
    /// The words of the classic verdict.
    pub(crate) enum Words {
        /// The best strategy: `{0}` its name, `{1}` its overload seconds, `{2}` its
        /// amplification ("1.03x"), `{3}` its delivery ("90.8%").
        Best => (
            "过载最短：{0}（过载 {1} 秒），放大倍数 {2}，交付率 {3}。",
            "Lowest overload: {0} ({1} s overloaded) at {2} amplification and {3} delivery."
        ),
        /// The trap: `{0}` its name, `{1}` its delivery, `{2}` its overload seconds.
        Trap => (
            "陷阱：{0} 交付率最高（{1}），过载却长达 {2} 秒。",
            "Trap: {0} delivers the most ({1}) but keeps the upstream overloaded for {2} s."
        ),
    }
}

/// The strategy that keeps overload lowest: fewest overload seconds, then the higher
/// delivery, then the lower amplification, then the first listed (so ties are stable).
fn best(results: &[StrategyResult]) -> Option<&StrategyResult> {
    results.iter().reduce(|a, b| {
        let key = |r: &StrategyResult| (r.overload_seconds, -r.delivery_pct, r.amplification);
        if key(b).partial_cmp(&key(a)) == Some(core::cmp::Ordering::Less) {
            b
        } else {
            a
        }
    })
}

/// The trap, if the run has one: the strategy with the highest delivery (the first of
/// equals) when it is not the best and keeps the upstream overloaded longer than the best,
/// the choice a reader who looks only at delivery would make.
fn trap<'a>(results: &'a [StrategyResult], best: &StrategyResult) -> Option<&'a StrategyResult> {
    let top = results.iter().reduce(|a, b| {
        if b.delivery_pct > a.delivery_pct {
            b
        } else {
            a
        }
    })?;
    (top.overload_seconds > best.overload_seconds).then_some(top)
}

/// The verdict of a run in `lang`: the best strategy's sentence, then the trap's when the
/// run has one; empty for a run without strategies.
pub fn line(out: &Output, lang: Lang) -> String {
    let Some(b) = best(&out.results) else {
        return String::new();
    };
    let mut s = Words::Best.fill(
        lang,
        &[
            &b.name,
            &b.overload_seconds,
            &amplification(b),
            &delivery(b),
        ],
    );
    if let Some(t) = trap(&out.results, b) {
        // Chinese sentences run on without a space; English ones take one.
        if lang == Lang::En {
            s.push(' ');
        }
        s.push_str(&Words::Trap.fill(lang, &[&t.name, &delivery(t), &t.overload_seconds]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::{simulate, Scenario};

    #[test]
    fn the_catalogue_is_sound() {
        assert!(crate::lang::problems::<Words>().is_empty());
    }

    #[test]
    fn the_article_run_names_s6_best_and_s2_the_trap() {
        let out = simulate(&Scenario::article(), 4242).unwrap();
        assert_eq!(
            line(&out, Lang::En),
            "Lowest overload: S6 预算+熔断 (0 s overloaded) at 0.94x amplification and 90.0% \
             delivery. Trap: S2 指数退避无抖动 delivers the most (100.0%) but keeps the \
             upstream overloaded for 34 s."
        );
        assert_eq!(
            line(&out, Lang::Zh),
            "过载最短：S6 预算+熔断（过载 0 秒），放大倍数 0.94x，交付率 90.0%。\
             陷阱：S2 指数退避无抖动 交付率最高（100.0%），过载却长达 34 秒。"
        );
    }

    #[test]
    fn ties_go_to_delivery_and_no_trap_when_the_best_delivers_most() {
        let mut sc = Scenario::article();
        // S1 and S2 alone: S1 overloads 6 s, S2 34 s at 100% delivery.
        sc.strategies.truncate(2);
        let out = simulate(&sc, 4242).unwrap();
        assert!(line(&out, Lang::En).starts_with("Lowest overload: S1"));
        assert!(line(&out, Lang::En).contains("Trap: S2"));
        // S2 alone is best and top at once: no trap.
        sc.strategies.remove(0);
        let out = simulate(&sc, 4242).unwrap();
        let l = line(&out, Lang::En);
        assert!(
            l.starts_with("Lowest overload: S2") && !l.contains("Trap"),
            "{l}"
        );
    }
}
