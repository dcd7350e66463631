"""Happenings are written with the change they tell: a process that dies right after a commit
loses no results log entry and no webhook delivery; corrections, reopenings, a bracket's later
matches and its filled slots are told; the webhook consumer, run again after a crash at any
point, makes every delivery once."""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import live
from api import results, webhooks
from api.models import Webhook, WebhookCursor, WebhookDelivery
from api.tasks import catch_up
from competition import happenings as told
from competition import services
from competition.models import Fixture
from scoring.services import update_match_projection
from tests.scoring.helpers import committed
from tournaments import happenings
from tournaments.access import SYSTEM
from tournaments.models import Happening, Player, Tournament
from tournaments.services import match_append_event

from .helpers import Club, make_club
from .test_corrections import correct, flip, score, void

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The deliveries sent on their way (none is posted: these tests read the rows)."""
    ids: list[int] = []
    monkeypatch.setattr("api.tasks.dispatch", ids.append)
    return ids


def subscribe(club: Club, *kinds: str) -> Webhook:
    return Webhook.objects.create(
        tournament=club.tournament, url="https://hooks.example/seep", kinds=list(kinds),
        secret="s3cret", created_by=club.organizer,
    )  # fmt: skip


def log_of(tournament: Tournament, kind: str | None = None) -> list[dict[str, Any]]:
    """The tournament's results log as the API serves it (of one kind, if given)."""
    entries = results.entries(tournament.pk, 0, 1000)
    return [e for e in entries if kind is None or e["kind"] == kind]


def delivered(hook: Webhook, kind: str) -> list[dict[str, Any]]:
    rows = WebhookDelivery.objects.filter(webhook=hook, kind=kind).order_by("pk")
    return [d.body for d in rows]


def test_a_deal_and_a_completion_are_told_though_the_process_died_after_the_commit() -> None:
    club = make_club(2, slug="crash-cup")
    stage = club.start(club.stage(format="swiss", rounds=1))
    first = club.publish(services.round_pair(actor=club.organizer, stage=stage))
    fixture = Fixture.objects.get(round=first)
    assert fixture.match is not None
    match = fixture.match
    hook = subscribe(club, "deal.recorded", "match.completed")
    with TestCase.captureOnCommitCallbacks(execute=False):  # the appends' hooks die
        for points in (60, 70):
            match.refresh_from_db()
            match_append_event(
                match=match, expected_seq=match.last_seq, kind="deal_ended",
                payload={"points": [points, 100 - points], "sweeps": [[], []]}, actor=SYSTEM,
            )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=False):  # the projection's hooks die
        assert update_match_projection(match_id=match.pk).completed

    # the results log has them at once, as the commit left them
    assert [e["deal"] for e in log_of(club.tournament, "deal.recorded")] == [1, 2]
    [completed] = log_of(club.tournament, "match.completed")
    assert completed["match"] == match.pk and completed["winner_side"] == 0
    assert completed["sides"][0]["id"] == fixture.team_a_id
    # no delivery was made before the process died; the catch-up makes them, once
    assert not WebhookDelivery.objects.filter(webhook=hook).exists()
    with committed():
        catch_up()
        catch_up()
    assert [b["deal"] for b in delivered(hook, "deal.recorded")] == [1, 2]
    [body] = delivered(hook, "match.completed")
    assert body["seq"] == completed["seq"] and body["head"] == completed["head"]
    assert {k: v for k, v in body.items() if k not in ("id", "created_at")} == {
        k: v for k, v in completed.items() if k != "created_at"
    }


def test_a_round_published_through_an_update_is_in_the_log_and_on_the_live_channel() -> None:
    club = make_club(4, slug="publish-cup")
    stage = club.start(club.stage(format="swiss", rounds=3))
    round_ = services.round_pair(actor=club.organizer, stage=stage)
    with TestCase.captureOnCommitCallbacks(execute=False):  # the process dies after the commit
        services.round_publish(actor=club.organizer, round=round_)
    [published] = log_of(club.tournament, "round.published")
    assert published["stage"] == stage.pk and published["round"] == round_.number
    matches = {f["match"] for f in published["fixtures"]}
    assert None not in matches and len(matches) == 2
    made = log_of(club.tournament, "match.made")
    assert {m["match"] for m in made} == matches  # each before the round that holds it
    assert max(m["seq"] for m in made) < published["seq"]

    other = make_club(4, slug="heard-cup")  # and when the commit's work runs, it is heard
    stage = other.start(other.stage(format="swiss", rounds=3))
    round_ = services.round_pair(actor=other.organizer, stage=stage)
    heard: list[str] = []
    undo = live.listen(heard.append)
    try:
        other.publish(round_)
    finally:
        undo()
    assert f"s {stage.pk} {other.tournament.pk}" in heard and f"x {other.tournament.pk}" in heard


