"""The desk's stages: add one, edit it while pending, remove it while it has no round, start
it, pair its next round; decide a tie at its cut; its standings as CSV."""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from competition import errors as competition_errors
from competition import presets
from competition import selectors as competition_reads
from competition import services as competition
from competition.models import Stage
from tournaments.models import Tournament

from ... import desk_forms, desk_words, words
from ...forms import ascii_id
from ..common import refusal
from ._common import (
    back,
    confirm_first,
    form_change,
    refused,
    stage_or_404,
    status_of,
    tournament_or_404,
)

#: a stage setting -> the desk's field that sets it, where the names differ
STAGE_FIELDS = {"tiebreaks": "tiebreak_1", "match_format": "bazzis"}


def _stage_page(
    request: HttpRequest,
    t: Tournament,
    stage: Stage | None,
    blank: Callable[[], desk_forms.StageForm],
) -> HttpResponse:
    """The form of ``stage``, or of a new one (``None``): shown as ``blank()`` makes it, or
    posted: the stage saved (or added) and the desk shown at it, or the form again (422, or
    its refusal's status)."""
    if request.method == "GET":
        form, status = blank(), 200
    else:
        form = desk_forms.StageForm(request.POST)
        if stage is None:
            change = partial(competition.stage_create, actor=request.user, tournament=t)
        else:
            change = partial(competition.stage_update, actor=request.user, stage=stage)
        saved = form_change(
            request,
            form,
            lambda: change(**form.settings()),
            unchanged=_("Nothing was added") if stage is None else _("Nothing was changed"),
            fields=STAGE_FIELDS,
        )
        if saved is not None:
            said = _("%(stage)s is added.") if stage is None else _("%(stage)s is saved.")
            messages.success(request, said % {"stage": saved.name})
            return back(t.slug, f"stage-{saved.pk}")
        status = status_of(form)
    context = {"tournament": t, "form": form, "stage": stage}
    return render(request, "web/desk_stage.html", context, status=status)


def _after_the_last(t: Tournament) -> desk_forms.StageForm:
    """Return a new stage's form: the first a Swiss, one after it a knockout of the top 4,
    playing as the stage before it (as the tournament, for the first)."""
    last = t.stages.order_by("-order").first()
    initial = {
        "name": "Knockout" if last else "Swiss",
        "format": "single_elimination" if last else "swiss",
        "entry": "top" if last else "registered",
        "entry_count": 4 if last else None,
        "seeding": "standings" if last else "manual",
        "rounds": None if last else 3,
        "mode": last.mode if last else "score",
        "confirmation": last.confirmation if last else "other_team",
        "points_win": 2, "points_draw": 1, "points_loss": 0, "points_bye": 2,
        "start_matches": True,
        "review_draw": True,
        **(last.match_format if last else t.match_format),
    }  # fmt: skip
    form = desk_forms.StageForm(initial=initial)
    form.set_tiebreaks(
        list(last.tiebreaks or []) if last else list(presets.PRESET_TIEBREAKS["swiss"])
    )
    return form


@login_required
@require_http_methods(["GET", "POST"])
def stage_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a stage after the last one."""
    t = tournament_or_404(request, slug)
    return _stage_page(request, t, None, lambda: _after_the_last(t))


@login_required
@require_http_methods(["GET", "POST"])
def stage_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Change a stage's settings while it is pending."""
    t, stage = stage_or_404(request, slug, pk)
    return _stage_page(request, t, stage, lambda: desk_forms.StageForm.for_stage(stage))


