"""The desk's team links (docs/links.md): a team's link and card, reissued when a card is
lost (asked first), every card of the tournament or of a round, printed on A4, and the
release of a digital match's seat a phone holds through its team's link (asked first)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from competition.selectors import tournament_at
from tournaments import links, seats, tables
from tournaments.access import is_director
from tournaments.errors import SeatRefused
from tournaments.models import Match, Team, Tournament
from tournaments.site import absolute_url, unreachable_host

from ... import pages, words
from ...qr import qr_svg
from ...templatetags.words import card_language
from ..common import refusal, visible_tournament
from ._common import confirm_first, round_or_404, team_or_404, tournament_or_404


def _card(request: HttpRequest, t: Tournament, team: Team, key: str, code: str) -> dict[str, Any]:
    url = absolute_url(request, reverse("web:team-link", args=[key]))
    with translation.override(card_language(team)):  # the card's language, as its words
        label = _("The private link of %(team)s") % {"team": team.name}
    return {
        "team": team,
        "url": url,
        "qr": qr_svg(url, label=label),
        # the team's confirmation code, for a table that plays on the other team's phone
        "code": f"{code[:3]} {code[3:]}",
    }


def _table_card(
    request: HttpRequest, t: Tournament, match: Match | None, table: int | None
) -> dict[str, Any] | None:
    """The table card of ``match`` (a score match): the table's number, its two teams, and
    its table link's address and QR code; None for a match with no table link."""
    if match is None or match.mode != Match.Mode.SCORE or not tables.playing(match):
        return None
    key = tables.table_key(actor=request.user, match=match)
    if key is None:
        return None
    url = absolute_url(request, reverse("web:table-link", args=[key]))
    label = _("The table link of table %(table)s") % {"table": table or match.pk}
    return {"match": match, "table": table, "url": url, "qr": qr_svg(url, label=label)}


def _printed(request: HttpRequest, template: str, **context: Any) -> HttpResponse:
    """A page of links to print (a team's card, the cards of a round...), which tells the
    director when the links would hold an address no phone can reach."""
    host = unreachable_host(absolute_url(request, "/"))
    unreachable = None
    if host is not None:
        unreachable = _(
            "These links hold %(host)s, this computer's name for itself: no phone can open "
            "them. Serve the evening with “make club” (it prints the address the phones "
            "reach), or set SITE_URL to this computer's address on the club's network, then "
            "print the cards again."
        ) % {"host": host}
    return render(request, template, {**context, "unreachable": unreachable})


