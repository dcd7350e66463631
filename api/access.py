"""Who is calling, and what they may see: every object is looked up through these.

A caller is a user (a browser session or an integration token) or anonymous. What they may
see: published tournaments, and unpublished ones they direct, play in or keep score in;
within those, drafts only if they direct it. A token is scoped to one tournament, or to one
club (its tournaments, its members; anything else does not exist for it) and is read-only
unless it was made to write. Knowing an id grants nothing: an object outside what the caller
may see is a 404, whatever its id.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Q, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404
from rest_framework.request import Request

from competition import access as competition_access
from competition import selectors as competition_selectors
from tournaments import links, matchlog, seats
from tournaments.access import LinkActor, directed_clubs, is_club_director, is_director
from tournaments.models import ID_LIMIT, Club, Match, Player, Tournament

from . import sql as queries
from .models import ApiToken
from .problems import Problem


def token_of(request: Request) -> ApiToken | None:
    """Return the integration token the request came with, if any."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiToken) else None


def signed_in(request: Request) -> bool:
    return bool(request.user and request.user.is_authenticated)


def visible_tournaments(request: Request) -> QuerySet[Tournament]:
    """Return the tournaments the caller may see (a token: only its own, or its club's, if
    visible)."""
    tournaments = competition_access.visible_tournaments(request.user)
    token = token_of(request)
    if token is not None and token.club_id is not None:
        tournaments = tournaments.filter(club_id=token.club_id)
    elif token is not None:
        tournaments = tournaments.filter(pk=token.tournament_id or 0)
    return tournaments


def in_scope(request: Request, tournament_id: int) -> bool:
    """Whether the request's token, if any, reaches this tournament: its own, or one of its
    club's (one query for a club's token, remembered per request; none otherwise)."""
    token = token_of(request)
    if token is None:
        return True
    if token.club_id is None:
        return token.tournament_id == tournament_id
    known: dict[int, bool] = request.__dict__.setdefault("_seep_in_club", {})
    if tournament_id not in known:
        known[tournament_id] = Tournament.objects.filter(
            pk=tournament_id, club_id=token.club_id
        ).exists()
    return known[tournament_id]


def may_see(request: Request, tournament: Tournament) -> bool:
    """Whether the caller may see this tournament (at most one query, two with a club's
    token; remembered per request)."""
    seen: dict[int, bool] = request.__dict__.setdefault("_seep_may_see", {})
    if tournament.pk not in seen:
        seen[tournament.pk] = in_scope(request, tournament.pk) and competition_access.may_see(
            request.user, tournament
        )
    return seen[tournament.pk]


def get_visible(
    request: Request, queryset: QuerySet[Any], pk: Any, path: str = "tournament"
) -> Any:
    """Return the object with this id if the caller may see its tournament; else Http404.

    One query for the object (with its tournament), and at most one more to decide: cheaper
    than filtering by every tournament the caller may see.
    """
    obj = get_or_404(queryset.select_related(path) if path else queryset, pk)
    if not may_see(request, _tournament_of(obj, path)):
        raise Http404
    return obj


def _tournament_of(obj: Any, path: str) -> Any:
    """The tournament ``obj`` belongs to, down ``path`` (``obj`` itself for an empty path)."""
    for name in path.split("__") if path else ():
        obj = getattr(obj, name)
    return obj


def get_directed(
    request: Request, queryset: QuerySet[Any], pk: Any, path: str = "tournament"
) -> Any:
    """Return the object with this id if the caller may see its tournament (else Http404) and
    directs it (else what ``require_director`` refuses): the object a director may change."""
    obj = get_visible(request, queryset, pk, path)
    require_director(request, _tournament_of(obj, path))
    return obj


