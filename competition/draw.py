"""The one bridge between the pure formats and the tables (as Tabbycat's ``draw/manager.py``).

A stage's rows are read into the formats' terms here (its field in seed order, its groups,
its schedule, its next Swiss round, its bracket and how far the results have taken it), and
what the formats decide is written back as rows here (a drawn bracket). A new way to pair or
seed is a function here, not a branch in a service.

Everything here reads, but ``draw_bracket`` (and ``entrants``, which records a random
seeding's seed on the stage, unsaved): the services call them inside their transaction, with
the stage's row locked. The selectors read through the same functions.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from tournaments.models import Team

from . import formats, standings
from .cut import cut_for_stage, qualified
from .models import Fixture, Registration, Round, Stage

#: the drop orders a double-elimination bracket is drawn with now (recorded on its stage)
DRAW_DROP_ORDERS: formats.DropOrders = "measured"


def stage_points(stage: Stage) -> formats.Points:
    """Return the stage's match points per outcome."""
    return formats.Points(
        win=stage.points_win,
        draw=stage.points_draw,
        loss=stage.points_loss,
        bye=stage.points_bye,
        forfeit=stage.points_forfeit,
    )


# --- the field --------------------------------------------------------------------------


def entrants(stage: Stage) -> list[Team]:
    """Return the teams that enter a stage as it starts, in seed order.

    Every checked-in team that has not withdrawn, seeded by the stage's rule (a random
    seeding draws its seed and records it on ``stage``, unsaved), or the top N of the stage
    before (of each of its groups). Teams level on every tie-break go on in their seed order
    there, except across the cut line: a tie there waits for a director's decision (``cut``).
    """
    if stage.entry == Stage.Entry.REGISTERED:
        registrations = list(
            Registration.objects.filter(
                tournament=stage.tournament, checked_in_at__isnull=False, withdrawn_at__isnull=True
            ).select_related("team")
        )
        if stage.seeding == Stage.Seeding.RATING:
            registrations.sort(
                key=lambda r: (r.rating is None, -(r.rating or 0), r.seed or 1 << 30, r.team.name)
            )
        else:
            registrations.sort(key=lambda r: (r.seed is None, r.seed or 0, r.registered_at, r.pk))
        teams = [r.team for r in registrations]
        if stage.seeding == Stage.Seeding.RANDOM:
            if stage.seeding_seed is None:
                stage.seeding_seed = secrets.randbits(48)
            random.Random(stage.seeding_seed).shuffle(teams)
        return teams
    previous = Stage.objects.get(tournament=stage.tournament, order=stage.order - 1)
    found = cut_for_stage(stage, previous=previous)
    assert found is not None
    lines = qualified(found)
    count = stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP:
        ids = lines[0][:count]
    else:
        by_group = {
            (line[0].group or 0): teams
            for line, teams in zip(found.lines, lines, strict=True)
            if line
        }
        groups = previous.groups or 1
        order = formats.knockout_seeds(groups=groups, advance=count)
        ids = [
            by_group[g][place - 1]
            for g, place in order
            if g in by_group and len(by_group[g]) >= place
        ]
    by_id = {t.pk: t for t in Team.objects.filter(pk__in=ids)}
    return [by_id[i] for i in ids]


def groups_of(stage: Stage, teams: Sequence[int]) -> dict[int, int]:
    """Return each team's group (by id), dealt from the seeds like a snake; empty for a stage
    without groups."""
    if stage.format != Stage.Format.GROUPS:
        return {}
    assert stage.groups is not None
    dealt = formats.snake_groups(list(teams), groups=stage.groups)
    return {team: g for g, members in enumerate(dealt) for team in members}


