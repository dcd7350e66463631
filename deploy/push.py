"""The push process this deployment runs: ``uvicorn deploy.push:application`` (deploy/Procfile's
``push``; the application itself is live.server's).

It serves the pages' streams under ``/push/``, the API's streams
(``/api/v1/matches/<id>/stream/``, ``/api/v1/tournaments/<id>/results/stream/``) and
``/healthz``, resolved against ``deploy.push_urls`` (the same settings serve both processes);
the API's refusals are its problem documents.
"""

from __future__ import annotations

import logging
import os
import re

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
django.setup(set_prefix=False)

from api.problems import CONTENT_TYPE, problem  # noqa: E402  (after the setup)
from live.server import PushApplication  # noqa: E402

from . import logs  # noqa: E402
from .memory import settle  # noqa: E402

# uvicorn's own loggers write through handlers of uvicorn's making (its access log, when not
# turned off with --no-access-log, and its errors): the key filter goes on the loggers, so a
# path that holds a team link's or an invitation's key is written redacted (deploy/logs.py).
for _name in ("uvicorn.access", "uvicorn.error"):
    logging.getLogger(_name).addFilter(logs.KeyRedaction())

URLCONF = "deploy.push_urls"
SERVED = re.compile(
    r"^/push/|^/healthz$|^/api/v1/matches/\d+/stream/$|^/api/v1/tournaments/\d+/results/stream/$"
)
API_STREAM = re.compile(r"^/api/")


def make_application(**kwargs: float) -> PushApplication:
    """A push application of this deployment (``kwargs``: the application's ``timeout``)."""
    return PushApplication(
        urlconf=URLCONF,
        served=SERVED,
        api=API_STREAM,
        problem=problem,
        problem_type=CONTENT_TYPE,
        **kwargs,
    )


application = make_application()
# a push process's start-up, with the site's URLs and its own (each stream renders with the
# site's), set aside from the garbage collector's full passes: a pass stops the event loop
# for every viewer at once (deploy/memory.py)
settle(None, URLCONF)
