"""Disputes the table settles itself (issue 38): an entry withdrawn by the team that made it,
and the other team's version accepted by the team that entered the deal.

Each is a new event (``entry_withdrawn``, ``version_accepted``), never an edit, and the
two-person rule holds: a deal counts only when both teams agreed to its numbers, one having
given them and the other accepted them. Only the entry's author, or their team, withdraws it
or gives it up for the other version; the director's decision (their ``deal_ended``) stays
the last word. Every log replays to the state the appends left.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import DealResult
from tests.matches import assert_log_intact
from tests.tournaments.test_confirmation import (
    OTHER,
    RESULT,
    actors,
    confirm,
    confirmed_match,
    counted_deals,
    enter,
    log_of,
    refused,
    reject,
    send,
)
from tournaments import links, matchlog
from tournaments.access import SYSTEM
from tournaments.errors import (
    AppendRefused,
    CommandRefused,
    MatchStateConflict,
    NotPermitted,
)
from tournaments.models import Match
from tournaments.selectors import disputed_deals, match_state
from tournaments.services import match_call_off

pytestmark = pytest.mark.django_db

THEIRS = {"points": [55, 45], "sweeps": [[], []]}


def withdraw(match: Match, actor: Any, entry: int = 1, **extra: Any) -> Any:
    return send(match, "entry_withdrawn", {"entry": entry, **extra}, actor)


def accept(match: Match, actor: Any, entry: int = 1, **extra: Any) -> Any:
    return send(match, "version_accepted", {"entry": entry, **extra}, actor)


def kinds(result: Any) -> list[str]:
    return [e["kind"] for e in result.events]


def deal_points(match: Match) -> list[tuple[int, int, int]]:
    """Scoring's deal results: (deal, team 0's points, team 1's points)."""
    rows = DealResult.objects.filter(match=match).order_by("deal")
    return [(r.deal, r.points0, r.points1) for r in rows]


# --- withdrawing an entry ------------------------------------------------------------------


