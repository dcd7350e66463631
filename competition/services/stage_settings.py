"""A stage's settings: which it takes, and the checks they pass, as saved and as run.

The rules of the row itself are ``Stage.clean``'s; the rules that read other rows are here:
what a stage after another takes from it, and what its field allows.
"""

from __future__ import annotations

import copy
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from ..errors import InvalidSettings
from ..models import Registration, Stage

SETTINGS = (
    "name", "format", "rounds", "groups", "entry", "entry_count", "late_entry", "seeding",
    "seeding_seed", "swiss_method", "match_format", "mode", "points_win", "points_draw",
    "points_loss", "points_bye", "points_forfeit", "tiebreaks", "tiebreak_seed",
    "third_place", "grand_final_reset", "withdrawal", "start_matches", "confirmation",
    "review_draw",
)  # fmt: skip


def refuse_unknown(settings: dict[str, Any]) -> None:
    """Refuse (InvalidSettings ``bad_stage``) any name in ``settings`` that is not a setting."""
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InvalidSettings(
            gettext("unknown stage setting(s): %(names)s") % {"names": ", ".join(unknown)},
            code="bad_stage",
        )


#: the code of a refusal of each setting; a refusal naming several takes the code of the
#: first of them in this order (any other setting: bad_stage)
SETTING_CODES = {
    "format": "bad_format", "mode": "bad_mode", "confirmation": "bad_confirmation",
    "rounds": "bad_rounds", "groups": "bad_groups", "entry": "bad_entry",
    "entry_count": "bad_entry", "tiebreaks": "bad_tiebreaks", "match_format": "bad_format",
    "late_entry": "bad_entry",
}  # fmt: skip


def check_settings(stage: Stage) -> None:
    """Refuse settings the formats cannot take: raise InvalidSettings naming each refused
    setting (``fields``); otherwise store the match format complete (M1) on ``stage``.

    The rules of the row itself are ``Stage.clean``'s (run here by ``full_clean``, so the
    admin, the API, the desk and a management command refuse the same things in the same
    words); the rules that read other rows are here: what a stage after another takes from
    it (``_entry_problems``) and what its field allows (``field_problems``), where the field
    is known. ``stage_start`` checks the field again, with the teams that enter.
    """
    errors: dict[str, list[str]] = {}
    try:
        stage.full_clean()
    except ValidationError as exc:
        for field, messages in exc.message_dict.items():
            errors.setdefault(field, []).extend(messages)
    if not errors.keys() & {"format", "entry", "entry_count", "rounds", "groups"}:
        for field, message in _entry_problems(stage):
            errors.setdefault(field, []).append(message)
    refuse(errors)


def check_stored_settings(stage: Stage) -> None:
    """Refuse to run a round under settings the formats cannot take (InvalidSettings, before
    anything is written): a row saved before they were checked when saved, or past the
    service. Checks the row's own rules on a copy (``stage`` is left as it is)."""
    errors: dict[str, list[str]] = {}
    try:
        copy.copy(stage).full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        errors = exc.message_dict
    refuse(errors)


def refuse(errors: dict[str, list[str]]) -> None:
    if not errors:
        return
    fields = list(SETTING_CODES)
    first = min(errors, key=lambda f: fields.index(f) if f in fields else len(fields))
    raise InvalidSettings(
        "; ".join(m for messages in errors.values() for m in messages),
        code=SETTING_CODES.get(first, "bad_stage"),
        fields=errors,
    )


def _entry_problems(stage: Stage) -> list[tuple[str, str]]:
    """Return what the stages before this one (or the teams) refuse of its settings."""
    if stage.entry == Stage.Entry.REGISTERED:
        return field_problems(stage, None)
    previous = Stage.objects.filter(
        tournament_id=stage.tournament_id, order=(stage.order or 0) - 1
    ).first()
    if previous is None:
        if (stage.order or 0) <= 1:
            return [("entry", gettext("the first stage takes the registered teams"))]
        return [
            (
                "entry",
                gettext(
                    "a stage that takes the top teams of the stage before needs one: there is "
                    "no stage %(order)s"
                )
                % {"order": stage.order - 1},
            )
        ]
    count = stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP_PER_GROUP:
        if previous.format != Stage.Format.GROUPS:
            return [("entry", gettext("the top N of each group needs a group stage before it"))]
        groups = previous.groups or 1
        field = _field_size(previous)
        largest = -(-(field or 0) // groups)  # the most a group can hold
        if field is not None and count > largest:
            return [
                (
                    "entry_count",
                    gettext(
                        "the number of teams entering from each group (%(count)s) is more than "
                        "a group of the stage before holds (%(largest)s at most)"
                    )
                    % {"count": count, "largest": largest},
                )
            ]
        return field_problems(stage, count * groups)
    field = _field_size(previous)
    if field is not None and count > field:
        return [
            (
                "entry_count",
                gettext(
                    "the number of teams entering (the top %(count)s) is more than the stage "
                    "before has (%(field)s)"
                )
                % {"count": count, "field": field},
            )
        ]
    return field_problems(stage, count)


def _field_size(stage: Stage) -> int | None:
    """Return how many teams a stage plays with (at most): its entrants once it has started,
    else the N it takes from the stage before it, else the registered teams not withdrawn
    (None while no team is registered: a tournament set up before its registrations; the
    start checks the field it really has)."""
    if stage.status != Stage.Status.PENDING:
        return stage.entries.count()
    if stage.entry == Stage.Entry.TOP:
        return stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP_PER_GROUP:
        previous = Stage.objects.filter(
            tournament_id=stage.tournament_id, order=stage.order - 1
        ).first()
        return (stage.entry_count or 0) * ((previous.groups if previous else None) or 1)
    registered = Registration.objects.filter(
        tournament_id=stage.tournament_id, withdrawn_at__isnull=True
    ).count()
    return registered or None


def field_problems(stage: Stage, teams: int | None) -> list[tuple[str, str]]:
    """Return what a field of ``teams`` teams (None: not known yet) refuses of the stage's
    rounds and groups, and of a bracket."""
    if teams is None:
        return []
    problems = []
    if teams < 2:
        problems.append(
            (
                "entry_count",
                gettext("a stage needs at least 2 teams, and %(teams)s would enter")
                % {"teams": teams},
            )
        )
    elif stage.format == Stage.Format.SWISS and stage.rounds and stage.rounds >= teams:
        problems.append(
            (
                "rounds",
                gettext(
                    "%(rounds)s Swiss rounds need at least %(least)s teams (each meets another "
                    "at most once), and %(teams)s enter: at most %(most)s rounds"
                )
                % {
                    "rounds": stage.rounds,
                    "least": stage.rounds + 1,
                    "teams": teams,
                    "most": teams - 1,
                },
            )
        )
    elif stage.format == Stage.Format.GROUPS and stage.groups and 2 * stage.groups > teams:
        problems.append(
            (
                "groups",
                gettext(
                    "%(groups)s groups need at least %(least)s teams (2 a group), and %(teams)s "
                    "enter: at most %(most)s groups"
                )
                % {
                    "groups": stage.groups,
                    "least": 2 * stage.groups,
                    "teams": teams,
                    "most": teams // 2,
                },
            )
        )
    return problems


def group_by_field(problems: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for field, message in problems:
        out.setdefault(field, []).append(message)
    return out
