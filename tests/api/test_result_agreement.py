"""A match's status and its result agree once a client asks to wait for its append, under
concurrent appends on PostgreSQL, with the projection running apart from the requests as a
worker runs it on the stack (a moment behind the log)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connections
from rest_framework.test import APIClient

from scoring import services as scoring_services
from scoring import tasks as scoring_tasks
from tournaments.models import Match

from .conftest import League

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: how far behind the log the stand-in worker runs
LAG = 0.2


class Worker:
    """Projects the matches whose logs grew, every ``LAG`` seconds, in a thread of its own."""

    def __init__(self) -> None:
        self.pending: set[int] = set()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def schedule(self, match_id: int) -> None:
        with self.lock:
            self.pending.add(match_id)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                time.sleep(LAG)
                with self.lock:
                    due, self.pending = self.pending, set()
                for match_id in sorted(due):
                    scoring_services.update_match_projection(match_id=match_id)
        finally:
            connections.close_all()


def play(league: League, match: Match, seen: list[dict[str, Any]], errors: list[str]) -> None:
    """Score ``match`` to its end as its score-keeper, reading it back after each append with
    ``?wait_for_seq=`` the head the append answered."""
    client = APIClient()
    client.force_login(league.users["organizer_a"])
    try:
        for deal in range(20):
            head = client.get(f"/api/v1/matches/{match.pk}/").json()
            if head["status"] == "finished":
                return
            points = [100, 0] if deal % 3 else [0, 100]
            answer = client.post(
                f"/api/v1/matches/{match.pk}/events/",
                {"expected_seq": head["last_seq"], "kind": "deal_ended",
                 "payload": {"points": points, "sweeps": [[], []]}},
                format="json",
            )  # fmt: skip
            if answer.status_code != 201:
                errors.append(f"{answer.status_code} {answer.content[:200]!r}")
                return
            wanted = answer.json()["last_seq"]
            read = client.get(f"/api/v1/matches/{match.pk}/?wait_for_seq={wanted}").json()
            seen.append({**read, "wanted": wanted})
    except Exception as exc:  # reported by the test
        errors.append(repr(exc))
    finally:
        connections.close_all()


def test_status_and_result_agree_after_waiting_for_the_append(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = Worker()
    monkeypatch.setattr(scoring_tasks, "schedule_projection", worker.schedule)
    worker.thread.start()
    matches = []
    for n in range(4):  # four score matches of tournament A played at once
        teams = league.teams_a
        match = Match.objects.create(
            tournament=league.a, team0=teams[n % 4], team1=teams[(n + 1) % 4], mode="score",
            rules=league.a.rules, match_format={"bazzis": 3},
        )  # fmt: skip
        client = APIClient()
        client.force_login(league.users["organizer_a"])
        started = client.post(
            f"/api/v1/matches/{match.pk}/events/",
            {"expected_seq": 0, "kind": "match_started", "payload": {"first_dealer": 0}},
            format="json",
        )
        assert started.status_code == 201, started.content[:300]
        matches.append(match)
    seen: list[dict[str, Any]] = []
    errors: list[str] = []
    threads = [threading.Thread(target=play, args=(league, m, seen, errors)) for m in matches]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        worker.stop.set()
        worker.thread.join(timeout=10)
    assert not errors, errors
    assert len(seen) >= 4 * 3
    for read in seen:
        result = read["result"]
        assert result is not None and result["seq"] >= read["wanted"], read
        if result["seq"] == read["last_seq"]:  # caught up: the status and the result agree
            assert (read["status"] == "finished") == result["over"], read
    finished = [r for r in seen if r["status"] == "finished"]
    assert len(finished) == 4 and all(r["result"]["over"] for r in finished)
