"""Evenings: a tournament made in one step, with its stages, in a club its maker runs."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from tournaments import quotas, suspension
from tournaments.access import is_club_director, is_director
from tournaments.clubs import club_for
from tournaments.models import RESERVED_SLUGS, Club, Tournament, slug_held, slug_taken

from .. import happenings as told
from ..errors import InvalidSettings, NotNow, NotPermitted
from . import _common
from . import stages as stage_services


def unique_slug(name: str, *, club: Club | None) -> str:
    """Return a slug for ``name`` free for a new tournament of ``club`` ("friday-night",
    "friday-night-2": ``slug_held``) that no page of the desk takes (``RESERVED_SLUGS``)."""
    base = (slugify(name) or "evening")[:90]
    slug, n = base, 1
    while slug in RESERVED_SLUGS or slug_held(slug, club_id=club.pk if club else None):
        n += 1
        slug = f"{base}-{n}"
    return slug


def tournament_create(
    *,
    actor: Any,
    club: Club | None,
    name: str,
    slug: str = "",
    date: datetime.date | None = None,
    place: str = "",
    rules: dict[str, Any] | None = None,
    match_format: dict[str, Any] | None = None,
    published: bool = False,
    directors: Sequence[Any] = (),
    stages: Sequence[dict[str, Any]] = (),
) -> Tournament:
    """Make a tournament of ``club`` and its stages, all or nothing; ``actor`` organizes it.

    With no club, the actor's own (``tournaments.clubs.club_for``: made if they run none).
    The club's other directors direct it too. The slug follows the name (``unique_slug``)
    unless given; one given is refused (``slug_taken``) only when a published tournament or
    one of the same club holds it, never for another club's private one. Each stage's
    settings are checked as ``stage_create`` checks them; the first refusal undoes everything
    and is raised as it is. The club's quota of tournaments a month is counted under its
    row's lock (``tournaments.quotas``: ``QuotaExceeded``).
    """
    if club is not None and not is_club_director(actor, club):
        raise NotPermitted(
            gettext("only a director of this club may make its evenings"), code="forbidden"
        )
    name = (name or "").strip()
    with transaction.atomic():
        if club is None:  # the actor's own club, made for them if they run none yet
            club = club_for(actor)
        quotas.require_tournament_room(club=club)  # the club's row locked from here
        suspension.require_open(club)
        tournament = Tournament(
            name=name,
            slug=slug or unique_slug(name, club=club),
            organizer=actor,
            club=club,
            date=date,
            place=(place or "").strip(),
            published=published,
        )
        if rules is not None:
            tournament.rules = rules
        if match_format is not None:
            tournament.match_format = match_format
        _checked(tournament)
        _save(tournament)
        _common.shown(tournament.pk)
        tournament.directors.set({*directors, *club.directors.exclude(pk=actor.pk)} - {actor})
        for settings in stages:
            stage_services.stage_create(actor=actor, tournament=tournament, **settings)
    return tournament


def _save(tournament: Tournament) -> None:
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError as exc:  # taken since full_clean looked (a published tournament or
        # one of the club made or published at that slug meanwhile): told as it would have been
        raise NotNow(slug_taken(tournament.slug), code="slug_taken") from exc


def _checked(tournament: Tournament) -> None:
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise InvalidSettings(
            "; ".join(m for messages in exc.message_dict.values() for m in messages),
            code="bad_tournament",
            fields=exc.message_dict,
        ) from exc


#: what ``tournament_update`` changes
TOURNAMENT_FIELDS = ("name", "slug", "rules", "match_format", "published", "date", "place")


#: the fields a tournament's happening tells (``tournament.changed``)
TOLD_FIELDS = ("name", "slug", "published", "date", "place")


def tournament_update(
    *, actor: Any, tournament: Tournament, directors: Sequence[Any] | None = None, **values: Any
) -> Tournament:
    """Change a tournament's name, slug, rules, match format, publication, date or place, and
    (its organizer only) its directors: all or nothing, checked as when it was made. Publishing
    it while another published tournament holds its slug is refused (``slug_taken``): choose
    another slug first (the one published is public, so this tells nothing private)."""
    if not is_director(actor, tournament):
        raise NotPermitted(
            gettext("only a director of this tournament may do this"), code="forbidden"
        )
    unknown = sorted(set(values) - set(TOURNAMENT_FIELDS))
    if unknown:
        raise InvalidSettings(
            gettext("unknown setting(s): %(names)s") % {"names": ", ".join(unknown)},
            code="bad_tournament",
        )
    if directors is not None and not (
        getattr(actor, "is_superuser", False) or tournament.organizer_id == actor.pk
    ):
        raise NotPermitted(gettext("only the organizer names the directors"), code="forbidden")
    with transaction.atomic():
        _common.shown(tournament.pk)
        for name, value in values.items():
            setattr(tournament, name, value)
        _checked(tournament)
        _save(tournament)
        if directors is not None:
            tournament.directors.set(directors)
        if set(values) & set(TOLD_FIELDS):
            told.tournament_changed(tournament)
    return tournament