def get_visible_row(
    request: Request,
    model: Any,
    pk: Any,
    *,
    fields: Sequence[str] = (),
    annotations: Mapping[str, RawSQL] | None = None,
) -> Any:
    """``get_visible`` of an object with a ``tournament``, by one query of fixed shape.

    The object comes with its id, its tournament's id and ``fields`` (columns of its own, by
    attribute name; the rest deferred), its tournament with what deciding needs (its id,
    whether it is published, its organizer, whether the caller is among its added directors:
    ``directs`` then asks nothing more), and ``annotations``: raw subqueries that name the
    object's table by its name, each set as an attribute. For the API's hottest reads and its
    appends: the same query built by the ORM (``only``, ``select_related``, ``annotate``) cost
    several times the CPU to compile as to run, on every request.
    """
    number = _number_or_404(pk)
    annotations = annotations or {}
    sql, names, order = _row_query(model, tuple(fields), tuple(a.sql for a in annotations.values()))
    params = [p for expression in annotations.values() for p in expression.params]
    caller = request.user.pk if signed_in(request) else 0  # 0: no user's id
    # planned once per connection (api/sql.py)
    found = queries.rows(sql, [caller, *params, number])
    if not found:
        raise Http404
    row = found[0]
    width = len(names)
    db = connections[DEFAULT_DB_ALIAS]  # once: ``connection`` looks it up on every attribute
    obj = model.from_db(db.alias, names, row[:width])
    shown = {"id": obj.tournament_id, "published": bool(row[width]), "organizer_id": row[width + 1]}
    obj.tournament = Tournament.from_db(db.alias, order, [shown[name] for name in order])
    for (name, expression), stored in zip(annotations.items(), row[width + 3 :], strict=True):
        value = stored
        for convert in db.ops.get_db_converters(expression) + expression.get_db_converters(db):
            value = convert(value, expression, db)
        setattr(obj, name, value)
    _admit(request, obj.tournament, listed=bool(row[width + 2]))
    return obj


def admit_to_append(request: Request, match: Any, listed: bool, *, kind: str = "") -> None:
    """The API's check of an append, on the match the append service has just locked.

    The ``gate`` of ``match_append_event``: the same refusals, in the same order, as
    ``get_visible_row`` then ``require_write`` before the call (Http404 for a match the
    caller may not see, then what ``require_write`` refuses), decided from the row the
    service locks and reads anyway (its tournament's id, published flag and organizer, and
    ``listed``: whether the caller is among its added directors) instead of a query before.
    """
    team = team_actor(request)
    if team is not None:  # a team's token: its own tournament's matches, as its link
        if match.tournament_id != team.tournament_id:
            raise Http404
        moves = kind == matchlog.MOVE_PLAYED
        if team.player is not None:  # bound to a player: it holds that player's seat itself
            if moves:
                bound_seat(request, match)
            return
        held = seats.held_to_play(match.pk, team.side_in(match)) if moves else None
        if held is not None:  # that player's phone plays the seat, and only it
            raise Problem(
                f"{held}'s seat is held by a phone through the team's link (or by a token "
                "bound to that player): it is played there, not through the team's token",
                code="seat_held",
                status_code=409,
            )
        return
    _admit(request, match.tournament, listed=listed)
    require_write(request, match.tournament_id)


def _admit(request: Request, tournament: Tournament, *, listed: bool) -> None:
    """Raise Http404 unless the caller may see ``tournament`` (its id, published flag and
    organizer at hand); remember whether the caller directs it, as ``directs`` would."""
    known: dict[int, bool] = request.__dict__.setdefault("_seep_directs", {})
    if tournament.pk not in known:  # what ``directs`` remembers, asking nothing more
        known[tournament.pk] = is_director(request.user, tournament, listed=listed)
    if not may_see(request, tournament):
        raise Http404


@functools.cache
def _row_query(
    model: Any, fields: tuple[str, ...], annotations: tuple[str, ...]
) -> tuple[str, list[str], list[str]]:
    """The query of ``get_visible_row``, the object's attributes it reads (in the model's
    order, as ``Model.from_db`` takes them) and the tournament's, made once per shape."""
    meta, table = model._meta, model._meta.db_table
    wanted = {"id", "tournament_id", *fields}
    read = [f for f in meta.concrete_fields if f.attname in wanted]
    columns = ", ".join(f"{table}.{f.column}" for f in read)
    extra = "".join(f", ({sql})" for sql in annotations)
    directors = Tournament.directors.through._meta.db_table
    listed = f"EXISTS (SELECT 1 FROM {directors} d WHERE d.tournament_id = t.id AND d.user_id = %s)"
    sql = (
        f"SELECT {columns}, t.published, t.organizer_id, {listed}{extra} FROM {table} "
        f"JOIN {Tournament._meta.db_table} t ON t.id = {table}.tournament_id "
        f"WHERE {table}.id = %s"
    )
    shown = ("id", "published", "organizer_id")
    order = [f.attname for f in Tournament._meta.concrete_fields if f.attname in shown]
    return sql, [f.attname for f in read], order


