from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _push_host(settings: Any) -> None:
    """The push server of the tests answers at 127.0.0.1 (a port of its own)."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
