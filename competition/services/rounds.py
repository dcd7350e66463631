"""Rounds: paired as drafts, edited, published (their matches made), and completed."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.errors import AppendRefused
from tournaments.models import Team
from tournaments.services import match_call_off

from .. import draw
from .. import happenings as told
from ..errors import DraftEditRefused, InvalidSettings, NotNow
from ..models import Fixture, Registration, Round, Stage, StageEntry
from . import _common, follow
from .stage_settings import check_stored_settings

log = logging.getLogger(__name__)


def round_pair(*, actor: Any, stage: Stage) -> Round:
    """Pair the stage's next round, as a draft only directors see.

    Round robin and groups follow their schedule (the circle method); Swiss pairs from the
    standings after the previous round, which must be complete. A bracket pairs itself.
    """
    with _common.stage_changing(
        actor,
        stage,
        status=Stage.Status.RUNNING,
        refusal=gettext("the stage is not running"),
        code="stage_not_running",
    ) as locked:
        if locked.elimination:
            raise NotNow(
                gettext("a bracket's rounds follow from its results"), code="bracket_pairs_itself"
            )
        check_stored_settings(locked)  # a row saved past the checks breaks no round
        rounds = list(locked.round_set.order_by("number"))
        if any(r.status == Round.Status.DRAFT for r in rounds):
            raise NotNow(gettext("publish or discard the draft round first"), code="draft_pending")
        number = len(rounds) + 1
        if locked.format == Stage.Format.SWISS:
            if rounds and rounds[-1].status != Round.Status.COMPLETE:
                raise NotNow(
                    gettext("a Swiss round is paired from the standings: finish the round first"),
                    code="round_running",
                )
            if number > (locked.rounds or 0):
                raise NotNow(
                    gettext("the stage has %(rounds)s rounds") % {"rounds": locked.rounds},
                    code="no_more_rounds",
                )
            pairings, record = draw.swiss_round(locked, number)
        else:
            schedule = draw.schedule(locked)
            if number > len(schedule):
                raise NotNow(
                    gettext("the stage has %(rounds)s rounds") % {"rounds": len(schedule)},
                    code="no_more_rounds",
                )
            pairings, record = schedule[number - 1], {"method": "circle"}
        round_ = Round.objects.create(
            stage=locked, number=number, name=f"round {number}", pairing=record
        )
        Fixture.objects.bulk_create(
            Fixture(
                stage=locked,
                round=round_,
                table=p.table,
                team_a_id=p.a,
                team_b_id=p.b,
                group=p.group,
                floats=list(p.floats),
                result=Fixture.Result.BYE if p.b is None else Fixture.Result.PENDING,
            )
            for p in pairings
        )
    return round_


def round_edit(
    *,
    actor: Any,
    round: Round,
    swap_teams: tuple[int, int] | None = None,
    swap_tables: tuple[int, int] | None = None,
    force: bool = False,
) -> list[str]:
    """Edit a draft round: swap two teams, or the tables of two fixtures; return the problems.

    The pairing constraints are checked again after the edit: a team plays at most once,
    no avoidable rematch, no second bye while another team has none, one fixture a table.
    An edit that breaks one is refused with what it breaks (DraftEditRefused), unless
    ``force``; then it is made and the problems are returned.
    """
    _common.require_director(actor, round.stage.tournament)
    with transaction.atomic():
        _common.shown(round.stage.tournament_id, round.stage_id)
        locked = _common.locked_or_gone(
            Round.objects.select_related("stage"), round.pk, _common.round_gone()
        )
        if locked.status != Round.Status.DRAFT:
            raise NotNow(gettext("only a draft round can be edited"), code="round_published")
        fixtures = list(locked.fixtures.order_by("table", "id"))
        if swap_teams is not None:
            _swap_teams(locked.stage, fixtures, *swap_teams)
        elif swap_tables is not None:
            _swap_tables(fixtures, *swap_tables)
        else:
            raise InvalidSettings(
                gettext("say what to swap: two teams or two tables"), code="bad_edit"
            )
        problems = _draft_problems(locked, fixtures)
        if problems and not force:
            raise DraftEditRefused(problems)
        for f in fixtures:
            f.save(update_fields=["team_a", "team_b", "table", "result"])
        if locked.stage.elimination and swap_teams is not None:
            _swap_seeds(locked.stage, *swap_teams)
    return problems


def _swap_teams(stage: Stage, fixtures: list[Fixture], x: int, y: int) -> None:
    spots = [
        (f, side)
        for f in fixtures
        for side in ("a", "b")
        if getattr(f, f"team_{side}_id") in (x, y)
    ]
    if x == y or len(spots) != 2:
        raise InvalidSettings(gettext("name two different teams of this round"), code="bad_edit")
    (f1, s1), (f2, s2) = spots
    t1, t2 = getattr(f1, f"team_{s1}_id"), getattr(f2, f"team_{s2}_id")
    setattr(f1, f"team_{s1}_id", t2)
    setattr(f2, f"team_{s2}_id", t1)


def _swap_tables(fixtures: list[Fixture], first: int, second: int) -> None:
    by_table = {f.table: f for f in fixtures if f.table is not None}
    if first == second or first not in by_table or second not in by_table:
        raise InvalidSettings(gettext("name two different tables of this round"), code="bad_edit")
    a, b = by_table[first], by_table[second]
    # Two rows may not hold one table even for a moment: park one at a free number first.
    parked = max(by_table) + 1
    Fixture.objects.filter(pk=a.pk).update(table=parked)
    Fixture.objects.filter(pk=b.pk).update(table=first)
    Fixture.objects.filter(pk=a.pk).update(table=second)
    a.table, b.table = second, first


def _swap_seeds(stage: Stage, x: int, y: int) -> None:
    entries = {e.team_id: e for e in stage.entries.filter(team_id__in=(x, y))}
    sx, sy = entries[x].seed, entries[y].seed
    StageEntry.objects.filter(pk=entries[x].pk).update(seed=0)  # the seeds are unique
    StageEntry.objects.filter(pk=entries[y].pk).update(seed=sx)
    StageEntry.objects.filter(pk=entries[x].pk).update(seed=sy)


def _draft_problems(round_: Round, fixtures: list[Fixture]) -> list[str]:
    """Return every pairing constraint the draft breaks, in words a director understands."""
    stage = round_.stage
    names = dict(Team.objects.filter(tournament=stage.tournament).values_list("pk", "name"))
    problems = []
    seen: dict[int, int] = {}
    for f in fixtures:
        for team in (f.team_a_id, f.team_b_id):
            if team is not None:
                seen[team] = seen.get(team, 0) + 1
    problems += [
        gettext("%(team)s plays twice in this round") % {"team": names[t]}
        for t, n in seen.items()
        if n > 1
    ]
    tables = [f.table for f in fixtures if f.table is not None]
    if len(tables) != len(set(tables)):
        problems.append(gettext("two fixtures share a table"))
    if stage.elimination:
        return problems
    met = draw.meetings(stage, round_.number)
    for f in fixtures:
        a, b = f.team_a_id, f.team_b_id
        if a is None or b is None:
            continue
        if draw.is_rematch(stage, met.get(frozenset((a, b)), [])):
            problems.append(
                gettext("%(team)s and %(other)s have met already (rematch)")
                % {"team": names[a], "other": names[b]}
            )
    byes = Fixture.objects.filter(
        stage=stage, round__number__lt=round_.number, result=Fixture.Result.BYE
    ).values_list("team_a_id", flat=True)
    had: dict[int, int] = {}
    for team in byes:
        had[team] = had.get(team, 0) + 1
    playing = [t for t in seen]
    fewest = min((had.get(t, 0) for t in playing), default=0)
    for f in fixtures:
        if f.team_b_id is None and f.team_a_id is not None and had.get(f.team_a_id, 0) > fewest:
            problems.append(
                gettext("%(team)s gets a second bye while another team has none")
                % {"team": names[f.team_a_id]}
            )
    return problems


def _locked_round(round_: Round, *, to_delete: bool = False) -> tuple[Stage, Round]:
    """Return a round's stage and the round, their rows locked for update in that order (the
    stage first, as every service that changes its rounds takes them), or refuse: gone."""
    stage = _common.locked_or_gone(Stage.objects, round_.stage_id, _common.stage_gone())
    return stage, _common.locked_or_gone(
        Round.objects, round_.pk, _common.round_gone(), to_delete=to_delete
    )


def round_publish(*, actor: Any, round: Round) -> Round:
    """Publish a draft round: its matches are created (and started, if the stage says so)
    and everyone sees it. Publishing a bracket's first round publishes the whole bracket."""
    _common.require_director(actor, round.stage.tournament)
    with transaction.atomic():
        _common.shown(round.stage.tournament_id, round.stage_id)
        stage, locked = _locked_round(round)
        if locked.status != Round.Status.DRAFT:
            raise NotNow(gettext("the round is published already"), code="round_published")
        check_stored_settings(stage)  # refused before anything is written
        now = timezone.now()
        rounds = (
            list(stage.round_set.filter(status=Round.Status.DRAFT))
            if stage.elimination
            else [locked]
        )
        Round.objects.filter(pk__in=[r.pk for r in rounds]).update(
            status=Round.Status.PUBLISHED, published_at=now
        )
        if stage.elimination:
            follow.reconcile_bracket(stage)
        else:
            withdrawn = set(
                Registration.objects.filter(
                    tournament=stage.tournament, withdrawn_at__isnull=False
                ).values_list("team_id", flat=True)
            )
            for fixture in locked.fixtures.filter(result="").select_related("team_a", "team_b"):
                gone = {fixture.team_a_id, fixture.team_b_id} & withdrawn
                if gone:
                    team = fixture.team_a if fixture.team_a_id in gone else fixture.team_b
                    assert team is not None  # gone holds the ids of registered teams
                    follow.withdrawn_from(fixture, team)
                elif fixture.team_b_id is not None:
                    follow.create_match(stage, fixture)
        locked.refresh_from_db()
        for round_ in rounds:
            follow.complete_round_if_done(round_)
        for round_ in rounds:  # told with the change (competition.happenings)
            told.round_published(round_)
        transaction.on_commit(lambda: _common.schedule_standings(stage.pk), robust=True)
    return locked


