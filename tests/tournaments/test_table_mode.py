"""Table mode through the append service: a match recorded card by card at a physical table.

* Random digital matches (seep_core deals, random legal play, the digital planner) recorded
  into a ``table`` match as a table records them (each card revealed only when played, the
  floor with the bid, the hand shown for a redeal) write exactly the digital log, the decks
  left out: the same deal results (points, sweeps, totals), the same next dealers, the same
  ``match_ended``; no event of the table match ever holds a card not yet played.
* A promise of each hidden-card rule (B1 a bid value, H5 a builder's card of the value, H7 a
  breaker's, H8 an adder's to an opponent's house, T2 an owner's key) left unkept is recorded
  as the engine's table mode says: the play that shows it broken is accepted, the position
  shows the breach from that append on (its rule id, the play that made the promise, the play
  that revealed it), the deal goes on, and ``deal_ended`` reports it.
* A play whose own promise the cards seen rule out is refused at once with the rule id, and
  nothing is written.
* Who may record: the match's score-keeper or a director any seat; a seated player only their
  own seat; anyone else (another seat's player, a score-keeper of another match, an outsider,
  anonymous) is refused.

``SEEP_TABLE_MATCHES`` (default 5) sets how many random matches the first test records (each
of one to three deals; 1000 record about 2,000 deals, some 7 minutes) and, divided by
three, how many breaches of each rule the second records.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import seep_core as sc
from tests.engine.helpers import REPRODUCIBLE
from tests.engine.test_table_mode import VARIANTS, at_the_table, made_promises, revealed_at
from tests.matches import assert_log_intact
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.errors import MoveRefused, NotPermitted, StaleSequence
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_append_event, match_create

pytestmark = pytest.mark.django_db

MATCHES = int(os.environ.get("SEEP_TABLE_MATCHES", "5"))
VALUE = {code: i // 4 + 1 for i, code in enumerate(sc.ordered_deck())}


def examples(n: int) -> settings:
    """Reproducible settings for ``n`` examples sharing the test's world (each makes its own
    match); no shrinking: a derandomized failure reproduces as it is."""
    return settings(
        max_examples=n,
        phases=[p for p in Phase if p is not Phase.shrink],
        **{
            **REPRODUCIBLE,
            "suppress_health_check": [
                *REPRODUCIBLE["suppress_health_check"],
                HealthCheck.function_scoped_fixture,
            ],
        },
    )


FORMATS = [{"deal_cap": 1}, {"deal_cap": 2}, {"deal_cap": 3}, {"bazzis": 1, "deal_cap": 3}]


# --- the digital match, as the planner writes it (no database) -------------------------------


def digital_log(
    first_dealer: int, rules: sc.Rules, fmt: dict[str, Any], rng: random.Random
) -> list[list[matchlog.Event]]:
    """Return a digital match played at random to its end, append by append (the command's
    events first): what a digital match's log holds, decks included.

    Every other deal prefers builds (more houses, so more promises at a table).
    """
    setup = matchlog.MatchSetup(
        "digital", rules.to_dict(), fmt, first_dealer, (1, 2, 3, 4), (None,) * 4
    )
    shuffle = matchlog.repeatable_decks(rng.randrange(2**32))
    state = matchlog.MatchState("digital")
    events, state = matchlog.plan(state, setup, "match_started", {}, shuffle=shuffle)
    appends = [events]
    while state.status != matchlog.FINISHED:
        assert state.deal is not None
        legal = sc.legal_moves(state.deal)
        builds = [m for m in legal if m["action"] == "build"] if state.deal_no % 2 else []
        move = rng.choice(builds if builds and rng.random() < 0.6 else legal)
        events, state = matchlog.plan(state, setup, "move_played", {"move": move}, shuffle=shuffle)
        appends.append(events)
    return appends


def table_commands(appends: list[list[matchlog.Event]]) -> list[dict[str, Any]]:
    """Return the moves of a digital log as a table records them (cards revealed when played)."""
    out: list[dict[str, Any]] = []
    deck: list[str] = []
    moves: list[dict[str, Any]] = []
    for events in appends:
        kind, payload = events[0]
        if kind == "move_played":
            moves.append(payload["move"])
        for kind, payload in events:
            if kind in ("deal_ended", "deal_started") and moves:
                out += at_the_table(deck, moves)  # the deal is over (or thrown in)
                moves = []
            if kind == "deal_started":
                deck = payload["deck"]
    assert not moves
    return out


def as_at_the_table(appends: list[list[matchlog.Event]]) -> list[list[matchlog.Event]]:
    """Return a digital log as a table match must write it: no deck, each move as the table
    recorded it (a bid with its floor, a redeal with its hand), no breach reported."""
    recorded = iter(table_commands(appends))
    out = []
    for events in appends:
        table: list[matchlog.Event] = []
        for kind, digital in events:
            payload = dict(digital)
            if kind == "deal_started":
                del payload["deck"]
            elif kind == "move_played":
                payload["move"] = next(recorded)
            elif kind == "deal_ended":
                payload["breaches"] = []
            table.append((kind, payload))
        out.append(table)
    return out


# --- a table match through the service -----------------------------------------------------


def table_match(world: Any, fmt: dict[str, Any], rules: sc.Rules | None = None) -> Match:
    """Return a table match of teams A and B, the world's score-keeper keeping it."""
    world.tournament.rules = (rules or sc.Rules()).to_dict()
    world.tournament.save()
    match = match_create(
        tournament=world.tournament,
        team0=world.teams[0],
        team1=world.teams[1],
        mode="table",
        match_format=fmt,
    )
    match.scorekeepers.add(world.scorekeeper)
    return match


