"""Delay sequences from the real Python libraries, for the engine's conformance test.

Drives tenacity's wait strategies and botocore's retry backoffs with `random.random`
replaced by a recorded stream, and prints one line per case:

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
import botocore.retryhandler as legacy
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


print(f"# tenacity {metadata.version('tenacity')} botocore {botocore.__version__}")
tenacity_cases()
botocore_cases()
