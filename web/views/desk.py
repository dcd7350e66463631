"""The director's desk: teams and check-in, stages, rounds (pair, edit the draft, publish),
and the review of rejected and disputed deals with their corrections.

Only the tournament's directors find it (anyone else gets a 404). Every change goes through
the competition services or the store's append service, which check the actor again; a
refusal comes back as a message in words, with nothing lost from the form.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from competition import corrections
from competition import errors as competition_errors
from competition import services as competition
from competition.models import Fixture, Registration, Round, Stage
from scoring import selectors as scoring
from tournaments import errors as store_errors
from tournaments import matchlog
from tournaments import selectors as store
from tournaments.models import Match, Player, Team, Tournament
from tournaments.reads import consistent_read

from .. import forms, pages
from ..access import director_or_404
from .keeper import append_command, plain_words

K = matchlog.Kind


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    return director_or_404(request.user, get_object_or_404(Tournament, slug=slug))


def _back(slug: str, anchor: str = "") -> HttpResponse:
    return redirect(reverse("web:desk", args=[slug]) + (f"#{anchor}" if anchor else ""))


def team_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Return the registered teams as the desk's table shows them (plain values: a table of
    256 teams renders in a few milliseconds, without the template engine's attribute hunt)."""
    rows = []
    for seed, team_id, name, first, second, checked_in, withdrawn in (
        Registration.objects.filter(tournament=tournament)
        .order_by("seed", "team__name")
        .values_list(
            "seed",
            "team_id",
            "team__name",
            "team__first_player__name",
            "team__second_player__name",
            "checked_in_at",
            "withdrawn_at",
        )
    ):
        if withdrawn is not None:
            status = "withdrawn"
        elif checked_in is not None:
            status = "checked in " + timezone.localtime(checked_in).strftime("%H:%M")
        else:
            status = "registered"
        rows.append(
            {
                "seed": seed or "",
                "pk": team_id,
                "name": name,
                "players": f"{first} & {second}",
                "status": status,
                "check_in": checked_in is None and withdrawn is None,
                "withdraw": withdrawn is None,
            }
        )
    return rows


def review_queue(tournament: Tournament) -> list[dict[str, Any]]:
    """Return the deals waiting for a director: the selector the API's disputes list reads."""
    return store.disputed_deals(tournament_id=tournament.pk)


def match_dispute(match: Match) -> dict[str, Any] | None:
    """Return the match's deal waiting for a director (entries, rejections), or None."""
    found = store.disputed_deals(tournament_id=match.tournament_id, match_id=match.pk)
    return found[0] if found else None


@login_required
@require_GET
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(request, slug)
    return _desk_page(request, t, forms.RegisterTeam(initial={"checked_in": True}))


def _desk_page(
    request: HttpRequest, t: Tournament, register_form: forms.RegisterTeam, *, status: int = 200
) -> HttpResponse:
    """The desk: the teams, the stages with their rounds, the deals awaiting a director."""
    with consistent_read():
        registrations = team_rows(t)
        stages = list(Stage.objects.filter(tournament=t).order_by("order"))
        rounds = Round.objects.filter(stage__in=stages).order_by("number")
        by_stage: dict[int, list[Round]] = {s.pk: [] for s in stages}
        for r in rounds:
            by_stage[r.stage_id].append(r)
        review = review_queue(t)
    return render(
        request,
        "web/desk.html",
        {
            "tournament": t,
            "registrations": registrations,
            "stages": [(s, by_stage[s.pk]) for s in stages],
            "review": review,
            "register_form": register_form,
        },
        status=status,
    )


def _refusal(request: HttpRequest, exc: Exception) -> None:
    text = getattr(exc, "message", str(exc))
    messages.error(request, text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))


