"""The reference figures of the `yandex-good-retry` study: Denis Isaev's own SimPy
simulation behind "Good Retry, Bad Retry: An Incident Story" (Yandex, 2024;
github.com/jirfag/simulations, commit b552373b2184b26e2afe6c27493dd8565251f27e), its
default setup (`simulation_main.py` `build_input` as the `simple_retry_*` simulations
call it: 1000 requests/s for 1.5 s, a full outage from 0.5 s to 1.0 s, 41 CPUs) with six
of its retry strategies, over 20 seeds.

usage: python3 yandex_good_retry.py PATH/TO/jirfag/simulations
(needs simpy 4.0.1 and numpy: `pip install simpy==4.0.1 numpy`)

The modules are used unchanged. Three things are this driver's, because the source runs
each setup once, in a process of its own (a process pool): each run gets a fresh
`simpy.Environment` (the `Simulator` class holds one environment for every run of a
process, so a second run would start where the first ended); the outage list every server
shares (`simple_injected_failures`, which a server empties as its failures end) is
refilled in place with the same outage before each run; and each seed seeds both `random`
and `numpy.random` (the source seeds only `random`, with 1).

Prints one line per strategy and seed: the server's load (attempts it finished per second
over the target rate, in percent: the "Server RPS Amplification" panel) averaged over the
outage (0.5..1.0 s) and over the half second after it (1.0..1.5 s); then per strategy the
mean and sample standard deviation of each.
"""

import argparse
import random
import statistics as st
import sys

sys.path.insert(0, sys.argv[1])

import numpy as np  # noqa: E402
import simpy  # noqa: E402

import simulation_main as sm  # noqa: E402
import simulator  # noqa: E402
from shared import TIME_DURATION_SECOND  # noqa: E402

STRATEGIES = [
    "no-retries",
    "retry-3x",
    "retry-3x-with-exp-backoff",
    "retry-3x-with-exp-backoff+jitter",
    "retry-budget-10%+retry-2x",
    "retry-cb-10%+retry-2x",
]
SEEDS = range(1, 21)
TARGET_RPS = 1000
WINDOWS = [(0.5, 1.0), (1.0, 1.5)]

args = argparse.Namespace(target_rps=TARGET_RPS, render_to=None)


def load_pct(events, begin_s, end_s):
    # The panel's mean over the window's 20 ms points: 100 × finished attempts per second
    # over the target rate (visualize.py calc_server_metrics).
    b, e = begin_s * TIME_DURATION_SECOND, end_s * TIME_DURATION_SECOND
    n = sum(1 for ev in events if b <= ev.timepoint < e)
    return 100.0 * n / ((end_s - begin_s) * TARGET_RPS)


for name in STRATEGIES:
    per_window = [[] for _ in WINDOWS]
    for seed in SEEDS:
        random.seed(seed)
        np.random.seed(seed)
        # The server pops a failure from its list once it is over, and every server shares
        # the module's default list: refill it in place (the same 0.5..1.0 s outage).
        sm.simple_injected_failures[:] = sm.inject_full_downtime(0.5, 1.0)
        params, _ = sm.build_input(args, params_transformer=lambda p: p if p.id == name else None)
        assert len(params) == 1 and params[0].cpu_count == 41
        simulator.Simulator.env = simpy.Environment()
        res = simulator.Simulator().run_multiple_simulations(params).results[0]
        loads = [load_pct(res.server, b, e) for b, e in WINDOWS]
        for k, v in enumerate(loads):
            per_window[k].append(v)
        print(f"{name},{seed}," + ",".join(f"{v:.2f}" for v in loads), flush=True)
    for (b, e), v in zip(WINDOWS, per_window):
        print(f"{name},load {b}-{e} s %,{st.mean(v):.3f},{st.stdev(v):.3f},{len(v)}")
