"""One load-generating client of the stack test: plays its matches and records every append.

Run as its own process, one per client, as score-keepers at different tables would be:

    python -m tests.stack.driver --client 2 --plan plan.json --out client-2.jsonl

``plan.json`` lists the client's matches (``[{"id": 5, "mode": "score"}, ...]``), the
seconds to run, and optionally ``limit``, the most appends to make to each match, and
``rate``, the appends per second to keep to (default: as fast as the answers come). A plan
with ``stage`` instead of ``matches`` plays a bracket: every match of the stage as it
appears (the workers create the next round's as the bracket advances, or a director
publishes the next round of a Swiss), until the stage is complete; with ``share``, ``[k, n]``,
only the stage's matches whose id is k modulo n (n clients share its tables), and with
``poll``, the stage's matches listed at most every that many seconds. The
client takes its matches in turn, one append each: a deal's result in a
score match, a random legal move in a digital one, until each is finished or time is up. A
match may be shared with other clients: a stale ``expected_seq`` (409) is answered by taking
the head it names and trying the next turn, as a client of the API does.

Every append carries an idempotency key (the client's id for it: ``c<client>-<n>``), which
is also its request id, so the worker's log lines of the projection it causes carry it. A
failure that leaves the outcome unknown (a dropped connection, a 502 from a proxy) is retried
with the same key and ``expected_seq``: the original answer comes back and nothing is written
twice. Each append acknowledged is one JSON line in ``--out``: ``{"key", "match", "first",
"last", "t"}`` (the seqs it wrote; ``t``, time.time() when the answer arrived).

How the appends reach the server is one class: ``ApiAppender`` (``--via api --url URL``, with
the plan's ``token``, a director's) is a client of the REST API, as table devices are;
``ServiceAppender`` (``--via service``) calls the append service in this process. Both give
the same three answers: appended, stale, unknown outcome.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

RETRIES = 20  # of one append whose outcome was unknown


@dataclass(frozen=True)
class Appended:
    """An append acknowledged: the events it wrote (kind, payload), and the head after it."""

    events: list[tuple[str, dict[str, Any]]]
    first_seq: int
    last_seq: int
    replayed: bool


class Stale(Exception):
    def __init__(self, current_seq: int) -> None:
        super().__init__(current_seq)
        self.current_seq = current_seq


class Unknown(Exception):
    pass


class Appender(Protocol):
    def append(
        self, *, match_id: int, expected_seq: int, kind: str, payload: Any, key: str
    ) -> Appended:
        """Append or raise Stale (expected_seq is behind) or Unknown (retry with the key)."""
        ...

    def events(self, *, match_id: int) -> list[tuple[str, dict[str, Any]]]:
        """Return the match's log so far (kind, payload), as a client that joins late reads it."""
        ...

    def open_matches(self, *, stage_id: int) -> list[tuple[int, str]]:
        """Return the stage's matches (id, mode) that exist and are not finished."""
        ...

    def stage_complete(self, *, stage_id: int) -> bool:
        """Return whether the stage is complete (its bracket has a champion)."""
        ...


class ServiceAppender:
    """Appends through ``tournaments.services.match_append_event``, in this process."""

    def __init__(self) -> None:
        import django

        django.setup()

    def append(
        self, *, match_id: int, expected_seq: int, kind: str, payload: Any, key: str
    ) -> Appended:
        from django.db import connection

        from deploy import logs
        from tournaments.access import SYSTEM
        from tournaments.errors import StaleSequence, StoreUnavailable
        from tournaments.services import match_append_event

        try:
            with logs.bound(key):  # the append's request id: its projection task carries it
                result = match_append_event(
                    match=match_id,
                    expected_seq=expected_seq,
                    kind=kind,
                    payload=payload,
                    actor=SYSTEM,  # a director's powers: the API will check real users
                    idempotency_key=key,
                )
        except StaleSequence as exc:
            raise Stale(exc.current_seq) from exc
        except StoreUnavailable as exc:  # rolled back; a retry with the key is safe
            connection.close()
            raise Unknown(str(exc)) from exc
        # The events as the service renders them for the actor, as the API will send them.
        return Appended(
            [(e["kind"], e["payload"]) for e in result.events],
            result.events[0]["seq"],
            result.last_seq,
            result.replayed,
        )

    def events(self, *, match_id: int) -> list[tuple[str, dict[str, Any]]]:
        from tournaments.models import MatchEvent

        rows = MatchEvent.objects.filter(match_id=match_id).order_by("seq")
        return list(rows.values_list("kind", "payload"))

    def open_matches(self, *, stage_id: int) -> list[tuple[int, str]]:
        from competition.models import Fixture

        fixtures = Fixture.objects.filter(stage_id=stage_id, match__isnull=False)
        fixtures = fixtures.exclude(match__status="finished").order_by("round__number", "key")
        return list(fixtures.values_list("match_id", "match__mode"))

    def stage_complete(self, *, stage_id: int) -> bool:
        from competition.models import Stage

        return Stage.objects.filter(pk=stage_id, status=Stage.Status.COMPLETE).exists()


