"""The standings projection: each stage's table as of each round, from its fixtures' results.

``update_stage_standings`` is the one writer. For each round of the stage (and round 0, the
table before the first: every team that entered, by seed, once the stage starts) it gathers what the
table depends on (the stage's points and tie-breaks, every decided fixture up to that round,
and each match's figures from scoring: bazzis, running difference, points difference,
deals won, sweeps), and rewrites the round's rows only when the digest of those inputs
changed since the last run (the checkpoint). Safe to run twice or concurrently (the
checkpoint rows are locked before the inputs are read), late, or after a lost message (the
catch-up runs it again); a rebuild from scratch gives the same rows. The table itself is
computed by the pure ``competition.formats.standings``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.models import DealResult, MatchResult

from . import formats
from . import happenings as told
from .models import Fixture, Round, Stage, StandingRow, StandingsCheckpoint
from .signals import standings_changed

ROW_FIELDS = ("group", "rank", "points", "played", "won", "drawn", "lost", "byes", "tiebreaks")
#: the outcome of each side of a fixture's result
OUTCOMES: dict[str, tuple[formats.Outcome, formats.Outcome]] = {
    Fixture.Result.A: ("win", "loss"),
    Fixture.Result.B: ("loss", "win"),
    Fixture.Result.DRAW: ("draw", "draw"),
    Fixture.Result.FORFEIT_A: ("forfeit", "win"),
    Fixture.Result.FORFEIT_B: ("win", "forfeit"),
}


@dataclass(frozen=True)
class _Inputs:
    """Everything one stage's standings depend on, read in one go."""

    settings: dict[str, Any]
    entrants: dict[int, int | None]  # team -> group
    matches: list[tuple[int, int | None, formats.Match]]  # (round, group, match)
    seeds: dict[int, int]  # team -> seed (the order of round 0's table)


def _figures(stage: Stage) -> dict[int, dict[str, Any]]:
    """Return each completed match's figures by match id (from scoring's projection)."""
    figures: dict[int, dict[str, Any]] = {}
    for match_id, b0, b1, difference in MatchResult.objects.filter(
        match__fixture__stage=stage, completed_at__isnull=False
    ).values_list("match_id", "bazzis0", "bazzis1", "difference"):
        figures[match_id] = {"bazzis": (b0, b1), "difference": difference, "deals": [0, 0],
                             "sweeps": [0, 0], "points": 0}  # fmt: skip
    for match_id, t0, t1, s0, s1 in DealResult.objects.filter(
        match__fixture__stage=stage, match_id__in=list(figures)
    ).values_list("match_id", "total0", "total1", "sweeps0", "sweeps1"):
        f = figures[match_id]
        f["points"] += t0 - t1
        if t0 > t1:
            f["deals"][0] += 1
        elif t1 > t0:
            f["deals"][1] += 1
        f["sweeps"][0] += len(s0)
        f["sweeps"][1] += len(s1)
    return figures


def _read_inputs(stage: Stage) -> _Inputs:
    entries = list(stage.entries.values_list("team_id", "group", "seed"))
    entrants = {team: group for team, group, _ in entries}
    figures = _figures(stage)
    matches = []
    for number, group, result, a, b, match_id in (
        Fixture.objects.filter(
            stage=stage, round__status__in=(Round.Status.PUBLISHED, Round.Status.COMPLETE)
        )
        .exclude(result__in=("", Fixture.Result.VOID))
        .values_list("round__number", "group", "result", "team_a_id", "team_b_id", "match_id")
        .order_by("round__number", "id")
    ):
        if result == Fixture.Result.BYE:
            matches.append((number, group, formats.Match(number, formats.Side(a, "bye"))))
            continue
        out_a, out_b = OUTCOMES[result]
        f = figures.get(match_id) if match_id is not None else None
        if f is None:  # a forfeit (no match played): no figures
            side_a, side_b = formats.Side(a, out_a), formats.Side(b, out_b)
        else:
            d, p = f["difference"], f["points"]
            side_a = formats.Side(a, out_a, f["bazzis"][0], f["bazzis"][1], d, f["deals"][0],
                                  f["sweeps"][0], p)  # fmt: skip
            side_b = formats.Side(b, out_b, f["bazzis"][1], f["bazzis"][0], -d, f["deals"][1],
                                  f["sweeps"][1], -p)  # fmt: skip
        matches.append((number, group, formats.Match(number, side_a, side_b)))
    settings = {
        "points": [stage.points_win, stage.points_draw, stage.points_loss, stage.points_bye,
                   stage.points_forfeit],
        "tiebreaks": list(stage.tiebreaks),
        "seed": stage.tiebreak_seed,
        "grouped": stage.format == Stage.Format.GROUPS,
    }  # fmt: skip
    return _Inputs(settings, entrants, matches, {team: seed for team, _, seed in entries})