@login_required
@require_POST
def stage_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Remove a pending stage (asked first)."""
    t, stage = stage_or_404(request, slug, pk)
    asked = confirm_first(
        request,
        tournament=t,
        title=_("Remove %(stage)s?") % {"stage": stage.name},
        consequences=[
            _("%(stage)s and its settings are removed; the stages after it move up one.")
            % {"stage": stage.name},
            _("It has no round yet, so no pairing or result is lost."),
        ],
        button=_("Remove %(stage)s") % {"stage": stage.name},
        cancel=reverse("web:desk", args=[slug]) + f"#stage-{stage.pk}",
    )
    if asked is not None:
        return asked
    if refused(request, lambda: competition.stage_remove(actor=request.user, stage=stage)):
        return back(slug, f"stage-{stage.pk}")
    messages.success(request, _("%(stage)s is removed.") % {"stage": stage.name})
    return back(slug, "stages")


def _ask_start(request: HttpRequest, t: Tournament, stage: Stage) -> HttpResponse | None:
    """Return the page that names the registered teams not checked in and asks whether to
    start without them, or None when there are none (or the director said to, naming them)."""
    absent = competition.teams_not_checked_in(stage)
    if stage.status != Stage.Status.PENDING or not absent:
        return None  # nothing to ask (a stage started already is refused in words)
    names = ", ".join(team.name for team in absent)
    count, said = len(absent), {"names": names, "stage": stage.name, "count": len(absent)}
    title = ngettext(
        "%(count)s team registered is not checked in: %(names)s — start without it?",
        "%(count)s teams registered are not checked in: %(names)s — start without them?",
        count,
    )
    if stage.format == Stage.Format.SWISS and stage.late_entry:
        later = ngettext(
            "Checked in later, it joins %(stage)s at its next round not yet published, with 0 "
            "points (the rounds before are not theirs).",
            "Checked in later, each joins %(stage)s at its next round not yet published, with 0 "
            "points (the rounds before are not theirs).",
            count,
        )
    else:
        later = ngettext(
            "%(stage)s cannot take it once it starts: checked in later, it can play only in a "
            "later stage that takes the registered teams.",
            "%(stage)s cannot take them once it starts: checked in later, they can play only "
            "in a later stage that takes the registered teams.",
            count,
        )
    return confirm_first(
        request,
        tournament=t,
        title=title % said,
        consequences=[
            _("%(stage)s starts with the teams checked in; %(names)s will not play in it.") % said,
            later % said,
            ngettext(
                "To have it play, cancel and check it in first.",
                "To have them play, cancel and check them in first.",
                count,
            ),
        ],
        fields={"without": ",".join(str(team.pk) for team in absent)},
        button=ngettext("Start %(stage)s without it", "Start %(stage)s without them", count) % said,
        cancel=reverse("web:desk", args=[t.slug]) + "#teams",
        # confirmed for the teams the page named: one more not checked in since is asked about
        confirmed=request.POST.get("confirmed") == "yes"
        and {team.pk for team in absent} <= _named(request),
    )


def _named(request: HttpRequest) -> set[int]:
    """Return the ids of the teams the confirmation named (posted as "3,7,12")."""
    ids = (ascii_id(v.strip()) for v in request.POST.get("without", "")[:20000].split(","))
    return {i for i in ids if i is not None}


@login_required
@require_POST
def stage_command(request: HttpRequest, slug: str, pk: int, command: str) -> HttpResponse:
    """Start a stage (first asking, naming them, whether to start without the registered
    teams not checked in), or pair its next round (as a draft)."""
    t, stage = stage_or_404(request, slug, pk)
    try:
        if command == "start":
            asked = _ask_start(request, t, stage)
            if asked is not None:
                return asked
            competition.stage_start(actor=request.user, stage=stage, not_checked_in=_named(request))
            messages.success(request, _("%(stage)s has started.") % {"stage": stage.name})
            first = stage.round_set.order_by("number").first()
            if first is not None:  # a bracket is drawn at its start: its first round, to review
                return redirect(reverse("web:desk-round", args=[slug, first.pk]))
        elif command == "pair":
            round_ = competition.round_pair(actor=request.user, stage=stage)
            messages.success(
                request,
                _("%(round)s of %(stage)s is paired, as a draft.")
                % {"round": capfirst(words.round_name(round_)), "stage": stage.name},
            )
            return redirect(reverse("web:desk-round", args=[slug, round_.pk]))
        else:
            messages.error(request, _("Nothing was changed: choose a stage's button."))
    except competition_errors.CompetitionRefused as exc:
        refusal(request, exc)
    return back(slug, f"stage-{stage.pk}")


@login_required
@require_GET
def stage_cut(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Who goes through to a stage that takes the top N of the one before: the table in the
    cut's order, and each tie across the cut line with the ways to decide it."""
    t, stage = stage_or_404(request, slug, pk)
    found = competition.cut_for_stage(stage)  # its table brought up to date first
    rows = competition_reads.cut_explained(stage=stage, found=found)
    names = {row["team_id"]: row["team"] for row in rows}
    ties = [
        {
            "key": tie.key,
            "place": desk_words.place(tie.rank, tie.group),
            "rank": tie.rank,
            "through": tie.through,
            "teams": [(team, names.get(team, str(team))) for team in tie.teams],
            "names": desk_words.names([names.get(team, str(team)) for team in tie.teams]),
            "decided": desk_words.decision(tie.decision) if tie.decision else "",
            "order": [names.get(team, str(team)) for team in tie.decision.order]
            if tie.decision
            else [],
        }
        for tie in (found.ties if found is not None else [])
    ]
    previous = stage.tournament.stages.filter(order=stage.order - 1).first()
    return render(
        request,
        "web/desk_cut.html",
        {
            "tournament": t,
            "stage": stage,
            "cut": desk_words.cut_rows(rows),
            "ties": ties,
            "decidable": stage.status == Stage.Status.PENDING
            and previous is not None
            and previous.status == Stage.Status.COMPLETE,
        },
    )


