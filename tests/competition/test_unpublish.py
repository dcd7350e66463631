"""Unpublishing a round in which nothing was recorded: it is a draft again, its matches called
off in their logs (never rewritten), and it can be edited, discarded or published anew."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition import demo, services
from competition.errors import NotNow, NotPermitted
from competition.models import Fixture, Round, Stage
from tests.scoring.helpers import committed
from tournaments import matchlog
from tournaments.errors import AppendRefused
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event
from tournaments.verify import verify_match

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db

_runs = itertools.count()  # a new club per example: the examples share one transaction


def _published(club: Club, **settings_: object) -> tuple[Stage, Round]:
    stage = club.start(club.stage(format="swiss", rounds=3, **settings_))
    return stage, club.publish(club.pair(stage))


def _unpublish(club: Club, round_: Round) -> Round:
    with committed():
        return services.round_unpublish(actor=club.organizer, round=round_)


def _matches(round_: Round) -> list[Match]:
    return [f.match for f in round_.fixtures.select_related("match") if f.match is not None]


def _kinds(match: Match) -> list[str]:
    return list(match.events.order_by("seq").values_list("kind", flat=True))


def test_a_round_with_nothing_recorded_becomes_a_draft_and_its_matches_are_called_off() -> None:
    club = make_club(8)
    _, round_ = _published(club)
    pairs = sorted((f.team_a_id, f.team_b_id) for f in round_.fixtures.all())
    matches = _matches(round_)
    assert len(matches) == 4 and all(m.status == Match.Status.IN_PROGRESS for m in matches)

    draft = _unpublish(club, round_)

    assert draft.status == Round.Status.DRAFT and draft.published_at is None
    assert sorted((f.team_a_id, f.team_b_id) for f in draft.fixtures.all()) == pairs
    assert not draft.fixtures.filter(match__isnull=False).exists()
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.CALLED_OFF
        assert _kinds(match) == ["match_started", "match_called_off"]
        called = match.events.get(kind="match_called_off")
        assert called.actor_id == club.organizer.pk and called.via == "unpublish"
        assert "unpublished" in called.payload["reason"]
        assert verify_match(match) == []  # the log replays to the status the row holds
    # published again: new matches, the same pairings
    again = club.publish(draft)
    assert again.status == Round.Status.PUBLISHED
    fresh = _matches(again)
    assert len(fresh) == 4 and not {m.pk for m in fresh} & {m.pk for m in matches}


def test_a_called_off_match_takes_nothing_more_from_anyone() -> None:
    club = make_club(4)
    _, round_ = _published(club)
    match = _matches(round_)[0]
    _unpublish(club, round_)
    match.refresh_from_db()
    with pytest.raises(AppendRefused) as refused:
        match_append_event(
            match=match, expected_seq=match.last_seq, kind=matchlog.DEAL_ENDED,
            payload={"points": [20, 80], "sweeps": [0, 0]}, actor=club.organizer,
        )  # fmt: skip
    assert refused.value.code == "match_called_off"


def test_no_client_appends_a_call_off_itself() -> None:
    club = make_club(4)
    _, round_ = _published(club)
    match = _matches(round_)[0]
    with pytest.raises(AppendRefused) as refused:
        match_append_event(
            match=match, expected_seq=match.last_seq, kind="match_called_off",
            payload={"reason": "mine"}, actor=club.organizer,
        )  # fmt: skip
    assert refused.value.code == "kind_not_appendable"
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS


def test_refused_with_nothing_changed_once_a_deal_is_recorded_in_any_match() -> None:
    club = make_club(8)
    _, round_ = _published(club)
    matches = _matches(round_)
    last = matches[-1]
    with committed():
        demo.play(last, random.Random(1), moves=1)
    heads = {m.pk: Match.objects.get(pk=m.pk).last_seq for m in matches}

    with pytest.raises(NotNow) as refused:
        _unpublish(club, round_)

    assert refused.value.code == "round_recorded"
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    assert round_.fixtures.filter(match__isnull=False).count() == 4
    assert not MatchEvent.objects.filter(kind="match_called_off").exists()
    assert {m.pk: Match.objects.get(pk=m.pk).last_seq for m in matches} == heads
    assert all(verify_match(m) == [] for m in Match.objects.filter(pk__in=heads))


def test_refused_once_the_round_has_results() -> None:
    club = make_club(4)
    _, round_ = _published(club)
    club.play(round_, random.Random(2))
    round_.refresh_from_db()
    with pytest.raises(NotNow) as refused:
        _unpublish(club, round_)
    assert refused.value.code == "round_recorded"


def test_only_a_director_unpublishes_and_only_a_published_round() -> None:
    from django.contrib.auth import get_user_model

    club = make_club(4)
    stage = club.start(club.stage(format="swiss", rounds=2))
    draft = club.pair(stage)
    with pytest.raises(NotNow) as refused:
        _unpublish(club, draft)
    assert refused.value.code == "round_not_published"
    round_ = club.publish(draft)
    stranger = get_user_model().objects.create_user("stranger")
    with pytest.raises(NotPermitted):
        services.round_unpublish(actor=stranger, round=round_)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_a_digital_round_is_taken_back_after_the_deal_but_not_after_a_move() -> None:
    club = make_club(4)
    _, round_ = _published(club, mode="digital", match_format={"bazzis": 1, "draws": True})
    match = _matches(round_)[0]
    assert "deal_started" in _kinds(match)  # the server dealt at the start
    _unpublish(club, round_)
    match.refresh_from_db()
    assert match.status == Match.Status.CALLED_OFF and verify_match(match) == []

    round_ = club.publish(Round.objects.get(pk=round_.pk))
    match = _matches(round_)[0]
    with committed():
        demo.play(match, random.Random(3), moves=1)
    with pytest.raises(NotNow):
        _unpublish(club, round_)


def test_a_forfeit_publishing_gave_a_withdrawn_team_is_pending_again() -> None:
    club = make_club(4)
    stage = club.start(club.stage(format="swiss", rounds=2))
    draft = club.pair(stage)
    gone = draft.fixtures.first()
    assert gone is not None and gone.team_a is not None
    services.team_withdraw(actor=club.organizer, team=gone.team_a)
    round_ = club.publish(draft)
    assert Fixture.objects.get(pk=gone.pk).result == Fixture.Result.FORFEIT_A

    _unpublish(club, round_)

    back = Fixture.objects.get(pk=gone.pk)
    assert back.result == Fixture.Result.PENDING and back.team_a_id == gone.team_a_id
    club.publish(Round.objects.get(pk=round_.pk))  # and publishing gives it again
    assert Fixture.objects.get(pk=gone.pk).result == Fixture.Result.FORFEIT_A


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(n=st.integers(min_value=3, max_value=9), double=st.booleans())
def test_a_bracket_is_taken_back_whole_to_its_draw(n: int, double: bool) -> None:
    """Whatever the field (byes included), unpublishing a bracket leaves exactly its draw,
    and publishing it again places the same teams in the same fixtures."""
    club = make_club(n, slug=f"bracket-{next(_runs)}")
    fmt = "double_elimination" if double else "single_elimination"
    stage = club.start(club.stage(format=fmt, match_format={"bazzis": 1, "draws": False}))

    def layout() -> list[tuple[str, int | None, int | None, str]]:
        return [
            (f.key, f.team_a_id, f.team_b_id, f.result)
            for f in Fixture.objects.filter(stage=stage).order_by("key")
        ]

    drawn = layout()
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    published = layout()
    matches = list(Match.objects.filter(fixture__stage=stage))

    _unpublish(club, first)

    assert layout() == drawn
    assert not stage.round_set.exclude(status=Round.Status.DRAFT).exists()
    assert not Fixture.objects.filter(stage=stage, match__isnull=False).exists()
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.CALLED_OFF
    club.publish(Round.objects.get(pk=first.pk))
    assert layout() == published