def test_a_corrected_deal_is_told_with_what_it_replaced() -> None:
    club = make_club(4, slug="corrected-cup")
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.publish(services.round_pair(actor=club.organizer, stage=stage))
    fixture = Fixture.objects.filter(round=first).order_by("table").first()
    assert fixture is not None and fixture.match is not None
    hook = subscribe(club, "deal.corrected", "match.completed")
    score(fixture.match, 60, 70)
    correct(club, fixture.match, flip(2, 80))  # a bigger win, same winner
    [entry] = log_of(club.tournament, "deal.corrected")
    assert entry["match"] == fixture.match.pk and entry["deal"] == 2
    assert entry["points"] == [80, 20] and entry["replaced"]["points"] == [70, 30]
    assert entry["replaced"]["running_difference"] == 20 + 40
    assert entry["running_difference"] == 20 + 60
    [body] = delivered(hook, "deal.corrected")
    assert body["replaced"] == entry["replaced"] and body["seq"] == entry["seq"]
    # the match's changed result is told again, at its new head
    assert len(log_of(club.tournament, "match.completed")) == 2
    assert len(delivered(hook, "match.completed")) == 2


def test_a_voided_deal_and_the_match_it_reopens_are_told() -> None:
    club = make_club(4, slug="reopened-cup")
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.publish(services.round_pair(actor=club.organizer, stage=stage))
    fixture = Fixture.objects.filter(round=first).order_by("table").first()
    assert fixture is not None and fixture.match is not None
    match = fixture.match
    hook = subscribe(club, "match.reopened", "deal.voided")
    score(match, 60, 70)
    void(club, match, 2)
    [voided] = log_of(club.tournament, "deal.voided")
    assert voided["deal"] == 2 and voided["replaced"]["points"] == [70, 30]
    [reopened] = log_of(club.tournament, "match.reopened")
    assert reopened["match"] == match.pk and reopened["deals"] == 1
    assert reopened["sides"][0]["id"] == fixture.team_a_id
    assert [b["match"] for b in delivered(hook, "match.reopened")] == [match.pk]
    assert len(delivered(hook, "deal.voided")) == 1


def test_a_bracket_tells_its_filled_slots_and_its_later_matches_when_made() -> None:
    club = make_club(4, slug="bracket-cup")
    stage = club.start(club.stage(format="single_elimination", start_matches=False))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    hook = subscribe(club, "fixture.filled", "match.made")
    final = Fixture.objects.filter(stage=stage).order_by("-round__number").first()
    assert final is not None and final.match is None
    semis = list(Fixture.objects.filter(round=first).order_by("key"))
    made_before = len(log_of(club.tournament, "match.made"))
    for semi in semis:
        assert semi.match is not None
        score(semi.match, 60, 70)
    final.refresh_from_db()
    assert final.match is not None
    filled = [e for e in log_of(club.tournament, "fixture.filled") if e["fixture"] == final.pk]
    assert [e["sides"][0]["id"] is not None for e in filled][-1]
    assert filled[-1]["sides"][1]["id"] is not None
    made = log_of(club.tournament, "match.made")[made_before:]
    assert [m["match"] for m in made] == [final.match.pk]
    assert made[0]["key"] == final.key and made[0]["seq"] > filled[-1]["seq"]
    assert [b["match"] for b in delivered(hook, "match.made")] == [final.match.pk]
    assert len(delivered(hook, "fixture.filled")) == len(filled)


def test_a_round_taken_back_twice_with_nothing_called_off_is_told_twice() -> None:
    """A round taken back, published again and taken back again, with no match to call off
    either time (a round of byes), is two happenings, not one dropped as a repeat."""
    club = make_club(4, slug="twice-cup")
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.publish(services.round_pair(actor=club.organizer, stage=stage))
    for _ in range(2):
        with transaction.atomic():
            told.round_unpublished(first, [])
    assert len(log_of(club.tournament, "round.unpublished")) == 2


def test_a_happening_is_undone_with_its_change() -> None:
    club = make_club(2, slug="outside-cup")
    head, before = results.head(club.tournament.pk), log_of(club.tournament)  # its teams'
    with pytest.raises(ValueError), transaction.atomic():
        happenings.write(tournament_id=club.tournament.pk, kind="round.published", body={})
        raise ValueError("the change failed")
    assert results.head(club.tournament.pk) == head and log_of(club.tournament) == before


_slugs = itertools.count()


