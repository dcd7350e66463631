"""The public pages: home, a tournament (live standings, bracket, tables), a match sheet."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from competition.access import visible_tournaments
from tournaments.access import is_director
from tournaments.models import Match, MatchReceipt, Tournament
from tournaments.reads import consistent_read
from tournaments.receipts import Receipt

from .. import pages
from ..access import visible_or_404
from ..clubtime import use_club_time

#: how often the live parts of a page ask whether anything changed (milliseconds)
POLL_MS = 3000
#: how long a rendered live part is kept (a version change replaces it at once)
LIVE_SECONDS = 60


def _etag_matches(request: HttpRequest, etag: str) -> bool:
    held = request.headers.get("If-None-Match", "")
    return etag in [t.strip() for t in held.split(",")]


def etag_of(request: HttpRequest, version: str) -> str:
    """Return the ETag of a fragment's ``version`` as this viewer sees it (their account)."""
    viewer = request.user.pk if request.user.is_authenticated else 0
    return f'"{version}-{viewer}"'


def _conditional(request: HttpRequest, version: str, build: object) -> HttpResponse:
    """Answer 304 when the browser holds this version of the fragment, else render it."""
    etag = etag_of(request, version)
    if _etag_matches(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = build()  # type: ignore[operator]
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"
    return response


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    cards = pages.home_cards(visible_tournaments(request.user).order_by("-created_at", "id"))
    return render(request, "web/home.html", {"cards": cards})


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    t = visible_or_404(
        request.user, get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    )
    use_club_time(t)
    return t


def live_part(
    t: Tournament,
    template: str = "web/_live.html",
    version: str | None = None,
    context: Callable[[Tournament], dict[str, Any]] | None = None,
) -> tuple[str, str]:
    """Return the tournament's live part (standings, brackets, tables) and its version.

    The same for every viewer, so it is rendered once per version and kept in the cache
    (a wall screen and a hundred phones polling cost one render per result). The version
    and the part are read in one consistent snapshot; the cache entry also expires, for
    what the version does not follow (a team renamed in the admin). ``context``: what the
    template shows (the tournament page's stages unless said: the wall's panels).
    """
    with consistent_read():
        if version is None:
            version = pages.tournament_version(t)
        key = f"web:{template}:{t.pk}:{version}"
        html = cache.get(key)
        if html is None:
            shown = {"stages": pages.tournament_page(t)} if context is None else context(t)
            html = render_to_string(template, {"tournament": t, **shown})
            cache.set(key, html, LIVE_SECONDS)
    return html, version


@require_GET
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(request, slug)
    html, version = live_part(t)
    return render(
        request,
        "web/tournament.html",
        {
            "tournament": t,
            "live": html,
            "version": version,
            "poll_ms": POLL_MS,
            "director": is_director(request.user, t),
        },
    )


@require_GET
def tournament_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live part of the tournament page (standings, bracket, tables), with an ETag."""
    t = _tournament(request, slug)
    version = pages.tournament_version(t)
    return _conditional(request, version, lambda: HttpResponse(live_part(t, version=version)[0]))


@require_GET
def tournament_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The current round's pairings and the standings, on one clean page for the notice board."""
    t = _tournament(request, slug)
    html, _ = live_part(t, "web/_print.html")
    return render(request, "web/print.html", {"tournament": t, "printed": html})


def _match(request: HttpRequest, pk: int) -> Match:
    match = get_object_or_404(pages.match_for_page(Match.objects.all()), pk=pk)
    visible_or_404(request.user, match.tournament)
    use_club_time(match.tournament)
    return match


@require_GET
def match_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(request, pk)
    with consistent_read():
        sheet = pages.match_sheet(match)
    return render(
        request,
        "web/match.html",
        {"sheet": sheet, "match": match, "poll_ms": POLL_MS, "version": match.last_seq},
    )


@require_GET
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The match sheet's live part, with an ETag on the head of the log and the projection."""
    match = _match(request, pk)
    result_seq = (
        Match.objects.filter(pk=match.pk).values_list("result__seq", flat=True).first() or 0
    )

    def build() -> HttpResponse:
        return HttpResponse(match_live_part(match))

    return _conditional(request, f"m{match.pk}-{match.last_seq}-{result_seq}", build)


def match_live_part(match: Match) -> str:
    """The match sheet's live part (the same for every viewer: the polling view's and the
    push process's), read in one consistent snapshot."""
    with consistent_read():
        sheet = pages.match_sheet(match)
        return render_to_string("web/_match_live.html", {"sheet": sheet, "match": match})


@require_GET
def match_receipt(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """The signed receipt of a finished match, as a file to keep (checkable offline)."""
    match = _match(request, pk)
    receipt = get_object_or_404(MatchReceipt, match=match, seq=seq)
    # the shape ``python -m tournaments.receipts verify FILE`` reads: a list of receipts
    data = [Receipt(receipt.body, receipt.signature).to_dict()]
    response = HttpResponse(
        json.dumps(data, indent=2, sort_keys=True) + "\n", content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-receipt-{seq}.json"'
    return response
