"""The whole stack under faults: ``make stack`` with concurrent clients, a worker and a web
process killed, Redis restarted; afterwards every log verifies, nothing was lost or doubled,
and every projection equals a rebuild.

``make stack`` (honcho running deploy/Procfile: gunicorn with 3 workers, 2 Celery workers,
1 beat) runs on the test database and a private Redis. ``CLIENTS`` driver processes
(tests/stack/driver.py) play score and digital matches flat out, one match shared by all
of them, each append with its own idempotency key; one more plays an 8-team knockout as the
workers advance it, round by round. Meanwhile this process polls the web
(the probes, the admin's login page and its CSS) and the projection checkpoints, and, at
fixed times: SIGKILLs one Celery worker (main process and pool: its messages stay unacked
until the visibility timeout, so only the beat's catch-up can recover them; supervise
restarts it), SIGKILLs one gunicorn worker (the master replaces it), and restarts Redis
(every queued task is lost). Then it waits for the projections, stops the stack with
SIGTERM, and checks.

Figures (printed, and written to bench/results/stack.json): appends per second through the
stack, and the lag from an append's commit to the projection row a standings page reads.

The clients append through the REST API (driver.ApiAppender, each with a director's token of
its tournament), so the figures are the whole stack's: gunicorn, the API, the store, Redis,
the workers. The lag is read from the projection rows the public pages and the API's
standings are built on (``Observer``).
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from competition.models import Fixture, Stage
from deploy.celery import app as celery_app
from scoring.models import MatchResult
from tests.competition.helpers import make_club
from tests.scoring.worker import REPO, database_url, free_port, private_redis, wait_until
from tournaments import happenings
from tournaments.models import (
    Happening,
    Match,
    MatchEvent,
    MatchReceipt,
    Tournament,
)
from tournaments.services import match_create

from .stack import Stack, a_tournament, private_pgbouncer, wait_seconds

pytestmark = [
    pytest.mark.slow,
    pytest.mark.process,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

CLIENTS = 4
SECONDS = float(os.environ.get("STACK_SECONDS", "12"))  # of load
#: appends per second each client keeps to (unset: as fast as the stack answers)
RATE = float(os.environ.get("STACK_RATE", "0")) or None
SCORE_MATCHES = 4  # per client
#: when each fault strikes, in seconds after the load starts
KILL_CELERY_WORKER, KILL_GUNICORN_WORKER, RESTART_REDIS = 3.0, 5.5, 8.0
REDIS_DOWN = 1.5  # seconds between the kill and the restart, at least
RESULTS = REPO / "bench" / "results"


# --- What the clients play ----------------------------------------------------------------


@contextlib.contextmanager
def tasks_in_process() -> Iterator[None]:
    """Run the tasks this process sends while it sets the club up, here: never to a broker."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_eager_propagates = saved


def a_knockout() -> Stage:
    """Return an 8-team single elimination by score, its first round published."""
    club = make_club(8, slug="stack-cup")
    stage = club.start(
        club.stage(format="single_elimination", match_format={"bazzis": 1, "deal_cap": 2})
    )
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    return stage


def assert_the_bracket_advanced_exactly_once(stage: Stage) -> None:
    """Seven fixtures, seven matches (none made twice), each winner sent on to its slot."""
    stage.refresh_from_db()
    assert stage.status == Stage.Status.COMPLETE
    fixtures = {f.key: f for f in Fixture.objects.filter(stage=stage)}
    assert len(fixtures) == 7
    assert Match.objects.filter(fixture__stage=stage).count() == 7
    assert Match.objects.filter(tournament=stage.tournament).count() == 7
    for fixture in fixtures.values():
        assert fixture.result in {"a", "b"}, fixture
        if fixture.winner_to:
            key, side = fixture.winner_to.split(":")
            assert getattr(fixtures[key], f"team_{side}_id") == fixture.winner().pk
        # The fixture's result is the log's: the projection (equal to a rebuild) says who won.
        result = MatchResult.objects.get(match=fixture.match)
        assert (fixture.match.team0_id, fixture.match.team1_id)[result.winner] == (
            fixture.winner().pk
        )


