"""Refusals: every one is a ValueError; malformed moves and inconsistent positions are named."""

import contextlib
import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

import seep_core as sc
from tests.engine.helpers import examples, house, position

#: seat 0 to play: 4H may build 9 with 5D (keeping 9C); a house of 11 belongs to seat 1
PLAY_POSITION = position(
    hands=[["4H", "9C", "2S"], ["JC", "3H"], ["6C"], ["8D"]],
    loose=["5D", "KH"],
    houses=[house(11, ["5S", "6S"], owners=[1])],
)
PLAY = sc.Deal.from_dict(PLAY_POSITION)
BID = sc.new_deal(3, sc.ordered_deck())
OVER = sc.Deal.from_dict(position(phase="over", to_play=None, piles=[["AS"], []], last_capture=0))


class TestErrorClasses:
    @pytest.mark.parametrize(
        "error",
        [
            sc.SeepError,
            sc.IllegalMove,
            sc.MalformedMove,
            sc.InvalidPosition,
            sc.InvalidRules,
            sc.InvalidFormat,
        ],
    )
    def test_every_refusal_is_a_value_error(self, error):
        assert issubclass(error, ValueError)
        assert issubclass(error, sc.SeepError)

    def test_an_illegal_move_carries_its_rule_a_code_and_a_sentence(self):
        with pytest.raises(sc.IllegalMove) as info:
            sc.apply(PLAY, {"seat": 0, "action": "build", "card": "2S", "value": 9, "take": ["KH"]})
        assert info.value.rule == "H5"
        assert info.value.code == "build_not_sets"
        assert "2S" in info.value.message
        assert str(info.value) == info.value.message

    def test_moves_after_the_deal_is_over_are_refused(self):
        with pytest.raises(sc.IllegalMove) as info:
            sc.apply(OVER, {"seat": 0, "action": "throw", "card": "AS"})
        assert info.value.rule == "E1"
        assert sc.legal_moves(OVER) == []


MALFORMED = [
    # (move, code)
    (None, "bad_move"),
    ([], "bad_move"),
    ("throw 4H", "bad_move"),
    (7, "bad_move"),
    ({}, "unknown_action"),
    ({"seat": 0, "action": "discard", "card": "4H"}, "unknown_action"),
    ({"seat": 0, "action": None, "card": "4H"}, "unknown_action"),
    ({"seat": 0, "action": ["throw"], "card": "4H"}, "unknown_action"),
    ({"seat": 0, "action": "THROW", "card": "4H"}, "unknown_action"),
    ({"seat": 0, "action": "throw", "card": "1H"}, "unknown_card"),
    ({"seat": 0, "action": "throw", "card": "4h"}, "unknown_card"),
    ({"seat": 0, "action": "throw", "card": 4}, "unknown_card"),
    ({"seat": 0, "action": "throw", "card": None}, "unknown_card"),
    ({"seat": 0, "action": "throw"}, "unknown_card"),
    ({"seat": 0, "action": "throw", "card": "H11"}, "unknown_card"),
    ({"seat": 0, "action": "throw", "card": "JC"}, "card_not_in_hand"),
    ({"seat": 0, "action": "throw", "card": "5D"}, "card_not_in_hand"),
    ({"seat": 0, "action": "capture", "card": "4H"}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": "5D"}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": None}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": {"5D": 1}}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["XX"]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": [5]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": [None]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": [["5D"]]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["5D", "5D"]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["H11", "H11"]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["H8"]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["H14"]}, "bad_take"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["4D"]}, "not_on_floor"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["5S"]}, "not_on_floor"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": ["H9"]}, "not_on_floor"),
    (
        {"seat": 0, "action": "build", "card": "4H", "value": 9, "take": ["5D"], "x": 1},
        "unexpected_field",
    ),
    ({"seat": 0, "action": "throw", "card": "4H", "take": []}, "unexpected_field"),
    ({"seat": 0, "action": "capture", "card": "4H", "take": [], "value": 9}, "unexpected_field"),
    ({"seat": 0, "action": "build", "card": "4H", "value": "9", "take": ["5D"]}, "bad_value"),
    ({"seat": 0, "action": "build", "card": "4H", "value": 9.0, "take": ["5D"]}, "bad_value"),
    ({"seat": 0, "action": "build", "card": "4H", "value": True, "take": ["5D"]}, "bad_value"),
    ({"seat": 0, "action": "build", "card": "4H", "take": ["5D"]}, "bad_value"),
    ({"seat": "0", "action": "throw", "card": "2S"}, "bad_seat"),
    ({"seat": None, "action": "throw", "card": "2S"}, "bad_seat"),
    ({"action": "throw", "card": "2S"}, "bad_seat"),
    ({"seat": 4, "action": "throw", "card": "2S"}, "bad_seat"),
    ({"seat": -1, "action": "throw", "card": "2S"}, "bad_seat"),
    ({"seat": 0.0, "action": "throw", "card": "2S"}, "bad_seat"),
    ({"seat": False, "action": "throw", "card": "2S"}, "bad_seat"),
    ({"seat": True, "action": "throw", "card": "2S"}, "bad_seat"),
]