class Crash(Exception):
    pass


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(
        st.one_of(
            st.tuples(st.just("write"), st.sampled_from(["round.published", "deal.recorded"])),
            st.tuples(st.just("consume"), st.none() | st.integers(min_value=0, max_value=6)),
        ),
        max_size=12,
    )
)
def test_a_consumer_run_again_after_a_crash_anywhere_makes_each_delivery_once(
    steps: list[tuple[str, Any]],
) -> None:
    organizer = get_user_model().objects.create_user(f"crash-{next(_slugs)}")
    tournament = Tournament.objects.create(
        name="Crash", slug=f"crash-{organizer.pk}", organizer=organizer
    )

    def hook(*kinds: str) -> Webhook:
        return Webhook.objects.create(
            tournament=tournament, url="https://a.example/", kinds=list(kinds), secret="a",
            created_by=organizer,
        )  # fmt: skip

    rounds, both = hook("round.published"), hook("round.published", "deal.recorded")
    real = webhooks._deliver
    for step, arg in steps:
        if step == "write":
            with transaction.atomic():
                happenings.write(tournament_id=tournament.pk, kind=arg, body={"n": 1})
            continue
        made = itertools.count()

        def deliver(*args: Any, crash_at: int | None = arg, made: Any = made) -> int:
            if crash_at is not None and next(made) == crash_at:
                raise Crash  # the worker dies here: its transaction is rolled back
            return real(*args)

        with mock.patch.object(webhooks, "_deliver", deliver), contextlib.suppress(Crash):
            webhooks.consume(tournament.pk)
    webhooks.consume(tournament.pk)  # the catch-up, at last
    webhooks.consume(tournament.pk)
    told = dict(Happening.objects.filter(tournament=tournament).values_list("seq", "kind"))
    for hook in (rounds, both):
        seqs = list(
            WebhookDelivery.objects.filter(webhook=hook).order_by("happening__seq")
            .values_list("happening__seq", flat=True)
        )  # fmt: skip
        assert seqs == sorted(s for s, k in told.items() if k in hook.kinds)
    cursor = WebhookCursor.objects.filter(tournament=tournament).first()
    assert (cursor.last_seq if cursor else 0) == results.head(tournament.pk)


def test_a_subscription_made_after_a_happening_is_not_told_of_it() -> None:
    club = make_club(2, slug="later-cup")
    with transaction.atomic():
        happenings.write(tournament_id=club.tournament.pk, kind="round.published", body={})
    head = results.head(club.tournament.pk)
    hook = subscribe(club, "round.published")
    webhooks.consume(club.tournament.pk)
    assert not WebhookDelivery.objects.filter(webhook=hook).exists()
    with transaction.atomic():
        happenings.write(tournament_id=club.tournament.pk, kind="round.published", body={})
    webhooks.consume(club.tournament.pk)
    assert [b["seq"] for b in delivered(hook, "round.published")] == [head + 1]


def test_a_broker_out_of_reach_still_makes_the_deliveries_at_the_commit() -> None:
    """The consumer's task cannot be sent: it runs in the process that committed, so the
    deliveries are made now, not at the next catch-up."""
    club = make_club(2, slug="outage-cup")
    head = results.head(club.tournament.pk)  # its teams' registrations
    hook = subscribe(club, "round.published")
    with (
        mock.patch("api.tasks.consume_happenings.delay", side_effect=ConnectionError("down")),
        committed(),
        transaction.atomic(),
    ):
        happenings.write(tournament_id=club.tournament.pk, kind="round.published", body={})
    assert [b["seq"] for b in delivered(hook, "round.published")] == [head + 1]


def test_the_tournament_and_its_teams_changes_are_told_in_order_to_the_log_and_a_webhook() -> None:
    club = make_club(2, slug="teams-told")
    hook = subscribe(club, "team.changed", "tournament.changed")
    organizer, team = club.organizer, club.teams[1]
    players = [Player.objects.create(name=f"teams-told extra {i}") for i in range(2)]
    with committed():
        late = services.team_register(
            actor=organizer, tournament=club.tournament, name="Late Ones",
            first_player=players[0], second_player=players[1],
        )  # fmt: skip
    steps = [
        lambda: services.team_rename(actor=organizer, team=late, name="Latecomers"),
        lambda: services.team_rename(actor=organizer, team=late, name="Latecomers"),  # the same
        lambda: services.team_check_in(actor=organizer, team=late),
        lambda: services.team_check_out(actor=organizer, team=late),
        lambda: services.team_withdraw(actor=organizer, team=team),
        lambda: services.team_reinstate(actor=organizer, team=team),
        lambda: services.tournament_update(
            actor=organizer, tournament=club.tournament, name="Teams Told", place="Hall 2"
        ),
    ]
    for step in steps:
        with committed():
            step()
    told = [(e["team"]["name"], e["change"]) for e in log_of(club.tournament, "team.changed")]
    registered = [(t.name, "registered") for t in club.teams]  # make_club's, checked in at once
    assert told == [
        *registered,
        ("Late Ones", "registered"),
        ("Latecomers", "renamed"),  # once: a rename to the same name changes nothing
        ("Latecomers", "checked_in"),
        ("Latecomers", "checked_out"),
        (team.name, "withdrawn"),
        (team.name, "reinstated"),
    ]
    last = log_of(club.tournament, "team.changed")[-1]
    assert last["checked_in"] is True and last["withdrawn"] is False
    assert "rating" not in json.dumps(log_of(club.tournament, "team.changed"))
    [changed] = log_of(club.tournament, "tournament.changed")
    assert (changed["name"], changed["place"], changed["slug"]) == (
        "Teams Told",
        "Hall 2",
        "teams-told",
    )
    assert changed["seq"] > log_of(club.tournament, "team.changed")[-1]["seq"]  # commit order
    # the webhook, subscribed after make_club's teams: each change since, once
    assert [b["change"] for b in delivered(hook, "team.changed")] == [
        "registered", "renamed", "checked_in", "checked_out", "withdrawn", "reinstated",
    ]  # fmt: skip
    assert [b["name"] for b in delivered(hook, "tournament.changed")] == ["Teams Told"]
