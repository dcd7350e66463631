"""Random command sequences against one match: the stored log always replays to the snapshot.

Two hypothesis state machines, one over a digital match and one over a score match, send legal
commands and every kind of refused one (illegal and malformed moves, impossible results, junk
payloads, wrong kinds, wrong actors, stale expected_seqs, reused idempotency keys, retries)
through ``match_append_event``. The machine predicts each outcome the way the service must
decide it (a known key first, then the seq, then the actor, then the engine) and, after every
step, checks that a refused command wrote nothing, that ``verify_match`` finds no problem, that
the snapshot equals a replay of the whole log, and that the seqs are 1..N.

Each example runs in its own savepoint, rolled back at its end, so examples never see each
other's matches. Shuffles are seeded from hypothesis data, so a failure replays exactly.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import seep_core as sc
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.errors import (
    AppendRefused,
    CommandRefused,
    IdempotencyKeyReused,
    MoveRefused,
    NotPermitted,
    StaleSequence,
)
from tournaments.matchlog import repeatable_decks as fixed_decks
from tournaments.models import Match, MatchEvent, MatchSnapshot, Player, Team, Tournament
from tournaments.services import AppendResult, match_append_event
from tournaments.snapshots import replay_log
from tournaments.verify import verify_match

pytestmark = pytest.mark.django_db

#: Reproducible (derandomized, as the engine's property tests) and quick on SQLite.
MACHINE_SETTINGS = settings(
    max_examples=15,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

WRITTEN, REPLAYED = "written", "replayed"
SEEDS = st.integers(0, 2**32 - 1)
KEYS = st.one_of(st.none(), st.sampled_from(["k1", "k2", "k3"]))  # few: reuse happens


def build_match(mode: str, match_format: dict[str, Any]) -> tuple[Match, dict[str, Any]]:
    """Return a fresh match and its actors by role: director, scorekeeper, seat0-3, server."""
    users = get_user_model().objects
    director = users.create_user("director")
    tournament = Tournament.objects.create(name="Cup", slug="cup", organizer=director)
    players = [
        Player.objects.create(name=f"P{n}", user=users.create_user(f"p{n}")) for n in range(4)
    ]
    team0 = Team.objects.create(
        tournament=tournament, name="A", first_player=players[0], second_player=players[2]
    )
    team1 = Team.objects.create(
        tournament=tournament, name="B", first_player=players[1], second_player=players[3]
    )
    match = Match.objects.create(
        tournament=tournament, team0=team0, team1=team1, mode=mode,
        rules=tournament.rules, match_format=match_format,
    )  # fmt: skip
    scorekeeper = users.create_user("scorekeeper")
    match.scorekeepers.add(scorekeeper)
    actors: dict[str, Any] = {"director": director, "scorekeeper": scorekeeper, "server": SYSTEM}
    for seat, player in enumerate(match.seat_players()):  # seats 0-3: A1, B1, A2, B2
        actors[f"seat{seat}"] = player.user
    return match, actors


def answered(result: AppendResult) -> list[tuple[Any, ...]]:
    """Return what identifies an append's answer whoever it is rendered for: events, head."""
    return [(e["seq"], e["kind"], e["hash"]) for e in result.events] + [result.last_seq]


