//! The bundled sweeps: one place for the CLI (`retrystorm grid --sweep-preset ID`) and
//! the page's sweep panel. Each names the bundled scenario it sweeps, its definition
//! file in `scenarios/sweeps/` (whose `plot` is the metric its chart shows first), and says in both
//! languages what to look at. A preset with `compare` runs the same sweep on a second
//! scenario too, shown side by side (the page pins it as run A of an A/B comparison).

use crate::lang::Lang;

/// One bundled sweep.
#[derive(Debug, Clone, Copy)]
pub struct SweepPreset {
    /// File stem in `scenarios/sweeps/`, also the preset's id.
    pub id: &'static str,
    /// `"classic"` or `"cluster"`.
    pub model: &'static str,
    /// The bundled scenario swept (its id, see [`crate::scenario::bundled`]).
    pub scenario: &'static str,
    /// A second bundled scenario swept the same way and shown beside the first.
    pub compare: Option<&'static str>,
    /// The definition's JSON text.
    pub json: &'static str,
    /// The title as (Chinese, English).
    title: (&'static str, &'static str),
    /// The description as (Chinese, English).
    description: (&'static str, &'static str),
}

impl SweepPreset {
    /// The short title in `lang`.
    pub fn title(&self, lang: Lang) -> &'static str {
        lang.of(self.title)
    }

    /// What the preset shows and what to look at, in `lang`.
    pub fn description(&self, lang: Lang) -> &'static str {
        lang.of(self.description)
    }
}

/// Every bundled sweep, in the order the page lists them.
pub fn presets() -> Vec<SweepPreset> {
    vec![
        SweepPreset {
            id: "breaker-threshold",
            model: "classic",
            scenario: "article",
            compare: None,
            json: crate::bundled_json!("sweeps/breaker-threshold.json"),
            title: ("断路器阈值（§5）", "Breaker threshold (§5)"),
            description: (
                "文章 §5 没能给出推荐阈值：这里把 S6 的跳闸阈值从 50 扫到 2000（对数刻度，40 个点，每点 100 个种子）。看三条曲线：送达率、有害拒绝（断路器拒掉的本可成功的请求）和过载秒数。阈值太低，断路器频繁误跳，有害拒绝暴涨；太高则断路器形同虚设。推荐点是在“95% 的种子里过载不超过 2 秒、有害拒绝不超过 100”这两个约束下送达率最高的阈值——只对这个场景成立，不是通用答案。",
                "The article's §5 could not recommend a threshold: this sweeps S6's trip threshold from 50 to 2,000 (log scale, 40 points, 100 seeds each). Look at three curves: delivery, harmful rejections (requests the breaker refused that would have succeeded) and overload seconds. Too low and the breaker trips needlessly, harmful rejections soar; too high and it never acts. The recommended point is the threshold with the best delivery subject to at most 2 overload seconds and at most 100 harmful rejections in 95% of seeds: an answer for this scenario, not in general.",
            ),
        },
        SweepPreset {
            id: "budget-percentage",
            model: "classic",
            scenario: "article",
            compare: None,
            json: crate::bundled_json!("sweeps/budget-percentage.json"),
            title: ("重试预算百分比（S4）", "Retry budget percentage (S4)"),
            description: (
                "S4 的重试预算从容量的 0% 扫到 100%（100 即关闭预算）。看放大倍数曲线在哪里开始爬升：预算小时重试几乎全被拦下，放大接近 1 倍，送达率也随之下降；预算一旦超过故障期间需要的重试量，放大倍数就迅速升向不设预算的 S3。帕累托图给出送达率与放大倍数之间的取舍。",
                "S4's retry budget from 0% to 100% of capacity (100 turns the budget off). Look for where the amplification curve starts to climb: with a small budget almost every retry is refused, amplification stays near 1x and delivery drops with it; once the budget exceeds the retries the outage asks for, amplification rises quickly towards S3's, which has no budget. The Pareto chart shows the trade-off between delivery and amplification.",
            ),
        },
        SweepPreset {
            id: "metastability-map",
            model: "cluster",
            scenario: "cluster-metastable-budget",
            compare: Some("cluster-metastable"),
            json: crate::bundled_json!("sweeps/metastability-map.json"),
            title: ("亚稳态地图（集群）", "Metastability map (cluster)"),
            description: (
                "集群模型：横轴是平常的到达率（负载），纵轴是突发流量持续到何时（突发从第 20 秒开始，结束时刻越晚持续越久），颜色是始终没有恢复的种子比例（亚稳态）。左边是带重试预算的集群，右边（A）是同一集群但没有预算。看颜色从浅到深的分界线：没有预算时，较低的负载、较短的突发就足以让集群翻倒且再也恢复不了；有预算时分界线明显右移、上移。",
                "The cluster model: across, the steady arrival rate (the load); up, when the spike ends (it starts at 20 s, so a later end is a longer spike); the colour is the fraction of seeds that never recover (metastable). The map on the left is the cluster with a retry budget, the one on the right (A) the same cluster without. Look at the edge where the colour turns: without a budget a lower load and a shorter spike already tip the cluster over for good; with the budget that edge moves well to the right and up.",
            ),
        },
    ]
}

/// The bundled sweep `id`, if there is one.
pub fn preset(id: &str) -> Option<SweepPreset> {
    presets().into_iter().find(|p| p.id == id)
}
