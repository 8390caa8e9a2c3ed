"""Inventory client of the orders worker: every call to the inventory service
retries on connection errors and 503s, with capped full-jitter backoff."""

import httpx
from tenacity import (
    retry,
    retry_if_exception_type,
    stop_after_attempt,
    wait_random_exponential,
)


class Unavailable(Exception):
    """The inventory service answered 503."""


@retry(
    # five attempts in all, the first call included
    stop=stop_after_attempt(5),
    wait=wait_random_exponential(multiplier=0.5, max=30),
    retry=retry_if_exception_type((httpx.ConnectError, Unavailable)),
    reraise=True,
)
def reserve(client: httpx.Client, sku: str, qty: int) -> dict:
    r = client.post("/v1/reservations", json={"sku": sku, "qty": qty})
    if r.status_code == 503:
        raise Unavailable(sku)
    r.raise_for_status()
    return r.json()