def round_unpublish(*, actor: Any, round: Round) -> Round:
    """Take back a published round in which nothing was recorded: it is a draft again.

    Each of its matches is called off (a ``match_called_off`` event, with the director as its
    author and the round as its reason: a log is never rewritten, so the match stays, unlinked,
    with its status ``called_off``), and its fixtures return to their pairing: a forfeit that
    publishing gave a withdrawn team is pending again (publishing gives it again), a bye stays.
    A bracket is taken back whole, as it was published whole: the teams its byes sent on are
    taken out of the later fixtures. Refused, with nothing written, once anything was recorded
    in any of its matches, any result entered, or (Swiss, round robin) a later round paired.
    """
    _common.require_director(actor, round.stage.tournament)
    with transaction.atomic():
        _common.shown(round.stage.tournament_id, round.stage_id)
        stage, locked = _locked_round(round)
        if locked.status == Round.Status.DRAFT:
            raise NotNow(
                gettext("the round is a draft: it is not published"), code="round_not_published"
            )
        if stage.status != Stage.Status.RUNNING:
            raise NotNow(gettext("the stage is complete: its rounds stay"), code="stage_complete")
        rounds = list(stage.round_set.all()) if stage.elimination else [locked]
        if not stage.elimination and stage.round_set.filter(number__gt=locked.number).exists():
            raise NotNow(
                gettext("round %(number)s has been paired since: discard it first")
                % {"number": locked.number + 1},
                code="round_not_last",
            )
        fixtures = list(
            Fixture.objects.filter(round__in=rounds)
            .select_related("match", "team_a", "team_b")
            .order_by("round__number", "table", "key", "id")
        )
        withdrawn = set(
            Registration.objects.filter(
                tournament_id=stage.tournament_id, withdrawn_at__isnull=False
            ).values_list("team_id", flat=True)
        )
        for fixture in fixtures:
            if not _taken_back(fixture, withdrawn):
                raise NotNow(
                    gettext("%(where)s has a result (%(result)s): correct it instead")
                    % {"where": _where(fixture), "result": fixture.get_result_display()},
                    code="round_recorded",
                )
        reason = f"{locked.name or f'round {locked.number}'} of {stage.name} unpublished"
        called_off = [f.match_id for f in fixtures if f.match_id is not None]
        for fixture in fixtures:
            if fixture.match is not None:
                _call_off(actor, fixture, reason)
        seeds = draw.seed_sides(stage) if stage.elimination else {}
        for fixture in fixtures:
            fixture.match = None
            if fixture.result != Fixture.Result.BYE or stage.elimination:
                fixture.result = Fixture.Result.PENDING
                fixture.withdrawal = {}  # a withdrawal's forfeit is given again on publishing
            if stage.elimination:
                fixture.team_a_id = fixture.team_a_id if "a" in seeds.get(fixture.key, "") else None
                fixture.team_b_id = fixture.team_b_id if "b" in seeds.get(fixture.key, "") else None
        Fixture.objects.bulk_update(fixtures, ["match", "result", "team_a", "team_b", "withdrawal"])
        Round.objects.filter(pk__in=[r.pk for r in rounds]).update(
            status=Round.Status.DRAFT, published_at=None, completed_at=None, receipts=[]
        )
        told.round_unpublished(locked, called_off)  # with the change (competition.happenings)
        transaction.on_commit(lambda: _common.schedule_standings(stage.pk), robust=True)
    locked.refresh_from_db()
    return locked


