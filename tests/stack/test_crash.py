"""The crash test (issue 39): an evening of 64 tables on the whole stack, during which each
kind of process is killed with SIGKILL at random moments, several times, and started again;
afterwards nothing a reader can see was lost or doubled.

``make stack`` (tests/stack/stack.py: gunicorn with 3 workers, 2 Celery workers for scoring,
1 for the webhooks, beat, the push process's 2 uvicorn workers) runs on the test database and
a private Redis. The evening is a Swiss of 32 teams over 4 rounds, 16 tables a round, played
as a club plays it, all over HTTP:

- the director (a thread of this process, with a director's token) starts the stage, pairs
  each round once the one before is complete, and publishes it; a request whose answer was
  lost (a connection error, a 502) is sent again, and a refusal that says it was done
  already (``draft_pending``, ``round_published``, ``stage_started``) is taken as done;
- ``CLIENTS`` score-keepers (tests/stack/driver.py, each a process of its own) share the
  tables, each entering its tables' deals as the rounds appear: every append with its
  idempotency key, retried with the same key and ``expected_seq`` when its outcome is unknown;
- two webhook receivers on loopback (HTTP servers in this process) subscribed to every kind
  before the stage starts; the second answers 500 to the first arrival of every fifth
  delivery, so that it gets those twice and drops the repeat by its id;
- a viewer follows the results log's stream on the push process, and when its connection
  ends, connects again with ``Last-Event-ID``, after the ``retry:`` it was told, as an
  EventSource does.

Meanwhile this process kills, at moments drawn from the seed (when the results log reaches
a number of entries, and a fraction of a second more): a gunicorn worker, one busy serving a
request if there is one (the master starts another; a client's request cut off is sent again
with its key), a scoring Celery worker with its pool (deploy.supervise starts it again; its
unacknowledged messages are lost until the visibility timeout, so only the catch-ups recover
them), and the push process's worker that holds the viewer's stream (uvicorn starts
another). ``KILLS`` of each kind, each once every process of its kind is back. The seed is
printed: ``CRASH_SEED=<seed>`` replays the same plan (each kill at the same count of entries,
the same delay, the same pick of a victim) and the same deals (the clients' draws are seeded
by it too); what the processes were doing at that moment still depends on the machine. The
webhooks' worker is killed too: a delivery whose attempt was cut off is sent again by the
beat's catch-up once its attempt's deadline and the catch-up's grace have passed (shortened
here, ``WEBHOOK_TIMEOUT_SECONDS`` and ``WEBHOOK_CATCH_UP_GRACE_SECONDS``, to fit the evening).

Afterwards, with every process settled: the results log (read over the API) holds every
deal, completion and publication exactly once, numbered 1..N in commit order (each match's
deals in order after its match was made and its round published, its completion after its
last deal, each round published after the last one completed); each receiver got every
entry at least once, one delivery per entry, signed, each as the log tells it; the viewer got
every entry exactly once, in order, across its reconnections; every log verifies and every
projection equals its rebuild (``rebuild_projections --check``: no row changed, the standings
included, and nothing new in the results log).
"""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests
from django.core.management import call_command

from api.models import ApiToken, WebhookDelivery
from api.webhooks import verify
from competition.models import Fixture, Round, Stage
from scoring import happenings as scoring_happenings
from scoring.models import DealResult, MatchResult
from tests.competition.helpers import make_club
from tests.scoring.worker import REPO, wait_until
from tournaments import happenings
from tournaments.models import Match, MatchEvent

from .stack import Stack, age, busy, private_stack, socket_holder
from .test_stack import director_token, tasks_in_process

