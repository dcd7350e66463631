"""Suspended clubs: which club an address concerns, whether the operator suspended it, and
the operator's switch (``club_suspend``). A suspended club's data stays as it was; its pages
and its API answer that it is suspended (deploy/suspension.py)."""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, transaction
from django.db.models import Count, Max, OuterRef, QuerySet, Subquery
from django.utils.translation import gettext

from .access import is_club_director
from .errors import ClubNotPermitted, ClubSuspended
from .links import link_for_key
from .models import Club, Match, MatchEvent, Player, Team, Tournament
from .tables import open_key

#: the rows an API path's first part names (``api/v1/<kind>/<pk>/``), each with the path
#: from it to its club's id (kinds of other apps are named by "app.Model")
API_KINDS: dict[str, tuple[str, str]] = {
    "tournaments": ("tournaments.Tournament", "club_id"),
    "teams": ("tournaments.Team", "tournament__club_id"),
    "matches": ("tournaments.Match", "tournament__club_id"),
    "clubs": ("tournaments.Club", "pk"),
    "members": ("tournaments.Player", "club_id"),
    "stages": ("competition.Stage", "tournament__club_id"),
    "rounds": ("competition.Round", "stage__tournament__club_id"),
    "notices": ("competition.Notice", "stage__tournament__club_id"),
    "seasons": ("seasons.Season", "club_id"),
    "webhooks": ("api.Webhook", "tournament__club_id"),
}


def club_id_of(model_label: str, to_club: str, pk: int) -> int | None:
    """Return the id of the club the row ``pk`` of ``model_label`` belongs to (None: none,
    or no such row)."""
    from django.apps import apps

    model = apps.get_model(model_label)
    row = model._default_manager.filter(pk=pk).values_list(to_club, flat=True).first()
    return row if isinstance(row, int) else None


def club_id_of_match(pk: int) -> int | None:
    """Return the id of the club whose tournament plays the match ``pk``."""
    return club_id_of("tournaments.Match", "tournament__club_id", pk)


def club_id_of_team_key(key: str) -> int | None:
    """Return the id of the club of the team whose link is ``key`` (None: no live link)."""
    link = link_for_key(key)
    if link is None:
        return None
    return Team.objects.filter(pk=link.team_id).values_list("tournament__club_id", flat=True)[0]


def club_id_of_table_key(key: str) -> int | None:
    """Return the id of the club of the match the table link ``key`` opens (None: none)."""
    match = open_key(key).match
    return match.tournament.club_id if match is not None else None


class _Known:
    """The suspended clubs' ids as this process last read them (None: to be read)."""

    ids: frozenset[int] | None = None


def read_suspended() -> frozenset[int]:
    """Read the suspended clubs' ids from the database (one query) and keep them."""
    _Known.ids = frozenset(Club.objects.filter(suspended=True).values_list("pk", flat=True))
    return _Known.ids


def suspended_ids() -> frozenset[int]:
    """Return the ids of the suspended clubs as this process knows them: read when each of
    its database connections opens (``read_on_connect``), and again after a suspension this
    process made; a request asks the database nothing for them."""
    return _Known.ids if _Known.ids is not None else read_suspended()


def know_suspended(ids: frozenset[int]) -> None:
    """Take ``ids`` as the suspended clubs' (a test's database rolled back to none)."""
    _Known.ids = ids


def forget_suspended() -> None:
    """Forget the ids this process read (a suspension changed): the next request reads them."""
    _Known.ids = None


def read_on_connect(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: read the suspended clubs' ids on each new connection of the
    default database, so another process's suspension is seen within a connection's life
    (``CONN_MAX_AGE``, 60 s by default). Before the tables exist (a new database, migrating)
    there is no club to know of."""
    if connection.alias != DEFAULT_DB_ALIAS:
        return
    try:
        read_suspended()
    except DatabaseError:
        know_suspended(frozenset())


def any_suspended() -> bool:
    """Return whether any club is suspended (as this process knows it)."""
    return bool(suspended_ids())


def is_suspended(club_id: int | None) -> Club | None:
    """Return the club ``club_id`` if the operator suspended it, else None (checked in the
    database too, so ids read before a suspension was lifted never close the club)."""
    if club_id is None or club_id not in suspended_ids():
        return None
    return Club.objects.filter(pk=club_id, suspended=True).first()


def require_open(club: Club) -> None:
    """Refuse to make anything new for ``club`` while the operator has it suspended (read
    from its row, which the caller may hold locked: a suspension just made counts)."""
    if Club.objects.filter(pk=club.pk, suspended=True).exists():
        raise ClubSuspended(
            gettext(
                "%(club)s is suspended by the site's operator: its pages and its API are closed "
                "for now. Its data is kept; ask the site's operator to lift the suspension."
            )
            % {"club": club.name}
        )


def without_suspended(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Return ``tournaments`` without those of suspended clubs (a list's, as this process
    knows them: no query while none is suspended)."""
    suspended = suspended_ids()
    return tournaments.exclude(club_id__in=suspended) if suspended else tournaments


def may_know_of(user: Any, club: Club) -> bool:
    """Return whether ``user`` may hear that ``club`` is suspended: its directors and
    members, and anyone once it published a tournament (its pages were public)."""
    if Tournament.objects.filter(club=club, published=True).exists():
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return is_club_director(user, club) or Player.objects.filter(club=club, user=user).exists()


def _per_club(model: Any, to_club: str, aggregate: Any) -> Subquery:
    """A subquery of ``aggregate`` over the rows of ``model`` of the outer query's club."""
    rows = model.objects.filter(**{to_club: OuterRef("pk")}).order_by().values(to_club)
    return Subquery(rows.annotate(value=aggregate).values("value"))


def clubs_for_operator() -> QuerySet[Club]:
    """Return every club with its size (members, tournaments, matches) and its activity (when
    anything was last recorded in one of its matches), newest first: the operator's page."""
    return Club.objects.annotate(
        members_count=_per_club(Player, "club", Count("pk")),
        tournaments_count=_per_club(Tournament, "club", Count("pk")),
        matches_count=_per_club(Match, "tournament__club", Count("pk")),
        last_recorded_at=_per_club(MatchEvent, "match__tournament__club", Max("recorded_at")),
    ).order_by("-created_at", "-id")


def club_suspend(*, actor: Any, club: Club, suspended: bool) -> Club:
    """Suspend the club, or lift its suspension: the site's operator (a superuser) only. Its
    data is kept; only what its pages and API answer changes."""
    if not (getattr(actor, "is_active", False) and getattr(actor, "is_superuser", False)):
        raise ClubNotPermitted(gettext("only the site's operator suspends a club"))
    with transaction.atomic():
        stored = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        if stored.suspended != suspended:
            stored.suspended = suspended
            stored.save(update_fields=["suspended"])
            transaction.on_commit(forget_suspended)
    return stored