def seat_users(match: Match) -> list[Any]:
    return [player.user for player in match.seat_players()]


def append(match: Match, kind: str, payload: Any, actor: Any) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor
    )


def record(match: Match, move: dict[str, Any], actor: Any) -> Any:
    return append(match, "move_played", {"move": move}, actor)


def stored(match: Match) -> list[tuple[str, dict[str, Any], int | None]]:
    return list(
        MatchEvent.objects.filter(match=match)
        .order_by("seq")
        .values_list("kind", "payload", "caused_by")
    )


def table_deal(match: Match) -> sc.TableDeal:
    deal = match_state(match).deal
    assert isinstance(deal, sc.TableDeal), deal
    return deal


def refused_writes_nothing(error: type[Exception], match: Match, call: Any) -> Any:
    before = stored(match)
    with pytest.raises(error) as caught:
        call()
    assert stored(match) == before
    return caught.value


# --- digital matches recorded at a table ---------------------------------------------------


@examples(MATCHES)
@given(
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 3),
    fmt=st.sampled_from(FORMATS),
    variant=st.integers(0, len(VARIANTS) - 1),
)
def test_a_digital_match_recorded_at_a_table_writes_the_digital_log_without_its_decks(
    world: Any, seed: int, dealer: int, fmt: dict[str, Any], variant: int
) -> None:
    rng = random.Random(seed)
    rules = VARIANTS[variant]
    appends = digital_log(dealer, rules, fmt, rng)
    match = table_match(world, fmt, rules)
    keeper, users = world.scorekeeper, seat_users(match)
    started = match_append_event(
        match=match,
        expected_seq=0,
        kind="match_started",
        payload={"first_dealer": dealer},
        actor=keeper,
    )
    table_appends = [[(e["kind"], e["payload"]) for e in started.events]]
    for move in table_commands(appends):
        # the score-keeper, a director or the seat's own player records the card
        actor = rng.choice([keeper, world.organizer, users[move["seat"]]])
        result = record(match, move, actor)
        table_appends.append([(e["kind"], e["payload"]) for e in result.events])
    digital = as_at_the_table(appends)
    # match_started says table mode and who sits where; everything after it is the digital log
    assert table_appends[0][0][1]["mode"] == "table"
    assert table_appends[1:] == digital[1:]
    assert table_appends[0][1:] == digital[0][1:]
    kinds = [kind for events in table_appends for kind, _ in events]
    assert kinds.count("deal_ended") == sum(
        kind == "deal_ended" for events in appends for kind, _ in events
    )
    assert kinds[-1] == "match_ended"
    # no stored event of the table match holds a card before it is played
    assert not any("deck" in payload or "hands" in payload for _, payload, _ in stored(match))
    match.refresh_from_db()
    assert match.status == "finished"
    assert_log_intact(match)


