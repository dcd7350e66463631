"""Random command sequences against one match: the stored log always replays to the snapshot.

Hypothesis state machines over a digital match, a score match, and score matches whose results
need confirming (the other team confirms; both sides enter) with a director's corrections,
send legal commands and every kind of refused one (illegal and malformed moves, impossible
results, junk payloads, wrong kinds, wrong actors, stale expected_seqs, reused idempotency
keys, retries; answers by the one who entered or their team, entries while one awaits an
answer or a dispute, corrections without a reason or by anyone but a director, corrections
that would end the match early) through ``match_append_event``. The machine predicts each
outcome the way the service must decide it (a known key first, then the seq, then the actor,
then the planner and the engine) and, after every step, checks that a refused command wrote
nothing, that ``verify_match`` finds no problem, that the snapshot equals a replay of the
whole log, and that the seqs are 1..N; the confirming machines also check that the store's
standing (running difference, bazzis, deals, status, entries, dispute, forfeit) is the one the
engine gives the model's own count.

Each example runs in its own savepoint, rolled back at its end, so examples never see each
other's matches. Shuffles are seeded from hypothesis data, so a failure replays exactly.
``SEEP_MACHINE_SCALE=10`` runs ten times the examples.
"""

from __future__ import annotations

import os
import random
from typing import Any, ClassVar, NamedTuple

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
from tests.matches import assert_snapshot_replays
from tournaments import matchlog, snapshots
from tournaments.access import SYSTEM
from tournaments.errors import (
    AppendRefused,
    CommandRefused,
    IdempotencyKeyReused,
    MatchStateConflict,
    MoveRefused,
    NotPermitted,
    StaleSequence,
)
from tournaments.matchlog import repeatable_decks as fixed_decks
from tournaments.models import Match, MatchEvent, MatchSnapshot, Player, Team, Tournament
from tournaments.services import AppendResult, match_append_event
from tournaments.verify import verify_match

#: stateful hypothesis runs of whole logs (over a minute in all): not in the fast tier
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

