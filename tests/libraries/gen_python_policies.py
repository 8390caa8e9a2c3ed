"""Retry-budget decisions from the real Python libraries, for the engine's conformance
test of its budgets (crate/src/cluster/policy_conformance.rs).

Drives botocore's standard-mode retry quota (`botocore/retries/standard.py`
`RetryQuotaChecker` over `botocore/retries/quota.py` `RetryQuota`) through requests
made one after another, and prints one line per case:

    <library> <settings as JSON> | <events> | <capacity after each event>

Events: `n` a request starts, `e` it failed with an error and asks to retry
(`acquire_retry_quota`), `t` the same after a read timeout, `s` it succeeded
(`release_retry_quota` with a 200), `f` it gave up (`release_retry_quota` with a 500).
The output is crate/tests/data/policy_vectors_python.txt; regenerate it with
`pip install -r tests/libraries/requirements.txt && python3
tests/libraries/gen_python_policies.py > crate/tests/data/policy_vectors_python.txt`.
Run without AWS_NEW_RETRIES_2026 set (the SDK's default costs: 5, and 10 for a timeout).
"""

import json
import random

import botocore
from botocore.exceptions import ReadTimeoutError
from botocore.retries import quota, standard

rng = random.Random(20261203)


class Response:
    """The part of an HTTP response `release_retry_quota` reads."""

    def __init__(self, status_code):
        self.status_code = status_code


def aws_case():
    initial = rng.choice([500, 500, 500, 50, 23, 10, 7])
    max_attempts = rng.choice([2, 3, 5])
    p_fail = rng.choice([0.1, 0.5, 0.8, 0.95])
    p_timeout = rng.choice([0.0, 0.3, 1.0])
    checker = standard.RetryQuotaChecker(quota.RetryQuota(initial))
    events, caps = [], []

    def note(e):
        events.append(e)
        caps.append(str(checker._quota.available_capacity))

    for _ in range(150):
        request_context = {}
        note("n")
        attempt = 1
        while True:
            if rng.random() >= p_fail:
                checker.release_retry_quota(request_context, Response(200))
                note("s")
                break
            timeout = rng.random() < p_timeout
            if attempt >= max_attempts:
                checker.release_retry_quota(request_context, Response(500))
                note("f")
                break
            exc = ReadTimeoutError(endpoint_url="https://example.com") if timeout else None
            ctx = standard.RetryContext(
                attempt_number=attempt,
                caught_exception=exc,
                http_response=None if timeout else Response(500),
                request_context=request_context,
            )
            granted = checker.acquire_retry_quota(ctx)
            note("t" if timeout else "e")
            if not granted:
                checker.release_retry_quota(request_context, Response(500))
                note("f")
                break
            attempt += 1
    settings = {"initial_tokens": initial}
    print("aws_quota", json.dumps(settings), "|", " ".join(events), "|", " ".join(caps))


assert not standard.NEW_RETRIES_ENABLED, "unset AWS_NEW_RETRIES_2026"
print(f"# botocore {botocore.__version__}")
for _ in range(60):
    aws_case()