class MatchLogMachine(RuleBasedStateMachine):
    """What both modes share: starting, wrong kinds, stale seqs, keys, and the invariants."""

    MODE: ClassVar[str]
    FORMAT: ClassVar[dict[str, Any]]

    def __init__(self) -> None:
        super().__init__()
        self._example = transaction.atomic()
        self._example.__enter__()
        self.match, self.actors = build_match(self.MODE, self.FORMAT)
        self.last_seq = 0
        self.status = matchlog.SCHEDULED
        self.keyed: dict[str, tuple[dict[str, Any], list[tuple[Any, ...]]]] = {}

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._example.__exit__(None, None, None)

    # --- sending a command and checking the outcome against the prediction ---------------

    def send(self, outcome: Any, *, actor: str = "director", **request: Any) -> Any:
        """Append ``request`` and check it had the ``outcome`` predicted (WRITTEN or a refusal).

        What the service decides first overrides the rule's prediction: a request of the
        wrong shape, then an actor who may not make it, then a key seen before (a retry is
        REPLAYED, another request IdempotencyKeyReused), then a stale seq.
        """
        request.setdefault("expected_seq", self.last_seq)
        request.setdefault("idempotency_key", None)
        key = request["idempotency_key"]
        expected_seq = request["expected_seq"]
        if request["kind"] not in matchlog.COMMANDS or expected_seq < 0:
            outcome = CommandRefused
        elif not self.permitted(actor, request["kind"], request["payload"]):
            outcome = NotPermitted
        elif key in self.keyed:
            original, _ = self.keyed[key]
            same = all(original[f] == request[f] for f in ("kind", "payload", "expected_seq"))
            outcome = REPLAYED if same else IdempotencyKeyReused
        elif request["expected_seq"] != self.last_seq:
            outcome = StaleSequence
        shuffle = fixed_decks(request.pop("seed", 0))
        before = self.stored_head()
        try:
            result = match_append_event(
                match=self.match.pk, actor=self.actors[actor], shuffle=shuffle, **request
            )
        except AppendRefused as refused:
            assert isinstance(refused, outcome) if isinstance(outcome, type) else False, (
                f"expected {outcome}, got {type(refused).__name__}: {refused}"
            )
            assert self.stored_head() == before, "a refused command wrote something"
            if isinstance(refused, StaleSequence):
                assert refused.current_seq == self.last_seq
            return refused
        if outcome == REPLAYED:
            assert result.replayed and answered(result) == self.keyed[key][1]
            assert self.stored_head() == before
            return result
        assert outcome == WRITTEN and not result.replayed, f"expected {outcome}, got {result}"
        seqs = [e["seq"] for e in result.events]
        assert seqs == list(range(self.last_seq + 1, self.last_seq + 1 + len(seqs)))
        assert result.last_seq == seqs[-1]
        assert self.stored(seqs[0]).idempotency_key == key
        assert all(e["caused_by"] == seqs[0] for e in result.events[1:])
        self.last_seq = result.last_seq
        for event in result.events:
            if event["kind"] == matchlog.MATCH_STARTED:
                self.status = matchlog.IN_PROGRESS
            elif event["kind"] == matchlog.MATCH_ENDED:
                self.status = matchlog.FINISHED
        if key is not None:
            self.keyed[key] = (request, answered(result))
        return result

    def permitted(self, actor: str, kind: str, payload: Any) -> bool:
        """Whether ``actor`` may make the request at all (docs/events.md, who appends what)."""
        if actor in ("director", "server"):
            return True
        seated = self.status != matchlog.SCHEDULED  # who sits where is fixed by the start
        if kind == "move_played" and self.MODE == matchlog.DIGITAL and actor.startswith("seat"):
            if not seated:
                return False
            move = payload.get("move") if isinstance(payload, dict) else None
            seat = move.get("seat") if isinstance(move, dict) else None
            return type(seat) is int and seat == int(actor.removeprefix("seat"))
        if kind in matchlog.CORRECTIONS or kind == "move_played":
            return False
        if actor == "scorekeeper":  # a score-keeper enters results (no confirmation asked here)
            return kind in ("deal_ended", "deal_entered") or (
                kind == "match_started" and self.MODE != matchlog.DIGITAL
            )
        # a seated player enters a result, or answers the other side's entry
        return seated and kind in ("deal_entered", "deal_confirmed", "deal_rejected")

    def stored(self, seq: int) -> MatchEvent:
        return MatchEvent.objects.get(match=self.match, seq=seq)

    def stored_head(self) -> tuple[int, int]:
        last_seq = Match.objects.values_list("last_seq", flat=True).get(pk=self.match.pk)
        return last_seq, MatchEvent.objects.filter(match=self.match).count()

    def state(self) -> matchlog.MatchState:
        return matchlog.MatchState.from_json(MatchSnapshot.objects.get(match=self.match).state)

    # --- the invariants --------------------------------------------------------------------

    @invariant()
    def the_stored_log_replays_to_the_snapshot(self) -> None:
        match = Match.objects.get(pk=self.match.pk)
        events = MatchEvent.objects.filter(match=match).order_by("seq")
        seqs = list(events.values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1)), "seqs have a gap or a duplicate"
        assert match.last_seq == len(seqs) == self.last_seq
        assert match.status == self.status
        assert verify_match(match) == []
        snapshot = MatchSnapshot.objects.filter(match=match).first()
        if not seqs:
            assert snapshot is None
        else:
            assert snapshot is not None and snapshot.seq == match.last_seq
            assert snapshot.state == replay_log(match).to_json()

    # --- rules both modes share ------------------------------------------------------------

    @precondition(lambda self: self.status == matchlog.SCHEDULED)
    @rule(
        dealer=st.integers(0, 3), on_the_match=st.booleans(),
        actor=st.sampled_from(["director", "server"]), key=KEYS, seed=SEEDS,
    )  # fmt: skip
    def start(
        self, dealer: int, on_the_match: bool, actor: str, key: str | None, seed: int
    ) -> None:
        if on_the_match:  # the first dealer fixed on the match row (S2), not in the command
            Match.objects.filter(pk=self.match.pk).update(first_dealer=dealer)
        payload = {} if on_the_match else {"first_dealer": dealer}
        result = self.send(
            WRITTEN, kind="match_started", payload=payload, actor=actor,
            idempotency_key=key, seed=seed,
        )  # fmt: skip
        if isinstance(result, AppendResult) and not result.replayed:
            kinds = [e["kind"] for e in result.events]
            digital = self.MODE == matchlog.DIGITAL
            assert kinds == ["match_started"] + ["deal_started"] * digital
            assert result.events[0]["payload"]["first_dealer"] == dealer

    @initialize(
        begin=st.sampled_from([True, True, True, False]), dealer=st.integers(0, 3),
        on_the_match=st.booleans(), seed=SEEDS,
    )  # fmt: skip
    def begin(self, begin: bool, dealer: int, on_the_match: bool, seed: int) -> None:
        """Start most examples at once, so they go deep; the others try everything first."""
        if begin:
            self.start(dealer=dealer, on_the_match=on_the_match, actor="director", key=None,
                       seed=seed)  # fmt: skip

    @rule(
        flavour=st.sampled_from(["bad_payload", "not_a_director", "again"]),
        payload=st.sampled_from([
            {"first_dealer": 4}, {"first_dealer": -1}, {"first_dealer": "1"},
            {"first_dealer": True}, {"first_dealer": 1.0}, {"dealer": 1},
            {"first_dealer": 0, "rules": {}}, [], "go", None, 7,
        ]),
        actor=st.sampled_from(["scorekeeper", "seat0", "seat1", "seat2", "seat3"]),
    )  # fmt: skip
    def start_wrongly(self, flavour: str, payload: Any, actor: str) -> None:
        if flavour == "not_a_director" and actor == "scorekeeper" and self.MODE != matchlog.DIGITAL:
            # The score-keeper starts a match kept at a table: only what they send can be wrong.
            self.send(CommandRefused, kind="match_started", payload=payload, actor=actor)
        elif flavour == "not_a_director":
            self.send(NotPermitted, kind="match_started", payload={}, actor=actor)
        elif flavour == "again" and self.status != matchlog.SCHEDULED:
            refused = self.send(CommandRefused, kind="match_started", payload={"first_dealer": 0})
            expected = "match_started" if self.status == matchlog.IN_PROGRESS else "match_over"
            assert refused.code == expected
        else:
            self.send(CommandRefused, kind="match_started", payload=payload)

    @rule(kind=st.sampled_from(["deal_started", "match_ended", "bogus", "", "MATCH_STARTED"]))
    def append_a_kind_no_client_appends(self, kind: str) -> None:
        refused = self.send(CommandRefused, kind=kind, payload={"deal": 1})
        assert refused.code == "kind_not_appendable"

    @rule(
        offset=st.integers(-3, 3).filter(bool), kind=st.sampled_from(matchlog.COMMANDS),
        actor=st.sampled_from(["director", "seat1", "scorekeeper"]),
    )  # fmt: skip
    def append_with_a_stale_expected_seq(self, offset: int, kind: str, actor: str) -> None:
        self.send(
            StaleSequence, kind=kind, payload={}, actor=actor,
            expected_seq=self.last_seq + offset,
        )  # fmt: skip

    @precondition(lambda self: self.keyed)
    @rule(data=st.data())
    def retry_a_keyed_request(self, data: st.DataObject) -> None:
        key = data.draw(st.sampled_from(sorted(self.keyed)))
        original = dict(self.keyed[key][0])
        self.send(REPLAYED, actor=data.draw(st.sampled_from(["director", "server"])), **original)

    @precondition(lambda self: self.keyed)
    @rule(data=st.data(), change=st.sampled_from(["payload", "expected_seq", "kind"]))
    def reuse_a_key_for_another_request(self, data: st.DataObject, change: str) -> None:
        key = data.draw(st.sampled_from(sorted(self.keyed)))
        request = dict(self.keyed[key][0])
        if change == "payload":
            request["payload"] = {"other": request["payload"]}
        elif change == "expected_seq":
            request["expected_seq"] += 1
        else:
            request["kind"] = "deal_ended" if request["kind"] != "deal_ended" else "move_played"
        self.send(IdempotencyKeyReused, **request)