#: Reproducible (derandomized, as the engine's property tests) and quick on SQLite.
#: ``SEEP_MACHINE_SCALE=10`` runs ten times the examples of each machine (a longer hunt)
SCALE = int(os.environ.get("SEEP_MACHINE_SCALE", "1"))
MACHINE_SETTINGS = settings(
    max_examples=15,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def examples(n: int) -> settings:
    """The machines' settings with ``n`` examples (times SEEP_MACHINE_SCALE)."""
    return settings(MACHINE_SETTINGS, max_examples=n * SCALE)


WRITTEN, REPLAYED = "written", "replayed"
SEEDS = st.integers(0, 2**32 - 1)
KEYS = st.one_of(st.none(), st.sampled_from(["k1", "k2", "k3"]))  # few: reuse happens


def build_match(
    mode: str, match_format: dict[str, Any], confirmation: str = matchlog.Confirmation.NONE
) -> tuple[Match, dict[str, Any]]:
    """Return a fresh match and its actors by role: director, scorekeeper, seat0-3, server,
    and an outsider (signed in, no role)."""
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
        rules=tournament.rules, match_format=match_format, confirmation=confirmation,
    )  # fmt: skip
    scorekeeper = users.create_user("scorekeeper")
    match.scorekeepers.add(scorekeeper)
    actors: dict[str, Any] = {
        "director": director, "scorekeeper": scorekeeper, "server": SYSTEM,
        "outsider": users.create_user("outsider"),
    }  # fmt: skip
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
    CONFIRMATION: ClassVar[str] = matchlog.Confirmation.NONE

    def __init__(self) -> None:
        super().__init__()
        self._example = transaction.atomic()
        self._example.__enter__()
        self.match, self.actors = build_match(self.MODE, self.FORMAT, self.CONFIRMATION)
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
            elif event["kind"] == matchlog.Kind.MATCH_REOPENED:
                self.status = matchlog.IN_PROGRESS
        if key is not None:
            self.keyed[key] = (request, answered(result))
        return result

    def permitted(self, actor: str, kind: str, payload: Any) -> bool:
        """Whether ``actor`` may make the request at all (docs/events.md, who appends what)."""
        if actor in ("director", "server"):
            return True
        if actor == "outsider":
            return False
        seated = self.status != matchlog.SCHEDULED  # who sits where is fixed by the start
        if kind == "move_played" and self.MODE == matchlog.DIGITAL and actor.startswith("seat"):
            if not seated:
                return False
            move = payload.get("move") if isinstance(payload, dict) else None
            seat = move.get("seat") if isinstance(move, dict) else None
            return type(seat) is int and seat == int(actor.removeprefix("seat"))
        if kind in matchlog.CORRECTIONS or kind == "move_played":
            return False
        settled = ("entry_withdrawn", "version_accepted")  # the planner decides whose entry
        if actor == "scorekeeper":  # a score-keeper enters results (no confirmation asked here)
            return kind in ("deal_ended", "deal_entered", *settled) or (
                kind == "match_started" and self.MODE != matchlog.DIGITAL
            )
        # a seated player enters a result, answers the other side's entry, or settles its own
        return seated and kind in ("deal_entered", "deal_confirmed", "deal_rejected", *settled)

    def stored(self, seq: int) -> MatchEvent:
        return MatchEvent.objects.get(match=self.match, seq=seq)

    def stored_head(self) -> tuple[int, int]:
        last_seq = Match.objects.values_list("last_seq", flat=True).get(pk=self.match.pk)
        return last_seq, MatchEvent.objects.filter(match=self.match).count()

    def state(self) -> matchlog.MatchState:
        return snapshots.current_state(self.match.pk)

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
            assert_snapshot_replays(match)

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

    def __init__(self) -> None:
        super().__init__()
        self.forfeit: int | None = None

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

    # --- a director's corrections of a digital match -----------------------------------------

    def counted(self) -> list[Any]:
        return [] if self.status == matchlog.SCHEDULED else list(self.state().ledger)

    @precondition(lambda self: self.counted())
    @rule(data=st.data(), actor=st.sampled_from(["director", "seat0", "scorekeeper"]), seed=SEEDS)
    def void_a_counted_deal(self, data: st.DataObject, actor: str, seed: int) -> None:
        """Void a deal: the match counts the others from the start again (the engine's count
        of what is left); a finished match is reopened and deals the next deal."""
        state = self.state()
        counted = [c for c in state.ledger if c.kind == "deal"]
        item = data.draw(st.sampled_from(counted), label="voided")
        progress = state.start()
        for other in state.ledger:
            if other is not item:
                assert other.total is not None
                progress = progress.after_deal(list(other.total))  # deal_cap: never early
        forfeit = self.forfeit
        if forfeit is not None:
            progress = progress.forfeited_by(forfeit)
        was = self.status
        result = self.send(WRITTEN, kind="deal_voided", actor=actor, seed=seed,
                           payload={"deal": item.deal, "reason": "a misdeal"})  # fmt: skip
        if not isinstance(result, AppendResult) or result.replayed:
            return
        kinds = [e["kind"] for e in result.events]
        outcome = matchlog.match_outcome(progress, forfeit)
        if was == matchlog.FINISHED and not progress.over:
            assert kinds == ["deal_voided", "match_reopened", "deal_started"], kinds
            assert result.events[2]["payload"]["deal"] == state.deal_no + 1
        elif progress.over and outcome != state.outcome:
            assert kinds == ["deal_voided", "match_ended"], kinds
        else:
            assert kinds == ["deal_voided"], kinds
        after = self.state().progress
        assert after is not None and (after.deals, after.difference, after.bazzis) == (
            progress.deals, progress.difference, progress.bazzis,
        )  # fmt: skip

    @precondition(lambda self: len(self.counted()) >= 2)  # late: a forfeit ends the match
    @rule(team=st.integers(0, 1), actor=st.sampled_from(["director", "server", "seat1"]))
    def forfeit_the_match(self, team: int, actor: str) -> None:
        outcome = WRITTEN if self.forfeit is None else MatchStateConflict
        forfeit = {"team": team, "reason": "left"}
        result = self.send(outcome, kind="match_forfeited", payload=forfeit, actor=actor)
        if isinstance(result, AppendResult) and not result.replayed:
            self.forfeit = team
            assert [e["kind"] for e in result.events] == ["match_forfeited", "match_ended"]
            assert result.events[1]["payload"]["winner"] == 1 - team
            assert self.state().deal is None  # the deal in play, if any, is not played on


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


