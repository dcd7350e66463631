"""Evenings: a tournament made in one step, with its stages, in a club its maker runs."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from tournaments.access import is_club_director, is_director
from tournaments.clubs import club_for
from tournaments.models import RESERVED_SLUGS, Club, Tournament, slug_taken

from ..access import may_see
from ..errors import InvalidSettings, NotNow, NotPermitted
from . import stages as stage_services


def unique_slug(name: str) -> str:
    """Return a slug for ``name`` that no tournament has yet ("friday-night", "friday-night-2")
    and no page of the desk takes (``RESERVED_SLUGS``)."""
    base = (slugify(name) or "evening")[:90]
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def slug_for(*, actor: Any, slug: str, tournament: Tournament | None = None) -> str:
    """Return the slug ``actor`` gets for a tournament (``tournament``, or a new one) when they
    ask for ``slug``: itself, unless another tournament that the actor may not see holds it;
    then a free one made from it ("cup-b-2"), as when no slug is asked for.

    A tournament's address is one for the whole site (``/t/<slug>/``), so a slug is one
    tournament's; refusing one that a private tournament holds told an outsider that it
    exists. Now the tournament is made (its slug in the answer), as for a free slug. That
    narrows the leak but does not close it: the slug given back differs from the one asked
    for, so a caller who compares them learns the slug was taken (closing it needs slugs per
    club). A slug the actor may see taken (a published tournament, one of theirs) is refused
    as before (``slug_taken``): they could see it anyway, and they would rather choose again.
    """
    holder = Tournament.objects.filter(slug=slug)
    if tournament is not None:
        holder = holder.exclude(pk=tournament.pk)
    found = holder.first()
    if found is None or may_see(actor, found):
        return slug
    return unique_slug(slug)


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
    The club's other directors direct it too. The slug follows the name unless given (and
    one given that a tournament the actor may not see holds is changed: ``slug_for``). Each
    stage's settings are checked as ``stage_create`` checks them; the first refusal undoes
    everything and is raised as it is.
    """
    if club is not None and not is_club_director(actor, club):
        raise NotPermitted(
            gettext("only a director of this club may make its evenings"), code="forbidden"
        )
    name = (name or "").strip()
    with transaction.atomic():
        if club is None:  # the actor's own club, made for them if they run none yet
            club = club_for(actor)
        tournament = Tournament(
            name=name,
            slug=slug_for(actor=actor, slug=slug) if slug else unique_slug(name),
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
        tournament.directors.set({*directors, *club.directors.exclude(pk=actor.pk)} - {actor})
        for settings in stages:
            stage_services.stage_create(actor=actor, tournament=tournament, **settings)
    return tournament


def _save(tournament: Tournament) -> None:
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError as exc:  # taken since full_clean looked: told as it would have
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


def tournament_update(
    *, actor: Any, tournament: Tournament, directors: Sequence[Any] | None = None, **values: Any
) -> Tournament:
    """Change a tournament's name, slug, rules, match format, publication, date or place, and
    (its organizer only) its directors: all or nothing, checked as when it was made (a slug
    as ``slug_for`` gives it)."""
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
    if values.get("slug"):
        values["slug"] = slug_for(actor=actor, slug=values["slug"], tournament=tournament)
    with transaction.atomic():
        for name, value in values.items():
            setattr(tournament, name, value)
        _checked(tournament)
        _save(tournament)
        if directors is not None:
            tournament.directors.set(directors)
    return tournament
