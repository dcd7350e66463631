"""Running a tournament: registration, stages, rounds, and what follows when a match ends.

Every function that changes something takes the ``actor`` and checks that they direct the
tournament (``tournaments.access.is_director``), whatever way the request came in. The
formats themselves are pure (``competition.formats``); this module stores what they decide.
Matches are created through the store's ``match_create`` and started through its append
service; results are read from scoring's projection.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring.models import MatchResult
from tournaments import matchlog
from tournaments.access import SYSTEM, is_director
from tournaments.errors import MatchStateConflict
from tournaments.models import Match, Player, Team, Tournament, checked_match_format
from tournaments.services import match_append_event, match_create, match_reassign

from . import formats
from .errors import DraftEditRefused, InvalidSettings, NotNow, NotPermitted
from .models import Fixture, Notice, Registration, Round, Stage, StageEntry
from .signals import round_published

log = logging.getLogger(__name__)

PAIRED = (Stage.Format.ROUND_ROBIN, Stage.Format.DOUBLE_ROUND_ROBIN, Stage.Format.GROUPS)
SETTINGS = (
    "name", "format", "rounds", "groups", "entry", "entry_count", "late_entry", "seeding",
    "seeding_seed", "swiss_method", "match_format", "mode", "points_win", "points_draw",
    "points_loss", "points_bye", "points_forfeit", "tiebreaks", "tiebreak_seed",
    "third_place", "grand_final_reset", "withdrawal", "start_matches", "confirmation",
)  # fmt: skip


def _require_director(actor: Any, tournament: Tournament) -> None:
    if not is_director(actor, tournament):
        raise NotPermitted("only a director of this tournament may do this", code="forbidden")


# --- registration ------------------------------------------------------------------------


def team_register(
    *,
    actor: Any,
    tournament: Tournament,
    name: str,
    first_player: Player,
    second_player: Player,
    rating: int | None = None,
    seed: int | None = None,
    checked_in: bool = False,
) -> Team:
    """Register a team of two players in ``tournament`` (checked in at once if asked).

    After a stage has started the team can play only in a stage that allows late entry.
    """
    _require_director(actor, tournament)
    team = Team(
        tournament=tournament, name=name, first_player=first_player, second_player=second_player
    )
    try:
        team.full_clean()
    except ValidationError as exc:
        raise InvalidSettings(" ".join(exc.messages), code="bad_team") from exc
    with transaction.atomic():
        team.save()
        now = timezone.now()
        Registration.objects.create(
            team=team,
            tournament=tournament,
            rating=rating,
            seed=seed,
            checked_in_at=now if checked_in else None,
        )
        if checked_in:
            _late_entry(team)
    return team


def team_check_in(*, actor: Any, team: Team) -> Registration:
    """Check a registered team in: it plays in the next stage that starts (or joins a Swiss
    stage that allows late entry at its next round)."""
    _require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if registration.withdrawn_at is not None:
            raise NotNow(f"{team} has withdrawn", code="team_withdrawn")
        if registration.checked_in_at is None:
            registration.checked_in_at = timezone.now()
            registration.save(update_fields=["checked_in_at"])
            _late_entry(team)
    return registration


def team_withdraw(*, actor: Any, team: Team) -> Registration:
    """Withdraw a team: it is paired no more, and its fixtures not yet played become
    forfeits or byes for its opponents, as each running stage says."""
    _require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if registration.withdrawn_at is not None:
            return registration
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["withdrawn_at"])
        pending = Fixture.objects.select_related("stage", "match").filter(
            Q(team_a=team) | Q(team_b=team), result=Fixture.Result.PENDING
        )
        stages = set()
        for fixture in pending:
            if fixture.match is not None and fixture.match.status != Match.Status.SCHEDULED:
                continue  # a match under way is played out (or forfeited by a director)
            _withdrawn_from(fixture, team)
            stages.add(fixture.stage_id)
        for stage_id in sorted(stages):
            stage = Stage.objects.get(pk=stage_id)
            if stage.elimination:
                _reconcile_bracket(stage)
            for round_ in stage.round_set.filter(status=Round.Status.PUBLISHED):
                _complete_round_if_done(round_)
    return registration


def _registration(team: Team) -> Registration:
    registration, _ = Registration.objects.select_for_update().get_or_create(
        team=team, defaults={"tournament_id": team.tournament_id}
    )
    return registration


def _withdrawn_from(fixture: Fixture, team: Team) -> None:
    """Apply the stage's withdrawal rule to a fixture of a withdrawn team not yet played."""
    side = "a" if fixture.team_a_id == team.pk else "b"
    other = fixture.team_b if side == "a" else fixture.team_a
    if fixture.match is not None:  # scheduled, never started: it will not be played
        fixture.match = None
    if other is None:  # its opponent is not known yet (a bracket slot): decided later
        fixture.save(update_fields=["match"])
        return
    if fixture.stage.withdrawal == Stage.Withdrawal.BYE and not fixture.stage.elimination:
        fixture.team_a, fixture.team_b, fixture.result = other, None, Fixture.Result.BYE
    else:
        fixture.result = Fixture.Result.FORFEIT_A if side == "a" else Fixture.Result.FORFEIT_B
    fixture.save(update_fields=["team_a", "team_b", "result", "match"])