class TestMalformedMoves:
    @pytest.mark.parametrize(("move", "code"), MALFORMED, ids=[str(m) for m, _ in MALFORMED])
    def test_a_malformed_move_is_refused_with_a_stable_code(self, move, code):
        before = copy.deepcopy(move)
        with pytest.raises(sc.MalformedMove) as info:
            sc.apply(PLAY, move)
        assert info.value.code == code
        assert info.value.message
        assert move == before  # the move is not changed either
        with pytest.raises(sc.MalformedMove):
            sc.canonical_move(PLAY, move)

    def test_the_well_formed_version_of_those_moves_is_accepted(self):
        sc.apply(PLAY, {"seat": 0, "action": "build", "card": "4H", "value": 9, "take": ["5D"]})
        sc.apply(PLAY, {"seat": 0, "action": "throw", "card": "2S"})

    @pytest.mark.parametrize(
        "move",
        [
            {"seat": 0, "action": "bid", "value": "9"},
            {"seat": 0, "action": "bid"},
            {"seat": 0, "action": "bid", "value": 9, "card": "9S"},
            {"seat": 0, "action": "redeal", "value": 9},
        ],
    )
    def test_a_malformed_bid_is_refused(self, move):
        with pytest.raises(sc.MalformedMove):
            sc.apply(BID, move)


