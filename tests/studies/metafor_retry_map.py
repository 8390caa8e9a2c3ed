"""The reference figures of the `metafor-retry-map` study: the discrete-event simulator of
Metafor ("Analyzing Metastability in Server Systems", github.com/mpi-sws-rse/metafor,
commit 7f474de901cac3f3cebfba923776375fd3d4f9fd, metafor/simulator/), run unchanged
over 20 seeds per cell of a map of arrival rates x retries, in the setting of its
README's single-server example: one server of one thread, exponential service of mean
0.1 s (mu = 10/s), a FIFO queue of 100, an open-loop Poisson client with a timeout of
3 s; no fault (the client's fault rate is the base rate).

The setup is built by the source's own `make_sim_exp`, its module-level `dag` (at this
commit a four-server diamond) set to one server with no downstream, as the README's
example has it; the seed of Python's `random` (the only generator its code draws from)
is the one variable. Its INFO logging (a line per event) is switched off and its
prints are silenced; nothing else is touched.

usage: python3 -m venv venv && venv/bin/pip install numpy==1.26.4 pandas==2.2.3 matplotlib
       git archive 7f474de metafor/simulator metafor/utils metafor/__init__.py | tar x -C DIR
       venv/bin/python3 tests/studies/metafor_retry_map.py DIR

Prints, per arrival rate and retries: the mean of the queue length its server logs at
each completion, the mean of the latency it logs there (s), retries per 100 attempts
offered to the server, and the share of runs that end with more than half its queue
(over 50) waiting, each as mean and sample standard deviation over the seeds, then the
number of seeds.
"""

import contextlib
import io
import logging
import random
import statistics as st
import sys

sys.path.insert(0, sys.argv[1])
from metafor.simulator import simulate  # noqa: E402

logging.disable(logging.INFO)

RATES = [8.0, 9.0, 9.5]
RETRIES = [0, 4]
SEEDS = range(1, 21)
MAX_T = 1000.0
MEAN_T = 0.1
TIMEOUT = 3.0
QUEUE = 100

# The README's single-server example: one server, nothing downstream.
simulate.dag = {1: []}


def run(lam, retries, seed):
    random.seed(seed)
    rho = lam * MEAN_T
    with contextlib.redirect_stdout(io.StringIO()):
        servers, clients = simulate.make_sim_exp(
            MEAN_T, "client", "request", rho, QUEUE, TIMEOUT, retries,
            rho, rho, [2 * MAX_T], 0.0, False, 0.9, 0.5, "fifo", "exp", 1, seed,
        )
        sim = simulate.Simulator(servers, clients, seed)
        sim.reset()
        sim.sim(MAX_T)
    s = servers[1]
    rows = s.context.result
    attempts = len(rows) + s.dropped + s.queue.len() + s.busy
    return (
        st.mean(r["queue_length"] for r in rows),
        st.mean(r["latency"] for r in rows),
        100.0 * s.retries / attempts,
        100.0 if s.queue.len() > QUEUE // 2 else 0.0,
    )


for lam in RATES:
    for retries in RETRIES:
        runs = [run(lam, retries, s) for s in SEEDS]
        cols = list(zip(*runs))
        figures = ",".join(f"{st.mean(c):.3f},{st.stdev(c):.3f}" for c in cols)
        print(f"{lam},{retries},{figures},{len(runs)}", flush=True)
