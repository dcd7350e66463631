"""gunicorn's settings, from the environment: ``gunicorn -c python:deploy.gunicorn deploy.wsgi``.

- ``WEB_BIND`` (default ``127.0.0.1:$PORT``, ``PORT`` default 8000): where to listen. A
  container listens on ``0.0.0.0:8000`` behind its published port.
- ``WEB_CONCURRENCY`` (default 1 per CPU, plus 1): worker processes.
- ``WEB_THREADS`` (default 4): threads per worker process (gunicorn's ``gthread`` workers),
  each with its own database connection (see docs/deploy.md on pooling); 1 for gunicorn's
  sync workers. Threads keep a client's (or a proxy's) connection alive between requests
  (``keepalive`` seconds), which sync workers cannot: a new TCP connection for every request
  cost a standings read about a quarter of its CPU (docs/api.md, "Speed"), and a thread
  waiting on the database leaves the CPU to another.
- ``FORWARDED_ALLOW_IPS`` (gunicorn's own variable, default 127.0.0.1): the proxies whose
  X-Forwarded-* headers gunicorn believes.

Workers that die are replaced by the master; SIGTERM stops the master gracefully: each
worker finishes the request in hand (up to ``graceful_timeout``) and exits. gunicorn's own
lines (boot, workers started and lost) are JSON like the application's; one line per request
comes from the application (``deploy.middleware``), so there is no separate access log.
"""

import multiprocessing
import os
from typing import Any

from gunicorn.glogging import Logger

bind = os.environ.get("WEB_BIND") or f"127.0.0.1:{os.environ.get('PORT') or 8000}"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() + 1)
threads = int(os.environ.get("WEB_THREADS") or 4)
worker_class = "gthread" if threads > 1 else "sync"
# A worker process silent this long is replaced. A sync worker is silent while it serves a
# request, so this bounds a request; a threaded worker's main loop keeps reporting while its
# threads serve, so a request stuck on the database is not bounded by this: the proxy's
# timeout and PostgreSQL's own (docs/deploy.md, "Timeouts") are what bound it.
timeout = 30
graceful_timeout = 20  # on SIGTERM: time for requests in hand to finish
keepalive = 5
# Heartbeat files on tmpfs: a container's overlay filesystem can stall them.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = None


class RequestLogOnly(Logger):
    """gunicorn's logger with no access log: the application writes the one line a request.

    With ``logconfig_dict`` set, gunicorn counts its access log as on and, for every request,
    works out the line's fields and hands them to a logger with no handler (about 5% of a
    worker's CPU on a standings read, sampled with py-spy); this skips that work.
    """

    access_log_enabled = False  # gunicorn's own check, read on every request

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        return None


logger_class = RequestLogOnly
# gunicorn 24 and later listen on a control socket at ~/.gunicorn/gunicorn.ctl, the same
# path for every server of the user: a second one (a test's stack, a benchmark) would take
# it over from the first. Nothing here uses it; processes are managed by signals.
control_socket_disable = True

_plain = (os.environ.get("LOG_FORMAT") or "").lower() == "plain"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    # gunicorn's lines carry no key either ("Error handling request /l/<key>/"): the same
    # filter and formatters as the application's (deploy/logs.py, KeyRedaction)
    "filters": {"keys": {"()": "deploy.logs.KeyRedaction"}},
    "formatters": {
        "json": {"()": "deploy.logs.JsonFormatter"},
        "plain": {
            "()": "deploy.logs.PlainFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
        },
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain" if _plain else "json",
            "filters": ["keys"],
        },
    },
    "root": {"handlers": ["stdout"], "level": "INFO"},
    "loggers": {
        "gunicorn.error": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": [], "level": "INFO", "propagate": False},
    },
}


def post_worker_init(worker: Any) -> None:
    """gunicorn's hook, once a worker has loaded the application: its start-up (and the
    site's URLs and views) set aside from the garbage collector's full passes
    (deploy/memory.py)."""
    from deploy.memory import settle

    settle(None)
