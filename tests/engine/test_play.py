"""play(deal, move): the canonical move and the position after it, from one validation."""

import copy
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import seep_core as sc
from tests.engine.helpers import build, deal, examples, throw
from tests.engine.test_errors import JUNK
from tests.engine.test_properties import RULES


def scrambled(move: dict, rnd: random.Random) -> dict:
    """Return ``move`` in another accepted form: keys reordered, ``take`` shuffled."""
    out = {k: copy.deepcopy(move[k]) for k in rnd.sample(list(move), len(move))}
    if "take" in out:
        rnd.shuffle(out["take"])
    return out


class TestPlay:
    @examples(40, shrink=False)
    @given(
        deck=st.permutations(sc.ordered_deck()),
        dealer=st.integers(0, 3),
        rules=RULES,
        seed=st.integers(0, 2**32),
    )
    def test_play_gives_what_canonical_move_and_apply_give(self, deck, dealer, rules, seed):
        rnd = random.Random(seed)
        d = sc.new_deal(dealer, deck, rules)
        while legal := sc.legal_moves(d):
            move = scrambled(rnd.choice(legal), rnd)
            before, sent = d.to_dict(), copy.deepcopy(move)
            canonical, after = sc.play(d, move)
            assert canonical == sc.canonical_move(d, move)
            assert canonical in legal
            assert after == sc.apply(d, move)
            assert d.to_dict() == before and move == sent, "play changed its arguments"
            d = after
        assert d.phase in ("over", "redealt")

    def test_a_build_comes_back_with_the_joined_single_cards_listed(self):
        # seat 0 builds 9 with 4H on 5D; the loose 9S joins the house of 9 (H4)
        d = deal(hands=[["4H", "9C", "2S"], ["3H"], [], []], loose=["5D", "9S", "KH"])
        canonical, after = sc.play(d, build(0, "4H", 9, "5D"))
        assert canonical == build(0, "4H", 9, "5D", "9S")
        assert after.to_dict()["floor"] == {
            "loose": ["KH"],
            "houses": [{"value": 9, "sets": [["9S"], ["4H", "5D"]], "owners": [0]}],
        }

    @pytest.mark.parametrize(
        ("move", "error", "code"),
        [
            (throw(0, "2S"), sc.IllegalMove, "must_capture"),
            (throw(1, "3H"), sc.IllegalMove, "not_your_turn"),
            (throw(0, "QS"), sc.MalformedMove, "card_not_in_hand"),
            (build(0, "4H", 9, "KH"), sc.IllegalMove, "build_not_sets"),
        ],
    )
    def test_play_refuses_what_apply_refuses(self, move, error, code):
        d = deal(hands=[["4H", "9C", "2S"], ["3H"], [], []], loose=["5D", "2D", "KH"])
        with pytest.raises(error) as played:
            sc.play(d, move)
        with pytest.raises(error) as applied:
            sc.apply(d, move)
        assert played.value.code == applied.value.code == code
        assert played.value.rule == applied.value.rule

    @examples(100)
    @given(move=JUNK)
    def test_junk_moves_raise_the_same_value_error_from_play_and_apply(self, move):
        d = deal(hands=[["4H", "9C", "2S"], ["3H"], [], []], loose=["5D", "2D", "KH"])
        try:
            expected = sc.apply(d, move)
        except sc.SeepError as refusal:
            with pytest.raises(type(refusal)) as played:
                sc.play(d, move)
            assert (played.value.code, played.value.rule) == (refusal.code, refusal.rule)
        else:
            canonical, after = sc.play(d, move)
            assert after == expected
            assert json.loads(json.dumps(canonical)) == canonical
