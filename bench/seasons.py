"""Seasons benchmark: members' ratings for a season of 50 evenings of 32 teams.

A club of 80 members meets 50 times a week apart; each evening 64 of them make 32 new pairs
that play 5 rounds of 16 tables (4,000 finished matches). The matches, their results and
the two log events the ratings read (``match_started``'s seats, ``match_ended``'s time) are
written straight to a scratch SQLite database (a temporary file, removed after), not played:
what is measured is the ratings, not the append. Figures (medians; p50/p99 per match) go to
bench/results/seasons.json:

- ``fold_s``: the pure fold (``seasons.rating.fold``) of the season's 4,000 games;
- ``rebuild_s``: ``update_club_ratings(rebuild=True)``: the season rated afresh from the
  database (what ``rebuild_projections`` does for a club);
- ``incremental_ms``: the last evening's 80 matches arriving one by one, in the order they
  ended, each rated on top (``update_club_ratings(match_id=...)``: the worker's path);
- ``correction_s``: a result of evening 25 corrected: the season folded again from it;
- ``catch_up_s``: the catch-up's comparison of every game with what was rated, nothing to do.

    python -m bench.seasons [--evenings 50] [--teams 32] [--repeat 3] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.scratch import sqlite_django

RESULTS = Path(__file__).resolve().parent / "results"
MEMBERS, ROUNDS = 80, 5


def build(evenings: int, teams: int, rng: random.Random) -> tuple[int, list[list[int]]]:
    """Write the season; return the club's id and each evening's match ids in finish order."""
    from django.contrib.auth import get_user_model

    from scoring.models import MatchResult
    from tournaments.models import Club, Match, MatchEvent, Player, Team, Tournament

    owner = get_user_model().objects.create_user("bench-owner")
    club = Club.objects.create(name="Bench Seep Club", slug="bench-seep-club")
    members = Player.objects.bulk_create(
        Player(name=f"Member {n}", club=club) for n in range(MEMBERS)
    )
    start = datetime(2026, 1, 2, 19, tzinfo=UTC)
    by_evening: list[list[int]] = []
    for e in range(evenings):
        day = start + timedelta(days=7 * e)
        tournament = Tournament.objects.create(
            name=f"Evening {e + 1}", slug=f"evening-{e + 1}", organizer=owner, club=club,
            date=day.date(),
        )  # fmt: skip
        playing = rng.sample(members, 2 * teams)
        sides = Team.objects.bulk_create(
            Team(tournament=tournament, name=f"Team {t + 1}", first_player=playing[2 * t],
                 second_player=playing[2 * t + 1])
            for t in range(teams)
        )  # fmt: skip
        matches, finished = [], []
        for r in range(ROUNDS):
            order = rng.sample(sides, teams)
            for table in range(teams // 2):
                a, b = order[2 * table], order[2 * table + 1]
                at = day + timedelta(minutes=40 * r + 20, seconds=rng.randrange(600))
                matches.append(Match(
                    tournament=tournament, team0=a, team1=b, mode="score", rules={},
                    match_format={"bazzis": 1}, status="finished", last_seq=2,
                ))  # fmt: skip
                finished.append((at, rng.random() < 0.5))
        Match.objects.bulk_create(matches)
        MatchResult.objects.bulk_create(
            MatchResult(match=m, seq=2, started=True, deals=3, over=True,
                        winner=0 if won else 1, completed_at=at)
            for m, (at, won) in zip(matches, finished, strict=True)
        )  # fmt: skip
        events = []
        for m, (at, _won) in zip(matches, finished, strict=True):
            seats = [m.team0.first_player_id, m.team1.first_player_id,
                     m.team0.second_player_id, m.team1.second_player_id]  # fmt: skip
            began = at - timedelta(minutes=30)
            events.append(MatchEvent(match=m, seq=1, kind="match_started",
                                     payload={"players": seats}, recorded_at=began,
                                     hash="0" * 64))  # fmt: skip
            events.append(MatchEvent(match=m, seq=2, kind="match_ended", payload={},
                                     recorded_at=at, hash="1" * 64))  # fmt: skip
        MatchEvent.objects.bulk_create(events)
        ordered = sorted(zip(finished, matches, strict=True), key=lambda x: (x[0][0], x[1].pk))
        by_evening.append([m.pk for _f, m in ordered])
    return club.pk, by_evening


def timed(call: Any) -> float:
    began = time.perf_counter()
    call()
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--evenings", type=int, default=50)
    parser.add_argument("--teams", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    with sqlite_django("seasons"):
        return run(args)


def run(args: argparse.Namespace) -> int:
    from django.conf import settings
    from django.core.management import call_command

    settings.DEBUG = False  # no query log kept in memory while measuring

    from scoring.models import MatchResult
    from seasons import rating
    from seasons.services import ratings as ratings_service
    from seasons.services import update_club_ratings

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    club_id, evenings = build(args.evenings, args.teams, random.Random(args.seed))
    built = time.perf_counter() - began
    games = ratings_service._games(club_id)
    n_games = len(games)
    fold = statistics.median(timed(lambda: rating.fold(games)) for _ in range(args.repeat))
    rebuild = statistics.median(
        timed(lambda: update_club_ratings(club_id=club_id, rebuild=True))
        for _ in range(args.repeat)
    )
    catch_up = statistics.median(
        timed(lambda: update_club_ratings(club_id=club_id)) for _ in range(args.repeat)
    )
    # the last evening arrives match by match
    last = evenings[-1]
    MatchResult.objects.filter(match_id__in=last).update(over=False)
    update_club_ratings(club_id=club_id, rebuild=True)
    per_match = []
    for match_id in last:
        MatchResult.objects.filter(match_id=match_id).update(over=True)
        began = time.perf_counter()
        outcome = update_club_ratings(club_id=club_id, match_id=match_id).outcome
        per_match.append((time.perf_counter() - began) * 1000)
        assert outcome == "appended", outcome
    # a result of the middle of the season corrected
    middle = evenings[len(evenings) // 2][0]
    corrections = []
    for _ in range(args.repeat):
        row = MatchResult.objects.get(match_id=middle)
        MatchResult.objects.filter(match_id=middle).update(winner=1 - (row.winner or 0))
        corrections.append(timed(lambda: update_club_ratings(club_id=club_id, match_id=middle)))
    per_match.sort()
    results = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "database": "sqlite (a scratch file)",
        "model": "openskill ThurstoneMostellerFull (limit_sigma)",
        "season": {
            "evenings": args.evenings,
            "teams": args.teams,
            "members": MEMBERS,
            "games": n_games,
        },
        "setup_s": round(built, 1),
        "fold_s": round(fold, 3),
        "fold_us_per_game": round(fold / n_games * 1e6, 1),
        "rebuild_s": round(rebuild, 3),
        "catch_up_s": round(catch_up, 3),
        "incremental_ms": {
            "p50": round(statistics.median(per_match), 2),
            "p99": round(per_match[min(len(per_match) - 1, int(0.99 * len(per_match)))], 2),
            "matches": len(per_match),
        },
        "correction_s": round(statistics.median(corrections), 3),
        "load_average": os.getloadavg(),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "seasons.json").write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
