"""Write the recorded deals of this folder (replayed by tests/engine/test_recorded_deals.py).

    cd /work/main && .venv/bin/python tests/data/deals/generate.py

Two kinds of recording:

* ``random-*``: a shuffled deck (seeded) played to its end by choosing uniformly among
  ``legal_moves`` with a seeded generator. Their expected score is the engine's own result
  when they were recorded: they are regression recordings. Each is cross-checked here
  (points recounted from the piles with a table written out below, sweeps recounted from
  the positions) before it is written.
* ``table/table-*``: hand-built deals as a table records them (no deck; the bid lists the
  floor), one with an injected breach of a promise; their expected breaches are written here.
* ``hand-*``: decks and plays designed by hand to exercise one rule each (opening sweep,
  last-play sweep, breaking and merging, V4, redeal, V1). Their plays are listed below
  card by card and the deck is laid out from them in the dealing order of S4. Their
  expected score was worked out by hand from the cards each team captures (the reasoning
  is in each description) and is written here literally: the engine's result is never
  copied into them.

Running the script rewrites every file; a hand-built deal whose plays the engine refuses,
or whose result differs from the expectation written here, is reported and still written,
so that the test shows the disagreement.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

import seep_core as sc  # noqa: E402

T, C, B = "throw", "capture", "build"

# --- laying out a deck from the plays ------------------------------------------------------


def compile_deal(
    dealer: int, opening_hand: list[str], floor: list[str], plays: list[tuple[Any, ...]]
) -> tuple[list[str], list[dict[str, Any]]]:
    """Return the deck and moves of a deal whose plays are given in order.

    ``plays`` starts with ``("bid", value)`` or ``("redeal",)``, then one entry per card
    play: ``(card, "throw")``, ``(card, "capture", take)`` or ``(card, "build", value,
    take)``. Seats follow from the order of play (S1). The bidder is dealt
    ``opening_hand`` and the floor ``floor``; the stock is laid out so that every seat is
    dealt exactly the cards it plays, in packets of four (S4).
    """
    bidder = (dealer + 1) % 4
    played: dict[int, list[str]] = {seat: [] for seat in range(4)}
    moves: list[dict[str, Any]] = []
    card_plays = 0
    for play in plays:
        if play[0] == "bid":
            moves.append({"seat": bidder, "action": "bid", "value": play[1]})
            continue
        if play[0] == "redeal":
            moves.append({"seat": bidder, "action": "redeal"})
            continue
        seat = (bidder + card_plays) % 4
        card_plays += 1
        card, action = play[0], play[1]
        move: dict[str, Any] = {"seat": seat, "action": action, "card": card}
        if action == C:
            move["take"] = list(play[2])
        elif action == B:
            move["value"] = play[2]
            move["take"] = list(play[3])
        moves.append(move)
        played[seat].append(card)
    if card_plays == 0:  # a redeal: the rest of the deck in card order
        rest = [c for c in sc.ordered_deck() if c not in opening_hand + floor]
        return [*opening_hand, *floor, *rest], moves
    queues = {s: list(played[s]) for s in range(4)}
    queues[bidder] = [c for c in played[bidder] if c not in opening_hand]
    stock: list[str] = []
    for offset in (0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3):
        seat = (bidder + offset) % 4
        stock += queues[seat][:4]
        queues[seat] = queues[seat][4:]
    deck = [*opening_hand, *floor, *stock]
    if len(deck) != 52 or len(set(deck)) != 52 or any(queues.values()):
        raise ValueError("the plays do not use each of the 52 cards once")
    return deck, moves


def score(points: list[int], sweeps: list[list[int]]) -> dict[str, Any]:
    totals = [p + sum(s) for p, s in zip(points, sweeps, strict=True)]
    return {"points": points, "sweeps": sweeps, "total": totals}


# --- the hand-built deals ------------------------------------------------------------------

# fmt: off

OPENING_AND_LAST_PLAY_SWEEP = dict(
    name="hand-opening-sweep-and-last-play-sweep",
    description=(
        "Dealer 3, bidder 0 bids 13 and KC takes 6S+7S and 6H+7H: an opening sweep worth 25 "
        "(W2) and 13 points (6S, 7S) for team 0. Seat 1 throws 4D, seat 2 throws KH, seat 3 "
        "builds 13 with 9C+4D; the loose KH joins it (H4). That house stays on the floor as "
        "an anchor, so no capture in between empties the floor: pairs of equal cards follow "
        "(one seat throws, the next captures). Team 1 captures AS AH 2S 2H 3S 3H 5S 5H 8S 8H "
        "10S 10H JC JD QC QD 6C 6D (30 points); seat 1 adds 9D+4H and then KS to its "
        "partner's house (free, H8). Team 0 captures AC AD and then 2C 2D 3C 3D 4S 4C 5C 5D "
        "7C 7D 8C 8D 9S 9H 10C 10D JS JH QS QH (2 + 42 = 44 points). On the last play seat 3 "
        "takes its house (4D 9C KH 4H 9D KS) with KD: KS is 13 points, and emptying the "
        "floor on the last play is a sweep worth nothing, not recorded (W2). "
        "Points 13 + 44 = 57 and 30 + 13 = 43."
    ),
    rules=None,
    dealer=3,
    opening_hand=["KC", "AH", "3H", "8H"],
    floor=["6S", "7S", "6H", "7H"],
    plays=[
        ("bid", 13),
        ("KC", C, ["6S", "6H", "7S", "7H"]),
        ("4D", T),
        ("KH", T),
        ("9C", B, 13, ["4D"]),
        ("AH", T),
        ("AS", C, ["AH"]),
        ("2H", T),
        ("2S", C, ["2H"]),
        ("3H", T),
        ("3S", C, ["3H"]),
        ("5H", T),
        ("5S", C, ["5H"]),
        ("8H", T),
        ("8S", C, ["8H"]),
        ("10H", T),
        ("10S", C, ["10H"]),
        ("JD", T),
        ("JC", C, ["JD"]),
        ("QD", T),
        ("QC", C, ["QD"]),
        ("4H", T),
        ("9D", B, 13, ["4H"]),
        ("6D", T),
        ("6C", C, ["6D"]),
        ("AD", T),
        ("KS", B, 13, []),
        ("AC", C, ["AD"]),
        ("2D", T),
        ("2C", C, ["2D"]),
        ("3D", T),
        ("3C", C, ["3D"]),
        ("4C", T),
        ("4S", C, ["4C"]),
        ("5D", T),
        ("5C", C, ["5D"]),
        ("7D", T),
        ("7C", C, ["7D"]),
        ("8D", T),
        ("8C", C, ["8D"]),
        ("9H", T),
        ("9S", C, ["9H"]),
        ("10C", T),
        ("10D", C, ["10C"]),
        ("JH", T),
        ("JS", C, ["JH"]),
        ("QH", T),
        ("QS", C, ["QH"]),
        ("KD", C, ["H13"]),
    ],
    expected={"score": score([57, 43], [[25], []]), "phase": "over"},
)

BREAK_AND_MERGE = dict(
    name="hand-break-and-merge",
    description=(
        "Dealer 3, bidder 0: KC takes 6S+7S and 6H+7H (opening sweep 25, 13 points). Seat 2 "
        "builds 9 with 5C+4D, seat 0 builds 13 with JD+2D. Seat 1 breaks seat 2's 9 with 2S "
        "to 11 (H7: seat 1 holds JC; seat 2's duty ends). Seat 2 raises that 11 with 2H to "
        "13 where its partner's house of 13 lies: the two merge into one cemented house owned "
        "by seats 0 and 2 (H7 + H3). Then pairs of equal cards and two triples (two throws "
        "captured together): team 0 takes AS AH 9S 9H 3C 3D JS JC (22), 2C 5H 7D go to team "
        "1 (0), team 1 takes 10C 10D QS QH 8C 8D 6C 6D 3S 3H AC AD (23), team 0 takes 4H 7C "
        "JH (0) and 8S 8H 9C 9D 10S 10H 4S 4C QC QD (22). Seat 3 throws 5D, seat 0 takes the "
        "merged house with KS (2D JD 2H 2S 4D 5C KS: 15 points), seat 1 takes 5D with 5S (5 "
        "points) and empties the floor: a sweep worth 50. Seat 2 throws KH and seat 3 takes "
        "it with KD on the last play (a sweep worth nothing). "
        "Points 13 + 22 + 22 + 15 = 72 and 23 + 5 = 28."
    ),
    rules=None,
    dealer=3,
    opening_hand=["KC", "JD", "AS", "3C"],
    floor=["6S", "7S", "6H", "7H"],
    plays=[
        ("bid", 13),
        ("KC", C, ["6S", "6H", "7S", "7H"]),
        ("4D", T),
        ("5C", B, 9, ["4D"]),
        ("2D", T),
        ("JD", B, 13, ["2D"]),
        ("2S", B, 11, ["H9"]),
        ("2H", B, 13, ["H11"]),
        ("AH", T),
        ("AS", C, ["AH"]),
        ("9S", T),
        ("9H", C, ["9S"]),
        ("3D", T),
        ("3C", C, ["3D"]),
        ("JC", T),
        ("JS", C, ["JC"]),
        ("2C", T),
        ("5H", T),
        ("7D", C, ["2C", "5H"]),
        ("10C", T),
        ("10D", C, ["10C"]),
        ("QH", T),
        ("QS", C, ["QH"]),
        ("8D", T),
        ("8C", C, ["8D"]),
        ("6D", T),
        ("6C", C, ["6D"]),
        ("3H", T),
        ("3S", C, ["3H"]),
        ("AD", T),
        ("AC", C, ["AD"]),
        ("4H", T),
        ("7C", T),
        ("JH", C, ["4H", "7C"]),
        ("8H", T),
        ("8S", C, ["8H"]),
        ("9D", T),
        ("9C", C, ["9D"]),
        ("10H", T),
        ("10S", C, ["10H"]),
        ("4C", T),
        ("4S", C, ["4C"]),
        ("QD", T),
        ("QC", C, ["QD"]),
        ("5D", T),
        ("KS", C, ["H13"]),
        ("5S", C, ["5D"]),
        ("KH", T),
        ("KD", C, ["KH"]),
    ],
    expected={"score": score([72, 28], [[25], [50]]), "phase": "over"},
)

AUTO_JOIN = dict(
    name="hand-v4-auto-join",
    description=(
        "Rules with auto_join_sets (V4). Dealer 1, bidder 2 bids 11 and builds 11 with 5H+6C; "
        "the loose set 10D+AC must join it (V4), 2H stays and seat 3 takes it with 2D. Seat 1 "
        "builds 9 with 5C+4D; seats 2 and 3 throw 4C and 6D; seat 0 breaks the 9 with AH to "
        "10 and the loose set 4C+6D joins the raised house, which only V4 allows (H7 refuses "
        "it). Seat 1 takes that house with 10C (AH: 1 point). The house of 11 stays as an "
        "anchor; seat 2 adds JH and seat 0 adds JD and JC to it. Pairs of equal cards: team "
        "1 takes AS AD 2S 2C 3S 3H 4S 4H 5S 5D 6S 6H 7S 7H 8S 8H 8D 8C 9D 9C (49 points with "
        "AH), team 0 takes KS KH 9S 9H 10S 10H 3C 3D QC QD 7C 7D (32). Seat 2 takes its house "
        "(5H 6C 10D AC JH JD JC) with JS: 18 points. Seat 3 then takes QH with QS (12 points) "
        "and empties the floor: a sweep worth 50. Seat 0 throws KD and seat 1 takes it with "
        "KC on the last play (a sweep worth nothing). "
        "Points 32 + 18 = 50 and 1 + 2 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 12 = 50."
    ),
    rules=sc.Rules(auto_join_sets=True).to_dict(),
    dealer=1,
    opening_hand=["5H", "JS", "AD", "3H"],
    floor=["6C", "10D", "AC", "2H"],
    plays=[
        ("bid", 11),
        ("5H", B, 11, ["6C", "10D", "AC"]),
        ("2D", C, ["2H"]),
        ("4D", T),
        ("5C", B, 9, ["4D"]),
        ("4C", T),
        ("6D", T),
        ("AH", B, 10, ["H9", "4C", "6D"]),
        ("10C", C, ["H10"]),
        ("AD", T),
        ("AS", C, ["AD"]),
        ("2C", T),
        ("2S", C, ["2C"]),
        ("3H", T),
        ("3S", C, ["3H"]),
        ("4H", T),
        ("4S", C, ["4H"]),
        ("JH", B, 11, []),
        ("KH", T),
        ("KS", C, ["KH"]),
        ("9S", T),
        ("9H", C, ["9S"]),
        ("10S", T),
        ("10H", C, ["10S"]),
        ("3D", T),
        ("3C", C, ["3D"]),
        ("5D", T),
        ("JD", B, 11, []),
        ("5S", C, ["5D"]),
        ("6H", T),
        ("6S", C, ["6H"]),
        ("7H", T),
        ("7S", C, ["7H"]),
        ("8H", T),
        ("8S", C, ["8H"]),
        ("8C", T),
        ("8D", C, ["8C"]),
        ("9C", T),
        ("9D", C, ["9C"]),
        ("JC", B, 11, []),
        ("QD", T),
        ("QC", C, ["QD"]),
        ("7D", T),
        ("7C", C, ["7D"]),
        ("QH", T),
        ("JS", C, ["H11"]),
        ("QS", C, ["QH"]),
        ("KD", T),
        ("KC", C, ["KD"]),
    ],
    expected={"score": score([50, 50], [[], [50]]), "phase": "over"},
)

SWEEP_VALUES = dict(
    OPENING_AND_LAST_PLAY_SWEEP,
    name="hand-v1-sweep-values",
    description=(
        "The deal of hand-opening-sweep-and-last-play-sweep under V1 values first_sweep=10, "
        "last_sweep=20: the same cards are captured (57 and 43 points), the opening sweep "
        "is worth 10 and seat 3's last-play sweep is now worth 20 and recorded."
    ),
    rules=sc.Rules(first_sweep=10, last_sweep=20).to_dict(),
    expected={"score": score([57, 43], [[10], [20]]), "phase": "over"},
)

REDEAL = dict(
    name="hand-redeal",
    description=(
        "Dealer 2: bidder 3 is dealt 8S 8H AD 2C, no card above 8, and claims a redeal (B2). "
        "The deal is thrown in without score."
    ),
    rules=None,
    dealer=2,
    opening_hand=["8S", "8H", "AD", "2C"],
    floor=["KS", "QH", "JD", "10C"],
    plays=[("redeal",)],
    expected={"score": score([0, 0], [[], []]), "phase": "redealt"},
)

# fmt: on

HANDMADE = [OPENING_AND_LAST_PLAY_SWEEP, BREAK_AND_MERGE, AUTO_JOIN, SWEEP_VALUES, REDEAL]

# --- the random deals ----------------------------------------------------------------------

RANDOM = [
    # (seed, dealer, rules)
    (101, 0, None),
    (202, 1, {"auto_join_sets": True}),
    (303, 2, {"max_houses": 2}),
    (404, 3, {"sweep": 30, "first_sweep": 10, "last_sweep": 20, "minimum": 0}),
    (505, 3, None),
    (606, 0, {"auto_join_sets": True, "max_houses": 2}),
]

#: D2 written out again, independently of seep_core, to recount the random deals
POINTS = {f"{r}S": v for v, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                           "J", "Q", "K"], start=1)}  # fmt: skip
POINTS |= {"AH": 1, "AD": 1, "AC": 1, "10D": 6}


def random_deal(seed: int, dealer: int, rules: dict[str, Any] | None) -> dict[str, Any]:
    rnd = random.Random(seed)
    deck = sc.ordered_deck()
    rnd.shuffle(deck)
    deal = sc.new_deal(dealer, deck, sc.Rules.from_dict(rules))
    moves = []
    sweeps_seen: list[list[int]] = [[], []]
    while legal := sc.legal_moves(deal):
        move = rnd.choice(legal)
        before = deal
        deal = sc.apply(deal, move)
        moves.append(move)
        floor = deal.to_dict()["floor"]
        if move["action"] == "capture" and not floor["loose"] and not floor["houses"]:
            if deal.phase == "over":
                worth = deal.rules.last_sweep
            elif before.phase == "opening":
                worth = deal.rules.first_sweep
            else:
                worth = deal.rules.sweep
            if worth:
                sweeps_seen[move["seat"] % 2].append(worth)
    result = sc.score(deal)
    piles = deal.to_dict()["piles"]
    assert result["points"] == [sum(POINTS.get(c, 0) for c in p) for p in piles], seed
    assert result["sweeps"] == sweeps_seen, seed
    name = f"random-{seed}"
    return {
        "name": name,
        "description": f"Random play (seed {seed}, dealer {dealer}): a regression recording.",
        **({"rules": rules} if rules else {}),
        "dealer": dealer,
        "deck": deck,
        "moves": moves,
        "expected": {"score": result, "phase": deal.phase},
    }


def hand_deal(spec: dict[str, Any]) -> dict[str, Any]:
    deck, moves = compile_deal(spec["dealer"], spec["opening_hand"], spec["floor"], spec["plays"])
    out = {
        "name": spec["name"],
        "description": spec["description"],
        **({"rules": spec["rules"]} if spec["rules"] else {}),
        "dealer": spec["dealer"],
        "deck": deck,
        "moves": moves,
        "expected": spec["expected"],
    }
    try:
        deal = sc.replay(sc.new_deal(spec["dealer"], deck, sc.Rules.from_dict(spec["rules"])),
                         moves)  # fmt: skip
        got = {"score": sc.score(deal), "phase": deal.phase}
        if got != spec["expected"]:
            print(f"{spec['name']}: the engine gives {got}, the hand count {spec['expected']}")
    except ValueError as error:
        print(f"{spec['name']}: the engine refuses a play: {error!r}")
    return out


# --- the same deals recorded at a table (tests/data/deals/table/) -----------------------------

#: A table record has no deck: its bid lists the floor cards turned up after it (B3), its redeal
#: the hand shown (B2), and its expected result the broken promises (docs/engine.md "Table
#: mode"). ``swap`` exchanges the cards of plays (numbered from 1, the bid not counted).
TABLE = [
    dict(
        name="table-break-and-merge",
        description=(
            "hand-break-and-merge as a score-keeper records it at a table: the bid of 13 with "
            "the floor 6S 7S 6H 7H, then every card as it is played. Every promise is kept: "
            "seat 0 holds a king for its bid (KC, play 1) and for its house of 13 (KS, play 45), "
            "seat 2 a 9 for its house of 9 (9H, play 11) and a king for raising the 11 to 13 "
            "(KH, play 47), seat 1 a jack for raising the 9 to 11 (JC, play 14). The score is "
            "the digital one."
        ),
        base=BREAK_AND_MERGE,
        swap=[],
        breaches=[],
    ),
    dict(
        name="table-h7-breach",
        description=(
            "table-break-and-merge with two pairs of plays exchanged: at plays 14-15 seat 1 "
            "throws 9D and seat 2 takes it with 9C, at plays 36-37 seat 3 throws JC and seat 0 "
            "takes it with JS (the same team takes the same cards, so the score is unchanged). "
            "Seat 1 raised seat 2's house of 9 to 11 at play 6, which needs a jack in hand (H7), "
            "but now plays no jack in the rest of the deal. The record cannot tell until no jack "
            "is left unseen: JD was played at play 5, JH at 33, JC at 36 and JS at 37, so the "
            "breach of the promise made at play 6 is revealed at play 37."
        ),
        base=BREAK_AND_MERGE,
        swap=[(14, 36), (15, 37)],
        breaches=[
            {
                "seat": 1,
                "value": 11,
                "rule": "H7",
                "play": 6,
                "revealed": 37,
                "reason": "all_seen",
                "message": "seat 1 raised a house to 11 at play 6 (H7: holding a jack) but "
                "played no jack after it: all four jacks had been seen by play 37",
            }
        ],
    ),
    dict(
        name="table-redeal",
        description=(
            "hand-redeal at a table: bidder 3 shows 8S 8H AD 2C, no card above 8, and claims "
            "a redeal (B2). The deal is thrown in without score; the floor is never turned."
        ),
        base=REDEAL,
        swap=[],
        breaches=[],
    ),
]


def table_deal(spec: dict[str, Any]) -> dict[str, Any]:
    base = spec["base"]
    deck, moves = compile_deal(base["dealer"], base["opening_hand"], base["floor"], base["plays"])
    table_moves: list[dict[str, Any]] = []
    order = {c: i for i, c in enumerate(sc.ordered_deck())}
    for move in moves:
        if move["action"] == "bid":
            move = {**move, "floor": sorted(deck[4:8], key=order.__getitem__)}  # noqa: PLW2901
        elif move["action"] == "redeal":
            move = {**move, "hand": sorted(deck[0:4], key=order.__getitem__)}  # noqa: PLW2901
        table_moves.append(move)
    plays = [m for m in table_moves if "card" in m]
    for a, b in spec["swap"]:
        plays[a - 1]["card"], plays[b - 1]["card"] = plays[b - 1]["card"], plays[a - 1]["card"]
        for play in (plays[a - 1], plays[b - 1]):  # a capture takes what the other play threw
            if play["action"] == "capture":
                thrown = plays[a - 2 if play is plays[a - 1] else b - 2]["card"]
                play["take"] = [thrown]
    out = {
        "name": spec["name"],
        "description": spec["description"],
        "mode": "table",
        **({"rules": base["rules"]} if base["rules"] else {}),
        "dealer": base["dealer"],
        "moves": table_moves,
        "expected": {**base["expected"], "breaches": spec["breaches"]},
    }
    try:
        end = sc.replay(sc.new_table_deal(base["dealer"], sc.Rules.from_dict(base["rules"])),
                        table_moves)  # fmt: skip
        got = {"score": sc.score(end), "phase": end.phase,
               "breaches": [b.to_dict() for b in end.breaches]}  # fmt: skip
        if got != out["expected"]:
            print(f"{spec['name']}: the engine gives {got}, the hand count {out['expected']}")
    except ValueError as error:
        print(f"{spec['name']}: the engine refuses a play: {error!r}")
    return out


def main() -> None:
    records = [hand_deal(spec) for spec in HANDMADE]
    records += [random_deal(*args) for args in RANDOM]
    for record in records:
        path = HERE / f"{record['name']}.json"
        path.write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {path.name}: {record['expected']['score']['total']}")
    (HERE / "table").mkdir(exist_ok=True)
    for record in [table_deal(spec) for spec in TABLE]:
        path = HERE / "table" / f"{record['name']}.json"
        path.write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote table/{path.name}: {record['expected']['breaches']}")


if __name__ == "__main__":
    main()