# --- rounds -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """One fixture of a round the formats paired: its table, its teams, and for Swiss who
    floats."""

    table: int | None
    a: int
    b: int | None  # None: a bye for a
    group: int | None = None
    floats: tuple[dict[str, Any], ...] = ()


def schedule(stage: Stage) -> list[list[Pairing]]:
    """Return every round of a round-robin or group stage (deterministic from the seeds)."""
    entries = list(stage.entries.order_by("seed").values_list("team_id", "group"))
    legs = 2 if stage.format == Stage.Format.DOUBLE_ROUND_ROBIN else 1
    if stage.format != Stage.Format.GROUPS:
        return [
            [Pairing(p.table, p.a, p.b) for p in r.pairings]
            + ([Pairing(None, r.bye, None)] if r.bye is not None else [])
            for r in formats.round_robin([t for t, _ in entries], legs=legs)
        ]
    by_group: dict[int, list[int]] = {}
    for team, group in entries:
        by_group.setdefault(group or 0, []).append(team)
    schedules = {g: formats.round_robin(teams) for g, teams in sorted(by_group.items())}
    count = max(len(s) for s in schedules.values())
    out = []
    for n in range(count):
        table = 0
        rows = []
        for g, rounds in schedules.items():
            if n >= len(rounds):
                continue
            for p in rounds[n].pairings:
                table += 1
                rows.append(Pairing(table, p.a, p.b, g))
            bye = rounds[n].bye
            if bye is not None:
                rows.append(Pairing(None, bye, None, g))
        out.append(rows)
    return out


def swiss_round(stage: Stage, number: int) -> tuple[list[Pairing], dict[str, Any]]:
    """Return round ``number`` of a Swiss stage, paired from the standings after the round
    before, and the record of how it was paired (stored on the round)."""
    withdrawn = set(
        Registration.objects.filter(
            tournament=stage.tournament, withdrawn_at__isnull=False
        ).values_list("team_id", flat=True)
    )
    playing = {
        team
        for team, joined in stage.entries.values_list("team_id", "joined_round")
        if joined <= number and team not in withdrawn
    }
    ranked = [(r.team_id, r.points) for r in standings.standings_rows_now(stage, number - 1)]
    ranked = [(team, points) for team, points in ranked if team in playing]
    ranked_ids = {team for team, _ in ranked}
    ranked += [(team, 0) for team in sorted(playing - ranked_ids)]  # late entries: no points
    ranked.sort(key=lambda tp: -tp[1])  # points never rise down the list (stable: rank order)
    met = Fixture.objects.filter(
        stage=stage, team_a__isnull=False, team_b__isnull=False
    ).values_list("team_a_id", "team_b_id")
    byes = Fixture.objects.filter(stage=stage, result=Fixture.Result.BYE).values_list(
        "team_a_id", flat=True
    )
    method = cast(formats.Method, stage.swiss_method)  # one of its choices (and checked there)
    paired = formats.swiss_pairings(
        ranked, round_number=number, played=list(met), byes=list(byes), method=method
    )
    floats: dict[int, list[dict[str, Any]]] = {}
    for f in paired.floats:
        floats.setdefault(f.entrant, []).append(
            {"team": f.entrant, "direction": f.direction, "score": f.score,
             "opponent": f.opponent, "opponent_score": f.opponent_score}
        )  # fmt: skip
    pairings = [
        Pairing(p.table, p.a, p.b, floats=(*floats.get(p.a, ()), *floats.get(p.b, ())))
        for p in paired.pairings
    ]
    if paired.bye is not None:
        pairings.append(Pairing(None, paired.bye, None))
    cost = paired.cost
    record = {
        "method": stage.swiss_method,
        "solver": paired.solver,
        "cost": {
            "rematches": cost.rematches, "bye_rank": cost.bye_rank,
            "score_gaps": cost.score_gaps, "fold": cost.fold, "closeness": cost.closeness,
        },
        "window": paired.window,
        "fold_proven": paired.fold_proven,
        "edges": paired.edges,
    }  # fmt: skip
    return pairings, record


def meetings(stage: Stage, before_round: int) -> dict[frozenset[int], list[int]]:
    """Return, for each pair of the stage's teams that has met, the rounds (before
    ``before_round``) it met in."""
    met: dict[frozenset[int], list[int]] = {}
    for a, b, number in Fixture.objects.filter(
        stage=stage, round__number__lt=before_round, team_a__isnull=False, team_b__isnull=False
    ).values_list("team_a_id", "team_b_id", "round__number"):
        met.setdefault(frozenset((a, b)), []).append(number)
    return met


def is_rematch(stage: Stage, met_in: list[int]) -> bool:
    """Whether meeting again after ``met_in`` is a rematch (a double round robin meets twice)."""
    return len(met_in) > (1 if stage.format == Stage.Format.DOUBLE_ROUND_ROBIN else 0)


# --- brackets ---------------------------------------------------------------------------


def bracket_of(stage: Stage, seeds: Sequence[int] | None = None) -> formats.Bracket:
    """Return the stage's bracket as the formats build it from its seeds (deterministic),
    a double elimination with the drop orders it was drawn with."""
    if seeds is None:
        seeds = list(stage.entries.order_by("seed").values_list("team_id", flat=True))
    if stage.format == Stage.Format.SINGLE_ELIMINATION:
        return formats.single_elimination(seeds, third_place=stage.third_place)
    drop_orders = cast(formats.DropOrders, stage.drop_orders)  # the field's choices
    return formats.double_elimination(seeds, reset=stage.grand_final_reset, drop_orders=drop_orders)


def slot_text(slot: formats.Slot) -> str:
    """Return where a bracket slot's team comes from, in words: "seed 3", "winner of QF1"."""
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
    bracket = bracket_of(stage, seeds)
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
            source_a=slot_text(f.slot_a),
            source_b=slot_text(f.slot_b),
            team_a_id=team.get(f.slot_a.number) if isinstance(f.slot_a, formats.Seed) else None,
            team_b_id=team.get(f.slot_b.number) if isinstance(f.slot_b, formats.Seed) else None,
            winner_to="" if f.winner_to is None else f"{f.winner_to[0]}:{f.winner_to[1]}",
            loser_to="" if f.loser_to is None else f"{f.loser_to[0]}:{f.loser_to[1]}",
            played_if="" if f.played_if is None else f"{f.played_if[0]}:{f.played_if[1]}",
        )
        for f in bracket.fixtures
    )


def seed_sides(stage: Stage) -> dict[str, str]:
    """Return, by fixture key, the sides ("a", "b", "ab") of a bracket its draw fills."""
    sides: dict[str, str] = {}
    for f in bracket_of(stage).fixtures:
        sides[f.key] = ("a" if isinstance(f.slot_a, formats.Seed) else "") + (
            "b" if isinstance(f.slot_b, formats.Seed) else ""
        )
    return sides


def bracket_state(stage: Stage, fixtures: Iterable[Fixture] | None = None) -> formats.BracketState:
    """Return the formats' reading of a bracket stage's results so far (its champion...),
    from ``fixtures`` (the stage's, when the caller has them) or the stage's stored ones."""
    if fixtures is None:
        fixtures = Fixture.objects.filter(stage=stage).select_related("team_a", "team_b")
    results = {}
    for f in fixtures:
        winner = f.winner()
        if winner is not None:
            results[f.key] = winner.pk
    return formats.advance(bracket_of(stage), results)
