//! The words of an imported or exported policy, in Chinese and English (the shape is
//! [`crate::lang`]'s): what the attempts, the waits, the budget and the breaker do.
//! Each format's own notes (its quirks) are in its reader's catalogue.

crate::catalogue! {
    /// A part of a policy's explanation.
    pub enum Text {
        /// The first line: `{0}` the library, `{1}` where in the file.
        Source => ("{0}（{1}）", "{0} ({1})"),
        /// The label of a quirk.
        Note => ("注意：", "note: "),
        /// The label of a filled-in default.
        Default => ("默认值：", "default: "),
        /// The label of something the target library cannot express.
        Cannot => ("无法表达：", "cannot express: "),
        /// One attempt.
        NoRetries => ("1 次尝试：不重试", "1 attempt: no retries"),
        /// Two attempts.
        OneRetry => ("2 次尝试 = 1 次调用 + 1 次重试", "2 attempts = 1 call + 1 retry"),
        /// Attempts: `{0}` attempts, `{1}` retries.
        Attempts => ("{0} 次尝试 = 1 次调用 + {1} 次重试", "{0} attempts = 1 call + {1} retries"),
        /// No wait between attempts.
        AtOnce => ("立即重试，不等待", "retries at once, without waiting"),
        /// The waits: `{0}` the first waits.
        Waits => ("等待 {0}", "waits {0}"),
        /// Fully random waits: `{0}` their upper bounds.
        WaitsUpTo => ("每次等待 0 到上限之间的随机时长，上限 {0}", "waits a random time up to {0}"),
        /// Waits drawn in a range: `{0}` low, `{1}` high.
        WaitsBetween => ("每次等待 {0} 到 {1} 之间的随机时长", "waits a random time between {0} and {1}"),
        /// Polly's decorrelated jitter: `{0}` the first waits at the middle of their range.
        WaitsAbout => ("等待约 {0}（去相关抖动，平均每次约 ×2）", "waits about {0} (decorrelated jitter, about ×2 each time)"),
        /// Growth by a factor: `{0}` the factor.
        Growth => ("（×{0}）", " (×{0})"),
        /// Growth by the previous wait: `{0}` the factor.
        GrowthOfPrevious => ("（上一次等待 ×{0}）", " (×{0} the previous wait)"),
        /// Linear growth: `{0}` the step.
        Plus => ("（每次 +{0}）", " (+{0} each time)"),
        /// Proportional jitter: `{0}` percent.
        Spread => ("，各 ±{0}%", ", each ±{0}%"),
        /// An absolute jitter: `{0}` the most added or taken away.
        PlusMinus => ("，各 ±{0}", ", each ±{0}"),
        /// A cap: `{0}` the longest wait.
        AtMost => ("，最长 {0}", ", at most {0}"),
        /// A floor: `{0}` the shortest wait.
        AtLeast => ("，最短 {0}", ", at least {0}"),
        /// cenkalti/backoff's cap before the jitter: `{0}` the cap, `{1}` the longest wait.
        IntervalAtMost => ("，间隔最长 {0}（抖动在封顶之后，等待可达 {1}）", ", the interval at most {0} (jittered after the cap, so a wait reaches {1})"),
        /// Full jitter over a computed delay.
        FullJitter => ("，各取 0 到该值之间的随机时长", ", each a random time up to that"),
        /// Equal jitter.
        EqualJitter => ("，各取该值一半到全值之间的随机时长", ", each a random time between half of that and all of it"),
        /// Decorrelated jitter over a common backoff.
        DecorrelatedJitter => ("，去相关抖动：上一次等待的 3 倍以内的随机时长", ", decorrelated jitter: a random time up to 3× the previous wait"),
        /// tenacity's additive jitter: `{0}` the most it adds.
        PlusUpTo => ("，各加 0 到 {0} 的随机时长", ", each plus a random time up to {0}"),
        /// A budget or breaker shared by the calling tier.
        Shared => ("（整个调用层共用一个）", " (one shared by the calling tier)"),
        /// Seed 001's budget: `{0}` retries a second, `{1}` percent, `{2}` capacity a second.
        BudgetCapacity => ("重试预算：每秒最多 {0} 次重试（每秒容量 {2} 的 {1}%）", "retry budget: at most {0} retries a second ({1}% of {2} a second)"),
        /// A token bucket: `{0}` tokens, `{1}` tokens a request adds.
        BudgetTokens => ("重试预算：{0} 个令牌的桶，每个请求 +{1}，每次重试 −1", "retry budget: a bucket of {0} tokens, +{1} per request, −1 per retry"),
        /// gRPC throttling: `{0}` tokens, `{1}` a success adds, `{2}` the threshold.
        BudgetGrpc => ("重试节流：{0} 个令牌，每次失败 −1，每次成功 +{1}，令牌 ≤ {2} 时不再重试", "retry throttling: {0} tokens, −1 per failure, +{1} per success, no retries while tokens ≤ {2}"),
        /// Finagle's budget: `{0}` the window, `{1}` percent, `{2}` retries a second always allowed.
        BudgetWindowed => ("重试预算：重试不超过最近 {0} 内请求的 {1}%，另有每秒 {2} 次保底", "retry budget: retries up to {1}% of the requests of the last {0}, plus {2} a second always"),
        /// Finagle's empty budget.
        BudgetEmpty => ("重试预算为空：从不重试", "an empty retry budget: never a retry"),
        /// Seed 003's budget: `{0}` percent, `{1}` the window, `{2}` the minimum sample.
        BudgetRatio => ("重试预算：{1} 内重试 ≤ 请求的 {0}%（少于 {2} 个请求时不限）", "retry budget: retries ≤ {0}% of the requests of {1} (free below {2} requests)"),
        /// Seed 003's budget over the whole run: `{0}` percent, `{1}` the minimum sample.
        BudgetRatioCumulative => ("重试预算：全程重试 ≤ 请求的 {0}%（少于 {1} 个请求时不限）", "retry budget: retries ≤ {0}% of all requests so far (free below {1} requests)"),
        /// The AWS quota: `{0}` tokens, `{1}` a retry's cost, `{2}` after a timeout, `{3}` a first-try success's refund.
        BudgetAws => ("重试配额：{0} 个令牌，每次重试 −{1}（超时后 −{2}），无需重试的成功 +{3}，重试后的成功退还其花费", "retry quota: {0} tokens, −{1} per retry (−{2} after a timeout), +{3} per success without retries, a success after retries refunds its cost"),
        /// A bucket successes fill: `{0}` tokens, `{1}` tokens a success adds.
        BudgetSuccessBucket => ("重试预算：{0} 个令牌的桶，每次成功 +{1}，每次重试 −1", "retry budget: a bucket of {0} tokens, +{1} per success, −1 per retry"),
        /// Envoy's retry budget: `{0}` percent, `{1}` the floor.
        BudgetEnvoy => ("重试预算（Envoy）：同时进行的重试（含退避中的）不超过 max(在途请求的 {0}%, {1})", "retry budget (Envoy): retries outstanding (those waiting in backoff included) at most max({0}% of the requests in flight, {1})"),
        /// Envoy's max_retries: `{0}` how many.
        BudgetEnvoyMax => ("同时进行的重试（含退避中的）最多 {0} 个（Envoy 的 max_retries）", "at most {0} retries outstanding at once, those waiting in backoff included (Envoy's max_retries)"),
        /// Resilience4j's count window: `{0}` percent, `{1}` calls, `{2}` the minimum.
        BreakerCount => ("熔断器：最近 {1} 次调用中失败 ≥ {0}% 时打开（记录满 {2} 次调用后才判断）", "breaker opens at ≥ {0}% failures of the last {1} calls once {2} calls are recorded"),
        /// Resilience4j's time window: `{0}` percent, `{1}` seconds, `{2}` the minimum.
        BreakerTime => ("熔断器：最近 {1} 秒的调用中失败 ≥ {0}% 时打开（至少 {2} 次调用后才判断）", "breaker opens at ≥ {0}% failures of the calls of the last {1} s once {2} calls are recorded"),
        /// Slow calls: `{0}` percent, `{1}` how slow.
        BreakerSlow => ("，或慢于 {1} 的调用 ≥ {0}% 时", " or ≥ {0}% calls slower than {1}"),
        /// Consecutive failures: `{0}` how many.
        BreakerConsecutive => ("熔断器：连续 {0} 次失败后打开", "breaker opens after {0} failures in a row"),
        /// Polly's breaker: `{0}` percent, `{1}` the sampling duration, `{2}` the minimum.
        BreakerPolly => ("熔断器：最近 {1} 内失败 ≥ {0}% 时打开（其中至少 {2} 次调用后才判断）", "breaker opens at ≥ {0}% failures over the last {1} once {2} calls are in it"),
        /// A breaker of retries only: `{0}` failed attempts per 100 calls, `{1}` the window.
        BreakerRetryOnly => ("只熔断重试：{1}内失败的尝试超过调用的 {0}% 时不再重试，首次调用总是放行", "retries stop while failed attempts exceed {0}% of the calls {1}; first attempts always go through"),
        /// The retry-only breaker's window: `{0}` its length.
        Over => ("最近 {0} ", "over the last {0}"),
        /// The retry-only breaker's cumulative window.
        SoFar => ("全程", "so far"),
        /// An exponentially distributed wait: `{0}` its mean.
        WaitsExponentially => ("每次等待服从指数分布的随机时长，均值 {0}", "waits an exponentially distributed time of mean {0}"),
        /// Adaptive throttling: `{0}` K, `{1}` the window.
        BreakerSre => ("自适应限流（Google SRE）：K = {0}，窗口 {1}", "adaptive throttling (Google SRE): K = {0} over {1}"),
        /// The open state: `{0}` how long.
        StaysOpen => ("保持打开 {0}", "stays open {0}"),
        /// The open state with jitter: `{0}` how long, `{1}` the most added.
        StaysOpenJitter => ("保持打开 {0}，外加 0 到 {1} 的随机时长", "stays open {0} plus a random time up to {1}"),
        /// Half-open permits: `{0}` how many.
        Probes => ("半开时放行 {0} 次试探", "{0} probes"),
        /// One half-open permit.
        OneProbe => ("半开时放行 1 次试探", "1 probe"),
        /// Half-open when the wait ends, without a call.
        AutoHalfOpen => ("等待结束即转为半开", "half-open as soon as the wait ends"),
        /// Gradual recovery: `{0}` each stage's length.
        Ramp => ("关闭时经过 25% 和 50% 放行阶段，各 {0}", "closes through 25% and 50% admission stages of {0} each"),
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Text>(), Vec::<String>::new());
    }
}