def _digest(inputs: _Inputs, as_of_round: int) -> str:
    counted = [
        [n, g, m.a.entrant, m.a.outcome, m.a.bazzis_won, m.a.bazzis_lost, m.a.running_difference,
         m.a.deals_won, m.a.sweeps, m.a.points_difference]
        + ([] if m.b is None else [m.b.entrant, m.b.outcome, m.b.bazzis_won, m.b.bazzis_lost,
                                   m.b.running_difference, m.b.deals_won, m.b.sweeps,
                                   m.b.points_difference])
        for n, g, m in inputs.matches
        if n <= as_of_round
    ]  # fmt: skip
    made_of = [inputs.settings, sorted(inputs.entrants.items()), counted]
    if as_of_round == 0:  # the seeding: ranked by seed
        made_of.append(sorted(inputs.seeds.items()))
    body = json.dumps(made_of, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _value(value: formats.Value | None) -> Any:
    if isinstance(value, Fraction):
        return (
            value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
        )
    return value


def compute_rows(stage: Stage, inputs: _Inputs, as_of_round: int) -> list[StandingRow]:
    """Return the stage's rows as of a round (unsaved), from its inputs, group by group.

    Round 0 is the table before the first round: every team with nothing played, ranked by
    its seed (within its group), one to a place.
    """
    points = formats.Points(*inputs.settings["points"])
    tiebreaks = inputs.settings["tiebreaks"]
    seed = inputs.settings["seed"]
    groups: dict[int | None, list[int]] = defaultdict(list)
    for team, group in inputs.entrants.items():
        groups[group if inputs.settings["grouped"] else None].append(team)
    rows = []
    for group, teams in sorted(groups.items(), key=lambda gt: (gt[0] is None, gt[0] or 0)):
        members = set(teams)
        matches = [m for n, _, m in inputs.matches if n <= as_of_round and m.a.entrant in members]
        table = formats.standings(
            matches, points=points, tiebreaks=tiebreaks, entrants=teams,
            as_of_round=as_of_round, seed=seed,
        )  # fmt: skip
        lines = list(table.rows)
        if as_of_round == 0:
            lines.sort(key=lambda r: inputs.seeds.get(r.entrant, 0))
            lines = [dataclasses.replace(r, rank=n) for n, r in enumerate(lines, start=1)]
        rows += [
            StandingRow(
                stage=stage,
                as_of_round=as_of_round,
                team_id=r.entrant,
                group=group,
                rank=r.rank,
                points=r.points,
                played=r.played,
                won=r.won,
                drawn=r.drawn,
                lost=r.lost,
                byes=r.byes,
                tiebreaks=[[name, _value(value)] for name, value in r.tiebreaks],
            )
            for r in lines
        ]
    return rows


def _rounds(stage: Stage) -> list[int]:
    return list(
        stage.round_set.filter(status__in=(Round.Status.PUBLISHED, Round.Status.COMPLETE))
        .order_by("number")
        .values_list("number", flat=True)
    )


def update_stage_standings(*, stage_id: int, rebuild: bool = False) -> int:
    """Bring a stage's standings up to its results; return how many rows were written.

    ``rebuild`` ignores the checkpoints and recomputes every round.
    """
    stage = Stage.objects.filter(pk=stage_id).first()
    if stage is None:
        return 0
    if stage.status == Stage.Status.PENDING:
        return 0  # no team has entered yet
    numbers = [0, *_rounds(stage)]  # round 0: the seeding, every team that entered
    StandingsCheckpoint.objects.bulk_create(
        [StandingsCheckpoint(stage=stage, as_of_round=n, digest="") for n in numbers],
        ignore_conflicts=True,
    )
    written = 0
    changed: list[int] = []
    with transaction.atomic():
        # Locked before the inputs are read: a run that waited for another one reads at least
        # what that one read, so no run can write an older table over a newer one.
        checkpoints = {
            c.as_of_round: c
            for c in StandingsCheckpoint.objects.select_for_update(no_key=True)
            .filter(stage=stage)
            .order_by("as_of_round")
        }
        inputs = _read_inputs(stage)
        for number in numbers:
            checkpoint = checkpoints[number]
            digest = _digest(inputs, number)
            if digest == checkpoint.digest and not rebuild:
                continue
            rows = _write_rows(stage, number, compute_rows(stage, inputs, number))
            written += rows
            if rows:
                changed.append(number)
            checkpoint.digest, checkpoint.updated_at = digest, timezone.now()
            checkpoint.save(update_fields=["digest", "updated_at"])
        if changed:
            told.standings_changed(stage, changed)  # with the tables (competition.happenings)
            transaction.on_commit(
                lambda: standings_changed.send(sender=Stage, stage_id=stage_id, rounds=changed),
                robust=True,
            )
    return written


def _write_rows(stage: Stage, as_of_round: int, rows: list[StandingRow]) -> int:
    """Make the stored rows of a round equal ``rows``, writing only what differs.

    A row that changed is deleted and made again, in two statements whatever their number:
    Django's ``bulk_update`` builds a CASE of every changed row for every field, which took
    seconds for a 256-team round whose ranks shifted (nothing refers to a row by its key).
    """
    stored = {
        r.team_id: r for r in StandingRow.objects.filter(stage=stage, as_of_round=as_of_round)
    }
    create, gone = [], []
    for row in rows:
        current = stored.pop(row.team_id, None)
        if current is None or any(
            getattr(current, name) != getattr(row, name) for name in ROW_FIELDS
        ):
            create.append(row)
            if current is not None:
                gone.append(current.pk)
    changed = len(create)
    gone.extend(r.pk for r in stored.values())
    if gone:
        StandingRow.objects.filter(pk__in=gone).delete()
    StandingRow.objects.bulk_create(create)
    return changed + len(stored)


@dataclass(frozen=True)
class SeedRow:
    """A team's line before a stage's first round: by seed, no points."""

    team_id: int
    points: int
    group: int | None
    rank: int


def standings_rows_now(stage: Stage, as_of_round: int) -> list[Any]:
    """Return the stage's rows as of a round, brought up to date first (for pairing).

    Round 0 is the seeding: every team by seed, with no points.
    """
    if as_of_round < 1:
        return [
            SeedRow(team, 0, group, seed)
            for team, group, seed in stage.entries.order_by("seed").values_list(
                "team_id", "group", "seed"
            )
        ]
    update_stage_standings(stage_id=stage.pk)
    return list(StandingRow.objects.filter(stage=stage, as_of_round=as_of_round).order_by("rank"))


def last_round(stage: Stage) -> int:
    """Return the number of the stage's last published round (0: none yet, the seeding)."""
    numbers = _rounds(stage)
    return numbers[-1] if numbers else 0


def final_standings(stage: Stage) -> list[Any]:
    """Return the stage's rows after its last round (group by group, each by rank)."""
    numbers = _rounds(stage)
    if not numbers:
        return standings_rows_now(stage, 0)
    update_stage_standings(stage_id=stage.pk)
    return list(
        StandingRow.objects.filter(stage=stage, as_of_round=numbers[-1]).order_by("group", "rank")
    )


def rebuild_all_standings(stages: Iterable[int] | None = None) -> str:
    """Recompute every stage's standings from its results (``rebuild_projections``)."""
    ids = (
        list(Stage.objects.order_by("pk").values_list("pk", flat=True))
        if stages is None
        else list(stages)
    )
    rows = sum(update_stage_standings(stage_id=i, rebuild=True) for i in ids)
    return f"standings of {len(ids)} stage(s) rebuilt, {rows} row(s) written"
