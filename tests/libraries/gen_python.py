"""Delay sequences from the real Python libraries, for the engine's conformance test.

Drives tenacity's wait strategies, botocore's retry backoffs, `backoff`'s waits and
stamina's backoff with `random.random` replaced by a recorded stream, and prints one
line per case:

    <library> <settings as JSON> | <draws> | <waits in seconds>

(floats in Python's repr, which reads back exactly). The output is
crate/tests/data/library_vectors_python.txt; regenerate it with
`pip install -r tests/libraries/requirements.txt && python3 tests/libraries/gen_python.py`.
"""

import json
from importlib import metadata
import random

import botocore
import botocore.retries.standard as standard
import backoff._jitter as bo_jitter
import backoff._wait_gen as bo_wait
import botocore.retryhandler as legacy
import stamina._core as stamina_core
import tenacity.wait as wait

RETRIES = 8
rng = random.Random(20261202)


class Recorded:
    """random.random replacement that hands out a stream and remembers it."""

    def __init__(self):
        self.draws = []

    def __call__(self):
        u = rng.random()
        self.draws.append(u)
        return u


class State:
    """The part of tenacity's RetryCallState a wait strategy reads."""

    def __init__(self, n):
        self.attempt_number = n


def emit(library, settings, draws, waits):
    print(
        library,
        json.dumps(settings, sort_keys=True, separators=(",", ":")),
        "|",
        " ".join(repr(u) for u in draws),
        "|",
        " ".join(repr(w) for w in waits),
    )


def tenacity_cases():
    kinds = {
        "exponential": wait.wait_exponential,
        "random_exponential": wait.wait_random_exponential,
        "exponential_jitter": wait.wait_exponential_jitter,
    }
    for _ in range(60):
        for name, cls in kinds.items():
            s = {
                "multiplier": rng.choice([0.1, 0.5, 1, 1.5, 2, 3]),
                "exp_base": rng.choice([2, 3, 1.5]),
                "min": rng.choice([0, 0, 0.2, 1]),
                "max": rng.choice([5, 10, 60, 0.8]),
            }
            if name == "exponential_jitter":
                s["jitter"] = rng.choice([1, 0.5, 2])
            rec = Recorded()
            # random.uniform and random.random are bound methods of one hidden
            # instance: shadow its `random`, which uniform calls too.
            random._inst.random = rec
            try:
                w = cls(**s)
                waits = [w(State(n)) for n in range(1, RETRIES + 1)]
            finally:
                del random._inst.random
            s["wait"] = name
            emit("tenacity", s, rec.draws, waits)


def botocore_cases():
    for _ in range(40):
        rec = Recorded()
        b = standard.ExponentialBackoff(random=rec)

        class Ctx:
            attempt_number = 0
            http_response = None

        waits = []
        for n in range(1, RETRIES + 1):
            Ctx.attempt_number = n
            waits.append(b.delay_amount(Ctx))
        emit("aws", {"mode": "standard"}, rec.draws, waits)
    for _ in range(40):
        rec = Recorded()
        random._inst.random = rec
        old = random.random
        random.random = rec
        try:
            waits = [legacy.delay_exponential("rand", 2, n) for n in range(1, RETRIES + 1)]
        finally:
            random.random = old
            del random._inst.random
        emit("aws", {"mode": "legacy"}, rec.draws, waits)


def backoff_cases():
    """PyPI `backoff`: the waits `on_exception` sleeps with its default jitter
    (`_jitter.full_jitter`, `random.uniform(0, value)`) over `_wait_gen.expo` and
    `_wait_gen.constant`, as `_common._next_wait` combines them (no max_time)."""
    for _ in range(40):
        expo = rng.random() < 0.7
        if expo:
            s = {
                "gen": "expo",
                "base": rng.choice([2, 3, 1.5]),
                "factor": rng.choice([0.1, 0.5, 1, 2]),
                "max_value": rng.choice([None, 5, 30, 0.8]),
            }
            gen = bo_wait.expo(s["base"], s["factor"], s["max_value"])
        else:
            s = {"gen": "constant", "interval": rng.choice([0.2, 1, 3])}
            gen = bo_wait.constant(s["interval"])
        gen.send(None)
        rec = Recorded()
        random._inst.random = rec
        try:
            waits = [bo_jitter.full_jitter(next(gen)) for _ in range(RETRIES)]
        finally:
            del random._inst.random
        emit("backoff", s, rec.draws, waits)


def stamina_cases():
    """PyPI `stamina`: `_core._compute_backoff`, the wait of its retry loop,
    min(wait_max, wait_initial × wait_exp_base^(n−1) + uniform(0, wait_jitter))."""
    for _ in range(40):
        s = {
            "wait_initial": rng.choice([0.1, 0.5, 1]),
            "wait_max": rng.choice([5.0, 1.0, 30.0]),
            "wait_jitter": rng.choice([1.0, 0.5, 2.0]),
            "wait_exp_base": rng.choice([2, 3, 1.5]),
        }
        rec = Recorded()
        random._inst.random = rec
        try:
            waits = [
                stamina_core._compute_backoff(
                    n, s["wait_max"], s["wait_initial"], s["wait_exp_base"], s["wait_jitter"]
                )
                for n in range(1, RETRIES + 1)
            ]
        finally:
            del random._inst.random
        emit("stamina", s, rec.draws, waits)


print(
    f"# tenacity {metadata.version('tenacity')} botocore {botocore.__version__}"
    f" backoff {metadata.version('backoff')} stamina {metadata.version('stamina')}"
)
tenacity_cases()
botocore_cases()
backoff_cases()
stamina_cases()