class DigitalMatchMachine(MatchLogMachine):
    """A digital match: moves chosen from ``legal_moves``, and moves the engine must refuse."""

    MODE = matchlog.DIGITAL
    FORMAT: ClassVar[dict[str, Any]] = {"deal_cap": 2}  # ends after two deals

    def deal(self) -> sc.Deal:
        deal = self.state().deal
        assert deal is not None
        return deal

    def play(self, outcome: Any, move: Any, *, actor: str = "director", **request: Any) -> Any:
        return self.send(
            outcome, kind="move_played", payload={"move": move}, actor=actor, **request
        )

    @precondition(lambda self: self.status == matchlog.IN_PROGRESS)
    @rule(data=st.data(), count=st.integers(1, 6))
    def play_legal_moves(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):
            if self.status != matchlog.IN_PROGRESS:
                return
            state = self.state()
            deal = state.deal
            assert deal is not None
            move = data.draw(st.sampled_from(sc.legal_moves(deal)), label="move")
            actor = data.draw(st.sampled_from(["seat", "director", "server"]), label="actor")
            actor = f"seat{move['seat']}" if actor == "seat" else actor
            key = data.draw(KEYS, label="key")
            seed = data.draw(SEEDS, label="seed")
            result = self.play(WRITTEN, move, actor=actor, idempotency_key=key, seed=seed)
            if not isinstance(result, AppendResult) or result.replayed:
                continue
            kinds = [e["kind"] for e in result.events]
            assert result.events[0]["payload"] == {"deal": state.deal_no, "move": move}
            after = sc.apply(deal, move)
            if after.phase == "redealt":  # B2: the same dealer deals again
                assert kinds == ["move_played", "deal_started"]
                assert result.events[1]["payload"]["dealer"] == deal.dealer
            elif after.phase == "over":
                assert kinds[:2] == ["move_played", "deal_ended"]
                assert kinds[2:] in (["match_ended"], ["deal_started"])
                assert result.events[1]["payload"]["total"] == sc.score(after)["total"]
            else:
                assert kinds == ["move_played"]

    @precondition(lambda self: self.status == matchlog.IN_PROGRESS)
    @rule(seed=SEEDS)
    def play_out_the_deal(self, seed: int) -> None:
        """Play random legal moves until the deal is over (or thrown in), to reach deal ends."""
        rng = random.Random(seed)
        deal_no = self.state().deal_no
        while self.status == matchlog.IN_PROGRESS and self.state().deal_no == deal_no:
            self.play(WRITTEN, rng.choice(sc.legal_moves(self.deal())), seed=rng.randrange(2**32))

    @precondition(lambda self: self.status == matchlog.IN_PROGRESS)
    @rule(
        data=st.data(),
        flavour=st.sampled_from(
            [
                "wrong_seat",
                "card_not_held",
                "bad_take",
                "bad_value",
                "junk_move",
                "malformed_payload",
                "another_seats_player",
            ]
        ),
    )
    def play_an_illegal_or_malformed_move(self, data: st.DataObject, flavour: str) -> None:
        deal = self.deal()
        position = deal.to_dict()
        seat = deal.to_play
        hand = position["hands"][seat]
        legal = data.draw(st.sampled_from(sc.legal_moves(deal)), label="legal move")
        if flavour == "malformed_payload":
            payload = data.draw(st.sampled_from(
                [None, [], "move", {}, {"mv": legal}, {"move": legal, "deal": 1}]
            ))  # fmt: skip
            refused = self.send(CommandRefused, kind="move_played", payload=payload)
            assert refused.code == "bad_payload"
            return
        if flavour == "another_seats_player":
            actor = data.draw(st.sampled_from(
                [f"seat{s}" for s in range(4) if s != legal["seat"]] + ["scorekeeper"]
            ))  # fmt: skip
            self.play(NotPermitted, legal, actor=actor)
            return
        if flavour == "wrong_seat":
            other = data.draw(st.sampled_from([s for s in range(4) if s != seat]))
            move: Any = {**legal, "seat": other}
        elif flavour == "card_not_held":
            card = data.draw(st.sampled_from([c for c in sc.ordered_deck() if c not in hand]))
            move = {"seat": seat, "action": "throw", "card": card}
        elif flavour == "bad_take":
            floor = position["floor"] or {"loose": [], "houses": []}
            items = floor["loose"] + [f"H{h['value']}" for h in floor["houses"]]
            elsewhere = [c for c in sc.ordered_deck() if c not in items]
            take = data.draw(
                st.one_of(
                    st.lists(st.sampled_from(elsewhere), min_size=1, max_size=3),
                    st.lists(st.sampled_from(items or ["H9"]), max_size=len(items) + 1),
                    st.sampled_from(["4D", None, [None], [["4D"]], [{"card": "4D"}], ["H14"]]),
                ),
                label="take",
            )
            card = data.draw(st.sampled_from(hand or ["AS"]), label="card")
            action = data.draw(st.sampled_from(["capture", "build"]))
            move = {"seat": seat, "action": action, "card": card, "take": take}
            if action == "build":
                move["value"] = data.draw(st.integers(9, 13))
        elif flavour == "bad_value":
            value = data.draw(st.sampled_from([8, 14, 0, -1, "9", None, 9.5, True, 10**20]))
            action = data.draw(st.sampled_from(["bid", "build"]))
            move = {"seat": seat, "action": action, "value": value}
            if action == "build":
                move.update(card=data.draw(st.sampled_from(hand or ["AS"])), take=[])
        else:
            move = data.draw(
                st.sampled_from([
                    None, 5, "throw", [], {}, {"seat": seat}, {"seat": seat, "action": "fly"},
                    {"seat": seat, "action": "throw"}, {"seat": seat, "action": "throw",
                    "card": "ZZ"}, {**legal, "extra": 1}, {**legal, "seat": str(seat)},
                    {**legal, "seat": True}, {**legal, "action": legal["action"].upper()},
                ]),
                label="junk",
            )  # fmt: skip
        # The engine decides; the service must agree and, refusing, keep its rule id.
        try:
            canonical = sc.canonical_move(deal, move)
        except sc.SeepError as exc:
            refused = self.play(MoveRefused, move)
            if isinstance(refused, MoveRefused):
                assert (refused.code, refused.rule) == (exc.code, exc.rule)
        else:  # the mutation happened to make a legal move (a take listed in another order)
            result = self.play(WRITTEN, move)
            if isinstance(result, AppendResult) and not result.replayed:
                assert result.events[0]["payload"]["move"] == canonical

    @precondition(lambda self: self.status != matchlog.IN_PROGRESS)
    @rule(move=st.sampled_from([{"seat": 0, "action": "redeal"}, {"seat": 1, "action": "bid",
                                                                   "value": 9}]))  # fmt: skip
    def play_when_no_deal_is_in_play(self, move: dict[str, Any]) -> None:
        refused = self.play(CommandRefused, move)
        expected = "match_not_started" if self.status == matchlog.SCHEDULED else "match_over"
        assert refused.code == expected

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule()
    def enter_a_deal_result(self) -> None:
        refused = self.send(
            CommandRefused, kind="deal_ended", payload={"points": [50, 50], "sweeps": [[], []]}
        )
        assert refused.code in ("mode_mismatch", "match_over")