def test_an_unanswered_entry_withdrawn_lets_either_team_enter_the_deal_again(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    withdrawn = withdraw(match, people["seat0"])
    assert kinds(withdrawn) == ["entry_withdrawn"]
    assert withdrawn.events[0]["payload"] == {"deal": 1, "entry": 1}
    state = match_state(match)
    assert (state.entries, state.disputed) == ((), False)
    # nothing is left to answer
    assert refused(MatchStateConflict, match, lambda: confirm(match, people["seat1"])).code == (
        "no_such_entry"
    )
    # the other team enters it now; its entry is number 2 (a number is never given twice)
    again = enter(match, people["seat1"], OTHER)
    assert again.events[0]["payload"]["side"] == 1
    assert [e.number for e in match_state(match).entries] == [2]
    confirm(match, people["seat2"], entry=2)
    assert deal_points(match) == [(1, 55, 45)]
    assert_log_intact(match)


def test_a_disputed_entry_withdrawn_ends_the_dispute_and_the_table_enters_again(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    reject(match, people["seat1"])
    assert match_state(match).disputed
    assert disputed_deals(tournament_id=world.tournament.pk, match_id=match.pk)
    withdraw(match, people["seat2"])  # the partner of who entered it
    state = match_state(match)
    assert not state.disputed and state.counter is None
    assert disputed_deals(tournament_id=world.tournament.pk, match_id=match.pk) == []
    enter(match, people["seat0"], OTHER)
    # the new entry's rejection is the only one the director would see
    reject(match, people["seat3"], entry=2)
    (dispute,) = disputed_deals(tournament_id=world.tournament.pk, match_id=match.pk)
    assert [r["entry"] for r in dispute["rejections"]] == [2]
    withdraw(match, people["seat0"], entry=2)
    enter(match, people["seat3"], RESULT)
    confirm(match, people["seat0"], entry=3)
    assert deal_points(match) == [(1, 60, 40)]
    assert_log_intact(match)


def test_a_score_keepers_entry_is_withdrawn_by_that_score_keeper(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["scorekeeper"])
    for who in ("seat0", "seat1", "director"):
        error = refused(NotPermitted, match, lambda w=who: withdraw(match, people[w]))
        assert error.code == "not_your_entry"
    withdraw(match, people["scorekeeper"])
    assert match_state(match).entries == ()
    assert_log_intact(match)


def test_a_match_whose_entry_was_withdrawn_is_no_longer_untouched(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    withdraw(match, people["seat0"])
    error = refused(
        MatchStateConflict,
        match,
        lambda: match_call_off(match=match, reason="round taken back", actor=people["director"]),
    )
    assert error.code == "match_recorded"


# --- accepting the other team's version ----------------------------------------------------


def test_accepting_the_other_teams_version_counts_the_deal_with_their_numbers(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])  # team 0: 60 + a sweep of 50, 40
    reject(match, people["seat1"], **THEIRS)  # team 1: no, 55 - 45, no sweep
    accepted = accept(match, people["seat0"])
    assert kinds(accepted) == ["version_accepted", "deal_ended"]
    command, ended = accepted.events
    assert command["payload"] == {"deal": 1, "entry": 1, **THEIRS}
    assert ended["payload"] == {"deal": 1, "dealer": 1, **THEIRS, "total": [55, 45]}
    # the log says who entered, who gave the numbers and who accepted them
    assert [k for k, _ in log_of(match)[-4:]] == [
        "deal_entered", "deal_rejected", "version_accepted", "deal_ended",
    ]  # fmt: skip
    seat_users = [people[f"seat{n}"].pk for n in range(4)]
    assert [e["actor"] for e in accepted.events] == [seat_users[0], seat_users[0]]
    # scoring counts the deal with team 1's numbers
    assert deal_points(match) == [(1, 55, 45)]
    assert counted_deals(match) == [1]
    state = match_state(match)
    assert (state.entries, state.disputed, state.counter) == ((), False, None)
    # the next deal is entered as before
    enter(match, people["seat1"])
    confirm(match, people["seat0"], entry=1)
    assert counted_deals(match) == [1, 2]
    assert_log_intact(match)


def test_the_partner_of_who_entered_may_accept_and_a_teams_link_too(world: Any) -> None:
    match = confirmed_match(world, "other_team")
    seats = [p.user for p in match.seat_players()]
    link, _ = links.team_link(actor=world.organizer, team=match.team0)
    enter(match, seats[2])
    reject(match, seats[3], **THEIRS)
    accept(match, links.actor_for(link))
    assert deal_points(match) == [(1, 55, 45)]
    assert_log_intact(match)


#: who entered is seat 0 (team 0), who rejected with numbers seat 1 (team 1): who may then
#: withdraw the entry, or accept the other version -> None (done) or the refusal's code
WHO_MAY = {
    "seat0": (None, None),
    "seat2": (None, None),
    "seat1": ("not_your_entry", "own_version"),
    "seat3": ("not_your_entry", "own_version"),
    "scorekeeper": ("not_your_entry", "not_your_entry"),
    "director": ("not_your_entry", "not_your_entry"),
    "second_director": ("not_your_entry", "not_your_entry"),
    "other_match_player": ("forbidden", "forbidden"),
    "outsider": ("forbidden", "forbidden"),
    "anonymous": ("not_signed_in", "not_signed_in"),
}


@pytest.mark.parametrize("command", ["withdraw", "accept"])
@pytest.mark.parametrize(("who", "codes"), list(WHO_MAY.items()))
def test_only_the_team_that_entered_settles_and_never_with_its_own_numbers(
    world: Any, django_user_model: Any, command: str, who: str, codes: tuple[Any, Any]
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    reject(match, people["seat1"], **THEIRS)
    code = codes[0] if command == "withdraw" else codes[1]
    call = (withdraw if command == "withdraw" else accept).__call__
    if code is None:
        call(match, people[who])
        assert not match_state(match).disputed
    else:
        assert refused(NotPermitted, match, lambda: call(match, people[who])).code == code
        assert match_state(match).disputed
    assert_log_intact(match)


def test_a_team_link_cannot_accept_its_own_teams_numbers(world: Any) -> None:
    match = confirmed_match(world, "other_team")
    seats = [p.user for p in match.seat_players()]
    link, _ = links.team_link(actor=world.organizer, team=match.team1)
    enter(match, seats[0])
    reject(match, seats[1], **THEIRS)
    error = refused(NotPermitted, match, lambda: accept(match, links.actor_for(link)))
    assert error.code == "own_version"


def test_there_is_nothing_to_accept_before_a_rejection_or_without_its_numbers(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    assert refused(MatchStateConflict, match, lambda: accept(match, people["seat0"])).code == (
        "no_such_entry"
    )
    enter(match, people["seat0"])
    assert refused(MatchStateConflict, match, lambda: accept(match, people["seat0"])).code == (
        "not_disputed"
    )
    reject(match, people["seat1"])  # no numbers of their own
    assert refused(MatchStateConflict, match, lambda: accept(match, people["seat0"])).code == (
        "no_version"
    )
    # withdrawing is the way on
    withdraw(match, people["seat0"])
    assert_log_intact(match)


def test_in_a_match_counted_at_once_there_is_no_entry_to_settle(world: Any) -> None:
    match = confirmed_match(world, "none")
    for kind in ("entry_withdrawn", "version_accepted"):
        error = refused(
            CommandRefused, match, lambda k=kind: send(match, k, {"entry": 1}, world.organizer)
        )
        assert error.code == "no_confirmation"


# --- the director's word stays the last ----------------------------------------------------


def test_a_director_decides_a_disputed_deal_and_the_table_can_no_longer_change_it(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    reject(match, people["seat1"], **THEIRS)
    decided = send(
        match, "deal_ended", {"points": [58, 42], "sweeps": [[], []]}, people["director"]
    )
    assert kinds(decided) == ["deal_ended"]
    assert deal_points(match) == [(1, 58, 42)]
    for call in (
        lambda: accept(match, people["seat0"], deal=1),
        lambda: withdraw(match, people["seat0"], deal=1),
    ):
        assert refused(MatchStateConflict, match, call).code == "deal_counted"
    for call in (lambda: accept(match, people["seat0"]), lambda: withdraw(match, people["seat0"])):
        assert refused(MatchStateConflict, match, call).code == "no_such_entry"
    assert deal_points(match) == [(1, 58, 42)]
    assert_log_intact(match)


def test_a_director_decides_a_deal_the_table_entered_again_after_a_withdrawal(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    reject(match, people["seat1"], **THEIRS)
    withdraw(match, people["seat0"])
    enter(match, people["seat1"], OTHER)
    reject(match, people["seat0"], entry=2, points=[60, 40], sweeps=[[50], []])
    send(match, "deal_ended", OTHER, people["director"])
    assert deal_points(match) == [(1, 55, 45)]
    assert_log_intact(match)


# --- both sides enter ----------------------------------------------------------------------


def test_both_sides_differing_one_withdraws_and_enters_again_to_agree(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "both_enter")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    assert kinds(enter(match, people["seat1"], OTHER)) == ["deal_entered", "deal_disputed"]
    withdraw(match, people["seat2"])  # team 0's entry, by the partner
    state = match_state(match)
    assert not state.disputed and [e.number for e in state.entries] == [2]
    again = enter(match, people["seat0"], OTHER)
    assert kinds(again) == ["deal_entered", "deal_ended"]
    assert deal_points(match) == [(1, 55, 45)]
    assert_log_intact(match)


def test_both_sides_differing_one_accepts_the_others_entry(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "both_enter")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    enter(match, people["seat1"], OTHER)
    # team 1 cannot "accept" team 0's entry by naming its own: that is team 0's to give up
    assert refused(NotPermitted, match, lambda: accept(match, people["seat3"])).code == (
        "own_version"
    )
    done = accept(match, people["seat3"], entry=2)  # team 1 gives up its entry for team 0's
    assert kinds(done) == ["version_accepted", "deal_ended"]
    assert done.events[0]["payload"] == {"deal": 1, "entry": 2, **RESULT}
    assert deal_points(match) == [(1, 60, 40)]
    assert_log_intact(match)


# --- replay --------------------------------------------------------------------------------


def test_the_log_with_withdrawals_and_acceptances_replays_to_the_same_state(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    withdraw(match, people["seat0"])
    enter(match, people["seat1"], OTHER)
    reject(match, people["seat2"], entry=2, **RESULT)
    accept(match, people["seat3"], entry=2)
    enter(match, people["seat2"])
    reject(match, people["seat1"], **THEIRS)
    withdraw(match, people["seat0"])
    match.refresh_from_db()
    events = list(match.events.order_by("seq").values_list("kind", "payload", "actor_id", "via"))
    replayed = matchlog.replay([(k, p, matchlog.author(a, v)) for k, p, a, v in events], match.mode)
    assert replayed == match_state(match)
    assert replayed.entered == 1 and replayed.entries == ()
    assert deal_points(match) == [(1, 60, 40)]
    assert_log_intact(match)


def test_a_forged_acceptance_or_withdrawal_does_not_replay(
    world: Any, django_user_model: Any
) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    reject(match, people["seat1"], **THEIRS)
    match.refresh_from_db()
    events = list(match.events.order_by("seq").values_list("kind", "payload", "actor_id", "via"))
    log = [(k, p, matchlog.author(a, v)) for k, p, a, v in events]
    state = matchlog.replay(log, match.mode)
    seat0, seat1 = people["seat0"].pk, people["seat1"].pk
    forged = [
        ("version_accepted", {"deal": 1, "entry": 1, **RESULT}, seat0),  # not their numbers
        ("version_accepted", {"deal": 1, "entry": 1, **THEIRS}, seat1),  # their own numbers
        ("entry_withdrawn", {"deal": 1, "entry": 1}, seat1),  # not their entry
        ("entry_withdrawn", {"deal": 2, "entry": 1}, seat0),  # not the next deal
        ("entry_withdrawn", {"deal": 1, "entry": 1, "why": "x"}, seat0),
    ]
    for kind, payload, actor in forged:
        with pytest.raises(matchlog.LogInconsistent):
            matchlog.apply_event(state, kind, payload, actor)


# --- bad input -----------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=st.sampled_from(["entry_withdrawn", "version_accepted"]),
    payload=st.one_of(
        JSON,
        st.fixed_dictionaries({"entry": JSON}),
        st.fixed_dictionaries({"entry": st.integers(-3, 5), "deal": JSON}),
        st.fixed_dictionaries(
            {"entry": st.integers(0, 3)}, optional={"deal": st.integers(-2, 3), "points": JSON}
        ),
    ),
)
def test_any_payload_is_settled_or_refused_with_a_code_and_nothing_half_written(
    world: Any, kind: str, payload: Any
) -> None:
    # the same world for every example: a match whose deal is disputed, made when none is
    match = Match.objects.filter(tournament=world.tournament, status="in_progress").last()
    if match is None or not match_state(match).disputed:
        match = confirmed_match(world, "other_team")
        seats = [p.user for p in match.seat_players()]
        enter(match, seats[0])
        reject(match, seats[1], **THEIRS)
    seats = [p.user for p in match.seat_players()]
    match.refresh_from_db()
    before = match.last_seq
    try:
        send(match, kind, payload, seats[0])
    except AppendRefused as exc:
        assert exc.code
        match.refresh_from_db()
        assert match.last_seq == before
    else:  # settled: the next example takes a fresh dispute
        assert not match_state(match).disputed
    assert_log_intact(match)


def test_the_server_may_settle_as_it_may_answer(world: Any, django_user_model: Any) -> None:
    match = confirmed_match(world, "other_team")
    people = actors(world, match, django_user_model)
    enter(match, people["seat0"])
    reject(match, people["seat1"], **THEIRS)
    accept(match, SYSTEM)
    assert deal_points(match) == [(1, 55, 45)]