class ApiAppender:
    """Appends through the REST API, as a table's device does, with a director's token.

    ``POST {url}/api/v1/matches/{match_id}/events/`` with ``Idempotency-Key: key`` and
    ``X-Request-ID: key``, body ``{"expected_seq", "kind", "payload"}``: 201/200 → Appended
    from the body's events; 409 ``stale_expected_seq`` → Stale(body["current_seq"]); a
    connection error, a timeout or a 502/503/504 → Unknown. ``events``: the event feed, page
    by page; ``open_matches``: ``/api/v1/matches/?stage=``; ``stage_complete``: the stage's
    status. Every request says ``X-Forwarded-Proto: https``, as the TLS proxy in front would.
    """

    def __init__(self, url: str, token: str) -> None:
        import requests

        self.url = url.rstrip("/")
        self.session = requests.Session()
        self.session.headers.update(
            {"Authorization": f"Bearer {token}", "X-Forwarded-Proto": "https"}
        )

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        import requests

        try:
            response = self.session.request(method, self.url + path, timeout=15, **kwargs)
        except requests.RequestException as exc:  # refused, reset, timed out: try again
            raise Unknown(str(exc)) from exc
        if response.status_code in (502, 503, 504):
            raise Unknown(f"{response.status_code}: {response.text[:200]}")
        return response

    def _json(self, path: str) -> Any:
        for _attempt in range(RETRIES):
            try:
                response = self._call("GET", path)
            except Unknown:
                time.sleep(0.2)
                continue
            if response.status_code != 200:
                raise SystemExit(f"GET {path}: {response.status_code} {response.text[:500]}")
            return response.json()
        raise SystemExit(f"GET {path} failed {RETRIES} times")

    def append(
        self, *, match_id: int, expected_seq: int, kind: str, payload: Any, key: str
    ) -> Appended:
        response = self._call(
            "POST",
            f"/api/v1/matches/{match_id}/events/",
            json={"expected_seq": expected_seq, "kind": kind, "payload": payload},
            headers={"Idempotency-Key": key, "X-Request-ID": key},
        )
        body = response.json()
        if response.status_code == 409 and body.get("code") == "stale_expected_seq":
            raise Stale(body["current_seq"])
        if response.status_code not in (200, 201):
            raise SystemExit(f"append {key}: {response.status_code} {response.text[:500]}")
        return Appended(
            [(e["kind"], e["payload"]) for e in body["events"]],
            body["events"][0]["seq"],
            body["last_seq"],
            response.status_code == 200,
        )

    def events(self, *, match_id: int) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        path: str | None = f"/api/v1/matches/{match_id}/events/?limit=500"
        while path is not None:
            page = self._json(path)
            out += [(e["kind"], e["payload"]) for e in page["results"]]
            following = page["next"] and urlsplit(page["next"])
            path = following and f"{following.path}?{following.query}"
        return out

    def open_matches(self, *, stage_id: int) -> list[tuple[int, str]]:
        page = self._json(f"/api/v1/matches/?stage={stage_id}&page_size=200")
        return [(m["id"], m["mode"]) for m in page["results"] if m["status"] != "finished"]

    def stage_complete(self, *, stage_id: int) -> bool:
        return bool(self._json(f"/api/v1/stages/{stage_id}/")["status"] == "complete")


