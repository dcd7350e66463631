"""A qualification's cut: who goes through to a stage that takes the top N (of each group) of
the stage before, and the ties at its line that the standings cannot break.

Teams level on match points and on every tie-break share a place. Where such a tie spans the
cut (the last team through and the first one out share a place), nothing in the standings
says which of them goes through, so the stage cannot start until a director decides it: a lot
drawn on the server (its seed and order recorded) or an order the director sets (after a
play-off at the table, say). Each decision is a ``CutDecision`` row, kept as the record; a
tie is decided once. Ties inside the cut (or below it) change nobody's qualification: teams
level there go through in their seed order in the stage before, as they always have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from . import formats, standings
from .errors import NotNow
from .models import CutDecision, Registration, Stage, StandingRow


@dataclass(frozen=True)
class Place:
    """A team's line in the table the cut is taken from: its group, rank, and whether it
    has withdrawn (it never goes through)."""

    team_id: int
    group: int | None
    rank: int
    withdrawn: bool
    row: StandingRow


@dataclass(frozen=True)
class CutTie:
    """Teams level on everything across the cut line of one table (a group, or the whole).

    ``through``: how many of them go through. ``decision``: how a director decided it, or
    None while it waits.
    """

    key: str
    group: int | None
    rank: int
    teams: tuple[int, ...]
    through: int
    decision: CutDecision | None

    @property
    def decided(self) -> bool:
        return self.decision is not None

    @property
    def place(self) -> str:
        """Where the tie is, in words: "place 4", "place 2 of group B"."""
        group = "" if self.group is None else f" of group {formats.group_name(self.group)}"
        return f"place {self.rank}{group}"


@dataclass(frozen=True)
class Cut:
    """The tables the cut is taken from, each in its order with the decisions applied, and
    the ties at their lines."""

    lines: list[list[Place]]
    ties: list[CutTie]
    count: int

    @property
    def undecided(self) -> list[CutTie]:
        return [t for t in self.ties if not t.decided]


def tie_key(group: int | None, teams: Sequence[int]) -> str:
    """Return the name of a tie: its group ("" for the whole table) and its teams' ids.

    >>> tie_key(None, [9, 3])
    ':3,9'
    """
    return f"{'' if group is None else group}:{','.join(map(str, sorted(teams)))}"


def previous_stage(stage: Stage) -> Stage | None:
    """Return the stage a top-N stage takes its teams from, or None."""
    if stage.entry == Stage.Entry.REGISTERED or not stage.entry_count:
        return None
    return Stage.objects.filter(tournament_id=stage.tournament_id, order=stage.order - 1).first()


def cut_for_stage(stage: Stage, *, previous: Stage | None = None, fresh: bool = True) -> Cut | None:
    """Return the cut of a stage that takes the top N (of each group) of the one before, or
    None for a stage that takes the registered teams (or has no stage before).

    The table is the stage before's standings after its last round, brought up to date first
    (``fresh``; a page that only reads passes False and reads the projection as it is).
    """
    before = previous or previous_stage(stage)
    if before is None:
        return None
    if fresh:
        standings.update_stage_standings(stage_id=before.pk)
    seeds = dict(before.entries.values_list("team_id", "seed"))
    rows = sorted(
        StandingRow.objects.filter(
            stage=before, as_of_round=standings.last_round(before)
        ).select_related("team"),
        key=lambda r: (r.group or 0, r.rank, seeds.get(r.team_id, 1 << 30)),
    )
    withdrawn = set(
        Registration.objects.filter(
            tournament_id=stage.tournament_id, withdrawn_at__isnull=False
        ).values_list("team_id", flat=True)
    )
    places = [Place(r.team_id, r.group, r.rank, r.team_id in withdrawn, r) for r in rows]
    if stage.entry == Stage.Entry.TOP_PER_GROUP:
        by_group: dict[int, list[Place]] = {}
        for p in places:
            by_group.setdefault(p.group or 0, []).append(p)
        lines = [by_group[g] for g in sorted(by_group)]
    else:
        lines = [places]
    decisions = {d.tie: d for d in CutDecision.objects.filter(stage=stage)}
    count = stage.entry_count or 0
    ties: list[CutTie] = []
    decided_lines = []
    for line in lines:
        ordered, tie = _line_cut(line, count, decisions)
        decided_lines.append(ordered)
        if tie is not None:
            ties.append(tie)
    return Cut(decided_lines, ties, count)


def _line_cut(
    line: list[Place], count: int, decisions: dict[str, CutDecision]
) -> tuple[list[Place], CutTie | None]:
    """Return one table in its order (a decided tie's teams in the decided order) and the tie
    across its cut line, if there is one."""
    playing = [p for p in line if not p.withdrawn]
    if len(playing) <= count or count < 1:
        return line, None
    last_in, first_out = playing[count - 1], playing[count]
    if (last_in.group, last_in.rank) != (first_out.group, first_out.rank):
        return line, None
    tied = [p for p in playing if (p.group, p.rank) == (last_in.group, last_in.rank)]
    above = playing.index(tied[0])
    teams = tuple(sorted(p.team_id for p in tied))
    group = last_in.group
    key = tie_key(group, teams)
    decision = decisions.get(key)
    tie = CutTie(key, group, last_in.rank, teams, count - above, decision)
    if decision is None:
        return line, tie
    position = {team: n for n, team in enumerate(decision.order)}
    ordered = sorted(tied, key=lambda p: position[p.team_id])
    slots = iter(ordered)
    in_tie = set(teams)
    return [next(slots) if p.team_id in in_tie else p for p in line], tie


def qualified(cut: Cut) -> list[list[int]]:
    """Return each table's teams that go on, in order (withdrawn teams left out); refused
    while a tie at the cut waits for a director."""
    waiting = cut.undecided
    if waiting:
        raise CutTieUndecided(waiting)
    return [[p.team_id for p in line if not p.withdrawn] for line in cut.lines]


class CutTieUndecided(NotNow):
    """A stage cannot start: teams level on everything across its cut wait for a director."""

    def __init__(self, ties: list[CutTie]) -> None:
        from tournaments.models import Team

        names = dict(
            Team.objects.filter(pk__in=[t for tie in ties for t in tie.teams]).values_list(
                "pk", "name"
            )
        )
        said = "; ".join(
            f"{' and '.join(names.get(t, str(t)) for t in tie.teams)} are level on every "
            f"tie-break at {tie.place}, and {tie.through} of them "
            f"go{'es' if tie.through == 1 else ''} through"
            for tie in ties
        )
        super().__init__(
            f"a tie at the cut waits for a director: {said}. Draw a lot or set their order "
            "on the desk (the stage's cut) before the stage starts",
            code="cut_tie_undecided",
        )
        self.ties = [
            {"group": t.group, "place": t.rank, "teams": list(t.teams), "through": t.through}
            for t in ties
        ]


def decision_words(decision: CutDecision) -> str:
    """Return how a tie was decided, as the standings say it: "lot drawn by ann at 21:04"."""
    at = timezone.localtime(decision.decided_at).strftime("%H:%M")
    if decision.method == CutDecision.Method.LOT:
        return f"lot drawn by {decision.decided_by_name} at {at}"
    return f"director's order ({decision.decided_by_name} at {at})"
