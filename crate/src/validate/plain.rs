//! A validation error in a reader's words: the field's label and what it may hold ("Max
//! retry must be between 0 and 30"), for the page to show at the field. Why a second
//! form: [`ValidationError::message`] is for the CLI and the JS `Error`, and keeps the
//! field's path, the value and the range the reader of a scenario file needs.

use super::{allowed_in, echo, one_line, ErrorKind, ValidationError, EXPECTATIONS};
use crate::lang::Lang;

/// The shown label of each scenario field, by its JSON key: `(key, English, Chinese)`,
/// sorted by key. A key without a label is shown as its name.
const LABELS: &[(&str, &str, &str)] = &[
    ("added_ms", "added latency (ms)", "增加的延迟（毫秒）"),
    (
        "amplification_tolerance",
        "amplification tolerance",
        "放大倍数容差",
    ),
    ("arrivals", "arrivals", "到达方式"),
    ("attribution", "time attribution", "时间归属"),
    ("balancer", "balancer", "负载均衡"),
    ("base_ms", "base (ms)", "基数（毫秒）"),
    ("billed", "failures billed", "计费的失败"),
    ("breaker", "breaker", "熔断"),
    ("breaker_open_s", "breaker open (s)", "熔断打开（秒）"),
    (
        "breaker_trip_failures",
        "breaker trips after",
        "熔断跳闸阈值",
    ),
    ("bucket_ms", "chart bucket (ms)", "图表时间桶（毫秒）"),
    ("budget_pct", "retry budget (%)", "重试预算（%）"),
    ("callers", "callers", "调用方数量"),
    ("cap_ms", "cap (ms)", "上限（毫秒）"),
    ("capacity", "capacity per second", "容量（每秒）"),
    ("capacity_per_s", "capacity per second", "每秒容量"),
    ("clients", "clients", "客户端数"),
    ("concurrency", "concurrency per instance", "每实例并发数"),
    ("deadline_ms", "deadline (ms)", "截止时间（毫秒）"),
    (
        "deadline_propagation",
        "propagate the deadline",
        "传递截止时间",
    ),
    ("delays_ms", "delays (ms, a list)", "延迟列表（毫秒）"),
    ("duration_ms", "duration (ms)", "持续时间（毫秒）"),
    ("duration_s", "duration (s)", "时长（秒）"),
    ("end_ms", "end (ms)", "结束（毫秒）"),
    ("error_rate", "error rate", "错误率"),
    ("factor", "capacity factor", "容量系数"),
    ("failure_rate_percent", "failure rate (%)", "失败率（%）"),
    ("failures", "failures to trip", "跳闸失败次数"),
    ("from_s", "outage start (s)", "故障开始（秒）"),
    ("half_open_calls", "half-open calls", "半开探测调用数"),
    (
        "hold_ms",
        "healthy for at least (ms)",
        "至少持续健康（毫秒）",
    ),
    ("idempotent_fraction", "idempotent fraction", "幂等请求比例"),
    (
        "idempotent_only",
        "retry idempotent requests only",
        "只重试幂等请求",
    ),
    ("initial_tokens", "initial tokens", "初始令牌数"),
    (
        "input_price_per_1k",
        "input price per 1k tokens",
        "每千输入令牌价格",
    ),
    ("input_tokens", "input tokens", "输入令牌数"),
    ("instances", "instances", "实例数"),
    ("jitter", "jitter", "抖动"),
    ("k", "k (multiplier)", "k（倍数）"),
    (
        "late_ms",
        "unanswered counts as failed after (ms)",
        "未应答超过此时长即计为失败（毫秒）",
    ),
    ("max_attempts", "max attempts", "最多尝试次数"),
    ("max_concurrent", "max concurrent", "最大并发"),
    ("max_events", "max events", "事件数上限"),
    ("max_queue", "max queue", "最大排队数"),
    ("max_retry", "max retry", "最多重试"),
    ("max_tokens", "max tokens", "令牌上限"),
    ("max_wait_ms", "max wait (ms)", "最长等待（毫秒）"),
    ("mean_ms", "mean (ms)", "均值（毫秒）"),
    ("min_requests", "min requests", "最少请求数"),
    (
        "min_retries_per_sec",
        "min retries per second",
        "每秒最少重试数",
    ),
    ("minimum_calls", "minimum calls", "最少调用数"),
    ("ms", "ms", "毫秒"),
    ("multiplier", "multiplier", "倍率"),
    ("name", "name", "名称"),
    (
        "no_retry_increment",
        "added by a success without retry",
        "无需重试的成功所加令牌",
    ),
    (
        "no_retry_while_breaker_open",
        "no retry while the breaker is open",
        "熔断打开时不重试",
    ),
    ("open_jitter_ms", "open jitter (ms)", "打开时长抖动（毫秒）"),
    ("open_ms", "open (ms)", "打开时长（毫秒）"),
    (
        "output_price_per_1k",
        "output price per 1k tokens",
        "每千输出令牌价格",
    ),
    ("output_tokens", "output tokens", "输出令牌数"),
    ("p50_ms", "p50 (ms)", "p50（毫秒）"),
    ("p99_ms", "p99 (ms)", "p99（毫秒）"),
    ("percent", "percent", "百分比"),
    ("percent_can_retry", "percent can retry", "可重试百分比"),
    ("queue_capacity", "queue capacity", "队列容量"),
    ("queue_timeout_ms", "queue timeout (ms)", "排队超时（毫秒）"),
    (
        "ramp_stage_ms",
        "gradual-recovery stage (ms)",
        "渐进恢复每阶段（毫秒）",
    ),
    ("rate", "rate (0–1)", "比率（0–1）"),
    ("rate_per_s", "rate per second", "每秒速率"),
    ("ratio_percent", "ratio (%)", "比例（%）"),
    ("retry_cost", "retry cost", "重试代价"),
    ("scope", "scope", "作用范围"),
    ("seed", "seed", "种子"),
    ("seeds", "seeds", "种子数"),
    ("slow_call_ms", "slow call (ms)", "慢调用阈值（毫秒）"),
    (
        "slow_call_rate_percent",
        "slow call rate (%)",
        "慢调用率（%）",
    ),
    (
        "slowdown_per_in_flight",
        "slowdown per request held",
        "每个在处理请求的减速系数",
    ),
    ("start_ms", "start (ms)", "开始（毫秒）"),
    ("strategies", "the strategies", "策略"),
    (
        "success_tolerance",
        "failure tolerance (0–1)",
        "失败率容差（0–1）",
    ),
    ("tier", "tier", "层"),
    ("timeout_cost", "timeout cost", "超时代价"),
    ("timeout_ms", "timeout (ms)", "超时（毫秒）"),
    ("to", "to", "目标"),
    ("to_rate_per_s", "to rate per second", "目标每秒速率"),
    ("to_s", "outage end (s)", "故障结束（秒）"),
    ("token_ratio", "tokens per success", "每次成功所加令牌"),
    ("ttl_ms", "TTL (ms)", "有效期（毫秒）"),
    (
        "upstream_latency_ms",
        "upstream latency (ms)",
        "上游延迟（毫秒）",
    ),
    ("wait_open_ms", "wait while open (ms)", "打开等待（毫秒）"),
    ("warmup_ms", "warm-up (ms)", "预热（毫秒）"),
    ("weight", "weight", "权重"),
    ("window", "window", "窗口"),
    ("window_ms", "window (ms)", "窗口（毫秒）"),
    ("window_size", "window size", "窗口大小"),
    ("z_score", "z-score", "z 分数"),
];

