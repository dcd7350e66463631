"""Members' ratings as a projection: after every finished match, from the logs alone, and
again after a correction of an old result; rebuilt, they are the same rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seasons import rating
from seasons.models import MemberRating, RatingChange
from seasons.services import CURRENT, REFOLDED, update_club_ratings

from .conftest import ClubWorld, make_club_world, ratings_by_hand, ratings_of

pytestmark = pytest.mark.django_db


def test_a_finished_match_rates_its_four_members(club_world: ClubWorld) -> None:
    evening = club_world.evening()
    match = club_world.play(evening, (0, 1, 2, 3), winner=0)
    rows = {r.player_id: r for r in MemberRating.objects.filter(club=club_world.club)}
    a, b, c, d = (club_world.members[i].pk for i in range(4))
    assert set(rows) == {a, b, c, d}
    assert rows[a].mu == rows[b].mu > rating.MU > rows[c].mu == rows[d].mu
    assert all(r.matches == 1 and r.sigma < rating.SIGMA for r in rows.values())
    change = RatingChange.objects.get(match=match, player_id=a)
    assert (change.partner_id, change.result, change.team) == (b, "won", 0)


def test_a_match_still_being_played_rates_nobody(club_world: ClubWorld) -> None:
    from tournaments.services import match_create

    from .conftest import send

    evening = club_world.evening()
    match = match_create(
        tournament=evening, team0=club_world.team(evening, 0, 1),
        team1=club_world.team(evening, 2, 3), mode="score", match_format={"bazzis": 2},
    )  # fmt: skip
    send(match, "match_started", {"first_dealer": 0})
    send(match, "deal_ended", {"points": [91, 9], "sweeps": [[50], []]})
    assert not MemberRating.objects.filter(club=club_world.club).exists()


def test_a_correction_of_an_old_result_recomputes_what_follows(club_world: ClubWorld) -> None:
    first = club_world.play(club_world.evening(), (0, 1, 2, 3), winner=0)
    second = club_world.evening()
    club_world.play(second, (0, 2, 4, 5), winner=1)
    club_world.play(second, (1, 3, 6, 7), winner=0)
    before = ratings_of(club_world.club)
    club_world.correct(first, winner=1)  # through the real signal: the worker follows
    after = ratings_of(club_world.club)
    assert after != before
    a = club_world.members[0].pk
    assert RatingChange.objects.get(match=first, player_id=a).result == "lost"
    # every later game was rated again from the corrected one: the same as a fold afresh
    assert update_club_ratings(club_id=club_world.club.pk).outcome == CURRENT
    update_club_ratings(club_id=club_world.club.pk, rebuild=True)
    assert ratings_of(club_world.club) == after


def test_rebuild_projections_rebuilds_the_ratings(club_world: ClubWorld) -> None:
    evening = club_world.evening()
    club_world.play(evening, (0, 1, 2, 3), winner=0)
    club_world.play(evening, (4, 5, 6, 7), winner=1)
    incremental = ratings_of(club_world.club)
    MemberRating.objects.filter(club=club_world.club).update(mu=0.0)
    RatingChange.objects.filter(club=club_world.club).delete()
    call_command("rebuild_projections", stdout=_Sink())
    assert ratings_of(club_world.club) == incremental


class _Sink:
    def write(self, *args: Any, **kwargs: Any) -> None:
        pass

    def flush(self) -> None:
        pass


# --- the property: any order of projection, with corrections, equals the rebuild ----------

TABLES = st.lists(
    st.tuples(st.permutations(range(8)).map(lambda p: tuple(p[:4])), st.sampled_from([0, 1])),
    min_size=2,
    max_size=5,
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tables=TABLES, data=st.data())
def test_ratings_projected_in_any_order_with_corrections_equal_the_rebuild(
    db: None, tables: list[tuple[tuple[int, int, int, int], int]], data: st.DataObject
) -> None:
    world = make_club_world()
    club_id = world.club.pk
    with ratings_by_hand():
        evenings = [world.evening(), world.evening()]
        matches = [
            world.play(evenings[n * 2 // len(tables)], four, winner)  # type: ignore[arg-type]
            for n, (four, winner) in enumerate(tables)
        ]
        ids = [m.pk for m in matches]
        # messages in any order, some twice, some corrections between them
        # (None: the catch-up's comparison of every game, between two messages)
        steps = st.lists(st.sampled_from([*ids, None]), max_size=8)
        for step in data.draw(steps, label="messages"):
            update_club_ratings(club_id=club_id, match_id=step)
            if data.draw(st.booleans(), label="correct now"):
                match = data.draw(st.sampled_from(matches), label="corrected")
                winner = data.draw(st.sampled_from([0, 1]), label="new winner")
                world.correct(match, winner)
        # the messages still owed arrive, in any order
        for step in data.draw(st.permutations(ids), label="the rest"):
            update_club_ratings(club_id=club_id, match_id=step)
    incremental = ratings_of(world.club)
    assert update_club_ratings(club_id=club_id).outcome == CURRENT
    assert update_club_ratings(club_id=club_id, rebuild=True).outcome == REFOLDED
    assert ratings_of(world.club) == incremental
    assert len(incremental[1]) == 4 * len(tables)


def test_the_catch_up_rates_a_match_whose_message_was_lost(club_world: ClubWorld) -> None:
    from seasons import tasks

    evening = club_world.evening()
    club_world.play(evening, (0, 1, 2, 3), winner=0)
    with ratings_by_hand():  # the second match's message never arrives
        club_world.play(evening, (4, 5, 6, 7), winner=1)
    assert RatingChange.objects.filter(club=club_world.club).count() == 4
    assert tasks.catch_up() == 1
    assert RatingChange.objects.filter(club=club_world.club).count() == 8
    assert tasks.catch_up() == 0


def test_a_match_forfeited_after_the_fact_leaves_the_ratings_when_the_catch_up_compares(
    club_world: ClubWorld,
) -> None:
    from .conftest import send

    evening = club_world.evening()
    first = club_world.play(evening, (0, 1, 2, 3), winner=0)
    club_world.play(evening, (0, 2, 4, 5), winner=1)
    with ratings_by_hand():  # no message: the catch-up's comparison finds it
        send(first, "match_forfeited", {"team": 1, "reason": "fielded a substitute"},
             actor=club_world.director)  # fmt: skip
    assert update_club_ratings(club_id=club_world.club.pk).outcome == REFOLDED
    assert not RatingChange.objects.filter(match=first).exists()
    after = ratings_of(club_world.club)
    update_club_ratings(club_id=club_world.club.pk, rebuild=True)
    assert ratings_of(club_world.club) == after
    assert len(after[1]) == 4
