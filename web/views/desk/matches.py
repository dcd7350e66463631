"""The desk's review of rejected and disputed deals, with their corrections previewed."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from competition import corrections
from competition import errors as competition_errors
from competition.refusals import status_of
from scoring import selectors as scoring
from tournaments import errors as store_errors
from tournaments import matchlog, seats
from tournaments import selectors as store
from tournaments.models import Match, Tournament
from tournaments.reads import consistent_read

from ... import forms, pages
from ...commands import append_command, plain_words
from ..common import refusal
from ._common import tournament_or_404

K = matchlog.Kind


def review_queue(tournament: Tournament) -> list[dict[str, Any]]:
    """Return the deals waiting for a director: the selector the API's disputes list reads."""
    return store.disputed_deals(tournament_id=tournament.pk)


def match_dispute(match: Match) -> dict[str, Any] | None:
    """Return the match's deal waiting for a director (entries, rejections), or None."""
    found = store.disputed_deals(tournament_id=match.tournament_id, match_id=match.pk)
    return found[0] if found else None


def desk_match(request: HttpRequest, slug: str, pk: int) -> tuple[Tournament, Match]:
    t = tournament_or_404(request, slug)
    match = get_object_or_404(pages.match_for_page(Match.objects.all()), pk=pk)
    if match.tournament_id != t.pk:
        raise Http404("no such match in this tournament")
    return t, match


def _match_page(
    request: HttpRequest,
    t: Tournament,
    match: Match,
    *,
    decide: forms.Decide | None = None,
    correction: forms.Correction | None = None,
    preview: corrections.CorrectionPreview | None = None,
    status: int = 200,
) -> HttpResponse:
    state = store.match_state(match)
    teams = (match.team0.name, match.team1.name)
    initial = {"expected_seq": match.last_seq, "client_id": uuid.uuid4().hex}
    lines = pages.entry_lines(match, state)
    dispute = match_dispute(match) if state.disputed else None
    # the decide form starts from the entered version; each version is also one tap away
    versions = pages.deal_versions(match, lines, dispute)
    first = next((v.fields for v in versions if v.fields is not None), {})
    return render(
        request,
        "web/desk_match.html",
        {
            "tournament": t,
            "match": match,
            "state": state,
            "teams": teams,
            "entries": lines,
            "dispute": dispute,
            "versions": versions if state.disputed else [],
            "deals": list(scoring.deal_results(match=match)),
            "decide": decide
            or forms.Decide(
                initial={**initial, **first}, rules=match.rules, teams=teams, prefix="decide"
            ),
            "correction": correction
            or forms.Correction(initial=initial, teams=teams, prefix="fix"),
            "preview": preview,
            "answer_initial": initial,
            "score_mode": match.mode == Match.Mode.SCORE,
            "held_seats": _held_seats(match),
        },
        status=status,
    )


def _held_seats(match: Match) -> list[tuple[int, str, Any]]:
    """The seats of a digital match that phones hold through their team's link: each seat,
    its player's name and since when (what the director may release)."""
    if match.mode != Match.Mode.DIGITAL:
        return []
    held = seats.holders(match)
    return [(s, seats.player_name(match, s), held[s].claimed_at) for s in sorted(held)]


@login_required
@require_GET
def match_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, match = desk_match(request, slug, pk)
    with consistent_read():
        return _match_page(request, t, match)


@login_required
@require_POST
def decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Decide the next deal's result (a disputed or rejected one): it counts as entered here."""
    t, match = desk_match(request, slug, pk)
    form = forms.Decide(
        request.POST, rules=match.rules, teams=(match.team0.name, match.team1.name), prefix="decide"
    )
    if not form.is_valid():
        messages.error(request, _("Nothing was recorded: see the form."))
        return _match_page(request, t, match, decide=form, status=422)
    refused = append_command(request, match, K.DEAL_ENDED, form.payload(), form)
    if refused is not None:
        messages.error(request, plain_words(refused))
        match.refresh_from_db()
        return _match_page(request, t, match, decide=form, status=status_of(refused))
    messages.success(request, _("The deal's result is decided and counted."))
    return redirect(reverse("web:desk-match", args=[slug, match.pk]))


def confirm_entered(request: HttpRequest, match: Match, *, damaged: str, said: str = "") -> bool:
    """Confirm the entered result the director's form names, and say so (after ``said``) or
    why not; return False if the form came damaged (said in the words ``damaged``)."""
    form = forms.Answer(request.POST)
    if not form.is_valid():
        messages.error(request, damaged)
        return False
    refused = append_command(
        request, match, K.DEAL_CONFIRMED, {"entry": form.cleaned_data["entry"]}, form
    )
    if refused is not None:
        messages.error(request, said + plain_words(refused))
    elif said:
        messages.success(request, said + _("the entry is confirmed and counted."))
    else:
        messages.success(request, _("The entry is confirmed and counted."))
    return True


@login_required
@require_POST
def confirm_entry(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A director confirms an entered result (no other team's phone at hand)."""
    _t, match = desk_match(request, slug, pk)
    confirm_entered(request, match, damaged=_("Nothing was recorded: reload the page."))
    return redirect(reverse("web:desk-match", args=[slug, match.pk]))


@login_required
@require_POST
def correct(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Preview a correction's consequences (nothing changes), or apply it.

    One that changes a result a later round was built on is applied only with the box
    ticked, after its preview (``competition.corrections``).
    """
    t, match = desk_match(request, slug, pk)
    form = forms.Correction(request.POST, teams=(match.team0.name, match.team1.name), prefix="fix")
    if not form.is_valid():
        messages.error(request, _("Nothing was changed: see the form."))
        return _match_page(request, t, match, correction=form, status=422)
    data = form.cleaned_data
    kind, payload = data["kind"], form.payload()
    try:
        if request.POST.get("step") != "apply":
            preview = corrections.preview_correction(
                actor=request.user,
                match=match,
                kind=kind,
                payload=payload,
                expected_seq=data["expected_seq"],
            )
            return _match_page(request, t, match, correction=form, preview=preview)
        corrections.apply_correction(
            actor=request.user,
            match=match,
            kind=kind,
            payload=payload,
            expected_seq=data["expected_seq"],
            confirm=data["confirm"],
            idempotency_key=f"web-{data['client_id']}",
            via="session",
        )
    except corrections.ConfirmationRequired as exc:
        messages.error(
            request,
            _(
                "This correction changes a result a later round was built on. Look at what it "
                "changes, tick the box to confirm, and apply it again."
            ),
        )
        return _match_page(
            request, t, match, correction=form, preview=exc.preview, status=status_of(exc)
        )
    except store_errors.AppendRefused as exc:
        messages.error(request, _("Nothing was changed: %(why)s") % {"why": plain_words(exc)})
        return _match_page(request, t, match, correction=form, status=status_of(exc))
    except competition_errors.CompetitionRefused as exc:
        refusal(request, exc)
        return _match_page(request, t, match, correction=form, status=status_of(exc))
    messages.success(request, _("The correction is applied and recorded with its reason."))
    return redirect(reverse("web:desk-match", args=[slug, match.pk]))