def _late_entry(team: Team) -> None:
    """A team checked in after a stage started joins the stages that take late entries."""
    for stage in Stage.objects.filter(
        tournament_id=team.tournament_id,
        status=Stage.Status.RUNNING,
        late_entry=True,
        format=Stage.Format.SWISS,
    ):
        if stage.entries.filter(team=team).exists():
            continue
        last = stage.round_set.order_by("-number").values_list("number", flat=True).first() or 0
        seed = (stage.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1
        StageEntry.objects.create(stage=stage, team=team, seed=seed, joined_round=last + 1)


# --- stages -------------------------------------------------------------------------------


def stage_create(*, actor: Any, tournament: Tournament, **settings: Any) -> Stage:
    """Add a stage after the tournament's last one, its settings checked by the formats."""
    _require_director(actor, tournament)
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InvalidSettings(f"unknown stage setting(s): {', '.join(unknown)}", code="bad_stage")
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        last = tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0
        stage = Stage(tournament=tournament, order=last + 1, **settings)
        _check_settings(stage)
        stage.save()
    return stage


def stage_update(*, actor: Any, stage: Stage, **settings: Any) -> Stage:
    """Change a stage's settings; refused once it has started (its matches keep their terms)."""
    _require_director(actor, stage.tournament)
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InvalidSettings(f"unknown stage setting(s): {', '.join(unknown)}", code="bad_stage")
    with transaction.atomic():
        locked = Stage.objects.select_for_update().get(pk=stage.pk)
        if locked.status != Stage.Status.PENDING:
            raise NotNow("a stage's settings are fixed once it starts", code="stage_started")
        for name, value in settings.items():
            setattr(locked, name, value)
        _check_settings(locked)
        locked.save()
    return locked


def _check_settings(stage: Stage) -> None:
    """Refuse settings the formats cannot take; complete the match format (M1)."""
    fmt = Stage.Format
    if stage.format not in fmt.values:
        raise InvalidSettings(f"unknown format {stage.format!r}", code="bad_format")
    if stage.mode not in {m.value for m in matchlog.Mode}:
        raise InvalidSettings(f"unknown play mode {stage.mode!r}", code="bad_mode")
    if stage.confirmation not in {c.value for c in matchlog.Confirmation}:
        raise InvalidSettings(
            f"confirmation is one of {', '.join(matchlog.Confirmation)}", code="bad_confirmation"
        )
    if stage.confirmation != matchlog.Confirmation.NONE and stage.mode != matchlog.SCORE:
        raise InvalidSettings(
            "confirmation is for deal results entered in score mode", code="bad_confirmation"
        )
    if stage.format == fmt.SWISS and not stage.rounds:
        raise InvalidSettings("a Swiss stage says how many rounds it has", code="bad_rounds")
    if stage.format == fmt.GROUPS and not stage.groups:
        raise InvalidSettings("a group stage says how many groups it has", code="bad_groups")
    if stage.entry != Stage.Entry.REGISTERED:
        if stage.order <= 1:
            raise InvalidSettings("the first stage takes the registered teams", code="bad_entry")
        if not stage.entry_count:
            raise InvalidSettings("say how many teams enter (N of the top N)", code="bad_entry")
        previous = Stage.objects.filter(tournament=stage.tournament, order=stage.order - 1).first()
        if stage.entry == Stage.Entry.TOP_PER_GROUP and (
            previous is None or previous.format != fmt.GROUPS
        ):
            raise InvalidSettings(
                "the top N of each group needs a group stage before it", code="bad_entry"
            )
    names = list(stage.tiebreaks or [])
    bad = [n for n in names if n not in formats.TIEBREAKS]
    if bad or len(set(names)) != len(names):
        raise InvalidSettings(
            f"tie-breaks are distinct names from {', '.join(formats.TIEBREAKS)}",
            code="bad_tiebreaks",
        )
    if "random" in names and names[-1] != "random":
        raise InvalidSettings(
            "the random draw can only be the last tie-break", code="bad_tiebreaks"
        )
    match_format = dict(stage.match_format or {})
    if stage.elimination:
        if match_format.get("draws"):
            raise InvalidSettings(
                "an elimination match cannot end drawn (M1: play goes on deal by deal)",
                code="bad_format",
            )
        match_format["draws"] = False
    try:
        stage.match_format = checked_match_format(match_format)
    except ValidationError as exc:
        raise InvalidSettings(" ".join(exc.messages), code="bad_format") from exc
    if stage.late_entry and stage.format != fmt.SWISS:
        raise InvalidSettings("only a Swiss stage can take late entries", code="bad_entry")


def stage_points(stage: Stage) -> formats.Points:
    """Return the stage's match points per outcome."""
    return formats.Points(
        win=stage.points_win,
        draw=stage.points_draw,
        loss=stage.points_loss,
        bye=stage.points_bye,
        forfeit=stage.points_forfeit,
    )


def stage_terms(stage: Stage) -> dict[str, Any]:
    """Return the terms every match of the stage is created under (recorded on its fixture)."""
    points = stage_points(stage)
    return {
        "points": {k: getattr(points, k) for k in ("win", "draw", "loss", "bye", "forfeit")},
        "tiebreaks": list(stage.tiebreaks),
        "match_format": stage.match_format,
        "mode": stage.mode,
        "confirmation": stage.confirmation,
    }


def stage_start(*, actor: Any, stage: Stage) -> Stage:
    """Start a stage: take its teams, seed them, and (for a bracket) draw the bracket.

    The teams: every checked-in team that has not withdrawn, or the top N of the previous
    stage (of each of its groups), which must be complete. Seeded by the stage's rule; a
    random seeding records its seed.
    """
    _require_director(actor, stage.tournament)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
        if stage.status != Stage.Status.PENDING:
            raise NotNow("the stage has started already", code="stage_started")
        earlier = Stage.objects.filter(tournament=stage.tournament, order__lt=stage.order)
        if earlier.exclude(status=Stage.Status.COMPLETE).exists():
            raise NotNow("the stages before this one are not complete", code="previous_running")
        teams = _entrants(stage)
        minimum = 2 * (stage.groups or 1) if stage.format == Stage.Format.GROUPS else 2
        if len(teams) < minimum:
            raise NotNow(
                f"the stage needs at least {minimum} teams, and {len(teams)} are in",
                code="too_few_teams",
            )
        groups: dict[int, int] = {}
        if stage.format == Stage.Format.GROUPS:
            assert stage.groups is not None
            dealt = formats.snake_groups([t.pk for t in teams], groups=stage.groups)
            groups = {team: g for g, members in enumerate(dealt) for team in members}
        StageEntry.objects.bulk_create(
            StageEntry(stage=stage, team=team, seed=n, group=groups.get(team.pk))
            for n, team in enumerate(teams, start=1)
        )
        stage.status, stage.started_at = Stage.Status.RUNNING, timezone.now()
        stage.save(update_fields=["status", "started_at", "seeding_seed"])
        if stage.elimination:
            _draw_bracket(stage, [t.pk for t in teams])
    return stage


def _entrants(stage: Stage) -> list[Team]:
    """Return the stage's teams in seed order."""
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
    from .standings import final_standings  # standings read fixtures; no import cycle at load

    previous = Stage.objects.get(tournament=stage.tournament, order=stage.order - 1)
    # Teams still level when every tie-break is spent go through in their seed order there.
    seeds = dict(previous.entries.values_list("team_id", "seed"))
    rows = sorted(final_standings(previous), key=lambda r: (r.group or 0, r.rank, seeds[r.team_id]))
    withdrawn = set(
        Registration.objects.filter(
            tournament=stage.tournament, withdrawn_at__isnull=False
        ).values_list("team_id", flat=True)
    )
    count = stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP:
        ids = [r.team_id for r in rows if r.team_id not in withdrawn][:count]
    else:
        by_group: dict[int, list[int]] = {}
        for row in rows:
            if row.team_id not in withdrawn:
                by_group.setdefault(row.group or 0, []).append(row.team_id)
        groups = previous.groups or 1
        order = formats.knockout_seeds(groups=groups, advance=count)
        ids = [
            by_group[g][place - 1]
            for g, place in order
            if g in by_group and len(by_group[g]) >= place
        ]
    by_id = {t.pk: t for t in Team.objects.filter(pk__in=ids)}
    return [by_id[i] for i in ids]


# --- brackets -----------------------------------------------------------------------------


def _bracket(stage: Stage, seeds: Sequence[int] | None = None) -> formats.Bracket:
    """Return the stage's bracket as the formats build it from its seeds (deterministic)."""
    if seeds is None:
        seeds = list(stage.entries.order_by("seed").values_list("team_id", flat=True))
    if stage.format == Stage.Format.SINGLE_ELIMINATION:
        return formats.single_elimination(seeds, third_place=stage.third_place)
    return formats.double_elimination(seeds, reset=stage.grand_final_reset)


def _slot_text(slot: formats.Slot) -> str:
    if isinstance(slot, formats.Seed):
        return f"seed {slot.number}"
    if isinstance(slot, formats.WinnerOf):
        return f"winner of {slot.fixture}"
    return f"loser of {slot.fixture}"


def _draw_bracket(stage: Stage, seeds: list[int]) -> None:
    """Store a bracket: a round per part and round of it, a fixture per bracket fixture."""
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


def bracket_state(stage: Stage) -> formats.BracketState:
    """Return the formats' reading of a bracket stage's results so far (its champion...)."""
    results = {}
    for f in Fixture.objects.filter(stage=stage).select_related("team_a", "team_b"):
        winner = f.winner()
        if winner is not None:
            results[f.key] = winner.pk
    return formats.advance(_bracket(stage), results)


def _reconcile_bracket(stage: Stage) -> list[tuple[str, str]]:
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
        _notice(stage, fixtures[fixture_key], "bracket_entrant_fixed", message)
    if state.finished:
        _complete_stage(stage)
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
        try:
            kept = match_reassign(
                match=fixture.match,
                team0=None if teams["a"] is None else Team.objects.get(pk=teams["a"]),
                team1=None if teams["b"] is None else Team.objects.get(pk=teams["b"]),
            )
        except MatchStateConflict:
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


def _notice(stage: Stage, fixture: Fixture | None, code: str, message: str) -> None:
    """Tell the stage's directors something (once while it is unresolved)."""
    Notice.objects.get_or_create(
        stage=stage, fixture=fixture, code=code, message=message, resolved_at__isnull=True
    )


def notice_resolve(*, actor: Any, notice: Notice) -> Notice:
    """Mark a notice as dealt with (a director of its tournament)."""
    _require_director(actor, notice.stage.tournament)
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
        result = (
            Fixture.Result.FORFEIT_A if fixture.team_a_id in withdrawn else Fixture.Result.FORFEIT_B
        )
        Fixture.objects.filter(pk=fixture.pk, result="").update(result=result)
        fixture.result = result
        _reconcile_after_result(stage, fixture)
        return
    if fixture.match_id is None:
        _create_match(stage, fixture)


def _reconcile_after_result(stage: Stage, fixture: Fixture) -> None:
    transaction.on_commit(lambda: _schedule_standings(stage.pk))
    _complete_round_if_done(fixture.round)


# --- rounds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Pairing:
    table: int | None
    a: int
    b: int | None  # None: a bye for a
    group: int | None = None
    floats: tuple[dict[str, Any], ...] = ()


def round_pair(*, actor: Any, stage: Stage) -> Round:
    """Pair the stage's next round, as a draft only directors see.

    Round robin and groups follow their schedule (the circle method); Swiss pairs from the
    standings after the previous round, which must be complete. A bracket pairs itself.
    """
    _require_director(actor, stage.tournament)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
        if stage.status != Stage.Status.RUNNING:
            raise NotNow("the stage is not running", code="stage_not_running")
        if stage.elimination:
            raise NotNow("a bracket's rounds follow from its results", code="bracket_pairs_itself")
        rounds = list(stage.round_set.order_by("number"))
        if any(r.status == Round.Status.DRAFT for r in rounds):
            raise NotNow("publish or discard the draft round first", code="draft_pending")
        number = len(rounds) + 1
        if stage.format == Stage.Format.SWISS:
            if rounds and rounds[-1].status != Round.Status.COMPLETE:
                raise NotNow(
                    "a Swiss round is paired from the standings: finish the round first",
                    code="round_running",
                )
            if number > (stage.rounds or 0):
                raise NotNow(f"the stage has {stage.rounds} rounds", code="no_more_rounds")
            pairings, record = _swiss(stage, number)
        else:
            schedule = _schedule(stage)
            if number > len(schedule):
                raise NotNow(f"the stage has {len(schedule)} rounds", code="no_more_rounds")
            pairings, record = schedule[number - 1], {"method": "circle"}
        round_ = Round.objects.create(
            stage=stage, number=number, name=f"round {number}", pairing=record
        )
        Fixture.objects.bulk_create(
            Fixture(
                stage=stage,
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


def _schedule(stage: Stage) -> list[list[_Pairing]]:
    """Return every round of a round-robin or group stage (deterministic from the seeds)."""
    entries = list(stage.entries.order_by("seed").values_list("team_id", "group"))
    legs = 2 if stage.format == Stage.Format.DOUBLE_ROUND_ROBIN else 1
    if stage.format != Stage.Format.GROUPS:
        return [
            [_Pairing(p.table, p.a, p.b) for p in r.pairings]
            + ([_Pairing(None, r.bye, None)] if r.bye is not None else [])
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
        for g, schedule in schedules.items():
            if n >= len(schedule):
                continue
            for p in schedule[n].pairings:
                table += 1
                rows.append(_Pairing(table, p.a, p.b, g))
            bye = schedule[n].bye
            if bye is not None:
                rows.append(_Pairing(None, bye, None, g))
        out.append(rows)
    return out


def _swiss(stage: Stage, number: int) -> tuple[list[_Pairing], dict[str, Any]]:
    from .standings import standings_rows_now

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
    ranked = [(r.team_id, r.points) for r in standings_rows_now(stage, number - 1)]
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
        _Pairing(p.table, p.a, p.b, floats=(*floats.get(p.a, ()), *floats.get(p.b, ())))
        for p in paired.pairings
    ]
    if paired.bye is not None:
        pairings.append(_Pairing(None, paired.bye, None))
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
    _require_director(actor, round.stage.tournament)
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("stage").get(pk=round.pk)
        if locked.status != Round.Status.DRAFT:
            raise NotNow("only a draft round can be edited", code="round_published")
        fixtures = list(locked.fixtures.order_by("table", "id"))
        if swap_teams is not None:
            _swap_teams(locked.stage, fixtures, *swap_teams)
        elif swap_tables is not None:
            _swap_tables(fixtures, *swap_tables)
        else:
            raise InvalidSettings("say what to swap: two teams or two tables", code="bad_edit")
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
        raise InvalidSettings("name two different teams of this round", code="bad_edit")
    (f1, s1), (f2, s2) = spots
    t1, t2 = getattr(f1, f"team_{s1}_id"), getattr(f2, f"team_{s2}_id")
    setattr(f1, f"team_{s1}_id", t2)
    setattr(f2, f"team_{s2}_id", t1)


def _swap_tables(fixtures: list[Fixture], first: int, second: int) -> None:
    by_table = {f.table: f for f in fixtures if f.table is not None}
    if first == second or first not in by_table or second not in by_table:
        raise InvalidSettings("name two different tables of this round", code="bad_edit")
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
    problems += [f"{names[t]} plays twice in this round" for t, n in seen.items() if n > 1]
    tables = [f.table for f in fixtures if f.table is not None]
    if len(tables) != len(set(tables)):
        problems.append("two fixtures share a table")
    if stage.elimination:
        return problems
    earlier = Fixture.objects.filter(
        stage=stage, round__number__lt=round_.number, team_a__isnull=False, team_b__isnull=False
    ).values_list("team_a_id", "team_b_id")
    met: dict[frozenset[int], int] = {}
    for a, b in earlier:
        key = frozenset((a, b))
        met[key] = met.get(key, 0) + 1
    allowed = 1 if stage.format == Stage.Format.DOUBLE_ROUND_ROBIN else 0
    for f in fixtures:
        if f.team_a_id is not None and f.team_b_id is not None:
            times = met.get(frozenset((f.team_a_id, f.team_b_id)), 0)
            if times > allowed:
                problems.append(
                    f"{names[f.team_a_id]} and {names[f.team_b_id]} have met already (rematch)"
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
            problems.append(f"{names[f.team_a_id]} gets a second bye while another team has none")
    return problems


def round_publish(*, actor: Any, round: Round) -> Round:
    """Publish a draft round: its matches are created (and started, if the stage says so)
    and everyone sees it. Publishing a bracket's first round publishes the whole bracket."""
    _require_director(actor, round.stage.tournament)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=round.stage_id)
        locked = Round.objects.select_for_update().get(pk=round.pk)
        if locked.status != Round.Status.DRAFT:
            raise NotNow("the round is published already", code="round_published")
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
            _reconcile_bracket(stage)
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
                    _withdrawn_from(fixture, team)
                elif fixture.team_b_id is not None:
                    _create_match(stage, fixture)
        locked.refresh_from_db()
        for round_ in rounds:
            _complete_round_if_done(round_)
        transaction.on_commit(lambda: _schedule_standings(stage.pk))
        for round_ in rounds:
            transaction.on_commit(_tell_published(round_.pk), robust=True)
    return locked


def _tell_published(round_id: int) -> Callable[[], None]:
    def tell() -> None:
        round_published.send(sender=Round, round_id=round_id)

    return tell


def _create_match(stage: Stage, fixture: Fixture) -> None:
    """Create (once) the match of a fixture whose teams are known, and start it if asked."""
    if Fixture.objects.filter(pk=fixture.pk, match__isnull=False).exists():
        return
    assert fixture.team_a_id is not None and fixture.team_b_id is not None  # both known
    match = match_create(
        tournament=stage.tournament,
        team0=Team.objects.get(pk=fixture.team_a_id),
        team1=Team.objects.get(pk=fixture.team_b_id),
        mode=stage.mode,
        match_format=stage.match_format,
        confirmation=stage.confirmation,
    )
    match.scorekeepers.set(stage.scorekeepers.all())
    Fixture.objects.filter(pk=fixture.pk).update(match=match, terms=stage_terms(stage))
    fixture.match = match
    if stage.start_matches:
        match_append_event(
            match=match, expected_seq=0, kind=matchlog.MATCH_STARTED, payload={}, actor=SYSTEM
        )


def _complete_round_if_done(round_: Round) -> None:
    """Mark a published round complete once every fixture of it is decided."""
    if round_.status != Round.Status.PUBLISHED:
        round_.refresh_from_db(fields=["status"])
        if round_.status != Round.Status.PUBLISHED:
            return
    if round_.fixtures.filter(result="").exists():
        return
    written = Round.objects.filter(pk=round_.pk, status=Round.Status.PUBLISHED).update(
        status=Round.Status.COMPLETE, completed_at=timezone.now(), receipts=_receipts(round_)
    )
    if not written:
        return
    stage = Stage.objects.get(pk=round_.stage_id)
    if stage.elimination:
        return  # a bracket is complete when its champion is known (_reconcile_bracket)
    total = stage.rounds if stage.format == Stage.Format.SWISS else len(_schedule(stage))
    if not stage.round_set.exclude(status=Round.Status.COMPLETE).exists() and (
        stage.round_set.count() >= (total or 0)
    ):
        _complete_stage(stage)


def _receipts(round_: Round) -> list[dict[str, Any]]:
    """Return the round's matches' heads (seq, hash) and receipts, for the stage's record."""
    from tournaments.models import MatchReceipt

    out = []
    for fixture in round_.fixtures.filter(match__isnull=False).select_related("match"):
        match = fixture.match
        assert match is not None
        receipt = MatchReceipt.objects.filter(match=match).order_by("-seq").first()
        out.append(
            {
                "match": match.pk,
                "events": match.last_seq,
                "head_hash": match.last_hash,
                "receipt": None
                if receipt is None
                else {"receipt": receipt.body, "signature": receipt.signature},
            }
        )
    return out


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


def _complete_stage(stage: Stage) -> None:
    Stage.objects.filter(pk=stage.pk, status=Stage.Status.RUNNING).update(
        status=Stage.Status.COMPLETE, completed_at=timezone.now()
    )


# --- when a match ends --------------------------------------------------------------------


def fixture_result_of(result: MatchResult | None) -> str:
    """The fixture result a match's scoring projection says (pending while it is not over)."""
    if result is None or result.completed_at is None:
        return Fixture.Result.PENDING
    if result.forfeited_by is not None:
        return Fixture.Result.FORFEIT_A if result.forfeited_by == 0 else Fixture.Result.FORFEIT_B
    if result.winner is None:
        return Fixture.Result.DRAW
    return Fixture.Result.A if result.winner == 0 else Fixture.Result.B


def fixture_match_completed(*, match_id: int) -> Fixture | None:
    """Bring the fixture of a match up to the match's result, and what follows from it.

    Called when scoring records a match's result or a change to it (a signal, from its
    task), and by the catch-up for a message that was lost; safe to run twice or
    concurrently: the stage's row is locked and the fixture's result is the match's, read
    as it is now. A corrected result moves the bracket (``_reconcile_bracket``) and the
    standings; a reopened match makes its fixture pending again (and its round published).
    """
    fixture = Fixture.objects.filter(match_id=match_id).select_related("round").first()
    if fixture is None:
        return None  # a match that no stage scheduled
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=fixture.stage_id)
        fixture = Fixture.objects.select_related("round").get(pk=fixture.pk)
        outcome = fixture_result_of(MatchResult.objects.filter(match_id=match_id).first())
        was_complete = fixture.round.status == Round.Status.COMPLETE
        if fixture.result == outcome:
            if outcome == Fixture.Result.PENDING:
                return fixture  # not over yet, as the projection says
        else:
            if fixture.result != Fixture.Result.PENDING:
                log.info(
                    "fixture %s: match %s's result is now %r (was %r): a correction",
                    fixture.pk, match_id, outcome, fixture.result,
                )  # fmt: skip
                _notice_later_rounds(stage, fixture)
            Fixture.objects.filter(pk=fixture.pk).update(result=outcome)
            fixture.result = outcome
            if outcome == Fixture.Result.PENDING:
                Round.objects.filter(pk=fixture.round_id, status=Round.Status.COMPLETE).update(
                    status=Round.Status.PUBLISHED, completed_at=None
                )
                fixture.round.refresh_from_db(fields=["status", "completed_at"])
        if stage.elimination:
            _reconcile_bracket(stage)
        if was_complete and fixture.round.status == Round.Status.COMPLETE:
            # A correction in a completed round: its record of the heads follows the new events.
            Round.objects.filter(pk=fixture.round_id).update(receipts=_receipts(fixture.round))
        else:
            _complete_round_if_done(fixture.round)  # writes the record when it completes
        transaction.on_commit(lambda: _schedule_standings(stage.pk))
    return fixture


def _notice_later_rounds(stage: Stage, fixture: Fixture) -> None:
    """A result changed after later rounds were paired on it: the directors should know."""
    later = list(
        stage.round_set.filter(number__gt=fixture.round.number)
        .exclude(status=Round.Status.DRAFT)
        .values_list("number", flat=True)
    )
    if later and not stage.elimination:
        _notice(
            stage, fixture, "paired_on_old_result",
            f"{fixture}: its result changed after round(s) {', '.join(map(str, later))} were "
            "paired on the earlier one; those pairings stand, the standings follow the new result",
        )  # fmt: skip


def unrecorded_completions() -> list[int]:
    """Return the matches whose fixture's result is not what the match's result says (catch-up).

    The same mapping as ``fixture_result_of``, as a query: a fixture agrees with its match
    when it is pending and the match is not over, or holds the result the match ended with.
    """
    done = Q(match__result__completed_at__isnull=False)
    played = done & Q(match__result__forfeited_by__isnull=True)
    agrees = (
        Q(result=Fixture.Result.PENDING, match__result__completed_at__isnull=True)
        | Q(result=Fixture.Result.FORFEIT_A, match__result__forfeited_by=0) & done
        | Q(result=Fixture.Result.FORFEIT_B, match__result__forfeited_by=1) & done
        | Q(result=Fixture.Result.DRAW, match__result__winner__isnull=True) & played
        | Q(result=Fixture.Result.A, match__result__winner=0) & played
        | Q(result=Fixture.Result.B, match__result__winner=1) & played
    )
    return list(
        Fixture.objects.filter(match__isnull=False, match__result__isnull=False)
        .exclude(agrees)
        .values_list("match_id", flat=True)
    )


def _schedule_standings(stage_id: int) -> None:
    from .tasks import update_standings

    update_standings.delay(stage_id)


def stage_teams(stage: Stage) -> Iterable[int]:
    """Return the ids of the stage's teams in seed order."""
    return stage.entries.order_by("seed").values_list("team_id", flat=True)
