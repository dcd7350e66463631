"""The deployment surface: the probes, the request id and JSON logs, static files, Celery wiring."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import redis
from django.db import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.urls import path

from deploy import heartbeat, logs
from deploy.celery import app as celery_app
from tests.scoring.worker import Worker, forget_queue, wait_until

REPO = Path(__file__).resolve().parent.parent


# Views that send a task, as an API write will (routed only in the tests marked urls): one of
# ours (eager in these tests), and Celery's own celery.accumulate, which needs no database.
def _tell_completed(request: HttpRequest) -> JsonResponse:
    from scoring.tasks import on_match_completed

    on_match_completed.delay(7)
    return JsonResponse({"sent": True})


def _send_to_worker(request: HttpRequest) -> JsonResponse:
    celery_app.send_task("celery.accumulate", args=[7])
    return JsonResponse({"sent": True})


urlpatterns = [path("send", _tell_completed), path("send-to-worker", _send_to_worker)]


@pytest.fixture
def queue(settings: Any) -> Iterator[str]:
    """A Celery queue of this test's own on the shared Redis; this process sends to it."""
    name = f"seep-test-deploy-{uuid.uuid4().hex[:12]}"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = os.environ["REDIS_URL"]
    settings.CELERY_TASK_DEFAULT_QUEUE = name
    conf = celery_app.conf
    saved = conf.task_default_queue, conf.task_always_eager
    conf.task_default_queue, conf.task_always_eager = name, False
    try:
        yield name
    finally:
        conf.task_default_queue, conf.task_always_eager = saved
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        try:
            forget_queue(client, name)
            client.delete(heartbeat.key(name))
        finally:
            client.close()


@pytest.fixture
def worker(queue: str, tmp_path: Path) -> Iterator[Worker]:
    """A real worker on the queue, beating every second, logging JSON."""
    started = Worker(
        name=queue,
        queue=queue,
        database_url="sqlite:///:memory:",  # these tasks touch no database
        redis_url=os.environ["REDIS_URL"],
        log_dir=tmp_path,
        env={"WORKER_HEARTBEAT_SECONDS": "1", "LOG_FORMAT": "json"},
    )
    try:
        yield started.start()
    finally:
        started.stop()
        print(started.output()[-4000:])


def json_lines(text: str) -> list[dict[str, Any]]:
    """Return the JSON objects among the lines of ``text`` (a log with a banner in it)."""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


