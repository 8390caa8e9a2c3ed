"""The reference figures of the `brooker-retry-sim` study: Marc Brooker's own retry_sim
(github.com/mbrooker/simulator_example, commit bbfe3946f0459a69f6012737c68fc63b973471be,
retry_sim/), run with `run_sims`'s setup (100 clients at 10 calls/s, 10 s, drained)
over 20 seeds at three of its failure rates. Its modules are imported unchanged; only
its last line (`run_sims_retry_serial(10.0)`, run on import) is skipped.

usage: python3 brooker_retry_sim.py PATH/TO/simulator_example/retry_sim

Prints, per failure rate and policy: success % and load % (attempts per call), each as
mean and sample standard deviation over the seeds, then the number of seeds.
"""

import random
import statistics as st
import sys
import types

sys.path.insert(0, sys.argv[1])
from client import Client  # noqa: E402
from retry_strategy import (  # noqa: E402
    AdaptiveRetryFactory,
    CircuitBreakerRetryFactory,
    NRetriesFactory,
)

# retry_sim.py runs a simulation when imported: load it without its last line.
source = open(f"{sys.argv[1]}/retry_sim.py").read()
source = source.replace("run_sims_retry_serial(10.0)", "")
rs = types.ModuleType("retry_sim")
exec(compile(source, "retry_sim.py", "exec"), rs.__dict__)

RATES = [0.05, 0.2, 0.5]
SEEDS = range(1, 21)


def strategies():
    return [
        ("no_retries", NRetriesFactory(0)),
        ("three_retries", NRetriesFactory(3)),
        ("adaptive_10pct", AdaptiveRetryFactory(0.1, 5)),
        ("breaker_10pct", CircuitBreakerRetryFactory(NRetriesFactory(3), 0.1)),
    ]


for fr in RATES:
    for name, _ in strategies():
        succ, load = [], []
        for s in SEEDS:
            random.seed(s * 1000 + int(fr * 10000))
            factory = dict(strategies())[name]
            stats = rs.Stats(fr, name)
            server = rs.Server(fr)
            clients = [Client(factory.make(), 10.0, server, stats, 0.0) for _ in range(100)]
            rs.sim_loop(clients, 10.0)
            succ.append(100.0 * stats.successes / stats.unique_calls)
            load.append(100.0 * stats.total_calls / stats.unique_calls)
        print(
            f"{fr},{name},{st.mean(succ):.3f},{st.stdev(succ):.3f},"
            f"{st.mean(load):.3f},{st.stdev(load):.3f},{len(succ)}",
            flush=True,
        )