SEATS = ["seat0", "seat1", "seat2", "seat3"]
ENTERERS = st.sampled_from([*SEATS, "scorekeeper", "director", "server"])
ANSWERERS = st.sampled_from([*SEATS, "scorekeeper", "director", "server", "outsider"])
REASONS = st.sampled_from(["a sweep was missed", "", "   ", None, "x" * 501])


class PendingEntry(NamedTuple):
    number: int
    actor: str
    side: int | None
    total: tuple[int, int]
    result: tuple[Any, ...]  # points and sweeps as stored


class ConfirmedScoreMachine(MatchLogMachine):
    """A score match whose results need confirming, and a director's corrections.

    The model keeps what the match counts (deals' totals and adjustments, in order), the
    entries awaiting an answer, whether the next deal is disputed and who forfeited; it
    predicts each outcome from the rules of issue 11 (the two-person rule, one entry at a
    time or one per side, the director decides a dispute, corrections by a director with a
    reason, correction_ends_early) and checks after every step that the store's standing
    (running difference, bazzis, deals, status) is the one the engine gives the model's ledger.
    """

    MODE = matchlog.SCORE
    FORMAT: ClassVar[dict[str, Any]] = {"bazzis": 2}

    def __init__(self) -> None:
        super().__init__()
        self.ledger: list[tuple[str, int, Any]] = []  # ("deal", n, total) / ("adjust", team, pts)
        self.deal_no = 0
        self.entries: list[PendingEntry] = []
        self.disputed = False
        self.entered = 0  # the next deal's entries made, withdrawn ones included
        self.counter: PendingEntry | None = None  # the numbers given with a rejection
        self.forfeit: int | None = None
        self.outcome: dict[str, Any] | None = None

    # --- the model ---------------------------------------------------------------------------

    def side(self, actor: str) -> int | None:
        return int(actor[-1]) % 2 if actor in SEATS else None

    def standing(self, ledger: list[tuple[str, int, Any]] | None = None) -> sc.MatchProgress:
        """The engine's standing after the model's ledger; raises SeepError for an item that
        comes after the format ended the match."""
        first = self.state().first_dealer
        assert first is not None
        progress = sc.start_match(first, sc.MatchFormat.from_dict(self.FORMAT))
        for kind, a, b in self.ledger if ledger is None else ledger:
            if kind == "deal":
                progress = progress.after_deal(list(b))
            else:
                progress = progress.after_adjustment(a, b)
        return progress if self.forfeit is None else progress.forfeited_by(self.forfeit)

    def recounted(self, kinds: list[str], was: str = matchlog.IN_PROGRESS) -> None:
        """Follow the outcome after the ledger changed (the match ``was`` in progress or
        finished); check the derived events written after the command (``kinds[0]``)."""
        progress = self.standing()
        outcome = matchlog.match_outcome(progress, self.forfeit)
        if was == matchlog.FINISHED:
            if not progress.over:
                assert kinds[1:] == ["match_reopened"], kinds
                self.outcome = None
            elif outcome != self.outcome:
                assert kinds[1:] == ["match_ended"], kinds
                self.outcome = outcome
            else:
                assert kinds[1:] == [], kinds
        elif progress.over:
            assert kinds[1:] == ["match_ended"], kinds
            self.outcome = outcome
            self.entries, self.disputed = [], False  # awaiting an answer: they end with it
            self.entered, self.counter = 0, None
        else:
            assert kinds[1:] == [], kinds

    def count(self, total: tuple[int, int]) -> None:
        self.deal_no += 1
        self.ledger.append(("deal", self.deal_no, total))
        self.entries, self.disputed = [], False
        self.entered, self.counter = 0, None

    def bidder_team(self) -> int:
        return (self.standing().dealer + 1) % 2

    def a_result(self, data: st.DataObject) -> dict[str, Any]:
        ours = data.draw(st.sampled_from([0, 9, 30, 50, 91, 100]), label="points")
        sweeps = data.draw(legal_sweeps(self.bidder_team()), label="sweeps")
        return {"points": [ours, 100 - ours], "sweeps": sweeps}

    @staticmethod
    def total(result: dict[str, Any]) -> tuple[int, int]:
        points, sweeps = result["points"], result["sweeps"]
        return points[0] + sum(sweeps[0]), points[1] + sum(sweeps[1])

    @staticmethod
    def as_stored(result: dict[str, Any]) -> tuple[Any, ...]:
        # as the engine lists a deal's sweeps: in the order of the plays (25 first)
        sweeps = [sorted(team, key=lambda v: v != 25) for team in result["sweeps"]]
        return tuple(result["points"]), tuple(map(tuple, sweeps))

    def permitted(self, actor: str, kind: str, payload: Any) -> bool:
        if actor == "scorekeeper":  # enters (and settles its own), never answers nor counts
            return kind in ("deal_entered", "match_started", "entry_withdrawn", "version_accepted")
        return super().permitted(actor, kind, payload)

    def closed(self) -> type[AppendRefused] | None:
        """The refusal every command but a correction gets when no deal is due."""
        return None if self.status == matchlog.IN_PROGRESS else MatchStateConflict

    @invariant()
    def the_store_counts_what_the_model_counts(self) -> None:
        if self.status == matchlog.SCHEDULED:
            return
        state = self.state()
        progress, expected = state.progress, self.standing()
        assert progress is not None
        got = (progress.difference, progress.bazzis, progress.deals, progress.over, progress.winner)
        assert got == (expected.difference, expected.bazzis, expected.deals, expected.over,
                       expected.winner), (got, self.ledger)  # fmt: skip
        assert expected.over == (self.status == matchlog.FINISHED)
        assert state.deal_no == self.deal_no
        assert state.disputed == self.disputed
        assert [(e.number, e.side, e.total) for e in state.entries] == [
            (e.number, e.side, e.total) for e in self.entries
        ]
        assert state.forfeit == self.forfeit
        assert state.outcome == self.outcome

    # --- entries and answers ---------------------------------------------------------------

    @precondition(lambda self: self.status == matchlog.IN_PROGRESS)
    @rule(data=st.data(), enterer=st.sampled_from(SEATS), who=st.sampled_from(["other", "any"]))
    def a_deal_entered_and_answered(self, data: st.DataObject, enterer: str, who: str) -> None:
        """A deal entered by a player and answered by someone of the other team (or anyone):
        the common case, so that matches go deep."""
        self.enter(data, enterer, None, True)
        if self.CONFIRMATION == matchlog.Confirmation.BOTH_ENTER and self.entries:
            other = data.draw(st.sampled_from(SEATS), label="second")
            self.enter(data, other, None, data.draw(st.integers(0, 3), label="differ") != 3)
        elif self.entries:
            side = self.entries[0].side
            if who == "other":
                answerer = data.draw(st.sampled_from([a for a in SEATS if self.side(a) != side]))
            else:
                answerer = data.draw(ANSWERERS, label="answerer")
            if data.draw(st.integers(0, 4), label="reject") == 0:
                self.reject(data, answerer, 1, "wrong", data.draw(st.booleans()))
            else:
                self.confirm(answerer, 1, None)

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule(data=st.data(), actor=ENTERERS, key=KEYS, differ=st.booleans())
    def enter_a_deal(self, data: st.DataObject, actor: str, key: str | None, differ: bool) -> None:
        self.enter(data, actor, key, not differ)

    def enter(self, data: st.DataObject, actor: str, key: str | None, same: bool) -> None:
        if self.status != matchlog.IN_PROGRESS:
            result = {"points": [50, 50], "sweeps": [[], []]}
        elif same and self.entries:  # both sides: often the same result as the first entry
            first = self.entries[0].result
            result = {"points": list(first[0]), "sweeps": [list(t) for t in first[1]]}
        else:
            result = self.a_result(data)
        side = self.side(actor)
        both = self.CONFIRMATION == matchlog.Confirmation.BOTH_ENTER
        outcome: Any = self.closed() or WRITTEN
        if outcome is WRITTEN and self.disputed:
            outcome = MatchStateConflict
        elif outcome is WRITTEN and self.entries:
            first = self.entries[0]  # one entry awaits; both sides: one each, a team's among them
            if not both or first.actor == actor or first.side == side:
                outcome = MatchStateConflict
        sent = self.send(outcome, kind="deal_entered", payload=result, actor=actor,
                         idempotency_key=key)  # fmt: skip
        if not isinstance(sent, AppendResult) or sent.replayed:
            if isinstance(sent, MatchStateConflict) and outcome is MatchStateConflict:
                assert sent.code in ("match_over", "deal_disputed", "entry_pending",
                                     "already_entered", "match_not_started"), sent.code  # fmt: skip
            return
        kinds = [e["kind"] for e in sent.events]
        assert sent.events[0]["payload"]["side"] == side
        entry = PendingEntry(self.entered + 1, actor, side, self.total(result),
                             self.as_stored(result))  # fmt: skip
        self.entries.append(entry)
        self.entered += 1
        if both and len(self.entries) == 2:
            if self.entries[0].result == entry.result:
                assert kinds[:2] == ["deal_entered", "deal_ended"], kinds
                self.count(entry.total)
                self.recounted(kinds[1:])
            else:
                assert kinds == ["deal_entered", "deal_disputed"], kinds
                self.disputed = True
        else:
            assert kinds == ["deal_entered"], kinds

    def answer_outcome(self, actor: str, number: int) -> tuple[Any, PendingEntry | None]:
        closed = self.closed()
        if closed is not None:
            return closed, None
        if self.disputed:
            return MatchStateConflict, None
        entry = next((e for e in self.entries if e.number == number), None)
        if entry is None:
            return MatchStateConflict, None
        if actor != "server" and entry.actor == actor:
            return NotPermitted, entry
        if self.side(actor) is not None and self.side(actor) == entry.side:
            return NotPermitted, entry
        return WRITTEN, entry

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule(actor=ANSWERERS, number=st.integers(1, 3), key=KEYS)
    def confirm(self, actor: str, number: int, key: str | None) -> None:
        outcome, entry = self.answer_outcome(actor, number)
        sent = self.send(outcome, kind="deal_confirmed", payload={"entry": number}, actor=actor,
                         idempotency_key=key)  # fmt: skip
        if isinstance(sent, NotPermitted) and outcome is NotPermitted and actor in SEATS:
            assert sent.code in ("own_entry", "own_team_entry"), sent.code
        if not isinstance(sent, AppendResult) or sent.replayed:
            return
        assert entry is not None
        kinds = [e["kind"] for e in sent.events]
        assert kinds[:2] == ["deal_confirmed", "deal_ended"], kinds
        ended = sent.events[1]["payload"]
        assert (tuple(ended["points"]), tuple(map(tuple, ended["sweeps"]))) == entry.result
        self.count(entry.total)
        self.recounted(kinds[1:])

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule(data=st.data(), actor=ANSWERERS, number=st.integers(1, 2), reason=REASONS,
          version=st.booleans())  # fmt: skip
    def reject(
        self, data: st.DataObject, actor: str, number: int, reason: str | None, version: bool
    ) -> None:
        payload: dict[str, Any] = {"entry": number, "reason": reason}
        if version and self.status == matchlog.IN_PROGRESS:
            payload.update(self.a_result(data))
        outcome, _ = self.answer_outcome(actor, number)
        if outcome is WRITTEN and (not isinstance(reason, str) or not reason.strip()
                                   or len(reason) > 500):  # fmt: skip
            outcome = CommandRefused
        sent = self.send(outcome, kind="deal_rejected", payload=payload, actor=actor)
        if isinstance(sent, CommandRefused) and outcome is CommandRefused:
            assert sent.code == "reason_required"
        if isinstance(sent, AppendResult) and not sent.replayed:
            assert [e["kind"] for e in sent.events] == ["deal_rejected"]
            self.disputed = True
            if "points" in payload:  # the entering team may accept these numbers
                total, stored = self.total(payload), self.as_stored(payload)
                self.counter = PendingEntry(number, actor, self.side(actor), total, stored)

    # --- settled at the table: an entry withdrawn, the other version accepted --------------

    def owns(self, actor: str, entry: PendingEntry) -> bool:
        side = self.side(actor)
        return actor in ("server", entry.actor) or (side is not None and side == entry.side)

    def other_version(self, entry: PendingEntry) -> PendingEntry | None:
        if not self.disputed:
            return None
        if self.CONFIRMATION == matchlog.Confirmation.BOTH_ENTER:
            return next((e for e in self.entries if e.number != entry.number), None)
        if self.counter is not None and self.counter.number == entry.number:
            return self.counter
        return None

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule(actor=ANSWERERS, number=st.integers(1, 3), key=KEYS)
    def withdraw(self, actor: str, number: int, key: str | None) -> None:
        """The team that made an entry takes it back (unanswered or disputed); nobody else."""
        outcome: Any = self.closed()
        entry = next((e for e in self.entries if e.number == number), None)
        if outcome is None:
            if entry is None:
                outcome = MatchStateConflict
            else:
                outcome = WRITTEN if self.owns(actor, entry) else NotPermitted
        sent = self.send(outcome, kind="entry_withdrawn", payload={"entry": number}, actor=actor,
                         idempotency_key=key)  # fmt: skip
        if isinstance(sent, NotPermitted) and outcome is NotPermitted and actor != "outsider":
            assert sent.code == "not_your_entry", sent.code
        if not isinstance(sent, AppendResult) or sent.replayed:
            return
        assert [e["kind"] for e in sent.events] == ["entry_withdrawn"]
        self.entries = [e for e in self.entries if e.number != number]
        self.disputed, self.counter = False, None

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule(actor=ANSWERERS, number=st.integers(1, 3))
    def accept_the_other_version(self, actor: str, number: int) -> None:
        """The team that made a disputed entry accepts the other team's numbers: they count."""
        outcome: Any = self.closed()
        entry = next((e for e in self.entries if e.number == number), None)
        version = None if entry is None else self.other_version(entry)
        side = self.side(actor)
        if outcome is not None:
            pass
        elif entry is None or not self.disputed:
            outcome = MatchStateConflict
        elif (
            version is not None
            and actor != "server"
            and (version.actor == actor or (side is not None and side == version.side))
        ):
            outcome = NotPermitted  # own_version
        elif not self.owns(actor, entry):
            outcome = NotPermitted  # not_your_entry
        elif version is None:
            outcome = MatchStateConflict  # no_version
        else:
            outcome = WRITTEN
        sent = self.send(outcome, kind="version_accepted", payload={"entry": number}, actor=actor)
        if isinstance(sent, NotPermitted) and outcome is NotPermitted and actor != "outsider":
            assert sent.code in ("own_version", "not_your_entry"), sent.code
        if not isinstance(sent, AppendResult) or sent.replayed:
            return
        assert version is not None
        kinds = [e["kind"] for e in sent.events]
        assert kinds[:2] == ["version_accepted", "deal_ended"], kinds
        ended = sent.events[1]["payload"]
        assert (tuple(ended["points"]), tuple(map(tuple, ended["sweeps"]))) == version.result
        self.count(version.total)
        self.recounted(kinds[1:])

    @precondition(lambda self: self.disputed and self.status == matchlog.IN_PROGRESS)
    @rule(data=st.data())
    def the_director_settles_a_dispute(self, data: st.DataObject) -> None:
        self.the_director_decides(data, "director")

    @precondition(lambda self: self.status != matchlog.SCHEDULED)
    @rule(data=st.data(), actor=st.sampled_from(["director", "scorekeeper", "seat1"]))
    def the_director_decides(self, data: st.DataObject, actor: str) -> None:
        """A director counts a result at once (a dispute's end); nobody else may."""
        result = self.a_result(data) if self.status == matchlog.IN_PROGRESS else {
            "points": [50, 50], "sweeps": [[], []]}  # fmt: skip
        sent = self.send(self.closed() or WRITTEN, kind="deal_ended", payload=result, actor=actor)
        if isinstance(sent, AppendResult) and not sent.replayed:
            kinds = [e["kind"] for e in sent.events]
            self.count(self.total(result))
            self.recounted(kinds)

    # --- a director's corrections ----------------------------------------------------------

    def counted_deals(self) -> list[int]:
        return [n for kind, n, _ in self.ledger if kind == "deal"]

    def correction(
        self, kind: str, payload: dict[str, Any], actor: str, ledger: list[tuple[str, int, Any]],
        reason: str | None,
    ) -> None:  # fmt: skip
        """Send a correction whose ledger would be ``ledger``; predict and follow its outcome."""
        payload = {**payload, "reason": reason}
        outcome: Any = WRITTEN
        if self.status == matchlog.SCHEDULED:
            outcome = MatchStateConflict
        elif kind in ("deal_corrected", "deal_voided") and (
            payload["deal"] not in self.counted_deals()
        ):
            outcome = CommandRefused  # no_such_deal
        elif kind == "score_adjusted" and self.status != matchlog.IN_PROGRESS:
            outcome = MatchStateConflict  # match_over
        elif kind == "match_forfeited" and self.forfeit is not None:
            outcome = MatchStateConflict  # forfeited
        elif not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
            outcome = CommandRefused  # reason_required
        else:
            try:
                self.standing(ledger)
            except sc.SeepError:
                outcome = CommandRefused  # correction_ends_early
        was = self.status
        sent = self.send(outcome, kind=kind, payload=payload, actor=actor)
        if isinstance(sent, CommandRefused) and outcome is CommandRefused:
            assert sent.code in ("no_such_deal", "reason_required", "correction_ends_early")
        if not isinstance(sent, AppendResult) or sent.replayed:
            return
        self.ledger = ledger
        if kind == "match_forfeited":
            self.forfeit = payload["team"]
        kinds = [e["kind"] for e in sent.events]
        assert kinds[0] == kind
        self.recounted(kinds, was)

    @rule(data=st.data(), actor=st.sampled_from(["director", "server", "scorekeeper", "seat0"]),
          reason=REASONS, void=st.booleans())  # fmt: skip
    def correct_or_void_a_deal(
        self, data: st.DataObject, actor: str, reason: str | None, void: bool
    ) -> None:
        number = data.draw(st.sampled_from([*self.counted_deals(), 0, self.deal_no + 1]))
        ours = data.draw(st.sampled_from([0, 20, 50, 80, 100]))
        # 50s only: a sweep of either team in any deal (W1), whoever dealt it
        sweeps = [[50] * data.draw(st.integers(0, 2)), [50] * data.draw(st.integers(0, 2))]
        result = {"points": [ours, 100 - ours], "sweeps": sweeps}
        if void:
            ledger = [i for i in self.ledger if not (i[0] == "deal" and i[1] == number)]
            self.correction("deal_voided", {"deal": number}, actor, ledger, reason)
        else:
            total = self.total(result)
            ledger = [("deal", n, total) if k == "deal" and n == number else (k, n, t)
                      for k, n, t in self.ledger]  # fmt: skip
            self.correction("deal_corrected", {"deal": number, **result}, actor, ledger, reason)

    @rule(actor=st.sampled_from(["director", "server", "seat2"]), team=st.integers(0, 1),
          points=st.sampled_from([-150, -40, 10, 60, 120]), reason=REASONS)  # fmt: skip
    def adjust(self, actor: str, team: int, points: int, reason: str | None) -> None:
        ledger = [*self.ledger, ("adjust", team, points)]
        self.correction("score_adjusted", {"team": team, "points": points}, actor, ledger, reason)

    @precondition(lambda self: self.status == matchlog.FINISHED and self.forfeit is None)
    @rule(void=st.booleans())
    def undo_the_last_deal_of_a_finished_match(self, void: bool) -> None:
        """Void the deal that ended the match, or make it level: the match is most often
        reopened (or, with adjustments after it, ended again)."""
        number = self.counted_deals()[-1] if self.counted_deals() else 1
        if void:
            ledger = [i for i in self.ledger if not (i[0] == "deal" and i[1] == number)]
            self.correction("deal_voided", {"deal": number}, "director", ledger, "a misdeal")
        else:
            level = {"points": [50, 50], "sweeps": [[], []]}
            ledger = [("deal", n, (50, 50)) if k == "deal" and n == number else (k, n, t)
                      for k, n, t in self.ledger]  # fmt: skip
            self.correction("deal_corrected", {"deal": number, **level}, "director", ledger,
                            "misread")  # fmt: skip

    @precondition(lambda self: len(self.ledger) >= 2)  # later: a forfeit ends what it reaches
    @rule(actor=st.sampled_from(["director", "server", "scorekeeper"]), team=st.integers(0, 1),
          reason=REASONS)  # fmt: skip
    def forfeit_the_match(self, actor: str, team: int, reason: str | None) -> None:
        self.correction("match_forfeited", {"team": team}, actor, list(self.ledger), reason)


