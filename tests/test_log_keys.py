"""The servers' own log lines carry no team link's or invitation's key either (issue 40,
finding 3): gunicorn's (deploy/gunicorn.py) and uvicorn's in the push process
(deploy/push.py). The application's lines: tests/web/test_link_keys.py."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF"


def an_access() -> tuple[Any, Any, dict[str, str], timedelta]:
    """The arguments gunicorn's access hook is called with, for ``GET /l/<KEY>/`` 302."""
    request = SimpleNamespace(
        uri=f"/l/{KEY}/", path=f"/l/{KEY}/", query="", method="GET", version=(1, 1), headers=[]
    )
    response = SimpleNamespace(status="302 Found", headers=[], sent=0, response_length=0)
    environ = {
        "PATH_INFO": f"/l/{KEY}/",
        "RAW_URI": f"/l/{KEY}/",
        "REQUEST_METHOD": "GET",
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    return response, request, environ, timedelta(milliseconds=3)


#: gunicorn's logger as a worker has it, with deploy/gunicorn.py's settings, then the lines
#: a worker writes: a request it failed to handle (gthread's handle_error), a request it
#: could not parse, and a request's access line, called as gunicorn calls it
GUNICORN = f"""
import sys
from gunicorn.config import Config
from deploy import gunicorn as web
from tests.test_log_keys import an_access

cfg = Config()
for name in ("logconfig_dict", "accesslog", "logger_class"):
    cfg.set(name, getattr(web, name))
log = cfg.logger_class(cfg)
try:
    raise ValueError("boom at /invite/{KEY}/")
except ValueError:
    log.exception("Error handling request %s", "/l/{KEY}/")
log.error("Invalid request from ip=1.2.3.4: %s", "GET /invite/{KEY}/ HTTP/1.1")
log.access(*an_access())
sys.stdout.flush()
"""


def run_gunicorn_logger(log_format: str) -> str:
    ran = subprocess.run(
        [sys.executable, "-c", GUNICORN],
        cwd=REPO,
        env={**os.environ, "LOG_FORMAT": log_format},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return ran.stdout + ran.stderr


def test_gunicorn_s_lines_carry_no_key() -> None:
    for log_format in ("json", "plain"):
        written = run_gunicorn_logger(log_format)
        assert "Error handling request /l/[redacted]/" in written, written
        assert "GET /invite/[redacted]/ HTTP/1.1" in written and "ValueError" in written
        assert KEY not in written


def test_the_fake_access_is_shaped_as_gunicorn_reads_it() -> None:
    """The access call above carries what gunicorn's own logger reads (so the test above
    would see a line, were the access log to write one)."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    atoms = Logger(Config()).atoms(*an_access())
    assert atoms["r"] == f"GET /l/{KEY}/ HTTP/1.1" and atoms["s"] == "302"


def test_uvicorn_s_access_and_error_lines_in_the_push_process_carry_no_key() -> None:
    from deploy import push  # noqa: F401  (puts the filter on uvicorn's loggers)

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)  # a handler of uvicorn's making: no filter of ours
    access, errors = logging.getLogger("uvicorn.access"), logging.getLogger("uvicorn.error")
    saved = [(one, one.level, one.propagate) for one in (access, errors)]
    for one in (access, errors):
        one.addHandler(handler)
        one.setLevel(logging.INFO)
        one.propagate = False
    try:
        # as uvicorn's protocols write them
        access.info('%s - "%s %s HTTP/%s" %d', "1.2.3.4:5", "GET", f"/l/{KEY}/", "1.1", 302)
        errors.error("Exception in ASGI application for %s", f"/invite/{KEY}/")
    finally:
        for one, level, propagate in saved:
            one.removeHandler(handler)
            one.setLevel(level)
            one.propagate = propagate
    written = stream.getvalue()
    assert '"GET /l/[redacted]/ HTTP/1.1" 302' in written
    assert "for /invite/[redacted]/" in written and KEY not in written