def test_a_table_match_never_knows_a_hand(world: Any) -> None:
    """The recorder enters the bid and each card as it is played; the position holds no hand."""
    match = table_match(world, {"deal_cap": 1})
    result = match_append_event(
        match=match,
        expected_seq=0,
        kind="match_started",
        payload={"first_dealer": 3},
        actor=world.scorekeeper,
    )
    assert [e["kind"] for e in result.events] == ["match_started", "deal_started"]
    assert result.events[1]["payload"] == {"deal": 1, "dealer": 3}
    view = table_deal(match).to_dict()
    assert view["hands"] == [None] * 4 and view["stock"] is None and view["floor"] is None
    bid = {"seat": 0, "action": "bid", "value": 9, "floor": ["2S", "3H", "4D", "5C"]}
    record(match, bid, world.scorekeeper)
    view = table_deal(match).to_dict()
    assert view["hands"] == [None] * 4 and view["hand_sizes"] == [4, 0, 0, 0]
    assert view["floor"]["loose"] == ["2S", "3H", "4D", "5C"]
    assert view["promises"] == [{"seat": 0, "value": 9, "rule": "B1", "play": 0}]


# --- what the cards seen decide is refused at once, and writes nothing -------------------------


def started_table(world: Any, dealer: int = 3) -> Match:
    match = table_match(world, {"deal_cap": 1})
    match_append_event(
        match=match,
        expected_seq=0,
        kind="match_started",
        payload={"first_dealer": dealer},
        actor=world.scorekeeper,
    )
    return match


def move(seat: int, action: str, card: str, *take: str, value: int | None = None) -> dict:
    out: dict[str, Any] = {"seat": seat, "action": action, "card": card}
    if action != "throw":
        out["take"] = list(take)
    if value is not None:
        out["value"] = value
    return out


@pytest.mark.parametrize(
    ("plays", "refused", "rule", "code"),
    [
        # all four jacks lie on the floor: nobody holds one to bid
        (
            [],
            {"seat": 0, "action": "bid", "value": 11, "floor": ["JS", "JH", "JD", "JC"]},
            "B1",
            "bid_without_card",
        ),
        # a card recorded twice
        ([move(0, "capture", "9C", "4D", "5C")], move(1, "throw", "2S"), "D1", "card_seen"),
        ([move(0, "capture", "9C", "4D", "5C")], move(1, "throw", "9C"), "D1", "card_seen"),
        # a build keeping a 9 in hand once all four 9s have been seen (H5)
        (
            [move(0, "capture", "9C", "9S", "9H"), move(1, "throw", "9D")],
            move(2, "build", "4C", "2C", "3D", value=9),
            "H5",
            "no_key",
        ),
        # the opening off the bid value (B4), a card that could capture thrown (T1)
        ([], move(0, "throw", "KH"), "B4", "opening_off_bid"),
        ([move(0, "capture", "9C", "4D", "5C")], move(1, "throw", "5H"), "T1", "must_capture"),
    ],
)
def test_a_play_the_cards_seen_rule_out_is_refused_with_its_rule_and_writes_nothing(
    world: Any, plays: list[dict], refused: dict, rule: str, code: str
) -> None:
    match = started_table(world)
    floor = ["9S", "9H", "2C", "3D"] if rule == "H5" else ["2S", "3H", "4D", "5C"]
    if refused["action"] != "bid":
        record(match, {"seat": 0, "action": "bid", "value": 9, "floor": floor}, world.scorekeeper)
    for play in plays:
        record(match, play, world.scorekeeper)
    error = refused_writes_nothing(
        MoveRefused, match, lambda: record(match, refused, world.scorekeeper)
    )
    assert (error.rule, error.code) == (rule, code), error.message
    assert_log_intact(match)


# --- a promise left unkept: each hidden-card rule ------------------------------------------

HIDDEN_RULES = ("B1", "H5", "H7", "H8", "T2")


