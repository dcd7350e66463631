"""The recorder's page as a score-keeper records a deal: a GET after each play, its time and
queries, in one checkout or two taking turns.

A scratch SQLite database of its own (a temporary file, removed after) is migrated, and a
table match of two new teams is started with its score-keeper. Then, ``--deals`` times, a deal
is recorded as a table records it, through the append service: the bid with the floor turned
up, then every play to the deal's end (random legal moves, the cards from a seeded shuffle).
After each append the page is fetched once through Django's full request stack, as the
recorder's phone fetches it (``GET /record/<id>/``), with DEBUG off: its wall time, its CPU
time and its queries (the last play of a deal ends it, and the page after it is the next
deal's, dealt by the server). Then the same page is fetched as a process that has kept
nothing of the match would (``fresh``: what this process keeps per match forgotten before
each GET), at every tenth play.

``--tree DIR`` measures another checkout too (the same workload in a process of its own,
started in that checkout), the two taking turns over ``--rounds``: a change's before and
after in the same run. Figures go to bench/results/recorder.json and are printed.

    python -m bench.recorder [--deals 2] [--rounds 3] [--seed 2026] [--tree DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
#: what a process keeps per match, by module and name, in the checkouts that keep any
KEPT = (("tournaments.snapshots", "recent"), ("web.recorder", "_described"))


def _forget() -> None:
    """Forget what this process keeps of matches, as a process started afresh has nothing."""
    import importlib

    for module, name in KEPT:
        try:
            found = importlib.import_module(module)
        except ImportError:
            continue
        kept = getattr(found, name, None)
        if kept is not None:
            setattr(found, name, type(kept)())


def _child(deals: int, seed: int) -> None:
    """In the measured process: record ``deals`` deals, the page fetched after each append;
    print the figures as one line of JSON."""
    import random

    from bench.scratch import sqlite_django

    with sqlite_django("recorder", static=True):
        from django.core.management import call_command
        from django.test import override_settings

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        with override_settings(DEBUG=False, ALLOWED_HOSTS=["localhost"]):
            print(json.dumps(_record(deals, random.Random(seed))))


def _record(deals: int, rng: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import seep_core as sc
    from tournaments.models import Player, Team, Tournament
    from tournaments.selectors import match_state
    from tournaments.services import match_append_event, match_create

    users = get_user_model().objects
    organizer = users.create_user("organizer")
    keeper = users.create_user("keeper")
    tournament = Tournament.objects.create(name="Table night", slug="table", organizer=organizer)
    players = [Player.objects.create(name=f"Player {n}") for n in range(4)]
    team0, team1 = (
        Team.objects.create(
            tournament=tournament,
            name=f"Team {i}",
            first_player=players[i],
            second_player=players[i + 2],
        )
        for i in range(2)
    )
    match = match_create(
        tournament=tournament, team0=team0, team1=team1, mode="table",
        match_format={"deal_cap": deals + 1},
    )  # fmt: skip
    match.scorekeepers.add(keeper)
    client = Client(HTTP_HOST="localhost")
    client.force_login(keeper)
    url = f"/record/{match.pk}/"
    after_play: list[tuple[float, float, int]] = []
    fresh: list[tuple[float, float, int]] = []

    def fetch() -> tuple[float, float, int]:
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            start, start_cpu = time.perf_counter(), time.thread_time()
            page = client.get(url)
            spent = (time.perf_counter() - start) * 1000, (time.thread_time() - start_cpu) * 1000
        if page.status_code != 200:
            raise SystemExit(f"{url} answered {page.status_code}")
        return (*spent, len(captured))

    def record(kind: str, payload: dict[str, Any]) -> None:
        match.refresh_from_db()
        match_append_event(
            match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=keeper
        )

    record("match_started", {"first_dealer": 3})
    fetch()  # warm: templates compiled, the session read
    for _ in range(deals):
        state = match_state(match)
        assert state.deal is not None
        dealer = state.deal.dealer
        deck = sc.ordered_deck()
        rng.shuffle(deck)  # what the table holds: the bid from it, then plays the engine allows
        digital = sc.new_deal(dealer, deck)
        while not (bids := [m for m in sc.legal_moves(digital) if m["action"] == "bid"]):
            rng.shuffle(deck)
            digital = sc.new_deal(dealer, deck)
        move = rng.choice(bids)
        floor = sorted(deck[4:8], key=sc.ordered_deck().index)
        record("move_played", {"move": {**move, "floor": floor}})
        digital = sc.apply(digital, move)
        after_play.append(fetch())
        plays = 0
        while digital.phase not in ("over", "redealt"):
            move = rng.choice(sc.legal_moves(digital))
            record("move_played", {"move": move})
            digital = sc.apply(digital, move)
            plays += 1
            after_play.append(fetch())
            if plays % 10 == 0:
                _forget()
                fresh.append(fetch())
    match.refresh_from_db()
    return {
        "events": match.last_seq,
        "after_each_play": _figures(after_play),
        "fresh_process": _figures(fresh),
    }


def _figures(samples: list[tuple[float, float, int]]) -> dict[str, Any]:
    from bench.processes import quantile

    times = sorted(s[0] for s in samples)
    cpu = sorted(s[1] for s in samples)
    queries = [s[2] for s in samples]
    return {
        "gets": len(samples),
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(quantile(times, 0.99), 2),
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        "cpu_mean_ms": round(statistics.fmean(cpu), 2),
        "queries_min": min(queries),
        "queries_max": max(queries),
        "queries_mean": round(statistics.fmean(queries), 1),
    }


def _run(tree: Path, deals: int, seed: int) -> dict[str, Any]:
    command = [
        sys.executable, str(Path(__file__).resolve()), "--child", str(deals), str(seed)
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the measured process failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        _child(int(sys.argv[2]), int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2, help="deals recorded a run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each checkout")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tree", type=Path, help="another checkout, measured in turn")
    args = parser.parse_args()
    trees = {"this": ROOT}
    if args.tree is not None:
        trees["tree"] = args.tree.resolve()
    load_before = os.getloadavg()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for number in range(args.rounds):
        order = list(trees.items())
        if number % 2:
            order.reverse()
        for name, tree in order:
            outcome = _run(tree, args.deals, args.seed + number)
            runs[name].append(outcome)
            print(f"round {number + 1}/{args.rounds} {name}: {json.dumps(outcome)}", flush=True)
    result = {
        "benchmark": "recorder",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "database": "sqlite (a scratch file)",
        "deals": args.deals,
        "trees": {name: str(tree) for name, tree in trees.items()},
        "runs": runs,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "recorder.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