def _bad_positions():
    def with_(**changes):
        pos = copy.deepcopy(PLAY_POSITION)
        for path, value in changes.items():
            target = pos
            keys = path.split("__")
            for key in keys[:-1]:
                target = target[int(key)] if isinstance(target, list) else target[key]
            last = keys[-1]
            if isinstance(target, list):
                target[int(last)] = value
            else:
                target[last] = value
        return pos

    h11 = PLAY_POSITION["floor"]["houses"][0]
    cases = [
        ("a card twice", with_(floor__loose=["5D", "KH", "4H"]), "duplicate_card", "4H"),
        ("a card twice in a pile", with_(piles=[["KH"], []]), "duplicate_card", "KH"),
        (
            "a card twice in a house",
            with_(floor__houses=[{**h11, "sets": [["5S", "6S"], ["5S", "6S"]]}]),
            "duplicate_card",
            "5S",
        ),
        ("a house of 8", with_(floor__houses=[{**h11, "value": 8}]), "bad_house", "8"),
        ("a house of 14", with_(floor__houses=[{**h11, "value": 14}]), "bad_house", "14"),
        ("a house value as text", with_(floor__houses=[{**h11, "value": "11"}]), "bad_house", "11"),
        (
            "sets not summing",
            with_(floor__houses=[{**h11, "sets": [["5S", "7S"]]}]),
            "bad_house",
            "sum",
        ),
        (
            "an empty set",
            with_(floor__houses=[{**h11, "sets": [["5S", "6S"], []]}]),
            "bad_house",
            "sum",
        ),
        ("no sets", with_(floor__houses=[{**h11, "sets": []}]), "bad_house", "sets"),
        (
            "two houses of one value",
            with_(floor__houses=[h11, {**h11, "sets": [["4S", "7S"]]}]),
            "duplicate_house",
            "two houses",
        ),
        ("an owner outside 0-3", with_(floor__houses=[{**h11, "owners": [4]}]), "bad_seat", "4"),
        ("an owner -1", with_(floor__houses=[{**h11, "owners": [-1]}]), "bad_seat", "-1"),
        ("a bool owner", with_(floor__houses=[{**h11, "owners": [True]}]), "bad_seat", "True"),
        ("no owner", with_(floor__houses=[{**h11, "owners": []}]), "bad_house", "owner"),
        (
            "an owner without a key",
            with_(floor__houses=[{**h11, "owners": [0]}]),
            "owner_without_key",
            "seat 0",
        ),
        (
            "a loose card beside a house of its value",
            with_(floor__loose=["5D", "KH", "JD"]),
            "loose_beside_house",
            "11",
        ),
        ("an unknown card", with_(hands__0=["4H", "9C", "ZZ"]), "unknown_card", "ZZ"),
        (
            "a missing key",
            {k: v for k, v in PLAY_POSITION.items() if k != "plays"},
            "bad_shape",
            "plays",
        ),
        ("an unknown key", with_(extra=1), "bad_shape", "extra"),
        ("an unknown phase", with_(phase="playing"), "bad_shape", "playing"),
        ("a bid of 8", with_(bid=8), "bad_bid", "8"),
        ("a seat 4 to play", with_(to_play=4), "bad_seat", "4"),
        ("a dealer that is text", with_(dealer="3"), "bad_seat", "3"),
        ("three hands", with_(hands=[["4H"], ["JC"], ["6C"]]), "bad_shape", "four"),
        ("a hand that is text", with_(hands__1="JC"), "bad_shape", "hand 1"),
        ("a stock in phase play", with_(stock=["7D"]), "inconsistent_position", "stock"),
        (
            "cards in hand in phase over",
            with_(phase="over", to_play=None),
            "inconsistent_position",
            "over",
        ),
        ("a negative sweep", with_(sweeps=[[-50], []]), "bad_shape", "sweep"),
        ("a bool sweep", with_(sweeps=[[True], []]), "bad_shape", "sweep"),
        ("a last capture of 2", with_(last_capture=2), "bad_shape", "last_capture"),
        ("a bool last capture", with_(last_capture=True), "bad_shape", "last_capture"),
        ("53 plays", with_(plays=53), "bad_shape", "plays"),
        (
            "a seat without cards to play",
            with_(to_play=2, hands__2=[]),
            "inconsistent_position",
            "to play",
        ),
        ("a floor without houses", with_(floor={"loose": []}), "bad_shape", "floor"),
        (
            "an owner named twice",
            with_(floor__houses=[{**h11, "owners": [1, 1]}]),
            "bad_house",
            "twice",
        ),
        (
            "a pile before the opening play",
            with_(phase="opening", plays=0, piles=[["AS"], []]),
            "inconsistent_position",
            "opening",
        ),
        (
            "loose cards left at the end although someone captured",
            with_(
                phase="over", to_play=None, hands=[[], [], [], []], floor__houses=[], last_capture=0
            ),
            "inconsistent_position",
            "last capturer",
        ),
        ("a position that is a list", [], "bad_shape", "object"),
    ]
    return [pytest.param(pos, code, word, id=name) for name, pos, code, word in cases]


class TestInvalidPositions:
    def test_the_base_position_is_valid(self):
        assert sc.Deal.from_dict(PLAY_POSITION).to_dict()["floor"] == PLAY_POSITION["floor"]

    @pytest.mark.parametrize(("pos", "code", "word"), _bad_positions())
    def test_an_inconsistent_position_is_refused_naming_the_problem(self, pos, code, word):
        with pytest.raises(sc.InvalidPosition) as info:
            sc.Deal.from_dict(pos)
        assert info.value.code == code
        assert word in info.value.message

    def test_replaying_something_that_is_not_a_list_of_moves_is_malformed(self):
        with pytest.raises(sc.MalformedMove):
            sc.replay(PLAY, None)

    def test_raising_a_house_above_13_is_refused_under_h7(self):
        deal = sc.Deal.from_dict(
            position(
                hands=[["2H", "KC"], ["KD", "JC"], ["6C"], ["8D"]],
                houses=[house(13, ["5S", "8S"], owners=[1])],
            )
        )
        with pytest.raises(sc.IllegalMove) as info:
            sc.apply(
                deal, {"seat": 0, "action": "build", "card": "2H", "value": 15, "take": ["H13"]}
            )
        assert info.value.rule == "H7"

    @pytest.mark.parametrize("last_capture", [1.0, 0.0, "1", [0]])
    def test_a_last_capture_that_is_not_the_integer_0_or_1_is_refused(self, last_capture):
        with pytest.raises(sc.InvalidPosition):
            sc.Deal.from_dict({**PLAY_POSITION, "last_capture": last_capture})


# --- junk: only ValueError subclasses may come out ---------------------------------------

