"""Each pytest-xdist worker on a Redis database of its own (``-p tests.worker_redis``, as
``make test`` runs the suite): loaded before the settings read REDIS_URL, it moves worker
``gwN`` from the database REDIS_URL names to the next ones (N + 1 after it), so that one test's
``cache.clear()`` (a FLUSHDB) or a broker flush never reaches a test of another worker.
Processes the tests start inherit it through the environment."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

#: the databases a Redis server has unless configured otherwise
DATABASES = 16


def own_database(url: str, worker: str) -> str:
    """The URL of ``worker``'s own database on the Redis server of ``url``."""
    if not worker.startswith("gw") or not worker[2:].isdigit():
        return url
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(base + 1 + int(worker[2:])) % DATABASES}"))


if os.environ.get("REDIS_URL", "").strip() and os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["REDIS_URL"] = own_database(
        os.environ["REDIS_URL"].strip(), os.environ["PYTEST_XDIST_WORKER"]
    )