@login_required
@require_POST
def stage_cut_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Decide a tie at the stage's cut: a lot drawn here (``how=lot``), or the director's
    order of its teams (``how=order``, ``order``: the teams' ids, the highest first)."""
    _t, stage = stage_or_404(request, slug, pk)
    tie = request.POST.get("tie", "")
    how = request.POST.get("how")
    cut_page = redirect(reverse("web:desk-stage-cut", args=[slug, stage.pk]))
    try:
        if how == "lot":
            decision = competition.cut_draw_lot(actor=request.user, stage=stage, tie=tie)
            messages.success(
                request, _("The lot is drawn: %(how)s.") % {"how": desk_words.decision(decision)}
            )
        elif how == "order":
            given = request.POST.getlist("order")
            order = [ascii_id(value) for value in given]
            if not given or None in order:
                messages.error(request, _("Nothing was decided: choose a team for each place."))
                return cut_page
            decision = competition.cut_set_order(
                actor=request.user, stage=stage, tie=tie, order=order
            )
            messages.success(request, _("The order is set: the cut takes it."))
        else:
            messages.error(request, _("Nothing was decided: draw a lot or set an order."))
    except competition_errors.CompetitionRefused as exc:
        refusal(request, exc)
    return cut_page


def csv_cell(value: object) -> str:
    """Return a value as a spreadsheet cell that is never read as a formula."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@login_required
@require_GET
def standings_csv(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The stage's latest standings as CSV: rank, team, points, games, each tie-break."""
    t, stage = stage_or_404(request, slug, pk)
    rows = list(competition_reads.standings_for_stage(stage=stage).select_related("team"))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{t.slug}-{stage.order}-standings.csv"'
    writer = csv.writer(response)
    names = [name for name, _ in rows[0].tiebreaks] if rows else list(stage.tiebreaks or [])
    writer.writerow(
        [pgettext("csv", "group"), pgettext("csv", "rank"), pgettext("csv", "team"),
         pgettext("csv", "points"), pgettext("csv", "played"), pgettext("csv", "won"),
         pgettext("csv", "drawn"), pgettext("csv", "lost"), pgettext("csv", "byes"),
         *[words.said(desk_words.TIEBREAKS, n) for n in names]]
    )  # fmt: skip
    for r in rows:
        writer.writerow(
            [r.group or "", r.rank, csv_cell(r.team.name), r.points, r.played, r.won, r.drawn,
             r.lost, r.byes, *[v for _, v in r.tiebreaks]]
        )  # fmt: skip
    return response