@login_required
@require_POST
def register_team(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(request, slug)
    form = forms.RegisterTeam(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                first = Player.objects.create(name=data["first_player"].strip())
                second = Player.objects.create(name=data["second_player"].strip())
                team = competition.team_register(
                    actor=request.user,
                    tournament=t,
                    name=data["name"].strip(),
                    first_player=first,
                    second_player=second,
                    seed=data["seed"],
                    checked_in=data["checked_in"],
                )
        except competition_errors.CompetitionRefused as exc:
            _refusal(request, exc)
        else:
            messages.success(request, f"{team.name} registered.")
            return _back(slug, "teams")
    else:
        messages.error(request, "The team was not registered: see the form.")
    return _desk_page(request, t, form, status=422)


@login_required
@require_POST
def team_command(request: HttpRequest, slug: str) -> HttpResponse:
    """Check a team in, or withdraw it: the teams table is one form, a button per team."""
    t = _tournament(request, slug)
    services = {"check_in": competition.team_check_in, "withdraw": competition.team_withdraw}
    command = next((name for name in services if name in request.POST), None)
    team_id = request.POST.get(command or "", "")
    # ASCII digits (str.isdigit() is true of "²", which no id is), as many as an id has
    if command is None or not (team_id.isascii() and team_id.isdigit() and len(team_id) <= 19):
        messages.error(request, "Nothing was changed: choose a team's button.")
        return _back(slug, "teams")
    team = get_object_or_404(Team.objects.select_related("tournament"), pk=team_id, tournament=t)
    try:
        services[command](actor=request.user, team=team)
    except competition_errors.CompetitionRefused as exc:
        _refusal(request, exc)
    else:
        done = "checked in" if command == "check_in" else "withdrawn"
        messages.success(request, f"{team.name} {done}.")
    return _back(slug, "teams")


@login_required
@require_POST
def stage_command(request: HttpRequest, slug: str, pk: int, command: str) -> HttpResponse:
    t = _tournament(request, slug)
    stage = get_object_or_404(Stage.objects.select_related("tournament"), pk=pk, tournament=t)
    try:
        if command == "start":
            competition.stage_start(actor=request.user, stage=stage)
            messages.success(request, f"{stage.name} has started.")
        else:
            round_ = competition.round_pair(actor=request.user, stage=stage)
            messages.success(request, f"{round_} of {stage.name} is paired, as a draft.")
            return redirect(reverse("web:desk-round", args=[slug, round_.pk]))
    except competition_errors.CompetitionRefused as exc:
        _refusal(request, exc)
    return _back(slug, f"stage-{stage.pk}")


def _round(request: HttpRequest, slug: str, pk: int) -> tuple[Tournament, Round]:
    t = _tournament(request, slug)
    round_ = get_object_or_404(
        Round.objects.select_related("stage__tournament"), pk=pk, stage__tournament=t
    )
    return t, round_


def _round_page(
    request: HttpRequest,
    t: Tournament,
    round_: Round,
    *,
    swap_teams: forms.SwapTeams | None = None,
    swap_tables: forms.SwapTables | None = None,
    problems: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    fixtures = list(
        Fixture.objects.filter(round=round_)
        .select_related("team_a", "team_b")
        .order_by("table", "key", "pk")
    )
    teams = sorted(
        {(team.pk, team.name) for f in fixtures for team in (f.team_a, f.team_b) if team},
        key=lambda t: t[1],
    )
    # one reverse for every row's link (a reverse a row is a few milliseconds at 128 rows)
    review = reverse("web:desk-match", args=[t.slug, 1]).removesuffix("1/")
    rows = [
        {
            "where": f.table or f.key,
            "a": f.team_a.name if f.team_a else f.source_a,
            "b": f.team_b.name if f.team_b else (f.source_b or "bye"),
            "review": f"{review}{f.match_id}/" if f.match_id else "",
        }
        for f in fixtures
    ]
    draft = round_.status == Round.Status.DRAFT
    return render(
        request,
        "web/desk_round.html",
        {
            "tournament": t,
            "round": round_,
            "stage": round_.stage,
            "fixtures": rows,
            # the edit forms only for a draft (two lists of every team are no small page)
            "swap_teams": (swap_teams or forms.SwapTeams(teams=teams)) if draft else None,
            "swap_tables": (swap_tables or forms.SwapTables()) if draft else None,
            "problems": problems or [],
        },
        status=status,
    )


@login_required
@require_GET
def round_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, round_ = _round(request, slug, pk)
    return _round_page(request, t, round_)


@login_required
@require_POST
def round_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, round_ = _round(request, slug, pk)
    teams = sorted(
        {
            (team.pk, team.name)
            for f in round_.fixtures.select_related("team_a", "team_b")
            for team in (f.team_a, f.team_b)
            if team
        },
        key=lambda x: x[1],
    )
    what = request.POST.get("swap")
    swap_teams = forms.SwapTeams(request.POST if what == "teams" else None, teams=teams)
    swap_tables = forms.SwapTables(request.POST if what == "tables" else None)
    form: Any = swap_teams if what == "teams" else swap_tables
    if what not in ("teams", "tables") or not form.is_valid():
        messages.error(request, "Nothing was changed: say what to swap.")
        return _round_page(
            request, t, round_, swap_teams=swap_teams, swap_tables=swap_tables, status=422
        )
    data = form.cleaned_data
    try:
        if what == "teams":
            problems = competition.round_edit(
                actor=request.user,
                round=round_,
                swap_teams=(data["team_x"], data["team_y"]),
                force=data["force"],
            )
        else:
            problems = competition.round_edit(
                actor=request.user, round=round_, swap_tables=(data["table_x"], data["table_y"])
            )
    except competition_errors.DraftEditRefused as exc:
        messages.error(
            request, "Not swapped: it breaks a pairing rule. Tick the box to swap anyway."
        )
        return _round_page(
            request,
            t,
            round_,
            swap_teams=swap_teams,
            swap_tables=swap_tables,
            problems=exc.problems,
            status=422,
        )
    except competition_errors.CompetitionRefused as exc:
        _refusal(request, exc)
        return _round_page(
            request, t, round_, swap_teams=swap_teams, swap_tables=swap_tables, status=409
        )
    messages.success(request, "Swapped." + (" Note: " + "; ".join(problems) if problems else ""))
    return redirect(reverse("web:desk-round", args=[slug, round_.pk]))


@login_required
@require_POST
def round_publish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    _t, round_ = _round(request, slug, pk)
    try:
        competition.round_publish(actor=request.user, round=round_)
    except competition_errors.CompetitionRefused as exc:
        _refusal(request, exc)
        return redirect(reverse("web:desk-round", args=[slug, round_.pk]))
    messages.success(request, f"{round_} is published: its matches are made.")
    return _back(slug, f"stage-{round_.stage_id}")


# --- review and corrections --------------------------------------------------------------


def _desk_match(request: HttpRequest, slug: str, pk: int) -> tuple[Tournament, Match]:
    t = _tournament(request, slug)
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
    return render(
        request,
        "web/desk_match.html",
        {
            "tournament": t,
            "match": match,
            "state": state,
            "teams": teams,
            "entries": pages.entry_lines(match, state),
            "dispute": match_dispute(match) if state.disputed else None,
            "deals": list(scoring.deal_results(match=match)),
            "decide": decide
            or forms.Decide(initial=initial, rules=match.rules, teams=teams, prefix="decide"),
            "correction": correction
            or forms.Correction(initial=initial, teams=teams, prefix="fix"),
            "preview": preview,
            "answer_initial": initial,
            "score_mode": match.mode == Match.Mode.SCORE,
        },
        status=status,
    )


@login_required
@require_GET
def match_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, match = _desk_match(request, slug, pk)
    with consistent_read():
        return _match_page(request, t, match)


@login_required
@require_POST
def decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Decide the next deal's result (a disputed or rejected one): it counts as entered here."""
    t, match = _desk_match(request, slug, pk)
    form = forms.Decide(
        request.POST, rules=match.rules, teams=(match.team0.name, match.team1.name), prefix="decide"
    )
    if not form.is_valid():
        messages.error(request, "Nothing was recorded: see the form.")
        return _match_page(request, t, match, decide=form, status=422)
    refused = append_command(request, match, K.DEAL_ENDED, form.payload(), form)
    if refused is not None:
        messages.error(request, plain_words(refused))
        match.refresh_from_db()
        return _match_page(request, t, match, decide=form, status=409)
    messages.success(request, "The deal's result is decided and counted.")
    return redirect(reverse("web:desk-match", args=[slug, match.pk]))


@login_required
@require_POST
def confirm_entry(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A director confirms an entered result (no other team's phone at hand)."""
    _t, match = _desk_match(request, slug, pk)
    form = forms.Answer(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was recorded: reload the page.")
        return redirect(reverse("web:desk-match", args=[slug, match.pk]))
    refused = append_command(
        request, match, K.DEAL_CONFIRMED, {"entry": form.cleaned_data["entry"]}, form
    )
    if refused is not None:
        messages.error(request, plain_words(refused))
    else:
        messages.success(request, "The entry is confirmed and counted.")
    return redirect(reverse("web:desk-match", args=[slug, match.pk]))


@login_required
@require_POST
def correct(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Preview a correction's consequences (nothing changes), or apply it.

    One that changes a result a later round was built on is applied only with the box
    ticked, after its preview (``competition.corrections``).
    """
    t, match = _desk_match(request, slug, pk)
    form = forms.Correction(request.POST, teams=(match.team0.name, match.team1.name), prefix="fix")
    if not form.is_valid():
        messages.error(request, "Nothing was changed: see the form.")
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
            "This correction changes a result a later round was built on. Look at what it "
            "changes, tick the box to confirm, and apply it again.",
        )
        return _match_page(request, t, match, correction=form, preview=exc.preview, status=409)
    except store_errors.AppendRefused as exc:
        messages.error(request, "Nothing was changed: " + plain_words(exc))
        return _match_page(request, t, match, correction=form, status=409)
    except competition_errors.CompetitionRefused as exc:
        _refusal(request, exc)
        return _match_page(request, t, match, correction=form, status=409)
    messages.success(request, "The correction is applied and recorded with its reason.")
    return redirect(reverse("web:desk-match", args=[slug, match.pk]))
