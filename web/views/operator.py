"""The site operator's own page: every club with its size and activity, and the switch that
suspends one (its pages and API then say so; its data is kept)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import suspension
from tournaments.models import Club


def _operator_only(request: HttpRequest) -> None:
    """404 for anyone but a superuser: the page is not there for them."""
    user = request.user
    if not (user.is_active and user.is_superuser):
        raise Http404("no such page")


@login_required
@require_http_methods(["GET"])
def clubs_page(request: HttpRequest) -> HttpResponse:
    """Every club, newest first: its members, tournaments and matches, when a match of it was
    last recorded, and whether it is suspended."""
    _operator_only(request)
    return render(request, "web/operator.html", {"clubs": suspension.clubs_for_operator()})


@login_required
@require_http_methods(["POST"])
def club_suspend(request: HttpRequest, pk: int) -> HttpResponse:
    """Suspend the club ``pk`` (``suspend=yes``) or lift its suspension (``suspend=no``)."""
    _operator_only(request)
    club = get_object_or_404(Club, pk=pk)
    suspend = request.POST.get("suspend") == "yes"
    club = suspension.club_suspend(actor=request.user, club=club, suspended=suspend)
    if club.suspended:
        messages.success(
            request,
            _("%(club)s is suspended: its pages and API say so. Its data is kept.")
            % {"club": club.name},
        )
    else:
        messages.success(
            request,
            _("%(club)s is open again: its pages and API answer as before.") % {"club": club.name},
        )
    return redirect(reverse("web:operator") + f"#club-{club.pk}")
