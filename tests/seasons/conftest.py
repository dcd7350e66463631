"""A club with members, evenings (one tournament each) and score matches played to the end
through the real append service; the ratings follow from the real projections."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from scoring.signals import match_completed
from seasons.models import MemberRating, RatingChange
from tests.scoring.helpers import committed
from tournaments import clubs
from tournaments.access import SYSTEM
from tournaments.models import Club, Match, Player, Team, Tournament
from tournaments.services import match_append_event, match_create

WIN = {0: {"points": [91, 9], "sweeps": [[50], []]}, 1: {"points": [9, 91], "sweeps": [[], [50]]}}
_names = itertools.count(1)


@dataclass
class ClubWorld:
    """A club, its director and members, and its evenings so far."""

    director: Any
    club: Club
    members: list[Player]
    evenings: list[Tournament] = field(default_factory=list)

    def evening(self, day: date | None = None, *, published: bool = True) -> Tournament:
        """Return a new evening (a tournament of the club), a week after the last: published,
        as a club's evenings are (its pages show no other)."""
        n = len(self.evenings) + 1
        day = day or date(2026, 1, 2) + timedelta(days=7 * (n - 1))
        tournament = Tournament.objects.create(
            name=f"{self.club.name} evening {n}", slug=f"{self.club.slug}-{n}",
            organizer=self.director, club=self.club, date=day, published=published,
        )  # fmt: skip
        self.evenings.append(tournament)
        return tournament

    def team(self, tournament: Tournament, a: int, b: int) -> Team:
        """Return the team of members ``a`` and ``b`` (indexes) in the tournament."""
        first, second = self.members[a], self.members[b]
        found = Team.objects.filter(
            tournament=tournament, first_player=first, second_player=second
        ).first()
        return found or Team.objects.create(
            tournament=tournament, name=f"{first.name} & {second.name}",
            first_player=first, second_player=second,
        )  # fmt: skip

    def play(self, tournament: Tournament, four: tuple[int, int, int, int], winner: int) -> Match:
        """Play a one-bazzi score match of members (a, b) v (c, d) that ``winner`` wins."""
        a, b, c, d = four
        match = match_create(
            tournament=tournament, team0=self.team(tournament, a, b),
            team1=self.team(tournament, c, d), mode="score", match_format={"bazzis": 1},
        )  # fmt: skip
        send(match, "match_started", {"first_dealer": 0})
        send(match, "deal_ended", dict(WIN[winner]))
        return match

    def correct(self, match: Match, winner: int) -> None:
        """A director corrects the match's only deal: ``winner`` won it after all."""
        send(match, "deal_corrected", {"deal": 1, **WIN[winner], "reason": "columns swapped"},
             actor=self.director)  # fmt: skip


def send(match: Match, kind: str, payload: dict[str, Any], actor: Any = SYSTEM) -> None:
    match.refresh_from_db()
    with committed():
        match_append_event(
            match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor
        )


def make_club_world(members: int = 8, *, name: str | None = None) -> ClubWorld:
    n = next(_names)
    director = get_user_model().objects.create_user(f"director-{n}")
    club = clubs.club_create(actor=director, name=name or f"Friday Seep {n}")
    people = [
        clubs.member_add(actor=director, club=club, name=f"Member {chr(65 + i)}")
        for i in range(members)
    ]
    return ClubWorld(director, club, people)


@pytest.fixture
def club_world(db: None) -> ClubWorld:
    return make_club_world()


@contextlib.contextmanager
def frozen(at: datetime) -> Iterator[None]:
    """Within the block, the clock stands at ``at`` (what ``timezone.now`` answers: a match's
    log records it, the pages and the API read today from it)."""
    with mock.patch("django.utils.timezone.now", side_effect=lambda: at):
        yield


@contextlib.contextmanager
def ratings_by_hand() -> Iterator[None]:
    """Within the block, a finished match does not reach the ratings by itself: the test
    projects the matches in the order it chooses."""
    from seasons.apps import _on_match_completed

    match_completed.disconnect(dispatch_uid="seasons.match_completed")
    try:
        yield
    finally:
        match_completed.connect(_on_match_completed, dispatch_uid="seasons.match_completed")


def ratings_of(club: Club) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Return every rating row of the club, as values: what the pages and the API read."""
    members = MemberRating.objects.filter(club=club).order_by("player_id")
    changes = RatingChange.objects.filter(club=club).order_by(
        "day", "finished_at", "match_id", "player_id"
    )
    return (
        list(members.values_list("player_id", "mu", "sigma", "matches", "last_played_on")),
        list(
            changes.values_list(
                "match_id",
                "player_id",
                "partner_id",
                "team",
                "result",
                "day",
                "finished_at",
                "mu_before",
                "sigma_before",
                "mu",
                "sigma",
                "matches",
            )
        ),
    )