def _number_or_404(pk: Any) -> int:
    try:
        number = int(pk)
    except (TypeError, ValueError, OverflowError) as exc:
        raise Http404 from exc
    if not 1 <= number < ID_LIMIT:
        raise Http404
    return number


def visible(request: Request, queryset: QuerySet[Any], path: str = "tournament") -> QuerySet[Any]:
    """Narrow ``queryset`` to what belongs to the tournaments the caller may see."""
    return queryset.filter(**{f"{path}__in": visible_tournaments(request).values("pk")})


def get_or_404(queryset: QuerySet[Any], pk: Any) -> Any:
    """Return the object with this id from ``queryset``, or raise Http404 (never a 500)."""
    try:
        return queryset.get(pk=_number_or_404(pk))
    except queryset.model.DoesNotExist as exc:
        raise Http404 from exc


def directs(request: Request, tournament: Tournament | int) -> bool:
    """Whether the caller directs the tournament (a token: within its scope)."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    if not in_scope(request, tournament_id):
        return False
    known: dict[int, bool] = request.__dict__.setdefault("_seep_directs", {})
    if tournament_id not in known:
        known[tournament_id] = is_director(request.user, tournament)
    return known[tournament_id]


def directed_tournaments(request: Request) -> list[int]:
    """Return the ids of the tournaments the caller may see and directs."""
    seen = visible_tournaments(request).values_list("pk", flat=True)
    return [t for t in seen if directs(request, t)]


def via_of(request: Request) -> str:
    """How the request came, as the match log records it: "token:<id>" or "session"."""
    token = token_of(request)
    return f"token:{token.pk}" if token is not None else "session"


def team_actor(request: Request) -> LinkActor | None:
    """Return the team a team's token acts for (through its team's link), or None for any
    other caller. Refuses (403 ``team_link_stopped``) a token whose link was reissued since,
    or whose tournament is over: it acts for no one."""
    token = token_of(request)
    if token is None or token.team_link_id is None:
        return None
    found: dict[str, LinkActor] = request.__dict__.setdefault("_seep_team", {})
    if "actor" not in found:
        link = links.live_links([token.team_link_id])
        over = competition_selectors.tournaments_over([token.tournament_id or 0])
        if not link or token.tournament_id in over:
            raise Problem(
                "this team's token no longer acts: the team has a new link, or the tournament "
                "is over",
                code="team_link_stopped",
                status_code=403,
            )
        found["actor"] = dataclasses.replace(links.actor_for(link[0]), player=token.player)
    return found["actor"]


def bound_seat(request: Request, match: Match) -> int | None:
    """Return the seat of ``match`` that the request's team token, bound to one of its team's
    players, holds (claimed now if it holds it not yet, as a phone claims it through the
    team's link: ``tournaments.seats``); None for any other caller, and for a match that is
    not one of its team's digital matches. A seat held by a phone is refused (409
    ``seat_held``): a phone and a bot never hold one seat together."""
    token = token_of(request)
    if token is None or token.player is None or match.mode != Match.Mode.DIGITAL:
        return None
    team = team_actor(request)
    mine = () if team is None else team.seats_in(match)
    if team is None or len(mine) != 1:
        return None
    claim_id = seats.bound_claim_id(team.link_id, token.player)
    held = seats.held_by(match, claim_id)  # one read on each poll once the seat is the bot's
    if held is None or held.seat != mine[0]:
        seats.seat_claim(actor=team, match=match, seat=mine[0], claim_id=claim_id)  # or 409
    return mine[0]


def require_write(request: Request, tournament: Tournament | int) -> None:
    """Refuse a change made with a read-only token, a team's token (it only enters and
    answers its team's results: ``team_actor``), or signed out."""
    token = token_of(request)
    if token is not None and token.team_link_id is not None:
        raise Problem(
            "a team's token only enters and answers its team's results",
            code="token_scope",
            status_code=403,
        )
    require_signed_in(request, "sign in, or send a token, to change anything")
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    if not in_scope(request, tournament_id):
        raise Http404
    require_write_token(request)