@contextlib.contextmanager
def captured_json_logs() -> Iterator[io.StringIO]:
    """Collect this process's log lines, formatted as production formats them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.ContextFilter())
    handler.setFormatter(logs.JsonFormatter())
    root = logging.getLogger()
    saved = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(saved)


# --- /healthz: the process -----------------------------------------------------------------


class TestHealthz:
    def test_a_running_process_answers_ok_without_asking_anything_else(
        self, client: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from deploy import views

        class DownDatabase:
            def cursor(self) -> Any:
                raise DatabaseError("connection refused")

        monkeypatch.setattr(views, "connection", DownDatabase())
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
        response = client.get("/healthz")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"status": "ok"}
        assert response["Cache-Control"].startswith("max-age=0")

    def test_only_get_is_allowed(self, client: Any) -> None:
        assert client.post("/healthz").status_code == 405
        assert client.post("/readyz").status_code == 405

    def test_probes_are_not_redirected_to_https(self, client: Any, settings: Any) -> None:
        settings.SECURE_SSL_REDIRECT = True
        assert client.get("/healthz").status_code == 200
        assert client.get("/admin/login/").status_code == 301


# --- /readyz: the database, the broker, a worker ---------------------------------------------


@pytest.mark.django_db
class TestReadyz:
    def test_without_a_broker_the_site_is_ready_with_eager_tasks(
        self, client: Any, settings: Any
    ) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = True  # no REDIS_URL: tasks run in-process
        response = client.get("/readyz")
        assert response.status_code == 200
        assert response.json() == {
            "status": "ok",
            "database": "ok",
            "broker": "eager",
            "workers": "eager",
            "live_workers": 0,
        }

    def test_an_unreachable_broker_is_reported_with_503(self, client: Any, settings: Any) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
        response = client.get("/readyz")
        assert response.status_code == 503
        assert response.json() == {
            "status": "unavailable",
            "database": "ok",
            "broker": "unavailable",
            "workers": "unavailable",
            "live_workers": 0,
        }

    def test_a_database_error_is_reported_with_503_and_no_details(
        self, client: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from deploy import views

        class DownDatabase:
            def cursor(self) -> Any:
                raise DatabaseError("connection refused")

        settings.CELERY_TASK_ALWAYS_EAGER = True
        monkeypatch.setattr(views, "connection", DownDatabase())
        response = client.get("/readyz")
        assert response.status_code == 503
        assert response.json()["database"] == "unavailable"
        assert "connection refused" not in response.content.decode()

    @pytest.mark.redis
    def test_a_broker_with_no_worker_beating_is_not_ready(
        self, client: Any, queue: str, settings: Any
    ) -> None:
        settings.WORKER_HEARTBEAT_SECONDS = 1
        stale = redis.Redis.from_url(os.environ["REDIS_URL"])
        try:  # a worker that beat 10 s ago, and none since
            stale.zadd(heartbeat.key(), {"gone@host": time.time() - 10})
        finally:
            stale.close()
        response = client.get("/readyz")
        assert response.status_code == 503
        assert response.json()["broker"] == "ok"
        assert response.json()["workers"] == "unavailable"

    @pytest.mark.redis
    def test_a_beating_worker_makes_the_site_ready_until_it_stops_or_dies(
        self, client: Any, settings: Any, worker: Worker, tmp_path: Path
    ) -> None:
        settings.WORKER_HEARTBEAT_SECONDS = 1
        response = client.get("/readyz")
        assert response.status_code == 200, response.json()
        assert response.json()["workers"] == "ok"
        assert response.json()["live_workers"] == 1
        worker.stop()  # a warm shutdown takes its heartbeat away at once
        assert client.get("/readyz").json()["live_workers"] == 0
        second = Worker(
            name=f"{worker.queue}-2",
            queue=worker.queue,
            database_url="sqlite:///:memory:",
            redis_url=os.environ["REDIS_URL"],
            log_dir=tmp_path,
            env={"WORKER_HEARTBEAT_SECONDS": "1"},
        ).start()
        try:
            assert client.get("/readyz").status_code == 200
            second.kill()  # SIGKILL: no goodbye; its last heartbeat lapses in 3 periods
            wait_until(lambda: client.get("/readyz").status_code == 503, 10, "readyz to fail")
        finally:
            second.kill()


@pytest.mark.process
@pytest.mark.redis
def test_the_worker_health_check_asks_for_its_own_heartbeat(worker: Worker) -> None:
    def check(*node: str) -> int:
        return subprocess.run(
            [sys.executable, "-m", "deploy.heartbeat", *node],
            cwd=REPO,
            env={**os.environ, "CELERY_QUEUE": worker.queue, "WORKER_HEARTBEAT_SECONDS": "1"},
            capture_output=True,
            timeout=30,
            check=False,
        ).returncode

    node = next(
        line["message"] for line in json_lines(worker.output()) if "ready." in line["message"]
    )
    assert check(node.removesuffix(" ready.")) == 0
    assert check() == 0  # any worker of the queue
    assert check("someone-else@nowhere") == 1
    worker.stop()
    assert check() == 1


# --- The request id, and JSON log lines ---------------------------------------------------


@pytest.mark.django_db
class TestRequestId:
    def test_every_response_carries_a_new_request_id(self, client: Any) -> None:
        first, second = client.get("/healthz"), client.get("/healthz")
        assert len(first["X-Request-ID"]) == 32
        assert first["X-Request-ID"] != second["X-Request-ID"]

    def test_a_valid_incoming_request_id_is_kept(self, client: Any) -> None:
        response = client.get("/healthz", headers={"X-Request-ID": "lb-7f3a:42"})
        assert response["X-Request-ID"] == "lb-7f3a:42"

    @pytest.mark.parametrize("bad", ["", "has space", "<script>", "x" * 200, "\u00e9t\u00e9"])
    def test_an_invalid_incoming_request_id_is_replaced(self, client: Any, bad: str) -> None:
        response = client.get("/healthz", headers={"X-Request-ID": bad})
        assert response["X-Request-ID"] != bad
        assert len(response["X-Request-ID"]) == 32

    def test_the_log_lines_of_a_request_carry_its_id(self, client: Any) -> None:
        with captured_json_logs() as stream:
            client.get("/admin/login/", headers={"X-Request-ID": "trace-1"})
        (line,) = [x for x in json_lines(stream.getvalue()) if x["logger"] == "deploy.request"]
        assert line["request_id"] == "trace-1"
        assert (line["method"], line["path"], line["status"]) == ("GET", "/admin/login/", 200)
        assert line["level"] == "INFO"
        assert line["message"] == "GET /admin/login/ 200"
        assert isinstance(line["duration_ms"], float)
        assert line["time"].endswith("+00:00")

    def test_outside_a_request_no_id_is_written(self) -> None:
        with captured_json_logs() as stream:
            logging.getLogger("tests").warning("no request here")
        (line,) = json_lines(stream.getvalue())
        assert "request_id" not in line
        assert line["message"] == "no request here"

    def test_an_exception_is_one_json_line_with_its_traceback(self) -> None:
        with captured_json_logs() as stream:
            try:
                raise ValueError("boom")
            except ValueError:
                logging.getLogger("tests").exception("it failed")
        (line,) = json_lines(stream.getvalue())
        assert "ValueError: boom" in line["exc_info"]
        assert stream.getvalue().count("\n") == 1

    @pytest.mark.urls("tests.test_deploy")
    def test_an_eager_task_logs_with_the_id_of_the_request_that_ran_it(self, client: Any) -> None:
        from scoring.signals import match_completed

        def receiver(match_id: int, **_: Any) -> None:  # what the task tells, it logs
            logging.getLogger("tests.receiver").info("told of match %s", match_id)

        match_completed.connect(receiver, dispatch_uid="tests.receiver")
        try:
            with captured_json_logs() as stream:
                client.get("/send", headers={"X-Request-ID": "eager-1"})
        finally:
            match_completed.disconnect(dispatch_uid="tests.receiver")
        (line,) = [x for x in json_lines(stream.getvalue()) if x["logger"] == "tests.receiver"]
        assert line["message"] == "told of match 7"
        assert line["request_id"] == "eager-1"
        assert line["task_name"] == "scoring.tasks.on_match_completed"

    @pytest.mark.redis
    @pytest.mark.urls("tests.test_deploy")
    def test_the_worker_logs_the_tasks_a_request_sent_with_its_request_id(
        self, client: Any, worker: Worker
    ) -> None:
        response = client.get("/send-to-worker", headers={"X-Request-ID": "trace-into-the-worker"})
        assert response.status_code == 200

        def task_lines() -> list[dict[str, Any]]:
            return [
                line
                for line in json_lines(worker.output())
                if line.get("task_name") == "celery.accumulate"
            ]

        wait_until(lambda: any("succeeded" in x["message"] for x in task_lines()), 15, "the task")
        (line,) = task_lines()  # written by the pool process running the task
        assert line["request_id"] == "trace-into-the-worker"
        task = f"Task celery.accumulate[{line['task_id']}]"
        assert line["message"].startswith(task)
        # The main process's "received" line is outside the task: no request id there.
        (received,) = [x for x in json_lines(worker.output()) if "received" in x["message"]]
        assert "request_id" not in received and received["process"] != line["process"]


@pytest.mark.redis
def test_the_celery_app_sends_json_tasks_to_redis() -> None:
    name = f"test-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        with logs.bound("r-1"):
            celery_app.send_task("tests.ping", args=[1], queue=name)
        assert client.llen(name) == 1
        message = json.loads(client.lindex(name, 0))
        assert message["content-type"] == "application/json"
        assert message["headers"]["task"] == "tests.ping"
        assert message["headers"]["request_id"] == "r-1"
    finally:
        client.delete(name, f"_kombu.binding.{name}")
        client.close()


# --- Static files ---------------------------------------------------------------------------

# In a fresh interpreter with production settings: collect, then fetch the admin's CSS
# through the whole middleware stack (WhiteNoise serves it).
SERVE_ADMIN_CSS = """
import re, django
django.setup()
from django.core.management import call_command
from django.test import Client
call_command("collectstatic", "--noinput", verbosity=0)
page = Client().get("/admin/login/", secure=True)
assert page.status_code == 200, page.status_code
css = re.search(r'href="(/static/admin/css/base\\.[0-9a-f]{12}\\.css)"', page.content.decode())
assert css, "the page links the hashed stylesheet"
response = Client().get(css.group(1), secure=True, headers={"Accept-Encoding": "gzip"})
print(response.status_code, response["Content-Type"], response["Cache-Control"],
      response.get("Content-Encoding"), sep="|", flush=True)