def legal_sweeps(bidder_team: int) -> st.SearchStrategy[list[list[int]]]:
    """Sweeps a deal can have (W1-W2): 50s for either team, at most one 25, the bidder's."""

    @st.composite
    def sweeps(draw: st.DrawFn) -> list[list[int]]:
        teams: list[list[int]] = [[50] * draw(st.integers(0, 3)), [50] * draw(st.integers(0, 3))]
        if draw(st.booleans()):
            teams[bidder_team].insert(draw(st.integers(0, len(teams[bidder_team]))), 25)
        return teams

    return sweeps()


class ScoreMatchMachine(MatchLogMachine):
    """A score match: results entered by the score-keeper, possible and impossible ones."""

    MODE = matchlog.SCORE
    FORMAT: ClassVar[dict[str, Any]] = {"bazzis": 2, "first_to": True}

    def bidder_team(self) -> int:
        progress = self.state().progress
        assert progress is not None
        return (progress.dealer + 1) % 2  # the bidder sits to the dealer's right (S3)

    def enter(self, outcome: Any, payload: Any, **request: Any) -> Any:
        request.setdefault("actor", "scorekeeper")
        return self.send(outcome, kind="deal_ended", payload=payload, **request)

    @precondition(lambda self: self.status == matchlog.IN_PROGRESS)
    @rule(
        data=st.data(), ours=st.integers(0, 100), key=KEYS,
        actor=st.sampled_from(["scorekeeper", "director", "server"]),
    )  # fmt: skip
    def enter_a_possible_result(
        self, data: st.DataObject, ours: int, key: str | None, actor: str
    ) -> None:
        progress = self.state().progress
        assert progress is not None
        points = [ours, 100 - ours]
        sweeps = data.draw(legal_sweeps(self.bidder_team()), label="sweeps")
        payload = {"points": points, "sweeps": sweeps}
        result = self.enter(WRITTEN, payload, idempotency_key=key, actor=actor)
        if not isinstance(result, AppendResult) or result.replayed:
            return
        total = [points[0] + sum(sweeps[0]), points[1] + sum(sweeps[1])]
        ended = result.events[0]
        # stored as the engine lists a deal's sweeps: in the order of the plays (25 first)
        stored = [sorted(team, key=lambda v: v != 25) for team in sweeps]
        assert ended["payload"] == {
            "deal": self.state().deal_no, "dealer": progress.dealer, "points": points,
            "sweeps": stored, "total": total,
        }  # fmt: skip
        over = progress.after_deal(total).over
        assert [e["kind"] for e in result.events] == ["deal_ended"] + ["match_ended"] * over

    @precondition(lambda self: self.status == matchlog.IN_PROGRESS)
    @rule(
        data=st.data(),
        flavour=st.sampled_from([
            "points_not_100", "points_out_of_range", "points_junk", "sweep_value",
            "first_sweep_by_the_other_team", "two_first_sweeps", "too_many_sweeps",
            "sweeps_junk", "fields",
        ]),
    )  # fmt: skip
    def enter_an_impossible_result(self, data: st.DataObject, flavour: str) -> None:
        bidder = self.bidder_team()
        points: Any = [60, 40]
        sweeps: Any = [[], []]
        payload: Any = None
        rule_id = None
        if flavour == "points_not_100":
            points = data.draw(
                st.lists(st.integers(0, 100), min_size=2, max_size=2).filter(
                    lambda p: sum(p) != 100
                )
            )
            rule_id = "D2"
        elif flavour == "points_out_of_range":
            points = data.draw(st.sampled_from([[101, -1], [-5, 105], [200, -100]]))
            rule_id = "D2"
        elif flavour == "points_junk":
            points = data.draw(st.sampled_from(
                [[True, 99], [50.0, 50], ["50", "50"], [100], [50, 50, 0], "100", None, {}]
            ))  # fmt: skip
        elif flavour == "sweep_value":
            value = data.draw(st.sampled_from([30, 0, 100, -50, 24]))
            sweeps = [[value], []] if data.draw(st.booleans()) else [[], [value]]
            rule_id = "W1"
        elif flavour == "first_sweep_by_the_other_team":
            sweeps = [[], []]
            sweeps[1 - bidder] = [25]
            rule_id = "W2"
        elif flavour == "two_first_sweeps":
            sweeps = [[], []]
            sweeps[bidder] = [25, 50, 25]
            rule_id = "W2"
        elif flavour == "too_many_sweeps":
            sweeps = [[50] * 24, [50] * 24]
            rule_id = "W1"
        elif flavour == "sweeps_junk":
            sweeps = data.draw(st.sampled_from(
                [[[50]], [[], [], []], "50", None, [[None], []], [["50"], []], [50, 50], [{}, []]]
            ))  # fmt: skip
        else:
            payload = data.draw(st.sampled_from([
                {"points": [60, 40]}, {"sweeps": [[], []]},
                {"points": [60, 40], "sweeps": [[], []], "total": [60, 40]},
                {"points": [60, 40], "sweeps": [[], []], "deal": 1}, [], None,
            ]))  # fmt: skip
        if payload is None and flavour != "fields":
            payload = {"points": points, "sweeps": sweeps}
        # A payload of the wrong fields is a bad command; a result the rules forbid (or that is
        # not two teams' numbers) is refused by the engine, as a move would be.
        refused = self.enter(CommandRefused if flavour == "fields" else MoveRefused, payload)
        if isinstance(refused, MoveRefused):
            assert refused.rule == rule_id, f"{flavour}: {refused.code} {refused.rule}"

    @rule(actor=st.sampled_from(["seat0", "seat1", "seat2", "seat3"]))
    def enter_a_result_as_a_player(self, actor: str) -> None:
        self.enter(NotPermitted, {"points": [50, 50], "sweeps": [[], []]}, actor=actor)

    @precondition(lambda self: self.status != matchlog.IN_PROGRESS)
    @rule()
    def enter_a_result_when_no_deal_is_due(self) -> None:
        refused = self.enter(CommandRefused, {"points": [50, 50], "sweeps": [[], []]})
        expected = "match_not_started" if self.status == matchlog.SCHEDULED else "match_over"
        assert refused.code == expected

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule()
    def play_a_move_in_a_score_match(self) -> None:
        refused = self.send(
            CommandRefused, kind="move_played", payload={"move": {"seat": 0, "action": "redeal"}}
        )
        assert refused.code in ("mode_mismatch", "match_over")


def test_a_digital_match_log_always_replays_to_its_snapshot() -> None:
    run_state_machine_as_test(DigitalMatchMachine, settings=MACHINE_SETTINGS)


def test_a_score_match_log_always_replays_to_its_snapshot() -> None:
    run_state_machine_as_test(
        ScoreMatchMachine, settings=settings(MACHINE_SETTINGS, max_examples=25)
    )


def test_examples_do_not_see_each_others_matches(db: None) -> None:
    """Each example's match is rolled back with it: nothing is left behind for the next."""
    machine = ScoreMatchMachine()
    try:
        machine.start(dealer=0, on_the_match=False, actor="director", key="k1", seed=1)
        assert Match.objects.count() == 1 and MatchEvent.objects.count() == 1
    finally:
        machine.teardown()
    assert not Match.objects.exists() and not MatchEvent.objects.exists()
