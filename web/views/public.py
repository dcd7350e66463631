"""The public pages: home, a tournament (live standings, bracket, tables), a match sheet."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from competition.access import visible_tournaments
from tournaments import suspension
from tournaments.access import is_director
from tournaments.models import Match, MatchReceipt
from tournaments.reads import consistent_read
from tournaments.receipts import Receipt

from .. import pages
from .common import (
    POLL_MS,
    conditional,
    live_answer,
    live_page,
    live_part,
    visible_match,
    visible_tournament,
)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    shown = suspension.without_suspended(visible_tournaments(request.user))
    cards = pages.home_cards(shown.order_by("-created_at", "id"))
    return render(request, "web/home.html", {"cards": cards})


@require_GET
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    t = visible_tournament(request, slug)
    return live_page(
        request, t, "web/tournament.html", live_part(t), director=is_director(request.user, t)
    )


@require_GET
def tournament_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live part of the tournament page (standings, bracket, tables), with an ETag."""
    t = visible_tournament(request, slug)
    return live_answer(request, t, lambda t, version: live_part(t, version=version)[0])


@require_GET
def tournament_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The current round's pairings and the standings, on one clean page for the notice board."""
    t = visible_tournament(request, slug)
    html, _ = live_part(t, "web/_print.html")
    return render(request, "web/print.html", {"tournament": t, "printed": html})


@require_GET
def match_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    match = visible_match(request, pk)
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
    match = visible_match(request, pk)
    result_seq = (
        Match.objects.filter(pk=match.pk).values_list("result__seq", flat=True).first() or 0
    )

    def build() -> HttpResponse:
        return HttpResponse(match_live_part(match))

    return conditional(request, f"m{match.pk}-{match.last_seq}-{result_seq}", build)


def match_live_part(match: Match) -> str:
    """The match sheet's live part (the same for every viewer: the polling view's and the
    push process's), read in one consistent snapshot."""
    with consistent_read():
        sheet = pages.match_sheet(match)
        return render_to_string("web/_match_live.html", {"sheet": sheet, "match": match})


@require_GET
def match_receipt(request: HttpRequest, pk: int, seq: int) -> HttpResponse:
    """The signed receipt of a finished match, as a file to keep (checkable offline)."""
    match = visible_match(request, pk)
    receipt = get_object_or_404(MatchReceipt, match=match, seq=seq)
    # the shape ``python -m tournaments.receipts verify FILE`` reads: a list of receipts
    data = [Receipt(receipt.body, receipt.signature).to_dict()]
    response = HttpResponse(
        json.dumps(data, indent=2, sort_keys=True) + "\n", content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-receipt-{seq}.json"'
    return response
