"""Brackets: drawn when their stage starts, and brought up to the results as they come."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from tournaments.errors import MatchStateConflict
from tournaments.models import Team
from tournaments.services import match_reassign

from .. import formats
from ..models import Fixture, Notice, Registration, Round, Stage
from . import _common, rounds

log = logging.getLogger(__name__)

#: the drop orders a double-elimination bracket is drawn with now (recorded on its stage)
DRAW_DROP_ORDERS: formats.DropOrders = "measured"


def _bracket(stage: Stage, seeds: Sequence[int] | None = None) -> formats.Bracket:
    """Return the stage's bracket as the formats build it from its seeds (deterministic),
    a double elimination with the drop orders it was drawn with."""
    if seeds is None:
        seeds = list(stage.entries.order_by("seed").values_list("team_id", flat=True))
    if stage.format == Stage.Format.SINGLE_ELIMINATION:
        return formats.single_elimination(seeds, third_place=stage.third_place)
    drop_orders = cast(formats.DropOrders, stage.drop_orders)  # the field's choices
    return formats.double_elimination(seeds, reset=stage.grand_final_reset, drop_orders=drop_orders)


def _slot_text(slot: formats.Slot) -> str:
    if isinstance(slot, formats.Seed):
        return f"seed {slot.number}"
    if isinstance(slot, formats.WinnerOf):
        return f"winner of {slot.fixture}"
    return f"loser of {slot.fixture}"


def draw_bracket(stage: Stage, seeds: list[int]) -> None:
    """Store a bracket: a round per part and round of it, a fixture per bracket fixture.

    A double elimination records the drop orders it is drawn with, to be read with them.
    """
    if stage.format == Stage.Format.DOUBLE_ELIMINATION:
        stage.drop_orders = DRAW_DROP_ORDERS
        stage.save(update_fields=["drop_orders"])
    bracket = _bracket(stage, seeds)
    rounds: dict[tuple[str, int], Round] = {}
    names = {"main": "round", "winners": "winners' round", "losers": "losers' round"}
    last_main = max((f.round for f in bracket.fixtures if f.part == "main"), default=0)
    for f in bracket.fixtures:
        part_round = (f.part, f.round)
        if part_round not in rounds:
            if f.part == "main" and f.round == last_main:
                name = "final"
            elif f.part == "main" and f.round == last_main - 1:
                name = "semi-finals"
            elif f.part == "third_place":
                name = "third-place match"
            elif f.part == "final":
                name = "grand final" if f.round == 1 else "grand final reset"
            else:
                name = f"{names.get(f.part, f.part)} {f.round}"
            rounds[part_round] = Round.objects.create(
                stage=stage, number=len(rounds) + 1, name=name, part=f.part
            )
    team = {n: t for n, t in enumerate(seeds, start=1)}
    Fixture.objects.bulk_create(
        Fixture(
            stage=stage,
            round=rounds[(f.part, f.round)],
            key=f.key,
            source_a=_slot_text(f.slot_a),
            source_b=_slot_text(f.slot_b),
            team_a_id=team.get(f.slot_a.number) if isinstance(f.slot_a, formats.Seed) else None,
            team_b_id=team.get(f.slot_b.number) if isinstance(f.slot_b, formats.Seed) else None,
            winner_to="" if f.winner_to is None else f"{f.winner_to[0]}:{f.winner_to[1]}",
            loser_to="" if f.loser_to is None else f"{f.loser_to[0]}:{f.loser_to[1]}",
            played_if="" if f.played_if is None else f"{f.played_if[0]}:{f.played_if[1]}",
        )
        for f in bracket.fixtures
    )


def publish_draw(*, actor: Any, stage: Stage) -> Round:
    """Publish a drawn bracket (its first round: the whole bracket), as a director would."""
    first = stage.round_set.order_by("number").first()
    assert first is not None  # drawn: a bracket has at least its final
    return rounds.round_publish(actor=actor, round=first)


def bracket_state(stage: Stage) -> formats.BracketState:
    """Return the formats' reading of a bracket stage's results so far (its champion...)."""
    results = {}
    for f in Fixture.objects.filter(stage=stage).select_related("team_a", "team_b"):
        winner = f.winner()
        if winner is not None:
            results[f.key] = winner.pk
    return formats.advance(_bracket(stage), results)


def reconcile_bracket(stage: Stage) -> list[tuple[str, str]]:
    """Bring the stored bracket up to the formats' placement of the results so far.

    Call with the stage's row locked (so two completions are placed one after the other).
    Each team is placed by a conditional update of an empty slot, so a placement is made
    once, whoever asks again; a match is created for a fixture once both teams are known.
    A corrected result that sends another team to a slot (or none, while its match is open
    again) changes the slot's entrant if that fixture's match has not begun; otherwise the
    directors get a notice saying why it cannot. Returns what could not be done, as
    (fixture key, message) pairs.
    """
    fixtures = {f.key: f for f in Fixture.objects.filter(stage=stage).select_related("match")}
    results = {}
    for f in fixtures.values():
        winner = f.winner()
        if winner is not None:
            results[f.key] = winner.pk
    state = formats.advance(_bracket(stage), results)
    problems = []
    published = stage.round_set.filter(status=Round.Status.DRAFT).count() == 0
    for placed in state.fixtures:
        fixture = fixtures[placed.key]
        for side, team_id in (("a", placed.a), ("b", placed.b)):
            current = getattr(fixture, f"team_{side}_id")
            if current == team_id:
                continue
            if current is None:
                written = Fixture.objects.filter(
                    pk=fixture.pk, **{f"team_{side}__isnull": True}
                ).update(**{f"team_{side}_id": team_id})
                if written:
                    setattr(fixture, f"team_{side}_id", team_id)
            else:  # a corrected result sends another team here, or none yet (reopened)
                problem = _replace_entrant(fixture, side, team_id)
                if problem:
                    problems.append(problem)
        if placed.status == "void" and fixture.result == Fixture.Result.PENDING:
            Fixture.objects.filter(pk=fixture.pk, result="").update(result=Fixture.Result.VOID)
            fixture.result = Fixture.Result.VOID
        elif placed.status == "ready" and published and fixture.result == "":
            _settle_or_start(stage, fixture)
    for fixture_key, message in problems:
        log.warning("stage %s bracket: %s", stage.pk, message)
        _common.notice(stage, fixtures[fixture_key], "bracket_entrant_fixed", message)
    if state.finished:
        rounds.complete_stage(stage)
    return problems


def _replace_entrant(fixture: Fixture, side: str, team_id: int | None) -> tuple[str, str] | None:
    """Put ``team_id`` (None: nobody yet) in a slot that holds another team, if still possible."""
    current = getattr(fixture, f"team_{side}_id")
    what = f"team {team_id}" if team_id is not None else "no team until its source is decided"
    if fixture.result != Fixture.Result.PENDING:
        return fixture.key, (
            f"{fixture.key} was decided with team {current}; the corrected results send {what}"
        )
    if fixture.match_id is not None:
        assert fixture.match is not None
        teams = {"a": fixture.team_a_id, "b": fixture.team_b_id, side: team_id}
        discarded = teams["a"] is None or teams["b"] is None
        if discarded:  # the fixture lets go of a match that is discarded (it protects it)
            Fixture.objects.filter(pk=fixture.pk).update(match=None)
        try:
            kept = match_reassign(
                match=fixture.match,
                team0=None if teams["a"] is None else Team.objects.get(pk=teams["a"]),
                team1=None if teams["b"] is None else Team.objects.get(pk=teams["b"]),
            )
        except MatchStateConflict:
            if discarded:
                Fixture.objects.filter(pk=fixture.pk).update(match=fixture.match_id)
            return fixture.key, (
                f"{fixture.key}: match {fixture.match_id} has begun with team {current}; the "
                f"corrected results send {what}. Its teams are fixed: let it stand, or forfeit "
                f"it and settle the bracket by hand"
            )
        fixture.match = kept
    setattr(fixture, f"team_{side}_id", team_id)
    fixture.save(update_fields=[f"team_{side}", "match"])
    log.info("fixture %s: entrant %s replaced by %s after a correction", fixture.key, current, what)
    return None


def notice_resolve(*, actor: Any, notice: Notice) -> Notice:
    """Mark a notice as dealt with (a director of its tournament)."""
    _common.require_director(actor, notice.stage.tournament)
    Notice.objects.filter(pk=notice.pk, resolved_at__isnull=True).update(
        resolved_at=timezone.now(), resolved_by=actor
    )
    notice.refresh_from_db()
    return notice


def _settle_or_start(stage: Stage, fixture: Fixture) -> None:
    """A fixture whose two teams are known: a forfeit if one has withdrawn, else its match."""
    teams = [t for t in (fixture.team_a_id, fixture.team_b_id) if t is not None]
    withdrawn = set(
        Registration.objects.filter(team_id__in=teams, withdrawn_at__isnull=False).values_list(
            "team_id", flat=True
        )
    )
    if withdrawn:
        side = "a" if fixture.team_a_id in withdrawn else "b"
        result = Fixture.Result.FORFEIT_A if side == "a" else Fixture.Result.FORFEIT_B
        gone = fixture.team_a_id if side == "a" else fixture.team_b_id
        record = {"team": gone, "side": side, "match": fixture.match_id}
        Fixture.objects.filter(pk=fixture.pk, result="").update(result=result, withdrawal=record)
        fixture.result, fixture.withdrawal = result, record
        _reconcile_after_result(stage, fixture)
        return
    if fixture.match_id is None:
        rounds.create_match(stage, fixture)


def _reconcile_after_result(stage: Stage, fixture: Fixture) -> None:
    transaction.on_commit(lambda: _common.schedule_standings(stage.pk))
    rounds.complete_round_if_done(fixture.round)
