"""Quotas raced on PostgreSQL (tournaments.quotas): threads, each with its own connection,
released together, take exactly the places a club's quota has left and no more; the rest
are refused in words, nothing written; a registration that makes members (the tournament's
lock, then the club's) and a tournament being made (the club's lock) at once never deadlock.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from competition import services as competition
from tournaments import clubs
from tournaments.errors import QuotaExceeded
from tournaments.models import ClubQuota, Player, Team, Tournament

from .test_concurrency import Crowd, assert_connections_closed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def kinds(outcomes: list[Any]) -> list[str]:
    return sorted(type(o).__name__ for o in outcomes)


def test_members_added_at_once_take_exactly_the_places_left() -> None:
    director = get_user_model().objects.create_user("asha")
    club = clubs.club_create(actor=director, name="Friday club")
    clubs.member_add(actor=director, club=club, name="Bina")
    ClubQuota.objects.create(club=club, members=4)  # three places left
    with Crowd(THREADS) as crowd:
        outcomes = crowd.round(
            lambda i: clubs.member_add(actor=director, club=club, name=f"Member {i}")
        )
        pids = crowd.pids
    assert kinds(outcomes) == ["Player"] * 3 + ["QuotaExceeded"] * (THREADS - 3)
    refusal = next(o for o in outcomes if isinstance(o, QuotaExceeded))
    assert (refusal.quota, refusal.limit, refusal.used) == ("members", 4, 4)
    assert Player.objects.filter(club=club).count() == 4
    assert_connections_closed(pids)


def test_tournaments_and_registrations_at_once_keep_their_quotas_without_a_deadlock() -> None:
    director = get_user_model().objects.create_user("asha")
    club = clubs.club_create(actor=director, name="Friday club")
    cup = competition.tournament_create(actor=director, club=club, name="Cup")
    ClubQuota.objects.create(club=club, tournaments_per_month=3, teams_per_tournament=2)

    def job(i: int) -> Any:
        if i % 2:  # the tournament's lock, then the club's (its two new members)
            return competition.team_enter(
                actor=director,
                tournament=cup,
                name=f"Team {i}",
                people=[(f"First {i}", None), (f"Second {i}", None)],
            )
        return competition.tournament_create(actor=director, club=club, name=f"Evening {i}")

    with Crowd(THREADS) as crowd:
        outcomes = crowd.round(job)
        pids = crowd.pids
    made = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert all(isinstance(o, QuotaExceeded) for o in refused), refused  # no deadlock, no 500
    assert sorted(type(o).__name__ for o in made) == ["Team", "Team", "Tournament", "Tournament"]
    assert Tournament.objects.filter(club=club).count() == 3
    assert Team.objects.filter(tournament=cup).count() == 2
    # a refused team made none of its members: two teams, four new members
    assert Player.objects.filter(club=club).count() == 4
    assert_connections_closed(pids)