"""


@pytest.mark.process
def test_collected_static_files_are_served_hashed_compressed_and_cached_for_good(
    tmp_path: Path,
) -> None:
    process = subprocess.run(
        [sys.executable, "-c", SERVE_ADMIN_CSS],
        cwd=REPO,
        env={
            "PATH": os.environ.get("PATH", ""),
            "DJANGO_SETTINGS_MODULE": "deploy.settings",
            "SECRET_KEY": "s" * 50,
            "ALLOWED_HOSTS": "testserver",
            "RECEIPT_SIGNING_KEY": os.environ["RECEIPT_SIGNING_KEY"],  # the suite's (pytest-env)
            "STATIC_ROOT": str(tmp_path / "static"),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    status, content_type, cache_control, encoding = process.stdout.splitlines()[-1].split("|")
    assert status == "200"
    assert content_type.startswith("text/css")
    assert "max-age=315360000" in cache_control and "immutable" in cache_control
    assert encoding == "gzip"
    assert (tmp_path / "static" / "staticfiles.json").exists()


@pytest.mark.process
def test_collected_static_files_are_not_committed() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "staticfiles/admin/css/base.css"], cwd=REPO, check=False
    )
    assert ignored.returncode == 0


def test_gunicorn_leaves_the_request_log_to_the_application() -> None:
    """The application logs one line a request (deploy.middleware); gunicorn's access log is
    off, and with a ``logconfig_dict`` its logger would still work out every line's fields."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    from deploy import gunicorn as web

    cfg = Config()
    cfg.set("logconfig_dict", web.logconfig_dict)
    # A response that is not one: the fields cannot be worked out from it.
    junk = (None, None, {}, None)
    # (gunicorn's loggers apply the logging config when made: not to this process's logging)
    with mock.patch("gunicorn.glogging.dictConfig"):
        theirs, ours = Logger(cfg), web.logger_class(cfg)
    with pytest.raises(AttributeError):
        theirs.access(*junk)  # gunicorn's own logger reaches for the fields
    assert ours.access(*junk) is None
    assert ours.access_log_enabled is False
    assert web.control_socket_disable is True


def test_a_web_worker_sets_what_it_loaded_aside_from_the_collectors_full_passes() -> None:
    """deploy.gunicorn's post_worker_init freezes what the worker holds once the application
    is loaded (the collector's full passes no longer walk it: bench.board's p99)."""
    import gc

    from deploy import gunicorn as web

    gc.unfreeze()
    try:
        web.post_worker_init(None)
        assert gc.get_freeze_count() > 10_000  # Django and the apps, at least
    finally:
        gc.unfreeze()


def test_a_push_process_sets_what_it_loaded_aside_from_the_collectors_full_passes() -> None:
    """A push process (uvicorn imports deploy.push in each) freezes what Django and the apps
    loaded: a full pass of the collector stops its event loop for every viewer."""
    import subprocess
    import sys

    code = "import gc, deploy.push; print(gc.get_freeze_count())"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert int(out.stdout.split()[-1]) > 10_000