@login_required
@require_GET
def team_link(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team's link and card (made on the first visit), and the button that reissues it."""
    t, team = team_or_404(request, slug, pk)
    link, key = links.team_link(actor=request.user, team=team)
    card = _card(request, t, team, key, links.link_code(link))
    return _printed(request, "web/desk_team_link.html", tournament=t, card=card, link=link)


@login_required
@require_POST
def team_link_reissue(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Give a team a new link (asked first): the old one, and its printed cards, stop."""
    t, team = team_or_404(request, slug, pk)
    asked = confirm_first(
        request,
        tournament=t,
        title=_("Give %(team)s a new link?") % {"team": team.name},
        consequences=[
            _(
                "The link it has now stops at once: its printed cards, and any phone that "
                "opened it, can no longer enter or answer a result, and the confirmation code "
                "on its card confirms nothing."
            ),
            _("Print its new card from the next page and hand it to the team."),
        ],
        button=_("Give a new link"),
        cancel=reverse("web:desk-team-link", args=[slug, team.pk]),
    )
    if asked is not None:
        return asked
    links.team_link_reissue(actor=request.user, team=team)
    messages.success(
        request,
        _("%(team)s has a new link: the old one no longer works.") % {"team": team.name},
    )
    return redirect(reverse("web:desk-team-link", args=[slug, team.pk]))


@login_required
@require_GET
def cards(request: HttpRequest, slug: str) -> HttpResponse:
    """Every team's card, to print on A4 and cut (made where a team has no link yet)."""
    t = tournament_or_404(request, slug)
    keys = links.team_links(actor=request.user, tournament=t)
    codes = links.team_codes(actor=request.user, tournament=t)
    teams = Team.objects.filter(tournament=t).order_by("name")
    cards = [_card(request, t, team, keys[team.pk], codes[team.pk]) for team in teams]
    title = _("%(tournament)s: the teams' cards") % {"tournament": t.name}
    return _cards_page(request, t, title, [{"table": None, "cards": cards}])


@login_required
@require_GET
def round_cards(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A round's card per table: its number, and each team's name and link, on A4."""
    t, round_ = round_or_404(request, slug, pk)
    keys = links.team_links(actor=request.user, tournament=t)
    codes = links.team_codes(actor=request.user, tournament=t)
    tables = []
    fixtures = round_.fixtures.select_related(
        "team_a", "team_b", "match__team0", "match__team1"
    ).order_by("table", "key")
    for fixture in fixtures:
        teams = [team for team in (fixture.team_a, fixture.team_b) if team is not None]
        if not teams:
            continue
        tables.append(
            {
                "table": fixture.table,
                "cards": [_card(request, t, team, keys[team.pk], codes[team.pk]) for team in teams],
                # the table's one phone: its match's table link (no team's code on it)
                "table_card": _table_card(request, t, fixture.match, fixture.table),
            }
        )
    title = _("%(tournament)s: %(stage)s, %(round)s") % {
        "tournament": t.name,
        "stage": round_.stage.name,
        "round": words.round_name(str(round_)),
    }
    return _cards_page(request, t, title, tables)


def _cards_page(
    request: HttpRequest, t: Tournament, title: str, tables: list[dict[str, Any]]
) -> HttpResponse:
    """The cards to print, table by table (``table`` None: one list of every team's)."""
    return _printed(request, "web/desk_cards.html", tournament=t, title=title, tables=tables)


@login_required
@require_GET
def table_card(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A match's table card alone, to print again (a director): its table link, no code."""
    t = tournament_or_404(request, slug)
    found = pages.match_for_page(Match.objects.all())
    match = get_object_or_404(found, pk=pk, tournament=t, mode=Match.Mode.SCORE)
    links.team_links(actor=request.user, tournament=t)  # the teams' links first
    fixture = getattr(match, "fixture", None)
    table = getattr(fixture, "table", None)
    card = _table_card(request, t, match, table)
    if card is None:
        raise Http404("no table card for a match that is over")
    title = _("%(tournament)s: the card of table %(table)s") % {
        "tournament": t.name,
        "table": table or match.pk,
    }
    return _cards_page(request, t, title, [{"table": table, "cards": [], "table_card": card}])


@login_required
@require_POST
def seat_release(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Release a seat of a digital match that a phone holds through its team's link (asked
    first): that phone shows its cards no more, and the next phone to claim it holds it.
    Anyone but the tournament's directors is refused (403)."""
    # the tournament the user directs there (as the desk finds it), else the one they see
    t = tournament_at(request.user, slug, directing=True) or visible_tournament(request, slug)
    found = pages.match_for_page(Match.objects.all())
    match = get_object_or_404(found, pk=pk, tournament=t, mode=Match.Mode.DIGITAL)
    if not is_director(request.user, match.tournament):
        raise PermissionDenied("only a director of this tournament may release a seat")
    board = request.POST.get("from") == "board"  # the board's button: back to the board
    back_to = (
        reverse("web:desk-board", args=[slug]) + f"#match-{match.pk}"
        if board
        else reverse("web:desk-match", args=[slug, match.pk])
    )
    back = redirect(back_to)
    seat = request.POST.get("seat", "")
    if seat not in ("0", "1", "2", "3"):
        messages.error(request, _("Nothing was released: the form was damaged, try again."))
        return back
    name = seats.player_name(match, int(seat))
    asked = confirm_first(
        request,
        tournament=match.tournament,
        title=_("Release %(player)s's seat?") % {"player": name},
        consequences=[
            _(
                "The phone that holds %(player)s's seat stops showing their cards at once, and "
                "is told that the seat was released."
            )
            % {"player": name},
            _("The next phone of the team to say “I am %(player)s” holds the seat.")
            % {"player": name},
        ],
        button=_("Release %(player)s's seat") % {"player": name},
        cancel=back_to,
        fields={"seat": seat, **({"from": "board"} if board else {})},
    )
    if asked is not None:
        return asked
    try:
        seats.seat_release(actor=request.user, match=match, seat=int(seat))
    except SeatRefused as exc:
        refusal(request, exc)
        return back
    messages.success(
        request,
        _("%(player)s's seat is released: the next phone to say “I am %(player)s” holds it.")
        % {"player": name},
    )
    return back