CODES = sc.ordered_deck()
KEYS = [
    "seat",
    "action",
    "card",
    "value",
    "take",
    "dealer",
    "bid",
    "phase",
    "to_play",
    "plays",
    "hands",
    "stock",
    "floor",
    "loose",
    "houses",
    "sets",
    "owners",
    "piles",
    "sweeps",
    "last_capture",
    "rules",
    "sweep",
    "minimum",
    "bazzis",
    "first_to",
    "deal_cap",
    "draws",
    "max_houses",
    "auto_join_sets",
    "bazzi_lead",
    "first_sweep",
    "last_sweep",
]
WORDS = ["H9", "H11", "H13", "H8", "bid", "play", "throw", "capture", "build", "redeal", "over"]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.integers()
    | st.sampled_from(CODES + WORDS)
    | st.text(max_size=4)
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=3), inner, max_size=6)
    ),
    max_leaves=25,
)
DEALS = [BID, PLAY, OVER, sc.apply(BID, {"seat": 0, "action": "redeal"})]


def _mutations(data, value):
    """Return ``value`` with one random place (recursively) replaced by junk."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: _mutations(data, value[key])}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        return [*value[:i], _mutations(data, value[i]), *value[i + 1 :]]
    return data.draw(JUNK)


def only_value_errors(call, *args):
    # KeyError, TypeError, IndexError, AssertionError... propagate and fail the test
    with contextlib.suppress(ValueError):
        call(*args)


class TestJunk:
    @examples(150)
    @given(junk=JUNK, deal=st.sampled_from(DEALS))
    def test_junk_moves_raise_only_value_errors(self, junk, deal):
        only_value_errors(sc.apply, deal, junk)
        only_value_errors(sc.canonical_move, deal, junk)
        only_value_errors(sc.replay, deal, [junk])

    @examples(150)
    @given(data=st.data())
    def test_moves_with_one_junk_field_raise_only_value_errors(self, data):
        base = data.draw(st.sampled_from(sc.legal_moves(PLAY) + sc.legal_moves(BID)))
        deal = PLAY if base["action"] not in ("bid", "redeal") else BID
        only_value_errors(sc.apply, deal, _mutations(data, base))

    @examples(150)
    @given(junk=JUNK)
    def test_junk_positions_raise_only_value_errors(self, junk):
        only_value_errors(sc.Deal.from_dict, junk)

    @examples(200)
    @given(data=st.data())
    def test_positions_with_one_junk_place_raise_only_value_errors(self, data):
        base = data.draw(st.sampled_from([PLAY_POSITION, BID.to_dict(), OVER.to_dict()]))
        pos = _mutations(data, base)
        try:
            d = sc.Deal.from_dict(pos)
        except ValueError:
            return
        # whatever from_dict accepts is a position the rest of the engine can work with
        for move in sc.legal_moves(d):
            sc.apply(d, move)
        for seat in (0, 1, 2, 3, None):
            sc.view(d, seat)
        assert sc.Deal.from_dict(d.to_dict()) == d

    @examples(200)
    @given(junk=JUNK)
    def test_junk_seats_for_a_view_raise_only_value_errors(self, junk):
        only_value_errors(sc.view, PLAY, junk)

    @examples(150)
    @given(junk=JUNK, rules=st.sampled_from([None, sc.Rules(minimum=0)]))
    def test_junk_ledgers_raise_only_value_errors(self, junk, rules):
        only_value_errors(sc.ledger, junk, rules)

    @examples(150)
    @given(dealer=JUNK, ahead=JUNK, bazzi=JUNK)
    def test_junk_for_the_next_dealer_raises_only_value_errors(self, dealer, ahead, bazzi):
        only_value_errors(sc.next_dealer, dealer, ahead, bazzi)

    @examples(150)
    @given(junk=JUNK)
    def test_junk_rules_and_match_formats_raise_only_value_errors(self, junk):
        only_value_errors(sc.Rules.from_dict, junk)
        only_value_errors(sc.MatchFormat.from_dict, junk)
        only_value_errors(sc.MatchProgress.from_dict, junk)

    @examples(200)
    @given(data=st.data())
    def test_match_data_with_one_junk_place_raises_only_value_errors(self, data):
        progress = sc.start_match(1, sc.MatchFormat(bazzis=2, deal_cap=5)).after_deal([60, 40])
        only_value_errors(sc.MatchProgress.from_dict, _mutations(data, progress.to_dict()))
        only_value_errors(sc.Rules.from_dict, _mutations(data, sc.Rules().to_dict()))
        only_value_errors(sc.MatchFormat.from_dict, _mutations(data, sc.MatchFormat().to_dict()))
        only_value_errors(progress.after_deal, data.draw(JUNK))