/// What a refused share link says, whatever is wrong in it (cut short, damaged, or a
/// scenario in it that no longer validates): the reader's fix is the same.
const LINK_CUT: (&str, &str) = (
    "This link looks cut off: copy the whole link",
    "此链接似乎不完整：请复制完整的链接",
);

/// What a link made by a newer playground says.
const LINK_NEWER: (&str, &str) = (
    "This link was made by a newer version of the playground",
    "此链接由更新版本的演练场生成",
);

impl ValidationError {
    /// The error in plain words in `lang`, one safe line: the field's label (not its
    /// path) and what it may hold, e.g. "Max retry must be between 0 and 30" /
    /// "最多重试必须在 0 到 30 之间"; any refused share link says "This link looks cut
    /// off: copy the whole link". [`message`](Self::message) keeps the technical form.
    pub fn plain(&self, lang: Lang) -> String {
        let pick = |(en, zh): (&str, &str)| if lang == Lang::Zh { zh } else { en }.to_string();
        if is_link(&self.field) {
            let newer = self.field == "link.version" && self.allowed.contains("newer");
            return pick(if newer { LINK_NEWER } else { LINK_CUT });
        }
        let allowed = one_line(&self.allowed);
        if self.field.is_empty() {
            let what = one_line(&allowed_in(&allowed, lang));
            return match lang {
                Lang::Zh => format!("无法读取场景：{what}"),
                Lang::En => format!("The scenario could not be read: {what}"),
            };
        }
        let key = last_key(&self.field);
        let label = label(&key, lang);
        let sentence = match self.kind {
            ErrorKind::Missing => match lang {
                Lang::Zh => format!("{label}必须填写"),
                Lang::En => format!("{label} is required"),
            },
            ErrorKind::Unknown => match lang {
                Lang::Zh => format!("`{key}` 不是已知字段"),
                Lang::En => format!("`{key}` is not a known field"),
            },
            ErrorKind::Range | ErrorKind::Type => must_hold(&label, &allowed, lang),
        };
        capitalised(sentence, lang)
    }
}