class Table:
    """One match as this client follows it: the engine state after the events it has seen."""

    def __init__(self, match_id: int, mode: str) -> None:
        from tournaments import matchlog

        self.match_id, self.mode = match_id, mode
        self.state = matchlog.MatchState(mode)
        self.seq = 0
        self.appends = 0  # by this client

    def resync(self, events: list[tuple[str, dict[str, Any]]], last_seq: int) -> None:
        """Start over from the whole log (after another client appended to this match)."""
        from tournaments import matchlog

        self.state = matchlog.MatchState(self.mode)
        self.follow(events, last_seq)

    def follow(self, events: list[tuple[str, dict[str, Any]]], last_seq: int) -> None:
        from tournaments import matchlog

        for kind, payload in events:
            self.state = matchlog.apply_event(self.state, kind, payload)
        self.seq = last_seq

    @property
    def finished(self) -> bool:
        return self.state.status == "finished"

    def next_command(self, rng: random.Random) -> tuple[str, dict[str, Any]]:
        """Return the next command for this match (kind, payload)."""
        import seep_core as sc

        if self.seq == 0:
            return "match_started", {"first_dealer": rng.randrange(4)}
        if self.mode == "score":
            points = rng.randrange(0, 101)
            return "deal_ended", {"points": [points, 100 - points], "sweeps": [[], []]}
        assert self.state.deal is not None
        return "move_played", {"move": rng.choice(sc.legal_moves(self.state.deal))}


def run(client: int, plan: dict[str, Any], appender: Appender, out: Any) -> dict[str, int]:
    """Play the plan's matches until they finish or time is up; return what happened."""
    rng = random.Random(plan.get("seed", 0) * 1000 + client)
    stage = plan.get("stage")
    share = plan.get("share") or (0, 1)
    tables = [Table(m["id"], m["mode"]) for m in plan.get("matches", [])]
    limit = plan.get("limit") or float("inf")
    began = time.monotonic()
    deadline = began + plan["seconds"]
    pause = 1.0 / plan["rate"] if plan.get("rate") else 0.0
    counts = {"appended": 0, "stale": 0, "unknown": 0, "replayed": 0}
    n = 0
    poll, listed = plan.get("poll", 0.0), -float("inf")
    while time.monotonic() < deadline:
        if stage is not None and time.monotonic() - listed >= poll:
            # the bracket (or the rounds published): the matches there are now
            listed = time.monotonic()
            known = {t.match_id for t in tables}
            tables += [
                Table(m, mode)
                for m, mode in appender.open_matches(stage_id=stage)
                if m not in known and m % share[1] == share[0]
            ]
        open_tables = [t for t in tables if not t.finished and t.appends < limit]
        if not open_tables:
            if stage is None or appender.stage_complete(stage_id=stage):
                break
            time.sleep(max(0.2, poll))  # the next round is to be made
            continue
        for table in open_tables:
            if time.monotonic() >= deadline:
                break
            if pause:  # keep to the rate: the n-th append not before n / rate seconds
                time.sleep(max(0.0, began + n * pause - time.monotonic()))
            kind, payload = table.next_command(rng)
            n += 1
            key = f"c{client}-{n}"
            for _attempt in range(RETRIES):
                try:
                    done = appender.append(
                        match_id=table.match_id,
                        expected_seq=table.seq,
                        kind=kind,
                        payload=payload,
                        key=key,
                    )
                except Stale:
                    # Another client appended first: catch up with the log, go on next turn.
                    counts["stale"] += 1
                    seen = appender.events(match_id=table.match_id)
                    table.resync(seen, len(seen))
                    break
                except Unknown:
                    counts["unknown"] += 1
                    time.sleep(0.2)
                    continue
                counts["appended"] += 1
                counts["replayed"] += done.replayed
                table.appends += 1
                table.follow(done.events, done.last_seq)
                line = {
                    "key": key,
                    "match": table.match_id,
                    "first": done.first_seq,
                    "last": done.last_seq,
                    "t": time.time(),
                }
                out.write(json.dumps(line) + "\n")
                break
            else:
                raise SystemExit(f"client {client}: append {key} failed {RETRIES} times")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--client", type=int, required=True)
    parser.add_argument("--plan", required=True, help="JSON: matches, seconds, seed")
    parser.add_argument("--out", required=True, help="one JSON line per acknowledged append")
    parser.add_argument("--via", choices=("service", "api"), default="service")
    parser.add_argument("--url", help="the stack's base URL (--via api)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    with open(args.plan) as f:
        plan = json.load(f)
    appender: Appender = (
        ServiceAppender() if args.via == "service" else ApiAppender(args.url, plan["token"])
    )
    with open(args.out, "w", buffering=1) as out:
        counts = run(args.client, plan, appender, out)
    print(json.dumps({"client": args.client, **counts}), file=sys.stderr)


if __name__ == "__main__":
    main()
