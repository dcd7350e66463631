"""A director's corrections of a match, with their consequences shown before they apply.

A correction (``deal_corrected``, ``deal_voided``, ``score_adjusted``, ``match_forfeited``:
tournaments/matchlog/kinds.py) is an event appended to the match's log like any other; the
store checks it and scoring, the fixture, the bracket and the standings follow it. What this
module adds is the dry run: ``preview_correction`` applies the correction and everything that
follows from it (the projection, the fixture's result, the bracket, the standings) inside a
transaction that is rolled back, and returns what would change. ``apply_correction`` refuses
one that changes a result a later round was built on (a bracket slot it filled, a round paired
after it, a stage that took its teams) unless the director confirmed, having seen the preview.

An app above this one that keeps its own projections of a match (the seasons app: members'
ratings and the ladders) adds its lines to the preview by ``follow_corrections``: its
follower, inside the dry run, brings its projections up to the log and reads them, before the
correction and after it; the lines that differ are the preview's ``followed``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.models import MatchResult
from scoring.services import update_match_projection
from tournaments import matchlog
from tournaments.models import Match, MatchEvent
from tournaments.services import AppendResult, match_append_event

from .errors import CompetitionRefused
from .models import Fixture, Notice, Round, Stage, StandingRow
from .selectors import fixture_sides, fixture_winner_side, latest_standings_round
from .services import fixture_match_completed
from .standings import update_stage_standings

#: what an app above keeps of a match, by kind of line ("ratings"), each line by its key;
#: called inside the dry run's transaction before and after the correction, with
#: ``follow=True``: bring the projections up to the log first; a line is {"name": ..., ...}
Follower = Callable[[Match, bool], dict[str, dict[str, dict[str, Any]]]]
_followers: list[Follower] = []


def follow_corrections(follower: Follower) -> None:
    """Add ``follower``'s lines to every correction's preview (from an app's ``ready``)."""
    if follower not in _followers:
        _followers.append(follower)


def _followed(match: Match, *, follow: bool) -> dict[str, dict[str, dict[str, Any]]]:
    seen: dict[str, dict[str, dict[str, Any]]] = {}
    for follower in _followers:
        seen.update(follower(match, follow))
    return seen


class ConfirmationRequired(CompetitionRefused):
    """The correction changes a result a later round was built on: confirm it to apply."""

    def __init__(self, preview: CorrectionPreview) -> None:
        super().__init__(
            gettext(
                "this correction changes a result a later round was built on: look at its "
                "consequences and confirm it to apply"
            ),
            code="confirmation_required",
        )
        self.preview = preview


@dataclass(frozen=True)
class CorrectionPreview:
    """What a correction would change, from the match's result to the stage's standings."""

    match_id: int
    kind: str
    result_before: dict[str, Any]
    result_after: dict[str, Any]
    #: teams whose line changes: {"team", "name", "before": {...} | None, "after": {...} | None}
    standings: list[dict[str, Any]] = field(default_factory=list)
    #: bracket fixtures that change: {"fixture", "before": {...}, "after": {...}}
    bracket: list[dict[str, Any]] = field(default_factory=list)
    #: what the directors would be told could not follow by itself
    notices: list[str] = field(default_factory=list)
    #: the match's result already fed a later round (a slot, a pairing, the next stage)
    fed_later: bool = False
    #: the lines that change of what the apps above keep (``follow_corrections``), by kind:
    #: {"ratings": [{"key", "name", "before": {...} | None, "after": {...} | None}], ...}
    followed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def changes_result(self) -> bool:
        return self.result_before != self.result_after

    @property
    def needs_confirmation(self) -> bool:
        """Whether applying it needs the director's explicit confirmation."""
        return self.fed_later and bool(self.changes_result or self.standings or self.bracket)

    def as_dict(self) -> dict[str, Any]:
        return {
            "match": self.match_id,
            "kind": self.kind,
            "result_before": self.result_before,
            "result_after": self.result_after,
            "standings": self.standings,
            "bracket": self.bracket,
            "notices": self.notices,
            "fed_later": self.fed_later,
            "needs_confirmation": self.needs_confirmation,
            **{"ratings": [], "ladder": []},
            **self.followed,
        }


class _DryRun(Exception):
    def __init__(self, seen: dict[str, Any]) -> None:
        self.seen = seen


def preview_correction(
    *, actor: Any, match: Match, kind: str, payload: Any, expected_seq: int | None = None
) -> CorrectionPreview:
    """Return what the correction would change, changing nothing.

    Raises what the append would raise (the store's refusals: a correction the log cannot
    take, by someone who may not make it (only a director corrects), at a stale
    ``expected_seq``), and CompetitionRefused for a kind that is not a correction.
    """
    if kind not in matchlog.CORRECTIONS:
        raise CompetitionRefused(
            gettext("%(kind)s is not a correction: one of %(kinds)s")
            % {"kind": repr(kind), "kinds": ", ".join(matchlog.CORRECTIONS)},
            code="not_a_correction",
        )
    fixture = Fixture.objects.filter(match=match).select_related("stage", "round").first()
    before = _consequences(match, fixture)
    try:
        with transaction.atomic():
            # what the apps above keep, brought up to the log as it stands (rolled back too)
            before["followed"] = _followed(match, follow=True)
            match_append_event(
                match=match,
                expected_seq=match.last_seq if expected_seq is None else expected_seq,
                kind=kind,
                payload=payload,
                actor=actor,
            )
            update_match_projection(match_id=match.pk)
            fixture_match_completed(match_id=match.pk)
            if fixture is not None:
                update_stage_standings(stage_id=fixture.stage_id)
            seen = _consequences(match, fixture)
            seen["followed"] = _followed(match, follow=True)
            raise _DryRun(seen)
    except _DryRun as dry:
        after = dry.seen
    return CorrectionPreview(
        match_id=match.pk,
        kind=kind,
        result_before=before["result"],
        result_after=after["result"],
        standings=_changed_lines(before["standings"], after["standings"], key="team"),
        bracket=[
            {"fixture": key, "before": before["fixtures"].get(key), "after": value}
            for key, value in after["fixtures"].items()
            if before["fixtures"].get(key) != value
        ],
        notices=[n for n in after["notices"] if n not in before["notices"]],
        fed_later=_fed_later(fixture),
        followed={
            kind: _changed_lines(before["followed"].get(kind, {}), lines, key="key")
            for kind, lines in after["followed"].items()
        },
    )


def apply_correction(
    *,
    actor: Any,
    match: Match,
    kind: str,
    payload: Any,
    expected_seq: int,
    confirm: bool = False,
    idempotency_key: str | None = None,
    via: str = "",
) -> tuple[AppendResult, CorrectionPreview | None]:
    """Append a correction, after its preview, if it needs no confirmation or has it.

    A retry with the same ``idempotency_key`` gets the original answer (no preview: the
    correction is in the log already). Raises ConfirmationRequired (with the preview) for a
    correction that changes a result a later round was built on, unless ``confirm``.
    """
    retried = bool(idempotency_key) and (
        MatchEvent.objects.filter(match=match, idempotency_key=idempotency_key).exists()
    )
    preview = None
    if not retried:
        preview = preview_correction(
            actor=actor, match=match, kind=kind, payload=payload, expected_seq=expected_seq
        )
        if preview.needs_confirmation and not confirm:
            raise ConfirmationRequired(preview)
    result = match_append_event(
        match=match, expected_seq=expected_seq, kind=kind, payload=payload, actor=actor,
        idempotency_key=idempotency_key, via=via,
    )  # fmt: skip
    return result, preview


def _consequences(match: Match, fixture: Fixture | None) -> dict[str, Any]:
    result = MatchResult.objects.filter(match=match).first()
    seen: dict[str, Any] = {
        "result": {}
        if result is None
        else {
            "over": result.completed_at is not None,
            "winner_side": result.winner,
            "winner": result.winner,  # deprecated: winner_side (docs/api-changelog.md)
            "draw": result.draw,
            "forfeited_by": result.forfeited_by,
            "bazzis": [result.bazzis0, result.bazzis1],
            "difference": result.difference,
            "deals": result.deals,
        },
        "standings": {},
        "fixtures": {},
        "notices": [],
    }
    if fixture is None:
        return seen
    stage = fixture.stage
    seen["result"]["fixture"] = Fixture.objects.values_list("result", flat=True).get(pk=fixture.pk)
    latest = latest_standings_round(stage=stage)
    if latest is not None:  # else the stage has no standings yet
        for team_id, name, rank, points, won, drawn, lost in StandingRow.objects.filter(
            stage=stage, as_of_round=latest
        ).values_list("team_id", "team__name", "rank", "points", "won", "drawn", "lost"):
            seen["standings"][team_id] = {
                "name": name, "rank": rank, "points": points, "won": won, "drawn": drawn,
                "lost": lost,
            }  # fmt: skip
    if stage.elimination:
        for f in Fixture.objects.filter(stage=stage).select_related("team_a", "team_b"):
            seen["fixtures"][f.key] = {
                "sides": fixture_sides(f),
                "winner_side": fixture_winner_side(f),
                # deprecated: sides[0].id, sides[1].id (docs/api-changelog.md)
                "team_a": f.team_a_id,
                "team_b": f.team_b_id,
                "result": f.result,
                "match": f.match_id,
            }
    seen["notices"] = list(
        Notice.objects.filter(stage=stage, resolved_at__isnull=True).values_list(
            "message", flat=True
        )
    )
    return seen


def _changed_lines(
    before: Mapping[Any, dict[str, Any]], after: Mapping[Any, dict[str, Any]], *, key: str
) -> list[dict[str, Any]]:
    """Return the lines (a standings row by team, a followed line by its key) that the change
    alters, by key, each under ``key`` with its name, before and after (None: not there)."""
    lines = []
    for line in sorted(set(before) | set(after)):
        was, now = before.get(line), after.get(line)
        if was != now:
            name = (now or was or {}).get("name", "")
            lines.append({key: line, "name": name, "before": was, "after": now})
    return lines


def _fed_later(fixture: Fixture | None) -> bool:
    """Whether the fixture's result was already used by something after it."""
    if fixture is None or fixture.result == Fixture.Result.PENDING:
        return False
    stage: Stage = fixture.stage
    if stage.elimination:
        targets = [t.split(":")[0] for t in (fixture.winner_to, fixture.loser_to) if t]
        if (
            Fixture.objects.filter(stage=stage, key__in=targets)
            .exclude(team_a__isnull=True, team_b__isnull=True)
            .exists()
        ):
            return True
    elif (
        stage.round_set.filter(number__gt=fixture.round.number)
        .exclude(status=Round.Status.DRAFT)
        .exists()
    ):
        return True
    return Stage.objects.filter(
        tournament_id=stage.tournament_id,
        order__gt=stage.order,
        status__in=(Stage.Status.RUNNING, Stage.Status.COMPLETE),
    ).exists()