/// True for a share link's own path (`link`, `link.version`, `link.classic.capacity`).
fn is_link(field: &str) -> bool {
    field == "link" || field.starts_with("link.") || field.starts_with("link[")
}

/// The last named key of a path: `max_retry` of `strategies[1].max_retry`, `delays_ms`
/// of `delays_ms[2]`, a quoted key (`["a b"]`) as its text, echoed safely.
fn last_key(field: &str) -> String {
    let mut rest = field;
    loop {
        // A quoted key: its text never holds a raw `"`, so its last `["` opens it.
        if rest.ends_with("\"]") {
            if let Some(open) = rest.rfind("[\"") {
                let quoted = &rest[open + 1..rest.len() - 1];
                return echo(&serde_json::from_str::<String>(quoted).unwrap_or_default());
            }
        }
        // A trailing index (`[2]`) names no field: the key before it does.
        let index = rest.strip_suffix(']').and_then(|r| {
            let open = r.rfind('[')?;
            (open > 0 && r[open + 1..].bytes().all(|b| b.is_ascii_digit())).then_some(open)
        });
        match index {
            Some(open) => rest = &rest[..open],
            None => break,
        }
    }
    echo(rest.rsplit('.').next().unwrap_or(rest))
}

/// The label of `key` in `lang`, or the key itself.
fn label(key: &str, lang: Lang) -> String {
    match LABELS.binary_search_by(|(k, ..)| (*k).cmp(key)) {
        Ok(i) if lang == Lang::Zh => LABELS[i].2.to_string(),
        Ok(i) => LABELS[i].1.to_string(),
        Err(_) => key.to_string(),
    }
}

/// "`label` must be …" for what `allowed` says: a range (`0..=30`, `1..=8 entries`,
/// `1..=64 characters`), one of the engine's expectations, perhaps with a range (`a whole
/// number ≥ 0 in 1..=10000`), or serde's list of names; anything else after a colon.
fn must_hold(label: &str, allowed: &str, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    if let Some((lo, hi, unit)) = range(allowed) {
        return match (unit, zh) {
            ("", false) => format!("{label} must be between {lo} and {hi}"),
            ("", true) => format!("{label}必须在 {lo} 到 {hi} 之间"),
            ("characters", false) => format!("{label} must be {lo} to {hi} characters long"),
            ("characters", true) => format!("{label}必须是 {lo} 到 {hi} 个字符"),
            (_, false) => format!("{label} must have {lo} to {hi} entries"),
            (_, true) => format!("{label}必须有 {lo} 到 {hi} 项"),
        };
    }
    for (en, zh_word) in EXPECTATIONS {
        if allowed == en {
            return if zh {
                format!("{label}必须是{zh_word}")
            } else {
                format!("{label} must be {en}")
            };
        }
        if let Some((lo, hi, _)) = allowed
            .strip_prefix(en)
            .and_then(|r| r.strip_prefix(" in "))
            .and_then(range)
        {
            // The range says the sign: "a whole number ≥ 0" is "a whole number" here.
            let (en, zh_word) = (
                en.trim_end_matches(" ≥ 0"),
                zh_word.trim_start_matches("≥ 0 的"),
            );
            return if zh {
                format!("{label}必须是 {lo} 到 {hi} 之间的{zh_word}")
            } else {
                format!("{label} must be {en} between {lo} and {hi}")
            };
        }
    }
    if let Some(names) = names(allowed) {
        return if zh {
            format!("{label}必须是 {} 之一", names.join("、"))
        } else {
            format!("{label} must be one of {}", names.join(", "))
        };
    }
    if zh {
        format!("{label}：{}", allowed_in(allowed, lang))
    } else {
        format!("{label}: {allowed}")
    }
}

/// `lo..=hi` with an optional unit word after it (`1..=8 entries`): `(lo, hi, unit)`.
fn range(allowed: &str) -> Option<(&str, &str, &str)> {
    let (lo, rest) = allowed.split_once("..=")?;
    let (hi, unit) = rest.split_once(' ').unwrap_or((rest, ""));
    let number = |s: &str| !s.is_empty() && s.parse::<f64>().is_ok();
    let plain_unit = unit.chars().all(|c| c.is_ascii_lowercase());
    (number(lo) && number(hi) && plain_unit).then_some((lo, hi, unit))
}

/// serde's list of accepted names (`` `a` or `b` ``, `` one of `a`, `b`, `c` ``).
fn names(allowed: &str) -> Option<Vec<&str>> {
    let list = allowed.strip_prefix("one of ").unwrap_or(allowed);
    if !list.starts_with('`') || !list.ends_with('`') {
        return None;
    }
    let inner = &list[1..list.len() - 1];
    Some(
        inner
            .split("`, `")
            .flat_map(|n| n.split("` or `"))
            .collect(),
    )
}

