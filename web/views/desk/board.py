"""The director's live board: every table of the current round(s), where each stands, and a
tap to confirm an entry or count a disputed deal's version.

The board's live part is polled like the public pages' (``live.js``, an ETag and a 304 when
nothing changed). Its version is the tournament's (``pages.tournament_version``) and the
minute: how long a table has waited changes with the clock, not with the log. The part is
the same for every director of the tournament but for the CSRF token its forms carry: it is
rendered once a version and language, with a slot where the token goes, kept in the cache,
and each director is sent it with their own token in the slot (a board polled by the desk's
laptop and a co-director's phone, or reloaded, costs one render a change, not one a poll).
A tap goes through the same append service, with the same forms, as the desk's match page
(``matches.confirm_entry``, ``matches.decide``): a ``deal_confirmed`` or a ``deal_ended``
appended by the director, at the head of the log the board showed.
"""

from __future__ import annotations

import time
from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from tournaments import matchlog, phones, seats
from tournaments.models import Match, Tournament

from ... import board, forms, pages
from ...commands import append_command, plain_words
from ..common import CSRF_MARK, POLL_MS, conditional, live_part
from ._common import tournament_or_404
from .matches import confirm_entered, desk_match

K = matchlog.Kind


class CountVersion(forms.Command):
    """A director's one-tap decision of a disputed deal: count one of the versions the board
    offered (an entry, or a rejecting team's own version), read again from the log."""

    version = django_forms.RegexField(
        regex=r"^(entry|rejection)-[0-9]{1,18}$", widget=django_forms.HiddenInput
    )


def board_version(t: Tournament) -> str:
    """What the board shows changed: its tournament, its seats, its phones, the minute (a
    match late or a phone silent)."""
    claims = seats.claims_tag(t.pk)  # a seat claimed or released changes the board too
    codes = phones.board_tag(t.pk)  # a table locked out of codes, or let try again, too
    codes += "." + phones.heard_tag(t.pk)  # a phone heard first, again, or with unsent entries
    return f"b{pages.tournament_version(t)}-{claims}-{codes}-{int(time.time() // 60)}"


def _part(request: HttpRequest, t: Tournament, version: str) -> str:
    """Return the board's live part at ``version`` for this director: kept as the public
    pages' parts are (``common.live_part``: once a version and language), with the token's
    slot, which is filled with this request's token."""

    def shown(t: Tournament) -> dict[str, Any]:
        # each link's address from one reverse (a reverse a table costs milliseconds at 128)
        confirm = reverse("web:desk-board-confirm", args=[t.slug, 1])
        return {
            "board": board.live_board(t),
            "board_matches": confirm.removesuffix("1/confirm/"),
            "desk_matches": reverse("web:desk-match", args=[t.slug, 1]).removesuffix("1/"),
            "csrf_token": CSRF_MARK,  # for the forms' {% csrf_token %}: the mark, not a token
        }

    shared, _version = live_part(t, "web/_board.html", version, context=shown)
    return shared.replace(CSRF_MARK, get_token(request))


@login_required
@require_GET
def board_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    version = board_version(t)
    return render(
        request,
        "web/desk_board.html",
        {
            "tournament": t,
            "live": _part(request, t, version),
            "version": version,
            "poll_ms": POLL_MS,
            "late_minutes": board.LATE_MINUTES,
            "silent_minutes": int(phones.SILENT_AFTER.total_seconds() // 60),
        },
    )


@login_required
@require_GET
def board_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The board's live part, with an ETag: a 304 while nothing changed this minute."""
    t = tournament_or_404(request, slug)
    version = board_version(t)
    return conditional(request, version, lambda: HttpResponse(_part(request, t, version)))


#: what a board whose form came in broken is told (said in the request's language)
DAMAGED = gettext_noop("Nothing was recorded: the board was damaged, try again.")


def _teams(match: Match) -> str:
    """The match's two teams, as the board's messages name it: "Aces v Kings"."""
    return _("%(a)s v %(b)s") % {"a": match.team0.name, "b": match.team1.name}


def _back(slug: str, fixture: str = "") -> HttpResponse:
    return redirect(reverse("web:desk-board", args=[slug]) + (f"#{fixture}" if fixture else ""))


@login_required
@require_POST
def board_confirm(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Confirm an entered result from the board (as the desk's match page does)."""
    _t, match = desk_match(request, slug, pk)
    said = f"{_teams(match)}: "
    if not confirm_entered(request, match, damaged=_(DAMAGED), said=said):
        return _back(slug)
    return _back(slug, f"match-{match.pk}")


@login_required
@require_POST
def board_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Count one version of a disputed deal from the board (the director's ``deal_ended``)."""
    _t, match = desk_match(request, slug, pk)
    form = CountVersion(request.POST)
    teams = _teams(match)
    if not form.is_valid():
        messages.error(request, _(DAMAGED))
        return _back(slug)
    payload = board.decided_result(match, form.cleaned_data["version"])
    if payload is None:
        messages.error(
            request,
            _(
                "%(teams)s: nothing was recorded, that version is no longer disputed. The board "
                "now shows where the match stands."
            )
            % {"teams": teams},
        )
        return _back(slug, f"match-{match.pk}")
    refused = append_command(request, match, K.DEAL_ENDED, payload, form)
    if refused is not None:
        messages.error(request, f"{teams}: {plain_words(refused)}")
    else:
        messages.success(
            request, _("%(teams)s: the deal's result is decided and counted.") % {"teams": teams}
        )
    return _back(slug, f"match-{match.pk}")


@login_required
@require_POST
def board_codes(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Let a table whose phone typed too many wrong codes try codes again (a director)."""
    _t, match = desk_match(request, slug, pk)
    phones.codes_unlock(actor=request.user, match=match)
    messages.success(
        request,
        _("%(teams)s: the table's phone may type codes again.") % {"teams": _teams(match)},
    )
    return _back(slug, f"match-{match.pk}")
