"""``rebuild_projections`` recomputes the read models from the logs alone, and a database filled
incrementally by the tasks is the same, row for row."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from scoring.models import DealResult, MatchResult
from tournaments.models import Match, MatchEvent

from .helpers import enter, new_match, play, projection_rows, start, wipe_projections

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(world: Any) -> list[Match]:
    """Matches in every state, projected incrementally by the tasks after each append."""
    digital = world.digital_match
    start(digital, first_dealer=1, seed=3)  # a short match: 2 deals and a redeal
    play(digital, random.Random(1))
    bazzis = new_match(world, fmt={"bazzis": 3}, teams=(2, 3))
    start(bazzis, first_dealer=1)
    for points in ([80, 20], [70, 30], [5, 95], [60, 40], [8, 92]):
        enter(bazzis, points)
    running = new_match(world, mode="digital", teams=(1, 2))
    start(running, first_dealer=0, seed=4)
    play(running, random.Random(2), moves=70)
    just_started = new_match(world, teams=(3, 0))
    start(just_started)
    scheduled = new_match(world, teams=(0, 3))
    return [digital, bazzis, running, just_started, scheduled]


@pytest.fixture
def two_matches(world: Any) -> list[Match]:
    """Two score matches, projected incrementally."""
    matches = [new_match(world), new_match(world, fmt={"bazzis": 2}, teams=(2, 3))]
    for match in matches:
        start(match)
        for points in ([70, 30], [40, 60], [95, 5]):
            enter(match, points)
    return matches


def rebuild(*args: str) -> str:
    out = StringIO()
    call_command("rebuild_projections", *args, stdout=out, stderr=out)
    return out.getvalue()


def test_a_database_filled_incrementally_equals_its_rebuild_row_for_row(
    evening: list[Match],
) -> None:
    incremental = projection_rows()
    assert len(incremental["matches"]) == 4 and len(incremental["deals"]) == 8
    assert {m["over"] for m in incremental["matches"]} == {True, False}
    assert any(d["reset"] for d in incremental["deals"])
    wipe_projections()
    assert "6 match(es) rebuilt" in rebuild()  # with the world's own, never started
    assert projection_rows() == incremental
    assert "0 row(s) changed" in rebuild("--check")


def test_check_fails_where_a_row_differs_and_the_rebuild_corrects_it(
    two_matches: list[Match],
) -> None:
    rows = projection_rows()
    DealResult.objects.filter(match=two_matches[1], deal=3).update(bazzi=None, reason=None)
    with pytest.raises(CommandError, match="1 row"):
        rebuild("--check")
    assert projection_rows() == rows
    rebuild("--check")


def test_check_fails_where_a_finished_match_lost_when_it_completed(evening: list[Match]) -> None:
    finished = [r.match_id for r in MatchResult.objects.filter(completed_at__isnull=False)]
    assert finished
    rows = projection_rows()
    MatchResult.objects.filter(match_id=finished[0]).update(completed_at=None)
    with pytest.raises(CommandError, match="1 row"):
        rebuild("--check")
    assert projection_rows() == rows  # the check's rebuild put it back
    rebuild("--check")


def test_one_match_is_rebuilt_alone(two_matches: list[Match]) -> None:
    first, second = two_matches
    MatchResult.objects.filter(match__in=two_matches).update(difference=999)
    output = rebuild("--match", str(second.pk))
    assert f"match {second.pk}: at event 4, 1 row(s) changed" in output
    assert MatchResult.objects.get(match=second).difference != 999
    assert MatchResult.objects.get(match=first).difference == 999


def test_an_unknown_match_is_refused(two_matches: list[Match]) -> None:
    with pytest.raises(CommandError, match="no match with id 99999"):
        rebuild("--match", "99999")


def test_a_log_that_does_not_fold_fails_the_rebuild_but_not_the_others(
    two_matches: list[Match], world: Any
) -> None:
    broken = new_match(world, teams=(3, 0))
    start(broken)
    MatchEvent.objects.create(
        match=broken, seq=2, kind="deal_ended", hash="0" * 64,
        payload={"deal": 1, "dealer": 0, "points": [3, 2], "sweeps": [[], []], "total": [3, 2]},
    )  # fmt: skip
    Match.objects.filter(pk=broken.pk).update(last_seq=2)
    wipe_projections()
    with pytest.raises(CommandError, match="1 match"):
        rebuild()
    assert MatchResult.objects.count() == 2  # the others, and not the broken one
    assert not MatchResult.objects.filter(match=broken).exists()


def test_check_tells_a_projection_only_behind_its_log_from_a_wrong_one(world: Any) -> None:
    from unittest import mock

    match = new_match(world)
    start(match)
    enter(match, [70, 30])
    with mock.patch("tournaments.services._schedule_projection"):  # its task still queued
        enter(match, [40, 60])
    result = MatchResult.objects.get(match=match)
    assert result.seq < Match.objects.get(pk=match.pk).last_seq
    output = rebuild("--check")  # behind, not wrong: it passes, and catches up
    assert f"match {match.pk}: behind its log (projected to event 2 of 3)" in output
    assert MatchResult.objects.get(match=match).seq == 3
    with mock.patch("tournaments.services._schedule_projection"):
        enter(match, [60, 40])
    DealResult.objects.filter(match=match, deal=1).update(total0=1)  # and now also wrong
    with pytest.raises(CommandError, match="1 row"):
        rebuild("--check")
