"""Structured logs: a request id carried from a request into its tasks, and a JSON formatter.

A request's id (``X-Request-ID`` if the caller sent a valid one, else a new one) lives in a
context variable for the length of the request (``deploy.middleware``). Every log line
written meanwhile carries it (``ContextFilter``), every task sent meanwhile carries it in a
message header (``before_task_publish``), and the worker puts it back in the context while
the task runs (``task_prerun``), so the worker's lines carry it too, with the task's id and
name. A task sent by a task (the catch-up sending projections) passes the id on.

No line carries a key: the paths that hold one (a team's link, ``/l/<key>/``, a table card's,
``/tc/<key>/``, and a club's invitation, ``/invite/<key>/``) are written ``/l/[redacted]/``
(``redact``), by a filter on every handler (``KeyRedaction``: the message, its arguments and
the extra fields) and by the formatters themselves (what a record drags along: a request's
repr, a traceback).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

#: the message header a task's request id travels in
HEADER = "request_id"
#: an incoming X-Request-ID is kept only if it looks like an id: no spaces, no markup, short
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}")

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
_task_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("task_id", default=None)
_task_name: contextvars.ContextVar[str | None] = contextvars.ContextVar("task_name", default=None)
_CONTEXT = (("request_id", _request_id), ("task_id", _task_id), ("task_name", _task_name))


def current_request_id() -> str | None:
    """Return the request id in force (None outside a request, a traced task or ``bound``)."""
    return _request_id.get()


def new_request_id() -> str:
    """Return a fresh request id (32 hex digits)."""
    return uuid.uuid4().hex


def valid_request_id(value: str | None) -> str | None:
    """Return ``value`` if it is acceptable as a request id from outside, else None."""
    if value and _VALID.fullmatch(value):
        return value
    return None


@contextlib.contextmanager
def bound(rid: str | None) -> Iterator[str]:
    """Run the block with request id ``rid`` (None: a new one); yield the id in force.

    For anything that acts on behalf of one request outside a view: a script, a test driver,
    a management command that wants its tasks traced.
    """
    rid = rid or new_request_id()
    token = _request_id.set(rid)
    try:
        yield rid
    finally:
        _request_id.reset(token)


#: LogRecord's own attributes: anything else on a record came from ``extra=`` and is shown
_STANDARD = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", (), None)).keys()
    | {"message", "asctime", "request_id", "task_id", "task_name", "taskName"}
)


#: a key-bearing path segment, after a slash, a space, a quote or the start: the key is the
#: segment after ``l/``, ``tc/`` (a table card) or ``invite/`` (a path, a full URL, a request
#: line, a request's repr)
_KEY_PATH = re.compile(r"""(^|[/\s'"(=\[])(l|tc|invite)/(?!\[redacted\])[^/\s?#'"<>\\]+""")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """Return ``text`` with the key of every link or invitation path in it replaced.

    >>> redact('"GET /l/Zm9vYmFy/ HTTP/1.1" 302 and https://x.org/invite/abc')
    '"GET /l/[redacted]/ HTTP/1.1" 302 and https://x.org/invite/[redacted]'
    """
    return _KEY_PATH.sub(rf"\1\2/{REDACTED}", text)


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class KeyRedaction(logging.Filter):
    """Rewrite a record's message, arguments and extra text fields with ``redact``: put on
    every handler (deploy/settings.py, deploy/gunicorn.py) and on uvicorn's own loggers
    (deploy/push.py), so no key reaches a log, whoever wrote the line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {name: _redacted(arg) for name, arg in record.args.items()}
        for name, value in vars(record).items():
            if name not in _STANDARD and isinstance(value, str):
                setattr(record, name, redact(value))
        return True


class PlainFormatter(logging.Formatter):
    """``logging.Formatter`` whose every line (traceback included) goes through ``redact``."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class ContextFilter(logging.Filter):
    """Give every record ``request_id``, ``task_id`` and ``task_name`` (None when not in one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        # A record built with extra=... keeps its own value.
        for name, var in _CONTEXT:
            if getattr(record, name, None) is None:
                setattr(record, name, var.get())
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the context when there is one.

    ``time`` is UTC, ISO 8601 with milliseconds. ``request_id``, ``task_id``, ``task_name``
    appear when set; fields passed with ``extra=`` are added as they are (``repr`` if they
    are not JSON); an exception's traceback is ``exc_info``.
    """

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        for name in ("request_id", "task_id", "task_name"):
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        for name, value in vars(record).items():
            if name not in _STANDARD and name not in entry:
                entry[name] = value
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        # redacted whole: a field that is not text (a request, written as its repr) and a
        # traceback may carry a path
        return redact(json.dumps(entry, default=repr, ensure_ascii=False))


# --- Celery: the request id into the message, and back into the context in the worker -----


def add_request_id_header(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """``before_task_publish``: put the request id in force into the message's headers."""
    rid = _request_id.get()
    if rid is not None and headers is not None:
        headers.setdefault(HEADER, rid)


_tokens: dict[str, tuple[contextvars.Token[Any], ...]] = {}


def enter_task(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    """``task_prerun``: the task's id, name and request id (from its headers) into the context."""
    sent_with = valid_request_id(getattr(task.request, HEADER, None)) if task is not None else None
    # An eager task (no broker) runs inside the request that sent it: keep that request's id.
    rid = sent_with or _request_id.get()
    _tokens[task_id or ""] = (
        _request_id.set(rid),
        _task_id.set(task_id),
        _task_name.set(getattr(task, "name", None)),
    )


def leave_task(task_id: str | None = None, **_: Any) -> None:
    """``task_postrun``: restore the context as it was before the task."""
    tokens = _tokens.pop(task_id or "", None)
    if tokens is not None:
        for (_name, var), token in zip(_CONTEXT, tokens, strict=True):
            var.reset(token)