class OtherTeamConfirmsMachine(ConfirmedScoreMachine):
    CONFIRMATION = matchlog.Confirmation.OTHER_TEAM


class BothEnterMachine(ConfirmedScoreMachine):
    CONFIRMATION = matchlog.Confirmation.BOTH_ENTER


def test_a_digital_match_log_always_replays_to_its_snapshot() -> None:
    run_state_machine_as_test(DigitalMatchMachine, settings=examples(15))


def test_a_score_match_log_always_replays_to_its_snapshot() -> None:
    run_state_machine_as_test(ScoreMatchMachine, settings=examples(25))


def test_a_score_match_with_the_other_team_confirming_always_replays_to_its_snapshot() -> None:
    run_state_machine_as_test(OtherTeamConfirmsMachine, settings=examples(10))


def test_a_score_match_with_both_sides_entering_always_replays_to_its_snapshot() -> None:
    run_state_machine_as_test(BothEnterMachine, settings=examples(10))


def test_examples_do_not_see_each_others_matches(db: None) -> None:
    """Each example's match is rolled back with it: nothing is left behind for the next."""
    machine = ScoreMatchMachine()
    try:
        machine.start(dealer=0, on_the_match=False, actor="director", key="k1", seed=1)
        assert Match.objects.count() == 1 and MatchEvent.objects.count() == 1
    finally:
        machine.teardown()
    assert not Match.objects.exists() and not MatchEvent.objects.exists()
