"""A member's data on the web pages: download it, erase it (docs/privacy.md).

The same two pages serve a director of the member's club (from the member's desk page) and
the member themself, signed in with the account linked to them (from their member page):
anyone else signed in who may see the club's pages is refused (403), and one who may not (a
director of another club, when this one's pages are not public) is answered 404, as for a
club that does not exist; a visitor is sent to sign in first. An erasure is
asked on a page that says what goes and what stays, and done by its POST at once, whoever
asks (the member need not wait for a director: it is theirs to ask).
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from seasons import privacy
from tournaments.access import is_club_director
from tournaments.errors import ClubRefused
from tournaments.models import Player
from tournaments.privacy import account_closes

from ..access import visible_club_or_404
from .common import refusal


def _asked(request: HttpRequest, slug: str, pk: int) -> Player:
    """The club's member ``pk`` (404 if not its member, or if the caller may not see the
    club's pages), if the caller may ask (else 403)."""
    club = visible_club_or_404(request.user, slug)
    member: Player = get_object_or_404(
        Player.objects.select_related("club", "user"), club=club, pk=pk
    )
    if not privacy.may_ask(request.user, member):
        raise PermissionDenied("only a director of the club, or the member, may do this")
    return member


@login_required
@require_GET
def member_data(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The member's data as a JSON file to keep."""
    member = _asked(request, slug, pk)
    data = privacy.export_member(member)
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{privacy.export_filename(member)}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def member_erase(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Ask (GET: what goes, what stays) and erase (POST) the member's personal data."""
    member = _asked(request, slug, pk)
    director = is_club_director(request.user, member.club_id or 0)
    if request.method == "GET":
        return render(
            request,
            "web/member_erase.html",
            {
                "club": member.club,
                "member": member,
                "director": director,
                "closes": member.user is not None and account_closes(member.user, member),
            },
        )
    try:
        privacy.erase_member(actor=request.user, member=member)
    except ClubRefused as exc:
        refusal(request, exc)
        return redirect(reverse("web:club-member-erase", args=[slug, pk]))
    messages.success(
        request,
        _("The member's name and contact are erased: now %(member)s.") % {"member": member.name},
    )
    if director:
        return redirect(reverse("web:club-roster", args=[slug]))
    return redirect(reverse("web:home"))
