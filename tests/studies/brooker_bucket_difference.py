"""Why the `brooker-retry-sim` study's bucket load at 50% failures differs (its note):
Brooker's retry_sim (commit bbfe3946f0459a69f6012737c68fc63b973471be) as it is, then
without the call each client starts at its first event and with the model's bucket rule
(whole thousandths of a token, a retry from one whole token on). 40 seeds each.

usage: python3 brooker_bucket_difference.py PATH/TO/simulator_example/retry_sim

Prints the load % (mean, sd) and the calls per run of each variant; the last is the
model's setup, which gives 114.24-114.26% (`retrystorm study brooker-retry-sim`).
"""

import random
import statistics as st
import sys
import types

sys.path.insert(0, sys.argv[1])
import retry_strategy as rst  # noqa: E402
from client import Client  # noqa: E402

source = open(f"{sys.argv[1]}/retry_sim.py").read()
source = source.replace("run_sims_retry_serial(10.0)", "")
rs = types.ModuleType("retry_sim")
exec(compile(source, "retry_sim.py", "exec"), rs.__dict__)


class ModelRule(rst.AdaptiveRetryStrategy):
    """The model's token_bucket: thousandths, a retry from 1000 on."""

    def __init__(self):
        super().__init__(0.1, 5)
        self.milli = 5000

    def new_call(self):
        return self

    def start(self):
        self.milli = min(self.milli + 100, 5000)

    def should_retry(self):
        if self.milli >= 1000:
            self.milli -= 1000
            return True
        return False


class PoissonFromTheStart(Client):
    """Skips the call Client.gen_load starts at the client's first event."""

    started = False

    def gen_load(self, payload, t):
        if not self.started:
            self.started = True
            return [(t + random.expovariate(self.rate), self.gen_load, None)]
        return super().gen_load(payload, t)


for label, client, strategy in [
    ("his code as it is", Client, lambda: rst.AdaptiveRetryStrategy(0.1, 5)),
    ("without the first call", PoissonFromTheStart, lambda: rst.AdaptiveRetryStrategy(0.1, 5)),
    ("without it, the model's rule", PoissonFromTheStart, ModelRule),
]:
    load, calls = [], []
    for s in range(1, 41):
        random.seed(s * 1000 + 5000)
        stats = rs.Stats(0.5, label)
        server = rs.Server(0.5)
        clients = [client(strategy(), 10.0, server, stats, 0.0) for _ in range(100)]
        rs.sim_loop(clients, 10.0)
        load.append(100.0 * stats.total_calls / stats.unique_calls)
        calls.append(stats.unique_calls)
    print(f"{label}: load {st.mean(load):.3f} (sd {st.stdev(load):.3f}), calls {st.mean(calls):.1f}")
