"""Recorded deals (tests/data/deals/*.json) replayed from their decks by one parametrized test.

See tests/data/deals/generate.py for how they were made and how to regenerate them.
"""

import json
from pathlib import Path

import pytest

import seep_core as sc

DEALS = sorted((Path(__file__).resolve().parents[1] / "data" / "deals").glob("*.json"))
KEYS = {"name", "description", "rules", "dealer", "deck", "moves", "expected"}


def test_there_are_recorded_deals_of_both_kinds():
    names = [p.stem for p in DEALS]
    assert len(names) >= 10
    assert any(n.startswith("hand-") for n in names)
    assert any(n.startswith("random-") for n in names)


@pytest.mark.parametrize("path", DEALS, ids=[p.stem for p in DEALS])
def test_a_recorded_deal_replays_to_its_expected_score(path):
    record = json.loads(path.read_text())
    assert set(record) <= KEYS
    assert KEYS - {"rules"} <= set(record)
    assert record["name"] == path.stem
    assert sorted(record["deck"]) == sorted(sc.ordered_deck())
    rules = sc.Rules.from_dict(record.get("rules"))
    start = sc.new_deal(record["dealer"], record["deck"], rules)
    end = sc.replay(start, record["moves"])
    assert end.phase == record["expected"]["phase"]
    assert sc.score(end) == record["expected"]["score"]
    assert sc.legal_moves(end) == []
    # the same deal, move by move, through the JSON form of every position
    deal = start
    for move in record["moves"]:
        assert sc.canonical_move(deal, move) in sc.legal_moves(deal)
        deal = sc.Deal.from_dict(json.loads(json.dumps(sc.apply(deal, move).to_dict())))
    assert deal == end
