"""The director's live board and the wall screen for a 128-table round: render time (p50, p99)
and query count of each.

A scratch SQLite database of its own (a temporary file, removed after) is migrated, then a
Swiss tournament of 256 teams in score mode, the other team confirming, gets its first round
published (128 matches, started) and put in every state a board shows, through the real
services: 32 finished, 32 with a deal awaiting confirmation, 16 disputed (rejected with the
other team's own version), 48 being played. Each page is fetched ``--repeat`` times through
Django's full request stack with DEBUG off: the board (the whole page, and its live part as
a poller gets it when something changed and when nothing did: a 304) and the wall screen
(its page, its live part from the cache, and cold: the cache emptied before each request).
The figures go to bench/results/board.json; the goal is p99 under 100 ms.

    python -m bench.board [--repeat 60] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.web import GOAL_MS, county_open, measure, percentile

RESULTS = Path(__file__).resolve().parent / "results"
TEAMS = 256


def tournament(rng: random.Random) -> tuple[Any, Any]:
    """Return the tournament and its director, its round of 128 tables in every state."""
    from django.contrib.auth import get_user_model

    from competition import services
    from competition.models import Stage
    from tournaments import matchlog
    from tournaments.models import Match
    from tournaments.services import match_append_event

    users = get_user_model().objects
    director = users.create_user("director", password="director")
    keeper = users.create_user("scorekeeper", password="scorekeeper")
    t = county_open(director, TEAMS)
    stage = services.stage_create(
        actor=director,
        tournament=t,
        name="Swiss",
        format=Stage.Format.SWISS,
        rounds=5,
        mode="score",
        match_format={"bazzis": 1, "deal_cap": 1},
        confirmation="other_team",
    )
    stage.scorekeepers.add(keeper)
    services.stage_start(actor=director, stage=stage)
    round_ = services.round_pair(actor=director, stage=stage)
    services.round_publish(actor=director, round=round_)
    matches = list(Match.objects.filter(fixture__round=round_).order_by("pk"))
    assert len(matches) == TEAMS // 2

    def append(match: Match, kind: str, payload: dict[str, Any], actor: Any) -> None:
        match.refresh_from_db(fields=["last_seq"])
        match_append_event(
            match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor
        )

    K = matchlog.Kind
    for n, match in enumerate(matches[:80]):
        a = rng.randrange(20, 81)
        append(match, K.DEAL_ENTERED, {"points": [a, 100 - a], "sweeps": [[], []]}, keeper)
        if n < 32:  # finished
            append(match, K.DEAL_CONFIRMED, {"entry": 1}, director)
        elif n >= 64:  # disputed, with the rejecting side's own version
            rejected = {"entry": 1, "reason": "It was less", "points": [a - 5, 105 - a]}
            append(match, K.DEAL_REJECTED, {**rejected, "sweeps": [[], []]}, director)
    return t, director


def measure_304(client: Any, url: str, etag: str, repeat: int) -> dict[str, Any]:
    """Return the figures of a poll that holds the current ETag (a 304 each time)."""
    import statistics

    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    if client.get(url, HTTP_IF_NONE_MATCH=etag).status_code != 304:
        raise SystemExit(f"{url} did not answer 304 to its own ETag")
    reset_queries()
    with CaptureQueriesContext(connection) as captured:
        client.get(url, HTTP_IF_NONE_MATCH=etag)
    queries = len(captured)
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.thread_time()
        client.get(url, HTTP_IF_NONE_MATCH=etag)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    return {
        "url": url,
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2),
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        "cpu_p99_ms": round(percentile(cpu, 0.99), 2),
        "queries": queries,
        "bytes": 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    scratch = tempfile.mkdtemp(prefix="seep-bench-board-")
    try:
        return run(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(args: argparse.Namespace, scratch: str) -> int:
    os.environ.update(
        DEBUG="1",  # the settings' development defaults; measured with DEBUG off below
        DATABASE_URL=f"sqlite:///{scratch}/bench.sqlite3",
        DJANGO_SETTINGS_MODULE="deploy.settings",
        STATIC_ROOT=f"{scratch}/static",
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("REDIS_URL", None)  # tasks in-process: the projections are current
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings

    from web import board

    began = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    t, director = tournament(random.Random(args.seed))
    built = time.perf_counter() - began
    counts = [(s.stage.name, s.counts) for s in board.live_board(t).stages]
    slug = t.slug
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "database": "sqlite (a scratch file)",
        "repeat": args.repeat,
        "goal_p99_ms": GOAL_MS,
        "setup_s": round(built, 1),
        "tables": counts,
        "pages": {},
    }
    results["load_average_before"] = os.getloadavg()
    with override_settings(DEBUG=False, ALLOWED_HOSTS=["localhost"]):
        desk = Client(HTTP_HOST="localhost")
        desk.force_login(director)
        public = Client(HTTP_HOST="localhost")
        pages = results["pages"]
        pages["board"] = measure(desk, f"/desk/{slug}/board/", args.repeat)
        pages["board-live"] = measure(desk, f"/desk/{slug}/board/live/", args.repeat)
        live = f"/desk/{slug}/board/live/"
        pages["board-live-304"] = measure_304(desk, live, desk.get(live)["ETag"], args.repeat)
        pages["wall"] = measure(public, f"/t/{slug}/wall/", args.repeat)
        pages["wall-live"] = measure(public, f"/t/{slug}/wall/live/", args.repeat)
        pages["wall-live-cold"] = measure(public, f"/t/{slug}/wall/live/", args.repeat, cold=True)
    results["load_average_after"] = os.getloadavg()
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "board.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    worst = 0.0
    print(f"{TEAMS // 2} tables: {counts}")
    for page, f in results["pages"].items():
        worst = max(worst, f["p99_ms"])
        print(
            f"  {page:16} p50 {f['p50_ms']:7.2f} ms  p99 {f['p99_ms']:7.2f} ms  "
            f"(cpu p50 {f['cpu_p50_ms']:6.2f}, p99 {f['cpu_p99_ms']:6.2f})  "
            f"{f['queries']:3d} queries  {f['bytes'] // 1024:4d} KiB"
        )
    load = results["load_average_before"][0]
    verdict = "met" if worst < GOAL_MS else "MISSED"
    print(
        f"worst p99 {worst:.1f} ms (load average {load:.1f} on {os.cpu_count()} cores): goal of "
        f"{GOAL_MS:.0f} ms {verdict}; bench/results/board.json"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