/// An English sentence starts with a capital letter; Chinese has none.
fn capitalised(sentence: String, lang: Lang) -> String {
    let mut chars = sentence.chars();
    match chars.next() {
        Some(first) if lang == Lang::En && first.is_ascii_lowercase() => {
            first.to_ascii_uppercase().to_string() + chars.as_str()
        }
        _ => sentence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::in_range;

    #[test]
    fn labels_are_sorted_for_the_search() {
        assert!(LABELS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_range_names_the_label_and_the_bounds() {
        let e = in_range("strategies[1].max_retry", 999u32, 0, 30).unwrap_err();
        assert_eq!(e.plain(Lang::En), "Max retry must be between 0 and 30");
        assert_eq!(e.plain(Lang::Zh), "最多重试必须在 0 到 30 之间");
        // The technical form is unchanged.
        assert_eq!(
            e.message(Lang::En),
            "strategies[1].max_retry = 999 is out of range: allowed 0..=30"
        );
        let e = in_range("tiers[1].instances", 0u32, 1, 10_000).unwrap_err();
        assert_eq!(e.plain(Lang::En), "Instances must be between 1 and 10000");
    }

    #[test]
    fn a_type_error_says_what_kind_of_value() {
        let e = ValidationError::new(
            "tiers[1].instances",
            "1.5",
            "a whole number ≥ 0 in 1..=10000",
        )
        .of_kind(ErrorKind::Type);
        assert_eq!(
            e.plain(Lang::En),
            "Instances must be a whole number between 1 and 10000"
        );
        assert_eq!(e.plain(Lang::Zh), "实例数必须是 1 到 10000 之间的整数");
        let e = ValidationError::new("clients", "\"x\"", super::super::EXPECT_UNSIGNED)
            .of_kind(ErrorKind::Type);
        assert_eq!(e.plain(Lang::En), "Clients must be a whole number ≥ 0");
        assert_eq!(e.plain(Lang::Zh), "客户端数必须是≥ 0 的整数");
        let e = ValidationError::new("strategies[0].jitter", "\"x\"", "`none` or `full`")
            .of_kind(ErrorKind::Type);
        assert_eq!(e.plain(Lang::En), "Jitter must be one of none, full");
        assert_eq!(e.plain(Lang::Zh), "抖动必须是 none、full 之一");
    }

    #[test]
    fn lists_names_and_missing_fields() {
        let e = ValidationError::new("strategies", "0 entries", "1..=8 entries");
        assert_eq!(e.plain(Lang::En), "The strategies must have 1 to 8 entries");
        let e = ValidationError::new("strategies[0].name", "\"\"", "1..=64 characters");
        assert_eq!(e.plain(Lang::En), "Name must be 1 to 64 characters long");
        let e = ValidationError::new("tiers[0].name", "", "a value").of_kind(ErrorKind::Missing);
        assert_eq!(e.plain(Lang::En), "Name is required");
        let e = ValidationError::new("tiers[0].bogus", "", "`name`").of_kind(ErrorKind::Unknown);
        assert_eq!(e.plain(Lang::Zh), "`bogus` 不是已知字段");
    }

    #[test]
    fn any_refused_link_says_it_looks_cut_off() {
        for field in [
            "link",
            "link.payload",
            "link.classic.capacity",
            "link.version",
        ] {
            let e = ValidationError::new(field, "x", "a state of the form v1.<base64url>");
            assert_eq!(
                e.plain(Lang::En),
                "This link looks cut off: copy the whole link"
            );
            assert_eq!(e.plain(Lang::Zh), "此链接似乎不完整：请复制完整的链接");
        }
        let newer = ValidationError::new(
            "link.version",
            "v99",
            "v1..=v5 (this link was made by a newer playground)",
        );
        assert!(newer.plain(Lang::En).contains("newer version"));
    }

    #[test]
    fn echoed_keys_stay_on_one_line() {
        let e =
            ValidationError::new("tiers[0][\"a\\nb\"]", "", "`name`").of_kind(ErrorKind::Unknown);
        assert_eq!(e.plain(Lang::En), "`a\\nb` is not a known field");
        // A `[` inside a quoted key is not an index.
        let e =
            ValidationError::new("tiers[0][\"a[1]\"]", "", "`name`").of_kind(ErrorKind::Unknown);
        assert_eq!(e.plain(Lang::En), "`a[1]` is not a known field");
        let e = ValidationError::new("tiers[0].delays_ms[2]", "-1", "0..=60000");
        assert_eq!(
            e.plain(Lang::En),
            "Delays (ms, a list) must be between 0 and 60000"
        );
    }
}