pytestmark = [
    pytest.mark.slow,
    pytest.mark.process,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

TEAMS, ROUNDS = 32, 4  # a Swiss: 16 tables a round, 64 in all
CLIENTS = 4  # score-keepers' processes, sharing the tables
KILLS = 3  # of each kind of process
#: the fewest entries the results log can end with (each match made, one deal, completed; each
#: round published): the kills strike at entries drawn below it
FEWEST_ENTRIES = TEAMS // 2 * ROUNDS * 3 + ROUNDS
FAIL_EVERY = 5  # the second receiver answers 500 to the first arrival of every fifth delivery
PENDING = WebhookDelivery.Status.PENDING
SCORING_WORKERS = ("worker.1", "worker.2")  # honcho's names
WEBHOOK_WORKER = "webhooks.1"
#: what is killed: a gunicorn worker, a scoring worker, the push worker, the webhooks' worker
KINDS = ("web", "worker", "push", "webhooks")


def the_seed() -> int:
    """The seed of the kills' moments: ``CRASH_SEED`` to replay one, else a new one."""
    given = os.environ.get("CRASH_SEED", "").strip()
    return int(given) if given else random.SystemRandom().randrange(1 << 31)


# --- The webhook receivers ----------------------------------------------------------------


class Receiver:
    """A webhook receiver on loopback: records every arrival (its delivery id, its body and
    whether its signature checked), and answers 200, or 500 to the first arrival of every
    ``fail_every``-th delivery id (0: never), which the stack then sends again."""

    def __init__(self, fail_every: int = 0) -> None:
        self.fail_every = fail_every
        self.secret = ""
        self.arrivals: list[tuple[int, dict[str, Any], bool]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                signed = verify(receiver.secret, self.headers.get("Seep-Signature", ""), body)
                delivery = int(self.headers.get("Seep-Delivery") or 0)
                with receiver.lock:
                    first = all(d != delivery for d, _, _ in receiver.arrivals)
                    receiver.arrivals.append((delivery, json.loads(body), signed))
                fail = receiver.fail_every and first and delivery % receiver.fail_every == 0
                self.send_response(500 if fail else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def seqs(self) -> set[int]:
        with self.lock:
            return {body["seq"] for _, body, _ in self.arrivals}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- The viewer -------------------------------------------------------------------------------


class Viewer(threading.Thread):
    """Follows a results log's stream as an EventSource does: each event's ``id`` kept, and
    when the connection ends (or the server sends ``event: end``), a new one after ``retry``
    with ``Last-Event-ID``. ``received`` is every (seq, data) it was sent, ``sent_ids`` the
    ``Last-Event-ID`` of each connection (None: the first, from the start)."""

    def __init__(self, port: int, path: str, token: str) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.token = port, path, token
        self.received: list[tuple[int, dict[str, Any]]] = []
        self.sent_ids: list[int | None] = []
        self.refusals: list[int] = []
        self.ends: list[str] = []
        self.local_port: int | None = None
        self.stopping = threading.Event()
        self._connection: http.client.HTTPConnection | None = None

    def last_seq(self) -> int:
        return self.received[-1][0] if self.received else 0

    def run(self) -> None:
        last: int | None = None
        retry = 1.0
        while not self.stopping.is_set():
            headers = {
                "Authorization": f"Bearer {self.token}",
                "Accept": "text/event-stream",
                "X-Forwarded-Proto": "https",  # as the TLS proxy in front says
            }
            if last is not None:
                headers["Last-Event-ID"] = str(last)
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self._connection = connection
            try:
                connection.connect()
                assert connection.sock is not None
                self.local_port = connection.sock.getsockname()[1]
                self.sent_ids.append(last)
                connection.request("GET", self.path, headers=headers)
                response = connection.getresponse()
                if response.status != 200:
                    self.refusals.append(response.status)
                else:
                    last, retry = self._read(response, last, retry)
            except (OSError, http.client.HTTPException, ValueError):
                pass  # the server went (killed): connect again
            finally:
                self.local_port = None
                connection.close()
            self.stopping.wait(retry)

    def _read(
        self, response: http.client.HTTPResponse, last: int | None, retry: float
    ) -> tuple[int | None, float]:
        fields: dict[str, str] = {}
        try:
            while True:
                raw = response.readline()
                if not raw:
                    return last, retry
                line = raw.decode().rstrip("\n").rstrip("\r")
                if not line:  # the end of an event
                    if fields.get("event") == "end":
                        self.ends.append(fields.get("data", ""))
                        return last, retry
                    if "data" in fields:
                        seq = int(fields["id"])
                        self.received.append((seq, json.loads(fields["data"])))
                        last = seq
                    fields = {}
                    continue
                if line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "retry":
                    retry = int(value) / 1000
                else:
                    fields[name] = value
        except (OSError, http.client.HTTPException):
            return last, retry  # cut off mid-stream: what was whole was kept

    def stop(self) -> None:
        self.stopping.set()
        connection = self._connection
        if connection is not None and connection.sock is not None:
            with contextlib.suppress(OSError):
                connection.sock.shutdown(socket.SHUT_RDWR)
        self.join(10)


# --- The director -------------------------------------------------------------------------------


class Director(threading.Thread):
    """Runs the evening over the API as a director's client: starts the stage, then pairs and
    publishes each round once the one before is complete. A request whose outcome is unknown
    is sent again; a refusal that says it was done already is taken as done."""

    def __init__(self, url: str, token: str, stage_id: int) -> None:
        super().__init__(daemon=True)
        self.url, self.stage_id = url, stage_id
        self.session = requests.Session()
        self.session.headers.update(
            {"Authorization": f"Bearer {token}", "X-Forwarded-Proto": "https"}
        )
        self.retried = 0
        self.published: list[tuple[int, float]] = []  # (round id, time.monotonic())
        self.error: BaseException | None = None

    def call(self, method: str, path: str) -> tuple[int, Any]:
        """Send until an answer comes (a connection error or a 502/503/504 is no answer)."""
        for _attempt in range(100):
            try:
                answer = self.session.request(method, self.url + path, timeout=15)
            except requests.RequestException:
                answer = None
            if answer is not None and answer.status_code not in (502, 503, 504):
                return answer.status_code, answer.json()
            self.retried += 1
            time.sleep(0.2)
        raise AssertionError(f"{method} {path}: no answer in 100 tries")

    def run(self) -> None:
        try:
            self.evening()
        except BaseException as exc:
            self.error = exc

    def evening(self) -> None:
        status, body = self.call("POST", f"/api/v1/stages/{self.stage_id}/start/")
        assert status == 200 or body.get("code") == "stage_started", (status, body)
        for number in range(1, ROUNDS + 1):
            round_id = self.pair(number)
            status, body = self.call("POST", f"/api/v1/rounds/{round_id}/publish/")
            assert status == 200 or body.get("code") == "round_published", (status, body)
            self.published.append((round_id, time.monotonic()))

    def pair(self, number: int) -> int:
        """Pair round ``number`` once the one before is complete; return its id."""
        while True:
            status, body = self.call("POST", f"/api/v1/stages/{self.stage_id}/rounds/")
            if status == 201:
                assert body["number"] == number, body
                return int(body["id"])
            code = body.get("code")
            if code == "round_running":  # the workers have not completed the round yet
                time.sleep(0.5)
                continue
            assert code == "draft_pending", (status, body)  # an answer lost: paired already
            status, page = self.call("GET", f"/api/v1/stages/{self.stage_id}/rounds/")
            (draft,) = [r for r in page["results"] if r["status"] == "draft"]
            assert draft["number"] == number, draft
            return int(draft["id"])


# --- The kills ----------------------------------------------------------------------------------


class Killer:
    """Kills the stack's processes at the seed's moments: each when the results log has
    reached a number of entries, and a fraction of a second more."""

    def __init__(self, stack: Stack, viewer: Viewer, seed: int, progress: Callable[[], int]):
        self.stack, self.viewer, self.progress = stack, viewer, progress
        rng = random.Random(seed)
        kinds = list(KINDS) * KILLS
        rng.shuffle(kinds)
        moments = sorted(rng.sample(range(2, FEWEST_ENTRIES - 20), len(kinds)))
        self.plan = [
            (moment, kind, rng.uniform(0, 1.5), rng.random())
            for moment, kind in zip(moments, kinds, strict=True)
        ]
        self.done: list[dict[str, Any]] = []
        self.killed: Counter[str] = Counter()  # scoring workers, by name

    def back(self, kind: str) -> bool:
        """Whether every process of the kind is up (the one killed last replaced)."""
        if kind == "web":  # three workers, each past its boot (a few seconds)
            workers = self.stack.gunicorn_workers()
            return len(workers) == 3 and all(age(pid) > 3 for pid in workers)
        if kind == "push":  # and the viewer's stream open again (with an entry), on one
            workers = self.stack.push_workers()
            return len(workers) == 2 and bool(self.viewer.received) and bool(self.viewer_holder())
        # each Celery worker of the kind ready again: said so once more than it was killed
        output = self.stack.output()
        return all(
            len(re.findall(rf'"{name}@\S* ready\."', output)) > self.killed[name]
            for name in (SCORING_WORKERS if kind == "worker" else (WEBHOOK_WORKER,))
        )

    def run(self, until: Callable[[], bool]) -> None:
        for moment, kind, delay, pick in self.plan:
            while self.progress() < moment and not until():
                time.sleep(0.02)
            time.sleep(delay)
            wait_until(lambda k=kind: self.back(k), 60, f"the {kind} processes to be back")
            self.done.append({"kind": kind, "pid": self.kill(kind, pick), "t": time.monotonic()})

    def kill(self, kind: str, pick: float) -> int:
        if kind == "web":  # one busy serving a request, if one is within a second
            workers = sorted(self.stack.gunicorn_workers())
            for _ in range(20):
                serving = busy(workers)
                if serving:
                    workers = serving
                    break
            pid = workers[int(pick * len(workers))]
            os.kill(pid, signal.SIGKILL)
            return pid
        if kind in ("worker", "webhooks"):
            names = SCORING_WORKERS if kind == "worker" else (WEBHOOK_WORKER,)
            name = names[int(pick * len(names))]
            self.killed[name] += 1
            return self.stack.kill_celery_worker(name)
        pid = self.viewer_holder()  # the push worker that holds the viewer's stream
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        return pid

    def viewer_holder(self) -> int | None:
        peer = self.viewer.local_port
        if peer is None:
            return None
        return socket_holder(self.stack.push_workers(), int(self.stack.env["PUSH_PORT"]), peer)


# --- The run ------------------------------------------------------------------------------------


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    env = {
        "PUSH_RENDER_PROCESSES": "0",  # the API's streams render nothing
        "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "1",  # the receivers are on loopback
        "WEBHOOK_BACKOFF_SECONDS": "1",
        # a delivery cut off by a kill is sent again within the evening, not a minute later
        "WEBHOOK_TIMEOUT_SECONDS": "2",
        "WEBHOOK_CATCH_UP_GRACE_SECONDS": "2",
        "SCORING_CATCH_UP_SECONDS": "5",
    }
    with private_stack(tmp_path, env) as running:
        yield running


def read_token(stage: Stage) -> str:
    """A read-only token of the tournament's organizer, scoped to it (the viewer's)."""
    _, text = ApiToken.objects.create(
        user=stage.tournament.organizer, expiry=timedelta(hours=1), name="crash viewer",
        tournament=stage.tournament, write=False,
    )  # fmt: skip
    return str(text)


def results_log(url: str, token: str, tournament_id: int) -> list[dict[str, Any]]:
    """The tournament's whole results log, page by page, over the API."""
    session = requests.Session()
    session.headers.update({"Authorization": f"Bearer {token}", "X-Forwarded-Proto": "https"})
    entries: list[dict[str, Any]] = []
    while True:
        after = entries[-1]["seq"] if entries else 0
        answer = session.get(
            f"{url}/api/v1/tournaments/{tournament_id}/results/?after={after}&limit=200",
            timeout=15,
        )
        assert answer.status_code == 200, answer.text
        page = answer.json()["results"]
        if not page:
            return entries
        entries += page


def test_an_evening_of_64_tables_loses_and_doubles_nothing_through_sigkills(
    stack: Stack, tmp_path: Path
) -> None:
    seed = the_seed()
    print(f"crash test: CRASH_SEED={seed}", flush=True)
    began = time.monotonic()
    with tasks_in_process():
        club = make_club(TEAMS, slug="crash-night")
        stage = club.stage(format="swiss", rounds=ROUNDS)
    tournament = stage.tournament
    # the teams' registrations, told before the receivers subscribed (they are not sent them)
    registered = happenings.head(tournament.pk)
    writer, reader = director_token(stage), read_token(stage)

    with contextlib.ExitStack() as cleanup:
        receivers = [Receiver(), Receiver(fail_every=FAIL_EVERY)]
        every_kind = list(happenings.KINDS)
        for receiver in receivers:
            receiver.thread.start()
            cleanup.callback(receiver.close)
            answer = requests.post(
                f"{stack.url}/api/v1/webhooks/",
                json={"tournament": tournament.pk, "url": receiver.url, "kinds": every_kind},
                headers={"Authorization": f"Bearer {writer}", "X-Forwarded-Proto": "https"},
                timeout=15,
            )
            assert answer.status_code == 201, answer.text
            receiver.secret = answer.json()["secret"]

        push_port = int(stack.env["PUSH_PORT"])
        viewer = Viewer(push_port, f"/api/v1/tournaments/{tournament.pk}/results/stream/", reader)
        viewer.start()
        cleanup.callback(viewer.stop)

        def client(n: int) -> subprocess.Popen[str]:
            plan = {
                "stage": stage.pk, "share": [n, CLIENTS], "poll": 1.0, "seconds": 300,
                "token": writer,
            }  # fmt: skip
            path = tmp_path / f"plan-{n}.json"
            path.write_text(json.dumps({"seed": seed, **plan}))
            return subprocess.Popen(
                [sys.executable, "-m", "tests.stack.driver", "--client", str(n),
                 "--plan", str(path), "--out", str(tmp_path / f"client-{n}.jsonl"),
                 "--via", "api", "--url", stack.url],
                cwd=REPO, env=stack.environment(), stderr=subprocess.PIPE, text=True,
            )  # fmt: skip

        director = Director(stack.url, writer, stage.pk)
        drivers = [client(n) for n in range(CLIENTS)]
        cleanup.callback(lambda: [d.kill() for d in drivers if d.poll() is None])
        evening_began = time.monotonic()
        director.start()
        killer = Killer(stack, viewer, seed, lambda: happenings.head(tournament.pk) - registered)
        killer.run(until=lambda: all(d.poll() is not None for d in drivers))

        reports = []
        for driver in drivers:
            _, err = driver.communicate(timeout=300)
            assert driver.returncode == 0, err
            reports.append(json.loads(err.strip().splitlines()[-1]))
        director.join(30)
        assert director.error is None, director.error
        evening = time.monotonic() - evening_began

        # --- Everything settles: the projections, the deliveries, the viewer ----------------
        def settled() -> bool:
            heads = dict(Match.objects.filter(tournament=tournament).values_list("pk", "last_seq"))
            points = dict(MatchResult.objects.values_list("match_id", "seq"))
            head = happenings.head(tournament.pk)
            return (
                all(points.get(pk) == last for pk, last in heads.items())
                and Stage.objects.get(pk=stage.pk).status == Stage.Status.COMPLETE
                and all(r.seqs() >= set(range(registered + 1, head + 1)) for r in receivers)
                and viewer.last_seq() == head
                and not WebhookDelivery.objects.filter(status=PENDING).exists()
            )

        def what_lags() -> str:
            head = happenings.head(tournament.pk)
            due = set(range(registered + 1, head + 1))
            return json.dumps({
                "head": head, "viewer": viewer.last_seq(),
                "receivers": [len(due - r.seqs()) for r in receivers],
                "pending": WebhookDelivery.objects.filter(status=PENDING).count(),
                "stage": Stage.objects.get(pk=stage.pk).status, "seed": seed,
            })  # fmt: skip

        wait_until(settled, 90, "everything to settle", what_lags)
        time.sleep(1.5)  # a late standings.changed would show here
        wait_until(settled, 30, "everything to settle again", what_lags)
        settled_after = time.monotonic() - evening_began - evening
        log = results_log(stack.url, reader, tournament.pk)
        processes_back = {kind: killer.back(kind) for kind in KINDS}
    assert stack.stop() is not None

    figures = {
        "seed": seed,
        "tables": Match.objects.filter(tournament=tournament).count(),
        "appends": sum(r["appended"] for r in reports),
        "appends_retried_unknown": sum(r["unknown"] for r in reports),
        "appends_replayed": sum(r["replayed"] for r in reports),
        "director_retries": director.retried,
        "results_log_entries": len(log),
        "kinds": dict(Counter(e["kind"] for e in log)),
        "deliveries_arrived": [len(r.arrivals) for r in receivers],
        "viewer_connections": len(viewer.sent_ids),
        "kills_s": [(k["kind"], round(k["t"] - evening_began, 1)) for k in killer.done],
        "rounds_published_s": [round(t - evening_began, 1) for _, t in director.published],
        "evening_s": round(evening, 1),
        "settled_after_s": round(settled_after, 1),
        "test_s": round(time.monotonic() - began, 1),
    }
    print(json.dumps(figures, indent=2))

    check_the_results_log(log, tournament.pk, stage, tmp_path)
    check_the_receivers(receivers, [e for e in log if e["seq"] > registered])
    check_the_viewer(viewer, log, killer)
    check_the_rebuild(tournament.pk)

    # --- The kills happened, and every process came back -------------------------------------
    assert Counter(k["kind"] for k in killer.done) == dict.fromkeys(KINDS, KILLS)
    assert all(processes_back.values()), processes_back
    web = [x["message"] for x in stack.lines("web.")]
    for kill in killer.done:
        if kill["kind"] == "web":
            assert any(f"Worker (pid:{kill['pid']}) was sent SIGKILL" in m for m in web)
    for prefix in ("worker.", "webhooks."):
        worker = [x["message"] for x in stack.lines(prefix)]
        restarts = sum("exited with -9 unasked; restarting" in m for m in worker)
        assert restarts == KILLS, f"supervise started each killed {prefix} worker again"
    for kill in killer.done:
        if kill["kind"] == "push":
            assert f"Child process [{kill['pid']}] died" in stack.output()


def check_the_results_log(
    log: list[dict[str, Any]], tournament_id: int, stage: Stage, tmp_path: Path
) -> None:
    """Every deal, completion and publication once, numbered in commit order."""
    seqs = [e["seq"] for e in log]
    assert seqs == list(range(1, len(log) + 1)), "numbered 1..N, none missing, none twice"
    times = [datetime.fromisoformat(e["created_at"]) for e in log]
    assert times == sorted(times), "each written after the one before"
    assert {e["tournament"] for e in log} == {tournament_id}
    where = {e["seq"]: e for e in log}

    matches = list(Match.objects.filter(tournament_id=tournament_id).order_by("pk"))
    assert len(matches) == TEAMS // 2 * ROUNDS
    assert all(m.status == Match.Status.FINISHED for m in matches)

    # every acknowledged append is in its match's log, once, where the client was told
    acked = [
        json.loads(line)
        for n in range(CLIENTS)
        for line in (tmp_path / f"client-{n}.jsonl").read_text().splitlines()
    ]
    stored = MatchEvent.objects.filter(
        match__tournament_id=tournament_id, idempotency_key__isnull=False
    ).values_list("idempotency_key", "match_id", "seq")
    assert len({a["key"] for a in acked}) == len(acked)
    assert {a["key"]: (a["match"], a["first"]) for a in acked} == {k: (m, s) for k, m, s in stored}

    deals: dict[int, list[dict[str, Any]]] = defaultdict(list)
    completed: dict[int, list[dict[str, Any]]] = defaultdict(list)
    made: dict[int, list[dict[str, Any]]] = defaultdict(list)
    published: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for entry in log:
        kind = entry["kind"]
        if kind == happenings.DEAL_RECORDED:
            deals[entry["match"]].append(entry)
        elif kind == happenings.MATCH_COMPLETED:
            completed[entry["match"]].append(entry)
        elif kind == happenings.MATCH_MADE:
            made[entry["match"]].append(entry)
        elif kind == happenings.ROUND_PUBLISHED:
            published[entry["round"]].append(entry)
        elif kind == happenings.TEAM_CHANGED:  # the evening's teams, before it began
            assert entry["change"] in ("registered", "checked_in"), entry
            assert not made, "a team told after a match was made"
        else:
            assert kind == happenings.STANDINGS_CHANGED, entry  # nothing was corrected
    for match in matches:
        entered = [
            payload
            for kind, payload in MatchEvent.objects.filter(match=match)
            .order_by("seq")
            .values_list("kind", "payload")
            if kind == "deal_ended"
        ]
        told = deals[match.pk]
        assert [e["deal"] for e in told] == list(range(1, len(entered) + 1)), match.pk
        assert [e["points"] for e in told] == [p["points"] for p in entered], match.pk
        rows = DealResult.objects.filter(match=match).order_by("deal")
        bodies = [scoring_happenings.deal_body(row) for row in rows]
        assert [{k: e[k] for k in bodies[0]} for e in told] == bodies, match.pk
        (completion,) = completed[match.pk]
        result = MatchResult.objects.get(match=match)
        assert completion["winner_side"] == result.winner and completion["draw"] == result.draw
        assert completion["head"]["seq"] == match.last_seq
        assert completion["seq"] > told[-1]["seq"], "completed after its last deal"
        (making,) = made[match.pk]
        assert making["seq"] < told[0]["seq"], "its deals after the match was made"

    rounds = list(Round.objects.filter(stage=stage).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, ROUNDS + 1))
    assert all(r.status == Round.Status.COMPLETE for r in rounds)
    previous_end = 0
    for round_ in rounds:
        (publication,) = published[round_.number]
        fixtures = Fixture.objects.filter(round=round_)
        assert sorted(f["match"] for f in publication["fixtures"]) == sorted(
            fixtures.values_list("match_id", flat=True)
        )
        round_matches = [f["match"] for f in publication["fixtures"]]
        assert all(made[m][0]["seq"] < publication["seq"] for m in round_matches)
        assert all(deals[m][0]["seq"] > publication["seq"] for m in round_matches)
        assert publication["seq"] > previous_end, "published after the round before completed"
        previous_end = max(completed[m][0]["seq"] for m in round_matches)
        assert where[previous_end]["kind"] == happenings.MATCH_COMPLETED
    assert set(completed) == set(made) == {m.pk for m in matches}


def check_the_receivers(receivers: list[Receiver], log: list[dict[str, Any]]) -> None:
    """Every entry reached every receiver at least once: one delivery per entry (its id the
    same at every arrival), signed, telling what the log tells."""
    told = {e["seq"]: e for e in log}
    for receiver in receivers:
        assert all(signed for _, _, signed in receiver.arrivals), "every arrival signed"
        by_delivery: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for delivery, body, _ in receiver.arrivals:
            by_delivery[delivery].append(body)
        assert all(b == bodies[0] for bodies in by_delivery.values() for b in bodies)
        seqs = Counter(bodies[0]["seq"] for bodies in by_delivery.values())
        assert set(seqs) == set(told), "every entry delivered"
        assert set(seqs.values()) == {1}, "one delivery per entry"
        for delivery, bodies in by_delivery.items():
            body = {k: v for k, v in bodies[0].items() if k not in ("id", "created_at", "rows")}
            entry = {k: v for k, v in told[body["seq"]].items() if k != "created_at"}
            assert body == entry, delivery
    repeats = len(receivers[1].arrivals) - len({d for d, _, _ in receivers[1].arrivals})
    assert repeats >= len(log) // FAIL_EVERY // 2, "the refused arrivals came again"
    for receiver in receivers:
        assert WebhookDelivery.objects.filter(
            webhook__url=receiver.url, status=WebhookDelivery.Status.SUCCEEDED
        ).count() == len(log)


def check_the_viewer(viewer: Viewer, log: list[dict[str, Any]], killer: Killer) -> None:
    """Every entry once, in order, across the reconnections, each as the log has it."""
    assert [seq for seq, _ in viewer.received] == [e["seq"] for e in log]
    assert [data for _, data in viewer.received] == log
    pushed = sum(k["kind"] == "push" for k in killer.done)
    assert len(viewer.sent_ids) > pushed, "it connected again after each kill of its stream"
    assert all(seen for seen in viewer.sent_ids[1:]), "each time with Last-Event-ID"


def check_the_rebuild(tournament_id: int) -> None:
    """Every log verifies; every projection equals its rebuild, and the rebuild tells nothing
    new (no row of the standings changed, so no happening was written)."""
    head = happenings.head(tournament_id)
    call_command("verify_match", all=True, verbosity=0)
    out = io.StringIO()
    call_command("rebuild_projections", check=True, stdout=out)
    said = out.getvalue()
    assert ", 0 row(s) changed" in said, said
    assert "rebuilt, 0 row(s) written" in said, said
    assert happenings.head(tournament_id) == head