def require_write_token(request: Request) -> None:
    """Refuse a change made with a read-only token."""
    token = token_of(request)
    if token is not None and not token.write:
        raise Problem("this token may only read", code="token_read_only", status_code=403)


def require_director(request: Request, tournament: Tournament) -> None:
    """Refuse anyone but a director of the tournament (with a token that may write)."""
    require_write(request, tournament)
    if not directs(request, tournament):
        raise Problem(
            "only a director of this tournament may do this", code="forbidden", status_code=403
        )


def require_signed_in(request: Request, refusal: str) -> None:
    """Refuse the anonymous (401 ``not_authenticated``), in the words of ``refusal``."""
    if not signed_in(request):
        raise Problem(refusal, code="not_authenticated", status_code=401)


def refuse_tournament_token(request: Request, *, signed_out: str, scoped: str) -> ApiToken | None:
    """Refuse the anonymous (401, saying ``signed_out``) and a tournament's token, a team's
    among them (403 ``token_scope``, saying ``scoped``): what reaches beyond one tournament.
    Return the club's token the request came with, if any (None: a session)."""
    require_signed_in(request, signed_out)
    token = token_of(request)
    if token is not None and token.club_id is None:
        raise Problem(scoped, code="token_scope", status_code=403)
    return token


def reach_clubs(request: Request) -> ApiToken | None:
    """Refuse the anonymous (401) and a tournament's token (403): a club is beyond it. Return
    the club's token the request came with, if any."""
    return refuse_tournament_token(
        request,
        signed_out="sign in, or send a token, to see clubs",
        scoped="this token belongs to one tournament: a club's token (or a session) reaches a club",
    )


def seen_clubs(request: Request) -> QuerySet[Club]:
    """Return the clubs the caller sees: those they direct and those they are a member of (a
    club's token: its club only)."""
    token = reach_clubs(request)
    user = request.user
    seen = Club.objects.filter(
        Q(pk__in=directed_clubs(user).values("pk"))
        | Q(pk__in=Player.objects.filter(user_id=user.pk or 0).values("club"))
    )
    if token is not None:
        seen = seen.filter(pk=token.club_id or 0)
    return seen


def sees_club(request: Request, club: Club | int) -> bool:
    """Whether the caller sees the club (``seen_clubs``), asked without refusing anyone: the
    anonymous and a tournament's token see no club. For a check made after the club was found
    (a public club's pages), so that a private club answers as a missing one would."""
    token = token_of(request)
    if not signed_in(request) or (token is not None and token.club_id is None):
        return False
    club_id = club if isinstance(club, int) else club.pk
    return seen_clubs(request).filter(pk=club_id).exists()


def get_seen_club(request: Request, pk: Any) -> Club:
    """Return the club with this id if the caller sees it (with its directors); else Http404."""
    club: Club = get_or_404(seen_clubs(request).prefetch_related("directors"), pk)
    return club


def require_club_director(request: Request, club: Club | int) -> None:
    """Refuse a read-only token (403 ``token_read_only``) and a caller who does not direct the
    club (403 ``forbidden``)."""
    require_write_token(request)
    if not is_club_director(request.user, club):
        raise Problem("only a director of the club may do this", code="forbidden", status_code=403)


def get_directed_club(request: Request, pk: Any) -> Club:
    """Return the club with this id if the caller sees it (else Http404) and directs it (else
    what ``require_club_director`` refuses)."""
    club = get_seen_club(request, pk)
    require_club_director(request, club)
    return club
