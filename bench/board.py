"""The director's live board and the wall screen for a 128-table round: render time (p50, p99)
and query count of each.

A scratch SQLite database of its own (a temporary file, removed after) is migrated, then a
Swiss tournament of 256 teams in score mode, the other team confirming, gets its first round
published (128 matches, started) and put in every state a board shows, through the real
services: 32 finished, 32 with a deal awaiting confirmation, 16 disputed (rejected with the
other team's own version), 48 being played. Each page is fetched ``--repeat`` times through
Django's full request stack with DEBUG off: the board (the whole page, and its live part as
a poller gets it: kept for its version, rendered once a change for every director; cold, the
first poll after a change: before each request a deal entered at a table being played, or
that entry taken back, in turn, and the cache emptied; first, the same with the kept tables'
cards emptied too, as a process just started renders it; and when nothing changed: a 304)
and the wall screen (its page, its live part from the cache, and cold).
The figures go to bench/results/board.json; the goal is p99 under 100 ms.

    python -m bench.board [--repeat 60] [--seed 2026]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import time
from typing import Any

from bench.web import first_round, judge, measure, page_bench, page_results, save, show

TEAMS = 256


def tournament(rng: random.Random) -> tuple[Any, Any, Any]:
    """Return the tournament, its director, its round of 128 tables in every state, and a
    function changing one table being played (each in turn: a deal entered, then that entry
    taken back, and so on: the round stays as it is for the figures)."""

    from tournaments import matchlog
    from tournaments.models import Match
    from tournaments.selectors import match_state
    from tournaments.services import match_append_event

    t, _stage, round_, director, keeper = first_round(TEAMS)
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
    turns = itertools.cycle(matches[80:])  # the tables being played

    def result() -> None:
        match = next(turns)
        entries = match_state(match).entries
        if entries:
            append(match, K.ENTRY_WITHDRAWN, {"entry": entries[-1].number}, keeper)
        else:
            a = rng.randrange(20, 81)
            append(match, K.DEAL_ENTERED, {"points": [a, 100 - a], "sweeps": [[], []]}, keeper)

    return t, director, result


def main(argv: list[str] | None = None) -> int:
    return page_bench("board", __doc__, run, argv)


def run(args: argparse.Namespace, began: float) -> int:
    from django.test import Client
    from django.test.utils import override_settings

    from web import board

    t, director, result = tournament(random.Random(args.seed))
    built = time.perf_counter() - began
    counts = [(s.stage.name, s.counts) for s in board.live_board(t).stages]
    slug = t.slug
    results = page_results(args, round(built, 1))
    results.update(tables=counts, pages={})
    results["load_average_before"] = os.getloadavg()
    # measured as a deployed web worker serves: what it loaded set aside from the garbage
    # collector's full passes (gunicorn's post_worker_init)
    from deploy.gunicorn import post_worker_init

    post_worker_init(None)
    with override_settings(DEBUG=False, ALLOWED_HOSTS=["localhost"]):
        desk = Client(HTTP_HOST="localhost")
        desk.force_login(director)
        public = Client(HTTP_HOST="localhost")
        pages = results["pages"]
        pages["board"] = measure(desk, f"/desk/{slug}/board/", args.repeat)
        pages["board-live"] = measure(desk, f"/desk/{slug}/board/live/", args.repeat)
        live = f"/desk/{slug}/board/live/"
        pages["board-live-cold"] = measure(desk, live, args.repeat, cold=True, before=result)
        pages["board-live-first"] = measure(
            desk, live, args.repeat, cold=True, before=result, forget=True
        )
        pages["board-live-304"] = measure(desk, live, args.repeat, etag=desk.get(live)["ETag"])
        pages["wall"] = measure(public, f"/t/{slug}/wall/", args.repeat)
        pages["wall-live"] = measure(public, f"/t/{slug}/wall/live/", args.repeat)
        pages["wall-live-cold"] = measure(public, f"/t/{slug}/wall/live/", args.repeat, cold=True)
    save(results, "board")
    print(f"{TEAMS // 2} tables: {counts}")
    worst, _cpu = show(results["pages"])
    judge(results, "board", worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
