"""The desk's rounds: a draft that explains itself (points and places, floats, the bye, any
rematch and why), edited, discarded and paired again, or published; pairings as CSV."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_POST

from competition import errors as competition_errors
from competition import selectors as competition_reads
from competition import services as competition
from competition.models import Fixture, Round
from competition.refusals import status_of
from tournaments.models import Tournament

from ... import desk_words, forms, words
from ..common import refusal
from ._common import back, confirm_first, refused, round_or_404
from .stages import csv_cell


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
    explained = competition_reads.draft_explained(round_=round_)
    teams = sorted(
        {
            (team.pk, team.name)
            for row in explained
            for team in (row["fixture"].team_a, row["fixture"].team_b)
            if team
        },
        key=lambda t: t[1],
    )
    # one reverse for every row's link (a reverse a row is a few milliseconds at 128 rows)
    review = reverse("web:desk-match", args=[t.slug, 1]).removesuffix("1/")
    for row in explained:
        match_id = row["fixture"].match_id
        row["review"] = f"{review}{match_id}/" if match_id else ""
    draft = round_.status == Round.Status.DRAFT
    return render(
        request,
        "web/desk_round.html",
        {
            "tournament": t,
            "round": round_,
            "stage": round_.stage,
            "fixtures": explained,
            # the edit forms only for a draft (two lists of every team are no small page)
            "swap_teams": (swap_teams or forms.SwapTeams(teams=teams)) if draft else None,
            "swap_tables": (swap_tables or forms.SwapTables()) if draft else None,
            "problems": problems or [],
            "unpublishable": competition_reads.round_unpublishable(
                round_=round_, fixtures=[row["fixture"] for row in explained]
            ),
            # a knockout's first round: the standings that decided who is in it
            "cut": desk_words.cut_rows(competition_reads.cut_explained(stage=round_.stage))
            if round_.stage.elimination and round_.number == 1
            else [],
        },
        status=status,
    )


def _round_words(round_: Round) -> str:
    """Return a round's name as a sentence begins with it: "Round 2", "Semi-finals"."""
    return capfirst(words.round_name(round_))


@login_required
@require_GET
def round_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, round_ = round_or_404(request, slug, pk)
    return _round_page(request, t, round_)


@login_required
@require_POST
def round_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, round_ = round_or_404(request, slug, pk)
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
        messages.error(request, _("Nothing was changed: say what to swap."))
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
            request, _("Not swapped: it breaks a pairing rule. Tick the box to swap anyway.")
        )
        return _round_page(
            request,
            t,
            round_,
            swap_teams=swap_teams,
            swap_tables=swap_tables,
            problems=exc.problems,
            status=status_of(exc),
        )
    except competition_errors.CompetitionRefused as exc:
        refusal(request, exc)
        return _round_page(
            request,
            t,
            round_,
            swap_teams=swap_teams,
            swap_tables=swap_tables,
            status=status_of(exc),
        )
    if problems:
        messages.success(
            request, _("Swapped. Note: %(problems)s") % {"problems": "; ".join(problems)}
        )
    else:
        messages.success(request, _("Swapped."))
    return redirect(reverse("web:desk-round", args=[slug, round_.pk]))


@login_required
@require_POST
def round_publish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    _t, round_ = round_or_404(request, slug, pk)
    if refused(request, lambda: competition.round_publish(actor=request.user, round=round_)):
        return redirect(reverse("web:desk-round", args=[slug, round_.pk]))
    messages.success(
        request,
        _("%(round)s is published: its matches are made.") % {"round": _round_words(round_)},
    )
    return back(slug, f"stage-{round_.stage_id}")


# --- review and corrections --------------------------------------------------------------


