"""Driving matches through the real append service, and reading the projections back as rows."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

from django.test import TestCase

import seep_core as sc
from scoring.models import DealResult, MatchResult
from tests.matches import deal_in_play as current_deal
from tournaments.access import SYSTEM
from tournaments.matchlog import repeatable_decks as decks
from tournaments.models import Match
from tournaments.services import AppendResult, match_append_event, match_create


@contextlib.contextmanager
def committed() -> Iterator[None]:
    """Run the on-commit callbacks of the block (the projection tasks) when it ends.

    Tests wrapped in a transaction never commit; this runs what a commit would run.
    """
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


def new_match(
    world: Any,
    *,
    mode: str = "score",
    fmt: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
    teams: tuple[int, int] = (0, 1),
) -> Match:
    """Create a match of the world's tournament (the match copies the tournament's rules)."""
    if rules is not None:
        world.tournament.rules = sc.Rules.from_dict(rules).to_dict()
        world.tournament.save()
    return match_create(
        tournament=world.tournament,
        team0=world.teams[teams[0]],
        team1=world.teams[teams[1]],
        mode=mode,
        match_format=fmt,
    )


def start(match: Match, first_dealer: int = 0, seed: int = 1) -> AppendResult:
    with committed():
        return match_append_event(
            match=match,
            expected_seq=0,
            kind="match_started",
            payload={"first_dealer": first_dealer},
            actor=SYSTEM,
            shuffle=decks(seed),
        )


def enter(match: Match, points: list[int], sweeps: Any = ((), ())) -> AppendResult:
    """Enter one deal's result in a score-mode match (as a score-keeper would)."""
    match.refresh_from_db()
    with committed():
        return match_append_event(
            match=match,
            expected_seq=match.last_seq,
            kind="deal_ended",
            payload={"points": list(points), "sweeps": [list(sweeps[0]), list(sweeps[1])]},
            actor=SYSTEM,
        )


def play(match: Match, rng: random.Random, moves: int | None = None) -> int:
    """Play random legal moves in a digital match: ``moves`` of them, or to the match's end."""
    played = 0
    match.refresh_from_db()
    while match.status != "finished" and (moves is None or played < moves):
        move = rng.choice(sc.legal_moves(current_deal(match)))
        with committed():
            match_append_event(
                match=match,
                expected_seq=match.last_seq,
                kind="move_played",
                payload={"move": move},
                actor=SYSTEM,
                shuffle=decks(rng.randrange(1 << 30)),
            )
        played += 1
        match.refresh_from_db()
        assert played < 20_000, "a random match ends long before this"
    return played


def result_of(match: Match) -> MatchResult:
    return MatchResult.objects.get(match=match)


def deals_of(match: Match) -> list[DealResult]:
    return list(DealResult.objects.filter(match=match).order_by("deal"))


def projection_rows() -> dict[str, list[dict[str, Any]]]:
    """Return every projection row as plain values (no surrogate id, no wall-clock update time)."""
    return {
        "matches": [
            {k: v for k, v in row.items() if k != "updated_at"}
            for row in MatchResult.objects.order_by("match_id").values()
        ],
        "deals": [
            {k: v for k, v in row.items() if k != "id"}
            for row in DealResult.objects.order_by("match_id", "deal").values()
        ],
    }


def wipe_projections() -> None:
    DealResult.objects.all().delete()
    MatchResult.objects.all().delete()
