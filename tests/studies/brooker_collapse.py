"""The reference figures of the `brooker-collapse` study: Marc Brooker's own congestive
collapse simulation (github.com/mbrooker/simulator_example, commit
bbfe3946f0459a69f6012737c68fc63b973471be, simple_collapse_sim/sim.py), its spike run
(`run_sim_spike`) with both clients, over 20 seeds. The module is used unchanged up to
its driver (the lines from `run_multiple_n = 10` on, which run everything on import).

usage: python3 brooker_collapse.py PATH/TO/simulator_example/simple_collapse_sim/sim.py

Prints one line per client and seed: successes per second over 10..20 s and over
60..80 s; then per client the collapsed share (last 20 s below 20 successes/s, half the
base rate), and the two rates, each as mean and sample standard deviation.
"""

import random
import statistics as st
import sys
import types

source = open(sys.argv[1]).read()
source = source[: source.index("run_multiple_n = 10")]
sim = types.ModuleType("sim")
exec(compile(source, "sim.py", "exec"), sim.__dict__)

SEEDS = range(1, 21)

for name, client in [
    ("spike_no_backoff", sim.Client),
    ("spike_backoff_and_jitter", sim.ClientWithBackoffAndJitter),
]:
    before, late = [], []
    for seed in SEEDS:
        random.seed(seed)
        h = sim.run_sim_spike(name, client)
        before.append(st.mean(d.successes for d in h[10:20]))
        late.append(st.mean(d.successes for d in h[60:80]))
        print(f"{name},{seed},{before[-1]:.2f},{late[-1]:.2f}", flush=True)
    collapsed = [100.0 if x < 20 else 0.0 for x in late]
    for what, v in [("collapsed %", collapsed), ("before /s", before), ("late /s", late)]:
        print(f"{name},{what},{st.mean(v):.3f},{st.stdev(v):.3f},{len(v)}")