def _where(fixture: Fixture) -> str:
    """Where a fixture is played, in words: its table, or its match (a bracket's key)."""
    if fixture.table:
        return gettext("table %(table)s") % {"table": fixture.table}
    return gettext("match %(match)s") % {"match": fixture.key or fixture.pk}


def _taken_back(fixture: Fixture, withdrawn: set[int]) -> bool:
    """Whether a fixture holds nothing recorded: pending, a bye, a slot no one reaches, or
    a forfeit publishing gave a withdrawn team (no match was made for it)."""
    result = fixture.result
    if result in (Fixture.Result.PENDING, Fixture.Result.BYE):
        return True
    if result == Fixture.Result.VOID:  # a bracket's slot that nobody reaches
        return fixture.match is None
    if result == Fixture.Result.FORFEIT_A:
        team = fixture.team_a_id
    elif result == Fixture.Result.FORFEIT_B:
        team = fixture.team_b_id
    else:
        return False
    return fixture.match is None and team in withdrawn


def _call_off(actor: Any, fixture: Fixture, reason: str) -> None:
    match = fixture.match
    assert match is not None
    try:
        match_call_off(match=match, reason=reason, actor=actor, via="unpublish")
    except AppendRefused as exc:
        raise NotNow(
            gettext("%(where)s: %(refusal)s: the round stays published")
            % {"where": _where(fixture), "refusal": exc},
            code="round_recorded",
        ) from exc