def random_table_record(rng: random.Random) -> tuple[int, sc.Rules, list[dict]]:
    """Return a random digital deal (preferring builds) as a table records it."""
    dealer, rules = rng.randrange(4), rng.choice(VARIANTS)
    deck = sc.ordered_deck()
    rng.shuffle(deck)
    deal = sc.new_deal(dealer, deck, rules)
    moves = []
    while legal := sc.legal_moves(deal):
        builds = [m for m in legal if m["action"] == "build"]
        chosen = rng.choice(builds if builds and rng.random() < 0.7 else legal)
        deal = sc.apply(deal, chosen)
        moves.append(chosen)
    return dealer, rules, at_the_table(deck, moves)


def unkept(rule: str, rng: random.Random) -> tuple[int, sc.Rules, list[dict], sc.Promise] | None:
    """Return a table record in which a promise under ``rule`` is made as in a random deal and
    the promising seat never plays a card of its value after it (the table plays on at random,
    any card not seen yet); None if this deal made no such promise."""
    dealer, rules, moves = random_table_record(rng)
    for index, promise in made_promises(dealer, rules, moves):
        if promise.rule != rule:
            continue
        table = sc.replay(sc.new_table_deal(dealer, rules), moves[: index + 1])
        edited = list(moves[: index + 1])
        while table.phase in ("opening", "play"):
            legal = [
                m
                for m in sc.legal_moves(table)
                if m["seat"] != promise.seat or VALUE[m["card"]] != promise.value
            ]
            if not legal:
                break
            chosen = rng.choice(legal)
            table = sc.apply(table, chosen)
            edited.append(chosen)
        if table.phase == "over":
            return dealer, rules, edited, promise
    return None


