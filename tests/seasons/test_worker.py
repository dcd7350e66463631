"""Real Celery workers on the real broker and database: the ratings follow the results, and
a correction of an old one, and equal a rebuild from the logs (tests/scoring/worker.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from seasons.models import RatingChange
from seasons.services import update_club_ratings
from tests.scoring.conftest import broker, run_queue, workers  # noqa: F401 -- the fixtures
from tests.scoring.worker import Worker, wait_until

from .conftest import make_club_world, ratings_of

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.process,
    pytest.mark.django_db(transaction=True),
]


def test_a_worker_rates_each_match_and_the_correction_of_an_old_one(
    workers: Callable[..., Worker],  # noqa: F811 -- the fixture imported above
) -> None:
    workers(concurrency=2)
    world = make_club_world()
    first, second = world.evening(), world.evening()
    old = world.play(first, (0, 1, 2, 3), winner=0)
    world.play(second, (0, 2, 4, 5), winner=1)
    world.play(second, (1, 3, 6, 7), winner=0)
    rated = RatingChange.objects.filter(club=world.club)
    wait_until(lambda: rated.count() == 12, 60, "the workers to rate three matches")
    world.correct(old, winner=1)
    wait_until(
        lambda: rated.filter(match=old, result="lost", team=0).count() == 2,
        60,
        "the workers to rate the corrected match again",
    )
    # the later matches were rated again in the same transaction as the corrected one
    incremental = ratings_of(world.club)
    assert update_club_ratings(club_id=world.club.pk).outcome == "current"
    update_club_ratings(club_id=world.club.pk, rebuild=True)
    assert ratings_of(world.club) == incremental
