"""A suspended club's pages and API answer in words that the site's operator suspended it.

The operator suspends a club on their own page (``/operator/``); its data is kept as it was.
Every address that names one of its rows (a tournament's slug, a match's, a team's or a
club's id, a team link, a table link) answers, before its view runs: under ``/api/`` a
problem document (403, code ``club_suspended``), elsewhere a plain page saying so. Addresses
of no club (the site's home, the sign-in, the desk's home) answer as before.

Only someone who may know of the club hears that it is suspended (a page found by its
tournament's slug, which they may see; a team or table link they hold; its directors and
members; anyone, once it published a tournament): to anyone else its rows are absent (404),
as another club's private ones are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from api.problems import CONTENT_TYPE, problem
from competition.selectors import tournament_at
from tournaments import suspension
from tournaments.models import Club

#: the pages whose first part names a match by its id
MATCH_PAGES = frozenset({"m", "keep", "play", "record", "table"})
#: the pages whose first part names a club by its slug
CLUB_PAGES = frozenset({"c", "clubs"})


#: which club an address concerns, and whether finding it there already showed that the
#: caller may see it (a tournament found by what they may see, a link they hold)
Found = tuple[int | None, bool]


def _slug_club(request: HttpRequest, slug: str, *, directing: bool) -> int | None:
    tournament = tournament_at(request.user, slug, directing=directing)
    return tournament.club_id if tournament is not None else None


def _club_of_api(route: str, kwargs: dict[str, Any]) -> int | None:
    kind = route.split("/", 1)[0]
    found = suspension.API_KINDS.get(kind)
    pk = kwargs.get("pk")
    if found is None or not isinstance(pk, int):
        return None
    return suspension.club_id_of(*found, pk)


def club_of(request: HttpRequest, route: str, kwargs: dict[str, Any]) -> Found:
    """Return the id of the club the address ``route`` (filled with ``kwargs``) concerns, and
    whether the caller found it through what they may see."""
    if route.startswith("api/v1/"):
        return _club_of_api(route.removeprefix("api/v1/"), kwargs), False
    first = route.split("/", 1)[0]
    slug, pk, key = kwargs.get("slug"), kwargs.get("pk"), kwargs.get("key")
    if first in {"t", "desk"} and isinstance(slug, str):
        return _slug_club(request, slug, directing=first == "desk"), True
    if first in CLUB_PAGES and isinstance(slug, str):
        return Club.objects.filter(slug=slug).values_list("pk", flat=True).first(), False
    if first in MATCH_PAGES and isinstance(pk, int):
        return suspension.club_id_of_match(pk), False
    if first == "l" and isinstance(key, str):
        return suspension.club_id_of_team_key(key), True
    if first == "tc" and isinstance(key, str):
        return suspension.club_id_of_table_key(key), True
    return None, False


def suspended_answer(request: HttpRequest, club: Club) -> HttpResponse:
    """The answer of every address of the suspended ``club``: a problem document under
    ``/api/``, a page elsewhere (403 both)."""
    detail = _(
        "%(club)s is suspended by the site's operator: its pages and its API are closed for "
        "now. Its data is kept; ask the site's operator to lift the suspension."
    ) % {"club": club.name}
    if request.path.startswith("/api/"):
        return JsonResponse(
            problem(403, "club_suspended", detail), status=403, content_type=CONTENT_TYPE
        )
    return render(request, "web/club_suspended.html", {"club": club, "detail": detail}, status=403)


class SuspendedClubs:
    """Answer for a suspended club before the view that would show or change its rows."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        match = request.resolver_match
        if match is None or not view_kwargs or not suspension.any_suspended():
            return None
        club_id, seen = club_of(request, match.route, view_kwargs)
        club = suspension.is_suspended(club_id)
        if club is None:
            return None
        if not (seen or suspension.may_know_of(request.user, club)):
            raise Http404("no such page")
        return suspended_answer(request, club)
