"""Exactly-once advancement on PostgreSQL: completion tasks duplicated and racing, on real
connections released together, place each winner once and make the next match once."""

from __future__ import annotations

import random
import threading
from unittest import mock

import pytest
from django.db import connection

from competition import demo, services
from competition.models import Fixture
from tournaments.models import Match

from .helpers import make_club

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_racing_and_repeated_completions_advance_each_winner_once() -> None:
    club = make_club(4, slug="race-cup")
    stage = club.start(club.stage(format="single_elimination"))
    club.publish(stage.round_set.order_by("number").first())
    semis = list(Fixture.objects.filter(stage=stage, round__number=1).select_related("match"))
    rng = random.Random(12)
    with mock.patch("competition.services.fixture_match_completed"):  # completions held back
        for fixture in semis:
            assert fixture.match is not None
            demo.play(fixture.match, rng)
    assert not Fixture.objects.filter(stage=stage).exclude(result="").exists()
    jobs = [f.match_id for f in semis for _ in range(4)]  # each completion told four times
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def tell(match_id: int) -> None:
        try:
            barrier.wait(10)
            services.fixture_match_completed(match_id=match_id)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tell, args=(m,)) for m in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    final = Fixture.objects.get(stage=stage, winner_to="")
    winners = {f.winner().pk for f in Fixture.objects.filter(pk__in=[s.pk for s in semis])}
    assert {final.team_a_id, final.team_b_id} == winners
    assert final.match is not None
    assert Match.objects.filter(fixture__stage=stage).count() == 3  # the final made once
    assert Match.objects.filter(tournament=club.tournament).count() == 3