@pytest.mark.parametrize("rule", HIDDEN_RULES)
@examples(max(2, MATCHES // 3))
@given(seed=st.integers(0, 2**32 - 1))
def test_a_promise_left_unkept_is_recorded_as_a_breach_at_the_play_that_reveals_it(
    world: Any, rule: str, seed: int
) -> None:
    rng = random.Random(seed)
    case = None
    while case is None:  # a deal with a promise of this rule (H7's breaks are the rarest)
        case = unkept(rule, rng)
    dealer, rules, moves, promise = case
    revealed, reason = revealed_at(moves, promise.seat, promise.value, promise.play)
    match = table_match(world, {"deal_cap": 1}, rules)
    match_append_event(
        match=match,
        expected_seq=0,
        kind="match_started",
        payload={"first_dealer": dealer},
        actor=world.organizer,
    )
    users = seat_users(match)
    mine = None
    for play, recorded in enumerate(moves):  # the bid is play 0
        before = table_deal(match).breaches
        result = record(match, recorded, rng.choice([world.scorekeeper, users[recorded["seat"]]]))
        assert result.events[0]["kind"] == "move_played"  # accepted: the card has been played
        if play < len(moves) - 1:
            breaches = table_deal(match).breaches
            # this promise shows broken from the append that reveals it on, not before
            assert (promise_broken(breaches, promise) is not None) == (play >= revealed), play
            assert set(before) <= set(breaches)
            if play == revealed:
                mine = promise_broken(breaches, promise)
    kinds = [e["kind"] for e in result.events]
    assert kinds == ["move_played", "deal_ended", "match_ended"]  # the deal went on to its end
    ended = result.events[1]["payload"]
    reported = [
        b
        for b in ended["breaches"]
        if (b["seat"], b["value"], b["rule"], b["play"]) == tuple(promise)
    ]
    assert len(reported) == 1, ended["breaches"]
    breach = reported[0]
    assert (breach["rule"], breach["play"], breach["revealed"], breach["reason"]) == (
        rule,
        promise.play,
        revealed,
        reason,
    )
    assert f"seat {promise.seat}" in breach["message"] and f"({rule}:" in breach["message"]
    if revealed < len(moves) - 1:
        assert mine is not None and mine.to_dict() == breach
    # the deal is scored from the cards as they were played
    final = sc.replay(sc.new_table_deal(dealer, rules), moves)
    assert {k: ended[k] for k in ("points", "sweeps", "total")} == sc.score(final)
    assert ended["breaches"] == [b.to_dict() for b in final.breaches]
    assert_log_intact(match)


def promise_broken(breaches: tuple[sc.Breach, ...], promise: sc.Promise) -> sc.Breach | None:
    return next((b for b in breaches if b[:4] == tuple(promise)), None)


# --- who may record at a table -------------------------------------------------------------


def test_the_score_keeper_or_a_director_records_any_seat_a_player_only_their_own(
    world: Any, django_user_model: Any
) -> None:
    match = started_table(world, dealer=3)  # seat 0 bids
    users = seat_users(match)
    other_keeper = django_user_model.objects.create_user("other-keeper")
    world.score_match.scorekeepers.add(other_keeper)  # keeps another match, not this one
    outsider = django_user_model.objects.create_user("outsider")
    bid = {"seat": 0, "action": "bid", "value": 9, "floor": ["2S", "3H", "4D", "5C"]}
    for actor in (users[1], users[2], users[3], other_keeper, outsider, AnonymousUser()):
        error = refused_writes_nothing(NotPermitted, match, lambda a=actor: record(match, bid, a))
        assert error.code in ("not_your_seat", "not_signed_in")
    record(match, bid, users[0])  # the bidder records their own bid
    opening = move(0, "capture", "9C", "4D", "5C")
    for actor in (users[1], users[3], world.players[4].user):  # another match's player
        refused_writes_nothing(NotPermitted, match, lambda a=actor: record(match, opening, a))
    record(match, opening, world.scorekeeper)
    record(match, move(1, "throw", "KH"), world.organizer)
    # a player recording for another seat is refused even when it is that seat's turn
    refused_writes_nothing(
        NotPermitted, match, lambda: record(match, move(2, "throw", "QH"), users[0])
    )
    record(match, move(2, "throw", "QH"), users[2])
    record(match, move(3, "throw", "JH"), SYSTEM)
    assert [e[0] for e in stored(match)].count("move_played") == 5
    assert_log_intact(match)


def test_a_table_match_is_started_by_its_score_keeper_or_a_director_only(world: Any) -> None:
    match = table_match(world, {"deal_cap": 1})
    users = seat_users(match)
    for actor in (users[0], AnonymousUser()):
        refused_writes_nothing(
            NotPermitted, match, lambda a=actor: append(match, "match_started", {}, a)
        )
    append(match, "match_started", {"first_dealer": 0}, world.scorekeeper)
    assert match_state(match).status == "in_progress"


def test_a_table_device_resends_after_a_lost_connection_without_doubling_or_overwriting(
    world: Any,
) -> None:
    match = started_table(world)  # seq 2: match_started, deal_started
    users = seat_users(match)
    keeper = world.scorekeeper
    bid = {"seat": 0, "action": "bid", "value": 9, "floor": ["2S", "3H", "4D", "5C"]}
    opening = move(0, "capture", "9C", "4D", "5C")

    def send(recorded: dict, actor: Any, key: str, seq: int) -> Any:
        return match_append_event(
            match=match,
            expected_seq=seq,
            kind="move_played",
            payload={"move": recorded},
            actor=actor,
            idempotency_key=key,
        )

    first = send(bid, keeper, "keeper-1", 2)  # written; the answer is lost
    send(opening, users[0], "seat0-1", 3)  # the bidder's own device records the opening
    # the score-keeper's device resends what it had, in order: the bid is answered as first
    again = send(bid, keeper, "keeper-1", 2)
    assert again.replayed and again.events == first.events and again.last_seq == 3
    # its next card, recorded against the head it knew, is a conflict, not an overwrite
    error = refused_writes_nothing(
        StaleSequence,
        match,
        lambda: send(move(0, "capture", "9D", "4D", "5C"), keeper, "keeper-2", 3),
    )
    assert (error.code, error.current_seq) == ("stale_expected_seq", 4)
    send(move(1, "throw", "KH"), keeper, "keeper-2", 4)
    assert [p["move"]["action"] for k, p, _ in stored(match) if k == "move_played"] == [
        "bid",
        "capture",
        "throw",
    ]
    assert_log_intact(match)