def a_club(n_matches: int) -> tuple[list[list[dict[str, Any]]], dict[str, Any], dict[str, Any]]:
    """Create the tournament and every client's matches.

    Return the clients' plans, the match they share, and one more match, appended to only
    while Redis is down (so only what the web process held meanwhile can project it on
    time: scoring.resend; the catch-up otherwise).
    """
    tournament, teams = a_tournament("stack", 4)

    def match(mode: str, bazzis: int, k: int) -> dict[str, Any]:
        a, b = teams[k % 4], teams[(k + 1) % 4]
        created = match_create(
            tournament=tournament, team0=a, team1=b, mode=mode, match_format={"bazzis": bazzis}
        )
        return {"id": created.pk, "mode": mode}

    shared = match("score", 3, 0)
    plans = [
        [match("digital", 1, c), *(match("score", 1, c + k) for k in range(n_matches)), shared]
        for c in range(CLIENTS)
    ]
    return plans, shared, match("score", 3, 1)


def plans_tournament(plans: list[list[dict[str, Any]]]) -> Tournament:
    return Match.objects.select_related("tournament").get(pk=plans[0][0]["id"]).tournament


def director_token(of: Tournament | Stage) -> str:
    """Return a new API token of the tournament's organizer, scoped to it, that may write."""
    from api.models import ApiToken

    tournament = of.tournament if isinstance(of, Stage) else of
    _, text = ApiToken.objects.create(
        user=tournament.organizer, expiry=timedelta(hours=1), name="stack client",
        tournament=tournament, write=True,
    )  # fmt: skip
    return str(text)


