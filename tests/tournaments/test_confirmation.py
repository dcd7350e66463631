"""Score entry with confirmation through the append service (issue 11, "Score mode").

A deal entered by one side counts only when someone of the other side (or a director) confirms
it, and the one who entered it can never confirm it: checked here for every kind of actor. A
rejection sends the deal to the director with both versions; with ``both_enter`` matching
entries confirm each other and differing ones go to the director. Unconfirmed deals do not
count in scoring's projection. A device that lost its connection resends with the same
idempotency key and gets the original answer; a resend after someone else's append gets a
conflict with the current seq.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring.models import DealResult, MatchResult
from tests.matches import assert_log_intact
from tests.scoring.helpers import committed
from tournaments.access import SYSTEM
from tournaments.errors import (
    CommandRefused,
    MatchStateConflict,
    MoveRefused,
    NotPermitted,
    StaleSequence,
)
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_append_event, match_create

pytestmark = pytest.mark.django_db

RESULT = {"points": [60, 40], "sweeps": [[50], []]}  # dealer seat 1: the bidder is seat 2
OTHER = {"points": [55, 45], "sweeps": [[], []]}


def confirmed_match(world: Any, confirmation: str, fmt: dict[str, Any] | None = None) -> Match:
    """Return a started score match of teams A and B whose results need confirming."""
    match = match_create(
        tournament=world.tournament,
        team0=world.teams[0],
        team1=world.teams[1],
        mode="score",
        match_format=fmt or {"bazzis": 3},
    )
    match.confirmation = confirmation
    match.save()
    match.scorekeepers.add(world.scorekeeper)
    match_append_event(
        match=match,
        expected_seq=0,
        kind="match_started",
        payload={"first_dealer": 1},
        actor=SYSTEM,
    )
    return match


def actors(world: Any, match: Match, django_user_model: Any) -> dict[str, Any]:
    """Everyone who might answer: the seats (0, 2 team A; 1, 3 team B), the score-keeper, the
    organizer, a second director, a player of another match, an outsider, anonymous."""
    seats = [p.user for p in match.seat_players()]
    second = django_user_model.objects.create_user("second-director")
    world.tournament.directors.add(second)
    return {
        **{f"seat{n}": user for n, user in enumerate(seats)},
        "scorekeeper": world.scorekeeper,
        "director": world.organizer,
        "second_director": second,
        "other_match_player": world.players[4].user,
        "outsider": django_user_model.objects.create_user("outsider"),
        "anonymous": AnonymousUser(),
    }


def send(match: Match, kind: str, payload: dict[str, Any], actor: Any, **kw: Any) -> Any:
    match.refresh_from_db()
    kw.setdefault("expected_seq", match.last_seq)
    with committed():  # the scoring projection runs, as after a real commit
        return match_append_event(match=match, kind=kind, payload=payload, actor=actor, **kw)


def enter(match: Match, actor: Any, result: dict[str, Any] = RESULT, **kw: Any) -> Any:
    return send(match, "deal_entered", dict(result), actor, **kw)


def confirm(match: Match, actor: Any, entry: int = 1, **kw: Any) -> Any:
    return send(match, "deal_confirmed", {"entry": entry}, actor, **kw)


def reject(match: Match, actor: Any, entry: int = 1, **extra: Any) -> Any:
    return send(
        match, "deal_rejected", {"entry": entry, "reason": "we swept twice", **extra}, actor
    )


def log_of(match: Match) -> list[tuple[str, dict[str, Any]]]:
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    return list(events.values_list("kind", "payload"))


def refused(error: type[Exception], match: Match, call: Any) -> Any:
    before = log_of(match)
    with pytest.raises(error) as caught:
        call()
    assert log_of(match) == before, "a refused command wrote something"
    return caught.value


def counted_deals(match: Match) -> list[int]:
    return list(DealResult.objects.filter(match=match).values_list("deal", flat=True))


# --- the two-person rule, for every kind of actor ------------------------------------------

#: who entered -> who answers -> None (accepted) or the refusal's code
TWO_PERSONS = {
    "seat0": {
        "seat0": "own_entry",
        "seat2": "own_team_entry",
        "seat1": None,
        "seat3": None,
        "scorekeeper": "forbidden",
        "director": None,
        "second_director": None,
        "other_match_player": "forbidden",
        "outsider": "forbidden",
        "anonymous": "not_signed_in",
    },
    "seat3": {
        "seat3": "own_entry",
        "seat1": "own_team_entry",
        "seat0": None,
        "seat2": None,
        "scorekeeper": "forbidden",
        "director": None,
        "anonymous": "not_signed_in",
    },
    "scorekeeper": {  # a score-keeper is of neither side: either team (or a director) answers
        "scorekeeper": "forbidden",
        "seat0": None,
        "seat1": None,
        "director": None,
        "outsider": "forbidden",
        "anonymous": "not_signed_in",
    },
    "director": {  # a director who enters cannot confirm it either; another director may
        "director": "own_entry",
        "second_director": None,
        "seat0": None,
        "seat3": None,
        "scorekeeper": "forbidden",
    },
}
CASES = [(e, a, code) for e, answers in TWO_PERSONS.items() for a, code in answers.items()]


@pytest.mark.parametrize("answer", ["confirm", "reject"])
@pytest.mark.parametrize(("entered_by", "answered_by", "code"), CASES)
def test_who_may_confirm_or_reject_an_entry(
    world: Any,
    django_user_model: Any,
    answer: str,
    entered_by: str,
    answered_by: str,
    code: str | None,
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people[entered_by])
    answered_with = confirm if answer == "confirm" else reject
    if code is not None:
        error = refused(NotPermitted, match, lambda: answered_with(match, people[answered_by]))
        assert error.code == code, error.message
        assert counted_deals(match) == []
        return
    result = answered_with(match, people[answered_by])
    kinds = [e["kind"] for e in result.events]
    if answer == "confirm":
        assert kinds == ["deal_confirmed", "deal_ended"]
        ended = result.events[1]["payload"]
        assert {k: ended[k] for k in RESULT} == {"points": [60, 40], "sweeps": [[50], []]}
        assert counted_deals(match) == [1]
    else:
        assert kinds == ["deal_rejected"]
        assert counted_deals(match) == []
    assert_log_intact(match)


def test_an_entry_by_a_seated_player_or_the_score_keeper_only(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    for who in ("other_match_player", "outsider", "anonymous"):
        refused(NotPermitted, match, lambda w=who: enter(match, people[w]))
    # nobody but a director counts a result at once in a match that confirms them
    for who in ("scorekeeper", "seat0", "seat1"):
        refused(NotPermitted, match, lambda w=who: send(match, "deal_ended", RESULT, people[w]))
    assert enter(match, people["scorekeeper"]).events[0]["payload"]["side"] is None
    entered = log_of(match)[-1][1]
    assert entered == {
        "deal": 1,
        "dealer": 1,
        "side": None,
        "points": [60, 40],
        "sweeps": [[50], []],
        "total": [110, 40],
    }


def test_one_entry_awaits_its_answer_at_a_time(world: Any, django_user_model: Any) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    for who in ("seat0", "seat1", "scorekeeper"):
        error = refused(MatchStateConflict, match, lambda w=who: enter(match, people[w], OTHER))
        assert error.code == "entry_pending"
    error = refused(MatchStateConflict, match, lambda: confirm(match, people["seat1"], entry=2))
    assert error.code == "no_such_entry"


# --- a confirmed deal counts; an unconfirmed one does not ----------------------------------


def test_an_unconfirmed_deal_does_not_count_until_it_is_confirmed(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team", {"bazzis": 1})
    people = actors(world, match, django_user_model)
    enter(match, people["seat1"], {"points": [10, 90], "sweeps": [[], [50, 50]]})
    projected = MatchResult.objects.get(match=match)
    assert (projected.deals, projected.difference, projected.over) == (0, 0, False)
    assert counted_deals(match) == []
    assert match_state(match).progress.deals == 0  # the store counts nothing either
    result = confirm(match, people["seat2"])
    assert [e["kind"] for e in result.events] == ["deal_confirmed", "deal_ended", "match_ended"]
    projected = MatchResult.objects.get(match=match)
    assert (projected.deals, projected.difference, projected.over) == (1, 0, True)
    assert projected.winner == 1  # 10 to 190: a lead of 180 wins the bazzi (L2)
    deal = DealResult.objects.get(match=match)
    assert (deal.deal, deal.total0, deal.total1) == (1, 10, 190)
    assert_log_intact(match)


# --- a rejection goes to the director with both versions ----------------------------------


def test_a_rejection_sends_the_deal_to_the_director_with_both_versions(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    no_reason = [{"reason": ""}, {"reason": "  "}, {"reason": "x" * 501}, {"reason": 5}]
    for bad, code in [
        *((r, "reason_required") for r in no_reason),
        ({"points": [50, 50]}, "bad_payload"),
    ]:
        payload = {"entry": 1, "reason": "wrong", **bad}
        error = refused(
            CommandRefused,
            match,
            lambda p=payload: send(match, "deal_rejected", p, people["seat1"]),
        )
        assert error.code == code
    error = refused(
        MoveRefused, match, lambda: reject(match, people["seat1"], points=[50, 40], sweeps=[[], []])
    )
    assert error.rule == "D2"
    result = reject(match, people["seat1"], points=[55, 45], sweeps=[[], []])
    assert result.events[0]["payload"] == {
        "deal": 1,
        "entry": 1,
        "reason": "we swept twice",
        "points": [55, 45],
        "sweeps": [[], []],
    }
    # both versions are in the log, for the director: the entry and the rejection's own
    (_, entered), (_, rejected) = log_of(match)[-2:]
    assert (entered["points"], rejected["points"]) == ([60, 40], [55, 45])
    assert match_state(match).disputed
    # with the director now: nobody enters, confirms or rejects it any more
    for call in (
        lambda: enter(match, people["seat3"], OTHER),
        lambda: confirm(match, people["seat3"]),
        lambda: confirm(match, people["director"]),
        lambda: reject(match, people["seat3"]),
    ):
        assert refused(MatchStateConflict, match, call).code == "deal_disputed"
    assert counted_deals(match) == []
    # the director decides: their result counts, and the next deal is entered as before
    decided = send(match, "deal_ended", OTHER, people["director"])
    assert decided.events[0]["payload"]["points"] == [55, 45]
    assert counted_deals(match) == [1]
    assert not match_state(match).disputed
    enter(match, people["seat2"])
    confirm(match, people["seat1"])
    assert counted_deals(match) == [1, 2]
    assert_log_intact(match)


# --- both sides enter ----------------------------------------------------------------------


def test_matching_entries_of_both_sides_confirm_each_other(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "both_enter")
    people = actors(world, match, django_user_model)
    first = enter(match, people["seat0"])
    assert [e["kind"] for e in first.events] == ["deal_entered"]
    assert counted_deals(match) == []
    # the same side (the same user or the partner) enters once
    for who in ("seat0", "seat2"):
        error = refused(MatchStateConflict, match, lambda w=who: enter(match, people[w]))
        assert error.code == "already_entered"
    second = enter(match, people["seat3"])
    assert [e["kind"] for e in second.events] == ["deal_entered", "deal_ended"]
    assert second.events[1]["payload"]["total"] == [110, 40]
    assert counted_deals(match) == [1]
    assert_log_intact(match)


def test_differing_entries_go_to_the_director(world: Any, django_user_model: Any) -> None:
    match = confirmed_match(world, "both_enter")
    people = actors(world, match, django_user_model)
    enter(match, people["seat1"])
    result = enter(match, people["seat2"], OTHER)
    assert [e["kind"] for e in result.events] == ["deal_entered", "deal_disputed"]
    assert result.events[1]["payload"] == {"deal": 1, "entries": [1, 2]}
    assert match_state(match).disputed and counted_deals(match) == []
    entries = [p for k, p in log_of(match) if k == "deal_entered"]
    assert [(e["side"], e["points"]) for e in entries] == [(1, [60, 40]), (0, [55, 45])]
    assert refused(MatchStateConflict, match, lambda: enter(match, people["scorekeeper"])).code == (
        "deal_disputed"
    )
    send(match, "deal_ended", RESULT, people["director"])
    assert counted_deals(match) == [1]
    assert_log_intact(match)


def test_a_score_keepers_entry_is_matched_by_a_teams_not_by_another_score_keeper(
    world: Any, django_user_model: Any
) -> None:
    """Both sides enter: entries of people of neither team do not confirm each other."""
    match = confirmed_match(world, "both_enter")
    people = actors(world, match, django_user_model)
    second_keeper = django_user_model.objects.create_user("second-keeper")
    match.scorekeepers.add(second_keeper)
    enter(match, people["scorekeeper"])
    error = refused(MatchStateConflict, match, lambda: enter(match, second_keeper))
    assert error.code == "already_entered"
    assert counted_deals(match) == []
    result = enter(match, people["seat1"])
    assert [e["kind"] for e in result.events] == ["deal_entered", "deal_ended"]
    assert_log_intact(match)


# --- resending after a lost connection -----------------------------------------------------


def test_a_resend_with_the_same_key_returns_the_original_and_doubles_nothing(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    first = enter(match, people["seat0"], idempotency_key="tablet-1-deal-1", expected_seq=1)
    # the answer was lost: the device resends everything it had, in order
    again = enter(match, people["seat0"], idempotency_key="tablet-1-deal-1", expected_seq=1)
    assert again.replayed and again.events == first.events and again.last_seq == first.last_seq
    answered = confirm(match, people["seat1"], idempotency_key="tablet-2-confirm-1")
    # the first device resends once more, after the other team's answer: still the original
    late = enter(match, people["seat0"], idempotency_key="tablet-1-deal-1", expected_seq=1)
    assert late.replayed and late.last_seq == first.last_seq == 2
    again = confirm(match, people["seat1"], idempotency_key="tablet-2-confirm-1", expected_seq=2)
    assert again.replayed and [e["seq"] for e in again.events] == [3, 4]
    assert answered.last_seq == 4
    assert [k for k, _ in log_of(match)] == [
        "match_started",
        "deal_entered",
        "deal_confirmed",
        "deal_ended",
    ]
    assert counted_deals(match) == [1]
    assert_log_intact(match)


def test_a_resend_after_someone_elses_append_is_a_conflict_not_an_overwrite(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "both_enter")
    people = actors(world, match, django_user_model)
    # team B's device enters while team A's device is offline; A's entry never reached us
    enter(match, people["seat1"], idempotency_key="team-b-1", expected_seq=1)
    error = refused(
        StaleSequence,
        match,
        lambda: enter(match, people["seat0"], OTHER, idempotency_key="team-a-1", expected_seq=1),
    )
    assert (error.code, error.current_seq) == ("stale_expected_seq", 2)
    # A reads the log, sees B's entry, and sends its own (differing) entry at the head
    result = enter(match, people["seat0"], OTHER, idempotency_key="team-a-1", expected_seq=2)
    assert [e["kind"] for e in result.events] == ["deal_entered", "deal_disputed"]
    entries = [p["points"] for k, p in log_of(match) if k == "deal_entered"]
    assert entries == [[60, 40], [55, 45]]  # nothing overwritten
    assert_log_intact(match)


def test_an_entry_awaiting_an_answer_ends_with_the_match_and_is_gone_when_it_reopens(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team", {"bazzis": 1})
    who = actors(world, match, django_user_model)
    enter(match, who["seat0"])
    confirm(match, who["seat1"])  # deal 1 counts: +20 for team 0
    enter(match, who["seat0"], OTHER)  # deal 2 awaits team B's answer
    assert len(match_state(match).entries) == 1
    # A director's correction makes deal 1 a bazzi: the match is over, the entry with it.
    bazzi = {"deal": 1, "points": [91, 9], "sweeps": [[50], []], "reason": "a sweep missed"}
    ended = send(match, "deal_corrected", bazzi, who["director"])
    assert [e["kind"] for e in ended.events] == ["deal_corrected", "match_ended"]
    state = match_state(match)
    assert state.status == "finished" and state.entries == () and state.accepted is None
    # Corrected back, the match is reopened: deal 2 starts afresh, the old entry is not there.
    back = {"deal": 1, **RESULT, "reason": "the sweep was not"}
    reopened = send(match, "deal_corrected", back, who["director"])
    assert [e["kind"] for e in reopened.events] == ["deal_corrected", "match_reopened"]
    assert match_state(match).entries == ()
    refused(MatchStateConflict, match, lambda: confirm(match, who["seat1"]))
    enter(match, who["seat2"], OTHER)
    confirm(match, who["seat3"])
    assert DealResult.objects.filter(match=match).count() == 2
    assert_log_intact(match)


def test_the_disputed_deals_of_one_match_are_its_own(world: Any, django_user_model: Any) -> None:
    from tournaments.selectors import disputed_deals

    first, second = (confirmed_match(world, "other_team") for _ in range(2))
    who = actors(world, first, django_user_model)  # the same teams, so the same seats
    for match in (first, second):
        enter(match, who["seat0"])
        reject(match, who["seat1"])
    everything = disputed_deals(tournament_id=world.tournament.pk)
    assert [d["match"].pk for d in everything] == [first.pk, second.pk]
    (own,) = disputed_deals(tournament_id=world.tournament.pk, match_id=second.pk)
    assert own == everything[1]
    assert own["rejections"][0]["reason"] == "we swept twice"
    assert disputed_deals(tournament_id=world.tournament.pk + 1, match_id=second.pk) == []