@login_required
@require_POST
def round_discard(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Discard a draft (asked first), and pair the round again if asked."""
    t, round_ = round_or_404(request, slug, pk)
    again = request.POST.get("again") == "yes"
    asked = confirm_first(
        request,
        tournament=t,
        title=(
            _("Discard the draft of %(round)s? And pair it again?")
            if again
            else _("Discard the draft of %(round)s?")
        )
        % {"round": words.round_name(round_)},
        consequences=[
            _("Its pairings, and any edit made to them, are thrown away; no match was made yet."),
            _("A new draft is paired at once, from the same standings.")
            if again
            else _("Pair the round again when you are ready."),
        ],
        fields={"again": "yes" if again else "no"},
        button=_("Discard and pair again") if again else _("Discard the draft"),
        cancel=reverse("web:desk-round", args=[slug, round_.pk]),
    )
    if asked is not None:
        return asked
    try:
        new = competition.round_discard(actor=request.user, round=round_, pair_again=again)
    except competition_errors.CompetitionRefused as exc:
        refusal(request, exc)
        return redirect(reverse("web:desk-round", args=[slug, round_.pk]))
    if new is not None:
        messages.success(
            request,
            _("The draft was discarded and %(round)s paired again.")
            % {"round": words.round_name(new)},
        )
        return redirect(reverse("web:desk-round", args=[slug, new.pk]))
    messages.success(request, _("The draft was discarded."))
    return back(slug, f"stage-{round_.stage_id}")


@login_required
@require_POST
def round_unpublish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Take a published round back to a draft (asked first), while nothing is recorded."""
    t, round_ = round_or_404(request, slug, pk)
    whole = round_.stage.elimination
    asked = confirm_first(
        request,
        tournament=t,
        title=(
            _("Unpublish the bracket of %(stage)s?") % {"stage": round_.stage.name}
            if whole
            else _("Unpublish %(round)s?") % {"round": words.round_name(round_)}
        ),
        consequences=[
            _(
                "Every match of the bracket is called off: its log says so, and nobody can "
                "record anything in it."
            )
            if whole
            else _(
                "Every match of the round is called off: its log says so, and nobody can "
                "record anything in it."
            ),
            _(
                "Its pairings become a draft again, seen only by directors, to edit or publish "
                "anew (which makes new matches)."
            )
            if whole
            else _(
                "Its pairings become a draft again, seen only by directors, to edit, discard "
                "or publish anew (which makes new matches)."
            ),
            _("Refused, with nothing changed, if anything was recorded in any of its matches."),
        ],
        button=_("Unpublish"),
        cancel=reverse("web:desk-round", args=[slug, round_.pk]),
    )
    if asked is not None:
        return asked
    if not refused(request, lambda: competition.round_unpublish(actor=request.user, round=round_)):
        messages.success(
            request,
            _("%(round)s is a draft again: its matches were called off.")
            % {"round": _round_words(round_)},
        )
    return redirect(reverse("web:desk-round", args=[slug, round_.pk]))


@login_required
@require_GET
def pairings_csv(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The round's pairings as CSV: table, each team and its players, the result."""
    t, round_ = round_or_404(request, slug, pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{t.slug}-{round_.stage.order}-round-{round_.number}.csv"'
    )
    writer = csv.writer(response)
    writer.writerow(
        [pgettext("csv", "table"), pgettext("csv", "team a"), pgettext("csv", "players a"),
         pgettext("csv", "team b"), pgettext("csv", "players b"), pgettext("csv", "result")]
    )  # fmt: skip
    fixtures = Fixture.objects.filter(round=round_).select_related(
        "team_a__first_player", "team_a__second_player",
        "team_b__first_player", "team_b__second_player",
    ).order_by("table", "key", "pk")  # fmt: skip
    for f in fixtures:
        cells: list[Any] = [f.table or f.key]
        for team, source in ((f.team_a, f.source_a), (f.team_b, f.source_b)):
            if team is None:
                bye = pgettext("csv", "bye") if f.result == "bye" else ""
                cells += [csv_cell(source or bye), ""]
            else:
                players = f"{team.first_player.name} & {team.second_player.name}"
                cells += [csv_cell(team.name), csv_cell(players)]
        cells.append(f.get_result_display() if f.result else "")
        writer.writerow(cells)
    return response