class Observer:
    """Polls what a standings page would read: each match's projection checkpoint.

    Today the scoring rows themselves; with the API, its public standings endpoint.
    ``seen[match]`` is a list of (time.time(), checkpoint) as the checkpoint moved.
    """

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.seen: dict[int, list[tuple[float, int]]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as db:
            while not self.stop.is_set():
                rows = db.execute("SELECT match_id, seq FROM scoring_matchresult").fetchall()
                now = time.time()
                for match_id, seq in rows:
                    history = self.seen.setdefault(match_id, [])
                    if not history or history[-1][1] != seq:
                        history.append((now, seq))
                time.sleep(0.02)

    def lag(self, match_id: int, seq: int, committed: float) -> float | None:
        """Seconds from ``committed`` until the checkpoint of the match reached ``seq``."""
        for t, checkpoint in self.seen.get(match_id, []):
            if checkpoint >= seq:
                return max(0.0, t - committed)
        return None


class WebPoller:
    """Polls the web as a load balancer and a browser would; records (time, what, status)."""

    def __init__(self, stack: Stack, css: str) -> None:
        self.stack, self.css = stack, css
        self.results: list[tuple[float, str, int]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self.stop.is_set():
            for path in ("/healthz", "/readyz", "/admin/login/", self.css):
                status, _ = self.stack.get(path, timeout=3)
                self.results.append((time.monotonic(), path, status))
            time.sleep(0.25)

    def statuses(self, path: str, after: float = 0.0) -> list[int]:
        return [s for t, p, s in self.results if p == path and t >= after]


# --- The run ----------------------------------------------------------------------------------


@pytest.fixture(params=["direct", "pgbouncer"])
def stack(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stack]:
    """``make stack`` on the test database, straight or through PgBouncer (transaction mode)."""
    direct = database_url(connection.settings_dict)
    with contextlib.ExitStack() as stack_of:
        redis_server = stack_of.enter_context(private_redis(tmp_path))
        url, env = direct, {}
        if request.param == "pgbouncer":
            settings = connection.settings_dict
            port = stack_of.enter_context(
                private_pgbouncer(settings["HOST"] or "127.0.0.1", int(settings["PORT"] or 5432))
            )
            url = database_url({**settings, "HOST": "127.0.0.1", "PORT": port})
            env = {"DATABASE_POOLING": "pgbouncer"}
        # the push process on a free port of its own: the one after PORT (deploy.stack's
        # default) was once taken by another test's server
        env = {**env, "PUSH_PORT": str(free_port())}
        running = Stack(
            database_url=url, redis=redis_server, log_dir=tmp_path, port=free_port(), env=env
        )
        try:
            yield running.start()
        finally:
            running.kill()
            print(running.output()[-8000:])


def test_a_tournament_survives_a_killed_worker_a_killed_web_process_and_a_redis_restart(
    stack: Stack, tmp_path: Path
) -> None:
    with tasks_in_process():
        plans, shared, lonely = a_club(SCORE_MATCHES)
        knockout = a_knockout()
    status, page = stack.get("/admin/login/")
    assert status == 200
    css = "/static/" + page.split('href="/static/', 1)[1].split('"', 1)[0]
    assert css.startswith("/static/admin/css/base.") and css.endswith(".css")

    observer = Observer(database_url(connection.settings_dict))
    poller = WebPoller(stack, css)
    observer.thread.start()
    poller.thread.start()
    try:
        figures = run_and_check(
            stack, tmp_path, plans, shared, lonely, knockout, css, observer, poller
        )
    finally:
        observer.stop.set()
        poller.stop.set()
        observer.thread.join(5)
        poller.thread.join(10)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"stack-{figures['database']}.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))


def run_and_check(
    stack: Stack,
    tmp_path: Path,
    plans: list[list[dict[str, Any]]],
    shared: dict[str, Any],
    lonely: dict[str, Any],
    knockout: Stage,
    css: str,
    observer: Observer,
    poller: WebPoller,
) -> dict[str, Any]:
    """Drive the load, strike the faults, check everything; return the figures."""
    gunicorn_before = sorted(stack.gunicorn_workers())
    assert len(gunicorn_before) == 3

    def client(n: int, plan: dict[str, Any]) -> subprocess.Popen[str]:
        path = tmp_path / f"plan-{n}.json"
        path.write_text(json.dumps({"seed": 12, **plan}))
        return subprocess.Popen(
            [sys.executable, "-m", "tests.stack.driver", "--client", str(n),
             "--plan", str(path), "--out", str(tmp_path / f"client-{n}.jsonl"),
             "--via", "api", "--url", stack.url],
            cwd=REPO,
            env=stack.environment(),
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip

    club_token, cup_token = director_token(plans_tournament(plans)), director_token(knockout)
    drivers = [
        client(n, {"matches": matches, "seconds": SECONDS, "rate": RATE, "token": club_token})
        for n, matches in enumerate(plans)
    ]
    # The knockout's score-keeper: as long as the bracket takes (faults delay its rounds).
    bracket = client(
        CLIENTS + 1, {"stage": knockout.pk, "seconds": SECONDS + 60, "token": cup_token}
    )
    began = time.monotonic()
    faults: dict[str, float] = {}

    wait_seconds(began + KILL_CELERY_WORKER)
    killed_worker = stack.kill_celery_worker("worker.1")
    faults["celery worker SIGKILL"] = time.time()

    wait_seconds(began + KILL_GUNICORN_WORKER)
    killed_web = stack.kill_gunicorn_worker()
    faults["gunicorn worker SIGKILL"] = time.time()

    wait_seconds(began + RESTART_REDIS)
    stack.redis.kill()
    redis_down = time.monotonic()
    faults["redis restart"] = time.time()
    # A client that starts a match and enters one deal while Redis is down: committed, but
    # no task could be sent for either append (the web process holds it until Redis is
    # back), and nobody appends to that match again. Redis stays down until it is done.
    late = client(CLIENTS, {"matches": [lonely], "seconds": 30, "limit": 2, "token": club_token})
    _, err = late.communicate(timeout=30)
    assert late.returncode == 0, err
    assert json.loads(err.strip().splitlines()[-1])["appended"] == 2
    time.sleep(max(0.0, redis_down + REDIS_DOWN - time.monotonic()))
    stack.redis.start()

    reports = []
    for driver in [*drivers, bracket]:
        _, err = driver.communicate(timeout=SECONDS + 90)
        assert driver.returncode == 0, err
        reports.append(json.loads(err.strip().splitlines()[-1]))
    load_ended = time.monotonic()

    # --- The projections catch up on everything: lost messages included ---------------
    def caught_up() -> bool:
        heads = dict(Match.objects.filter(last_seq__gt=0).values_list("pk", "last_seq"))
        points = dict(MatchResult.objects.values_list("match_id", "seq"))
        return all(points.get(pk) == head for pk, head in heads.items())

    wait_until(caught_up, 60, "the projections to reach every log")
    caught_up_after = time.monotonic() - load_ended
    time.sleep(0.5)  # the pollers see the end state too
    for poll in (observer, poller):
        poll.stop.set()
        poll.thread.join(10)

    # The restarted worker is back, and both beat again into the restarted Redis: readiness
    # counts a worker by a heartbeat at most three beats old, so it can lag the projections'
    # catching up by a few beats (it did once in CI, with the projections now quicker). A
    # worker that lost Redis reconnects with kombu's backoff (2 s, then 2 s longer a try, up
    # to 30 s), so one worker may consume, and the projections catch up, well before the
    # other is back: the wait allows the longest retry interval and three beats.
    def both_workers_ready() -> bool:
        status, ready = stack.get("/readyz")
        return status == 200 and isinstance(ready, dict) and ready.get("live_workers") == 2

    wait_until(
        both_workers_ready, 45, "/readyz to count both workers", lambda: str(stack.get("/readyz"))
    )
    assert stack.processes()["worker.1"] != killed_worker
    assert len(stack.gunicorn_workers()) == 3
    assert stack.stop() is not None

    # --- Nothing lost, nothing doubled -------------------------------------------------------
    acked = [
        {**json.loads(line), "client": n}
        for n in range(CLIENTS + 2)  # the clients, the late one, the knockout's
        for line in (tmp_path / f"client-{n}.jsonl").read_text().splitlines()
    ]
    stored = {
        key: (match_id, seq)
        for key, match_id, seq in MatchEvent.objects.filter(
            idempotency_key__isnull=False
        ).values_list("idempotency_key", "match_id", "seq")
    }
    assert len(acked) == sum(r["appended"] for r in reports) + 2
    assert len({a["key"] for a in acked}) == len(acked)
    assert {a["key"]: (a["match"], a["first"]) for a in acked} == stored
    assert sum(r["stale"] for r in reports) > 0, "the shared match saw concurrent appends"

    # --- Every log verifies, every projection is a rebuild's -----------------------------
    # verify_match raises on any problem: a chain, a replay, a snapshot, a signed receipt.
    call_command("verify_match", all=True, verbosity=0)
    call_command("rebuild_projections", check=True, verbosity=0)

    # --- The bracket advanced exactly once; each finished match completed exactly once ------
    assert_the_bracket_advanced_exactly_once(knockout)
    worker_lines = stack.lines("worker.")
    # Counted in the results logs, which commit with the completion: a worker's line "match N
    # completed" is written inside the projection's transaction, so a worker killed before
    # the commit leaves the line, and the catch-up's run writes it again (a run saw it twice).
    completions = Counter(
        Happening.objects.filter(kind=happenings.MATCH_COMPLETED).values_list(
            "body__match", flat=True
        )
    )
    finished = set(MatchResult.objects.filter(completed_at__isnull=False).values_list(
        "match_id", flat=True
    ))  # fmt: skip
    assert len(finished) >= CLIENTS + 7, "matches ended during the run, the bracket's 7 too"
    assert completions == Counter(dict.fromkeys(finished, 1))
    signed = Counter(MatchReceipt.objects.values_list("match_id", flat=True))
    assert signed == Counter(dict.fromkeys(finished, 1)), "one receipt per finished match"
    assert Match.objects.get(pk=shared["id"]).last_seq > 0

    # --- The faults happened and healed ---------------------------------------------------
    assert any("restarting" in line["message"] for line in stack.lines("worker.1")), (
        "supervise restarted the killed worker"
    )
    web_lines = stack.lines("web.")
    assert any(f"Worker (pid:{killed_web}) was sent SIGKILL" in x["message"] for x in web_lines)
    booted = [x for x in web_lines if x["message"].startswith("Booting worker with pid")]
    assert len(booted) == 4, "three workers at start, one more to replace the killed one"
    beat = [x["message"] for x in stack.lines("beat.")]
    assert sum("took the beat lock" in m for m in beat) >= 2, "taken again after Redis restarted"

    # The web went on serving through everything; readiness saw the broker go.
    assert poller.results[-1][0] >= load_ended, "the poller polled to the end"
    for path in ("/healthz", "/admin/login/", css):
        statuses = poller.statuses(path)
        failed_at = [round(t - began, 1) for t, p, s in poller.results if p == path and s != 200]
        assert statuses.count(200) >= 0.95 * len(statuses), (path, Counter(statuses), failed_at)
        assert poller.statuses(path)[-3:] == [200, 200, 200]
    assert 503 in poller.statuses("/readyz", after=redis_down)
    assert poller.statuses("/readyz")[-3:] == [200, 200, 200]

    # The request id of each append is in the log lines of the projection task it caused.
    keys = {a["key"] for a in acked}
    traced = [
        line
        for line in worker_lines
        if line.get("task_name") == "scoring.tasks.project_match" and "succeeded" in line["message"]
    ]
    assert {line["request_id"] for line in traced if "request_id" in line} <= keys
    # Not every append has a task of its own to carry its id: appends share a waiting task,
    # and one lost with Redis is the catch-up's (whose task carries none), so count the tasks
    # instead.
    assert sum("request_id" in line for line in traced) >= 0.5 * len(traced)
    # What Redis never had, the web process held and sent once Redis was back: the lonely
    # match's task, with the request id of its last append (the catch-up's carries none).
    assert any(x["message"].startswith("broker: back;") for x in web_lines)
    lonely_keys = [a["key"] for a in sorted(acked, key=lambda a: a["t"]) if a["client"] == CLIENTS]
    assert any(line.get("request_id") == lonely_keys[-1] for line in traced), lonely_keys

    # Warm shutdown: both workers were asked, and none of them was killed at the end.
    assert sum("Warm shutdown" in raw for raw in stack.output().splitlines()) >= 2

    # --- Figures ------------------------------------------------------------------------
    # Throughput: the flat-out clients' appends over their time (the knockout's score-keeper
    # waits for its rounds, the late client for Redis); the lag: every append.
    times = sorted(a["t"] for a in acked if a["client"] < CLIENTS)
    lags = [observer.lag(a["match"], a["last"], a["t"]) for a in acked]
    assert None not in lags, "every append was seen projected"
    quiet = [
        lag
        for a, lag in zip(acked, lags, strict=True)
        if lag is not None and not any(0 <= a["t"] - at <= 6 for at in faults.values())
    ]
    return {
        "benchmark": "stack",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "stack": "make stack: gunicorn x3, 2 celery workers x2 processes, 1 beat; "
        f"PostgreSQL, private Redis; {CLIENTS} clients and a knockout's score-keeper through "
        "the append service",
        "database": "pgbouncer" if stack.env.get("DATABASE_POOLING") else "direct",
        "cpus": os.cpu_count(),
        "offered_rate_per_s": None if RATE is None else RATE * CLIENTS,
        "appends": len(acked),
        "seconds": round(times[-1] - times[0], 2),
        "appends_per_s": round(len(times) / (times[-1] - times[0]), 1),
        "stale_409s": sum(r["stale"] for r in reports),
        "finished_matches": len(finished),
        "lag_s": _quantiles([lag for lag in lags if lag is not None]),
        "lag_s_away_from_faults": _quantiles(quiet),
        "caught_up_after_load_s": round(caught_up_after, 2),
        "faults": list(faults),
    }


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}

    def q(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))], 3)

    return {
        "p50": q(0.5),
        "p95": q(0.95),
        "p99": q(0.99),
        "max": round(ordered[-1], 3),
        "mean": round(statistics.fmean(ordered), 3),
    }