def round_record_anchors(match_id: int) -> list[Any]:
    """Return the heads of a match's log its rounds recorded on completing, for verify_match:
    each an ``Anchor`` (seq and hash), and the signed receipt the round kept a copy of."""
    from tournaments.receipts import Receipt
    from tournaments.verify import Anchor

    out: list[Any] = []
    rounds = Round.objects.filter(fixtures__match_id=match_id).select_related("stage")
    for round_ in rounds.exclude(receipts=[]):
        for entry in round_.receipts:
            if entry.get("match") != match_id:
                continue
            where = f"the record of {round_.stage.name}, round {round_.number}"
            out.append(Anchor(entry["events"], entry["head_hash"], where))
            if entry.get("receipt"):
                out.append(Receipt(entry["receipt"]["receipt"], entry["receipt"]["signature"]))
    return out


def round_discard(*, actor: Any, round: Round, pair_again: bool = False) -> Round | None:
    """Discard a draft round (its pairings only: no match was made for a draft).

    With ``pair_again`` the stage's next round is paired anew in the same transaction and
    returned. A bracket's draft is its drawn bracket, decided when the stage started: it is
    published or edited, not discarded.
    """
    _common.require_director(actor, round.stage.tournament)
    with transaction.atomic():
        _common.shown(round.stage.tournament_id, round.stage_id)
        stage, locked = _locked_round(round, to_delete=True)
        if locked.status != Round.Status.DRAFT:
            raise NotNow(gettext("only a draft round can be discarded"), code="round_published")
        if stage.elimination:
            raise NotNow(
                gettext("a bracket's rounds come from its draw: swap its teams instead"),
                code="bracket_pairs_itself",
            )
        locked.fixtures.all().delete()
        locked.delete()
        if pair_again:
            return round_pair(actor=actor, stage=stage)
    return None
